// drv_check.h: driver API and NVRTC error checks for the JIT samples.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <nvrtc.h>

#define checkCuErrors(call)                                                    \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *n_ = nullptr;                                                \
      cuGetErrorName(r_, &n_);                                                 \
      fprintf(stderr, "%s:%d: %s failed: %d %s\n", __FILE__, __LINE__, #call,  \
              (int)r_, n_ ? n_ : "?");                                         \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

#define checkNvrtc(call)                                                       \
  do {                                                                         \
    nvrtcResult r_ = (call);                                                   \
    if (r_ != NVRTC_SUCCESS) {                                                 \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,     \
              nvrtcGetErrorString(r_));                                        \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

// Compiles src with NVRTC for the current device's architecture; returns the
// CUBIN (cubin=true) or PTX, and the log on failure.
static inline char *jit_compile(nvrtcProgram prog, const char **extra,
                                int nextra, bool cubin, size_t *size) {
  CUdevice dev;
  int major = 0, minor = 0;
  checkCuErrors(cuCtxGetDevice(&dev));
  checkCuErrors(cuDeviceGetAttribute(
      &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  checkCuErrors(cuDeviceGetAttribute(
      &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  char arch[32];
  snprintf(arch, sizeof arch, "--gpu-architecture=%s_%d%d",
           cubin ? "sm" : "compute", major, minor);
  const char *opts[16];
  int n = 0;
  opts[n++] = arch;
  for (int i = 0; i < nextra && n < 16; ++i) opts[n++] = extra[i];
  nvrtcResult res = nvrtcCompileProgram(prog, n, opts);
  size_t logSize = 0;
  nvrtcGetProgramLogSize(prog, &logSize);
  if (res != NVRTC_SUCCESS) {
    char *log = (char *)malloc(logSize + 1);
    nvrtcGetProgramLog(prog, log);
    fprintf(stderr, "NVRTC log:\n%s\n", log);
    free(log);
    exit(EXIT_FAILURE);
  }
  char *out;
  if (cubin) {
    checkNvrtc(nvrtcGetCUBINSize(prog, size));
    out = (char *)malloc(*size);
    checkNvrtc(nvrtcGetCUBIN(prog, out));
  } else {
    checkNvrtc(nvrtcGetPTXSize(prog, size));
    out = (char *)malloc(*size);
    checkNvrtc(nvrtcGetPTX(prog, out));
  }
  return out;
}
