// nvrtc_pragma_once_quiet.cu: an NVRTC program whose source starts with
// `#pragma once` (jitify's examples and cuda-api-wrappers' are written as
// headers) compiles with an empty log, as with NVIDIA's NVRTC, which
// says nothing of it; cuemu's log had the host compiler's "warning:
// #pragma once in main file". A header's own `#pragma once` still keeps it
// from being read twice.
// CUEMU_OPTIONS: -lnvrtc
// NVCC_OPTIONS: -lnvrtc
#include <nvrtc.h>

#include <cstdio>
#include <string>

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);              \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static const char *source = "#pragma once\n"
                            "#include \"twice.cuh\"\n"
                            "#include \"twice.cuh\"\n"
                            "__constant__ int a;\n"
                            "__global__ void k(int *x) { x[0] = a + one(); }\n";
static const char *header = "#pragma once\n"
                            "__device__ int one() { return 1; }\n";

int main() {
  nvrtcProgram p;
  const char *names[] = {"twice.cuh"};
  CHECK(nvrtcCreateProgram(&p, source, "const_program", 1, &header, names) ==
        NVRTC_SUCCESS);
  const char *opts[] = {"--gpu-architecture=compute_90"};
  nvrtcResult r = nvrtcCompileProgram(p, 1, opts);
  size_t size = 0;
  CHECK(nvrtcGetProgramLogSize(p, &size) == NVRTC_SUCCESS);
  std::string log(size, '\0');
  CHECK(nvrtcGetProgramLog(p, &log[0]) == NVRTC_SUCCESS);
  std::printf("log: [%s]\n", log.c_str());
  CHECK(r == NVRTC_SUCCESS);
  CHECK(size == 1);
  CHECK(nvrtcDestroyProgram(&p) == NVRTC_SUCCESS);
  std::printf("PASS\n");
  return 0;
}
