/*
 * driver_helper_guards.cu: host code in the style of the samples' driver-API
 * and NVRTC helpers (helper_cuda_drvapi.h, nvrtc_helper.h), which define
 * their checkCudaErrors for CUresult only under #ifdef __cuda_cuda_h__ and
 * test __CUDA_RUNTIME_API_H__ and __NVRTC_H__ likewise: CUDA's headers
 * define these include guards, so without them such a program does not
 * compile. It then runs a driver-API launch of a kernel compiled by NVRTC
 * through those checks. Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lcuda -lnvrtc
// NVCC_OPTIONS: -lcuda -lnvrtc
#include <cstdio>
#include <cstdlib>

#include <cuda.h>
#include <nvrtc.h>

#include "../check.cuh"

#ifdef __cuda_cuda_h__
/* Reports a failed driver call by its CUDA error string and exits. */
inline void check_driver(CUresult err, const char *file, int line) {
  if (err != CUDA_SUCCESS) {
    const char *text = NULL;
    cuGetErrorString(err, &text);
    std::fprintf(stderr, "Driver API error %04d \"%s\" at %s:%d\n", err, text,
                 file, line);
    std::exit(EXIT_FAILURE);
  }
}
#define checkDrv(err) check_driver(err, __FILE__, __LINE__)
#endif

#ifdef __NVRTC_H__
/* Reports a failed NVRTC call by its error string and exits. */
#define checkNvrtc(x)                                                         \
  do {                                                                        \
    nvrtcResult r_ = (x);                                                     \
    if (r_ != NVRTC_SUCCESS) {                                                \
      std::fprintf(stderr, "NVRTC error %s at %s:%d\n",                       \
                   nvrtcGetErrorString(r_), __FILE__, __LINE__);              \
      std::exit(EXIT_FAILURE);                                                \
    }                                                                         \
  } while (0)
#endif

/* cuda.h brings the runtime API here and on CUDA alike (cuda_runtime_api.h
 * is included by whoever uses both); the samples test its guard to decide
 * whether to declare their runtime-API checks. */
#include <cuda_runtime_api.h>
#ifndef __CUDA_RUNTIME_API_H__
#error "cuda_runtime_api.h does not define __CUDA_RUNTIME_API_H__"
#endif

static const char *kSource =
    "extern \"C\" __global__ void scale(float *v, float f, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) v[i] = v[i] * f + i;\n"
    "}\n";

int main() {
  checkDrv(cuInit(0));
  CUdevice dev;
  checkDrv(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  checkDrv(cuCtxCreate(&ctx, NULL, 0, dev));

  nvrtcProgram prog;
  checkNvrtc(nvrtcCreateProgram(&prog, kSource, "scale.cu", 0, NULL, NULL));
  const char *opts[] = {"--gpu-architecture=sm_90"};
  checkNvrtc(nvrtcCompileProgram(prog, 1, opts));
  size_t size = 0;
  checkNvrtc(nvrtcGetCUBINSize(prog, &size));
  char *cubin = new char[size];
  checkNvrtc(nvrtcGetCUBIN(prog, cubin));
  checkNvrtc(nvrtcDestroyProgram(&prog));

  CUmodule mod;
  checkDrv(cuModuleLoadData(&mod, cubin));
  delete[] cubin;
  CUfunction fn;
  checkDrv(cuModuleGetFunction(&fn, mod, "scale"));

  const int n = 1000;
  float host[n];
  for (int i = 0; i < n; ++i)
    host[i] = 0.5f * i;
  CUdeviceptr d;
  checkDrv(cuMemAlloc(&d, sizeof host));
  checkDrv(cuMemcpyHtoD(d, host, sizeof host));
  float f = 4.0f;
  int count = n;
  void *args[] = {&d, &f, &count};
  checkDrv(cuLaunchKernel(fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args,
                          NULL));
  checkDrv(cuCtxSynchronize());
  checkDrv(cuMemcpyDtoH(host, d, sizeof host));
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += host[i] != 0.5f * i * 4.0f + i;
  CHECK(wrong == 0);
  checkDrv(cuMemFree(d));
  checkDrv(cuModuleUnload(mod));
  checkDrv(cuCtxDestroy(ctx));
  return finish();
}
