/*
 * nvrtc_log_format.cu: the form of NVRTC's compile log, which programs
 * show and parse: each error is "NAME(LINE): error: TEXT", then the
 * source line and a caret under the place, each indented by two spaces
 * (a tab of the source kept, so that the caret lines up), then a blank
 * line; the last line counts the errors ("2 errors detected in the
 * compilation of "NAME"."); an include that cannot be found is a
 * catastrophic error naming the header, and ends the compilation. The
 * text of each message is the compiler's own, so only the words that
 * name the identifier are checked. Needs NVRTC only (no device): it runs
 * the same against NVIDIA's libnvrtc. Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lnvrtc
// NVCC_OPTIONS: -lnvrtc
#include <nvrtc.h>

#include <string>

#include "../check.cuh"

#define NVRTC(call) CHECK((call) == NVRTC_SUCCESS)

namespace {

// The log of compiling `source` as `name`, which must fail.
std::string failed_log(const char *source, const char *name) {
  nvrtcProgram prog;
  NVRTC(nvrtcCreateProgram(&prog, source, name, 0, nullptr, nullptr));
  CHECK(nvrtcCompileProgram(prog, 0, nullptr) == NVRTC_ERROR_COMPILATION);
  size_t size = 0;
  NVRTC(nvrtcGetProgramLogSize(prog, &size));
  std::string log(size, '\0');
  NVRTC(nvrtcGetProgramLog(prog, &log[0]));
  log.resize(size ? size - 1 : 0);
  NVRTC(nvrtcDestroyProgram(&prog));
  return log;
}

// The line of `log` that starts at `at`, and moves `at` past it.
std::string next_line(const std::string &log, size_t &at) {
  size_t end = log.find('\n', at);
  if (end == std::string::npos)
    end = log.size();
  std::string line = log.substr(at, end - at);
  at = end < log.size() ? end + 1 : end;
  return line;
}

// Checks that `log`, from `at`, has an error at `place` ("k.cu(3)") whose
// text names `what`, then `source` indented by two spaces, then `caret`
// (the caret line, indent included), then a blank line.
void check_error(const std::string &log, size_t &at, const std::string &place,
                 const std::string &what, const std::string &source,
                 const std::string &caret) {
  std::string head = next_line(log, at);
  CHECK(head.rfind(place + ": error: ", 0) == 0);
  CHECK(head.find(what) != std::string::npos);
  CHECK(next_line(log, at) == "  " + source);
  CHECK(next_line(log, at) == caret);
  CHECK(next_line(log, at).empty());
}

void two_errors() {
  const char *source = "__global__ void k(float *a) {\n"
                       "  int i = threadIdx.x;\n"
                       "  a[i] = missing_value + 1;\n"
                       "\tmissing_function(a);\n"
                       "}\n";
  std::string log = failed_log(source, "jit/two.cu");
  size_t at = 0;
  check_error(log, at, "jit/two.cu(3)", "missing_value",
              "  a[i] = missing_value + 1;", std::string(2 + 9, ' ') + "^");
  check_error(log, at, "jit/two.cu(4)", "missing_function",
              "\tmissing_function(a);", "  \t^");
  CHECK(next_line(log, at) ==
        "2 errors detected in the compilation of \"jit/two.cu\".");
  CHECK(at == log.size());
  if (check_failures)
    std::fprintf(stderr, "the log:\n%s", log.c_str());
}

void one_error() {
  std::string log = failed_log(
      "__global__ void k(int *p) { p[0] = nowhere; }\n", "one.cu");
  size_t at = 0;
  check_error(log, at, "one.cu(1)", "nowhere",
              "__global__ void k(int *p) { p[0] = nowhere; }",
              std::string(2 + 35, ' ') + "^");
  CHECK(next_line(log, at) ==
        "1 error detected in the compilation of \"one.cu\".");
  if (check_failures)
    std::fprintf(stderr, "the log:\n%s", log.c_str());
}

void missing_header() {
  std::string log = failed_log(
      "#include \"not_there.cuh\"\n__global__ void k() {}\n", "inc.cu");
  size_t at = 0;
  CHECK(next_line(log, at) ==
        "inc.cu(1): catastrophic error: cannot open source file "
        "\"not_there.cuh\"");
  CHECK(next_line(log, at) == "  #include \"not_there.cuh\"");
  std::string caret = next_line(log, at);
  CHECK(caret.size() > 2 && caret.back() == '^' &&
        caret.find_first_not_of(' ') == caret.size() - 1);
  CHECK(next_line(log, at).empty());
  CHECK(next_line(log, at) ==
        "1 catastrophic error detected in the compilation of \"inc.cu\".");
  CHECK(next_line(log, at) == "Compilation terminated.");
  if (check_failures)
    std::fprintf(stderr, "the log:\n%s", log.c_str());
}

} // namespace

int main() {
  two_errors();
  one_error();
  missing_header();
  return finish();
}
