// nvrtc_program_headers.cu: a program's own headers under standard names,
// and options whose meaning cuemu once dropped. NVRTC searches the headers
// given to nvrtcCreateProgram before any include path, so a program's
// "vector" or "complex.h" is the one it includes; cuemu once left out
// every header with a standard name, without a word in the log. NVRTC's
// --device-int128 and --device-float128 define __CUDACC_RTC_INT128__ and
// __CUDACC_RTC_FLOAT128__ (CCCL tests the first); --device-w (-dw) is
// --relocatable-device-code=false; --pre-include takes its value in the
// next option as -include does.
// CUEMU_OPTIONS: -lnvrtc
// NVCC_OPTIONS: -lnvrtc
#include <nvrtc.h>

#include <string>
#include <vector>

#include "../check.cuh"

// Compiles `src` with `headers` (name, text pairs) and `options`; returns
// the result and sets *log.
static nvrtcResult compile(const char *src,
                           const std::vector<const char *> &names,
                           const std::vector<const char *> &texts,
                           const std::vector<const char *> &options,
                           std::string *log, size_t *lto_size = nullptr) {
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, src, "headers.cu", (int)names.size(),
                         texts.data(), names.data()) != NVRTC_SUCCESS)
    return NVRTC_ERROR_PROGRAM_CREATION_FAILURE;
  nvrtcResult r =
      nvrtcCompileProgram(prog, (int)options.size(), options.data());
  size_t size = 0;
  nvrtcGetProgramLogSize(prog, &size);
  log->assign(size, '\0');
  nvrtcGetProgramLog(prog, &(*log)[0]);
  if (lto_size && r == NVRTC_SUCCESS &&
      nvrtcGetLTOIRSize(prog, lto_size) != NVRTC_SUCCESS)
    *lto_size = 0;
  nvrtcDestroyProgram(&prog);
  return r;
}

static const char *kVector = "#pragma once\nstruct my_vec { int x; };\n";
static const char *kComplex =
    "#pragma once\nstruct my_complex { float re, im; };\n";
static const char *kPre = "#pragma once\n#define PRE_SCALE 3\n";

static const char *kUses = R"(
#include <vector>
#include "vector"
#include "complex.h"
#if PRE_SCALE != 3
#error the pre-included header is missing
#endif
__global__ void k(my_vec *v, my_complex *c) {
  v[threadIdx.x].x = PRE_SCALE * c[threadIdx.x].im;
}
)";

static const char *kWide = R"(
#if !defined(__CUDACC_RTC_INT128__) || !defined(__CUDACC_RTC_FLOAT128__)
#error the 128-bit macros are not defined
#endif
__global__ void k(unsigned long long *out) { out[threadIdx.x] = 1; }
)";

int main() {
  std::string log;
  // The program's headers, by both forms of #include; --pre-include with
  // its value in the next option.
  nvrtcResult r = compile(kUses, {"vector", "complex.h", "pre.h"},
                          {kVector, kComplex, kPre},
                          {"--pre-include", "pre.h", "-std=c++17"}, &log);
  if (r != NVRTC_SUCCESS)
    std::fprintf(stderr, "%s\n", log.c_str());
  CHECK(r == NVRTC_SUCCESS);

  // The 128-bit options define NVRTC's macros; without them, no macro.
  r = compile(kWide, {}, {}, {"--device-int128", "--device-float128"}, &log);
  CHECK(r == NVRTC_SUCCESS);
  r = compile(kWide, {}, {}, {"-device-int128"}, &log);
  CHECK(r == NVRTC_ERROR_COMPILATION);

  // -dw after -dlto: whole-program code, and so no LTO IR.
  size_t lto = 0;
  r = compile(kWide, {}, {}, {"-dlto", "--device-int128",
                              "--device-float128"}, &log, &lto);
  CHECK(r == NVRTC_SUCCESS && lto > 0);
  lto = 1;
  r = compile(kWide, {}, {}, {"-dlto", "--device-int128", "--device-float128",
                              "-dw"}, &log, &lto);
  CHECK(r == NVRTC_SUCCESS && lto == 0);
  return finish();
}
