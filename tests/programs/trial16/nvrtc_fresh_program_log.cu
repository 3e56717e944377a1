/*
 * nvrtc_fresh_program_log.cu: a successful NVRTC compile leaves an empty
 * log (size 1, the terminating NUL), as NVIDIA's NVRTC does for code
 * without warnings, which programs that print any log they get rely on.
 * Each program here is new (its source names this process and a counter),
 * with headers passed as strings, so that its compile writes the program's
 * files just before it starts: the compile cache then found those files
 * "changed during the build" (same coarse-clock tick) and the log held
 * cuemu's note that the module was not stored. Compiling the same program
 * again must also leave an empty log. Needs NVRTC only.
 */
// CUEMU_OPTIONS: -lnvrtc
// NVCC_OPTIONS: -lnvrtc
#include <nvrtc.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "../check.cuh"

#define NVRTC(call) CHECK((call) == NVRTC_SUCCESS)

namespace {

// Compiles `prog` and returns its log.
std::string compile_log(nvrtcProgram prog) {
  const char *opts[] = {"-arch=sm_90", "--std=c++17", "-DSCALE=2"};
  NVRTC(nvrtcCompileProgram(prog, 3, opts));
  size_t size = 0;
  NVRTC(nvrtcGetProgramLogSize(prog, &size));
  std::string log(size, '\0');
  NVRTC(nvrtcGetProgramLog(prog, &log[0]));
  log.resize(size ? size - 1 : 0);
  return log;
}

}  // namespace

int main() {
  const char *names[] = {"config.h", "detail/ops.cuh"};
  const char *texts[] = {"#pragma once\n#define BINS 8\n",
                         "#pragma once\n#include \"config.h\"\n"
                         "template <typename T> __device__ T twice(T v) "
                         "{ return v * T(SCALE); }\n"};
  for (int round = 0; round < 4; ++round) {
    char source[512];
    std::snprintf(source, sizeof source,
                  "// program %ld.%d\n#include \"detail/ops.cuh\"\n"
                  "extern \"C\" __global__ void k(float *p) "
                  "{ p[threadIdx.x %% BINS] = twice(p[0]); }\n",
                  (long)getpid(), round);
    nvrtcProgram prog;
    NVRTC(nvrtcCreateProgram(&prog, source, "fresh.cu", 2, texts, names));
    std::string first = compile_log(prog);
    if (!first.empty())
      std::printf("round %d, first compile's log: %s\n", round, first.c_str());
    CHECK(first.empty());
    std::string again = compile_log(prog);
    if (!again.empty())
      std::printf("round %d, second compile's log: %s\n", round, again.c_str());
    CHECK(again.empty());
    NVRTC(nvrtcDestroyProgram(&prog));
  }
  return finish();
}
