/*
 * driver_launch_fault.cu: cuLaunchKernel is asynchronous, so a kernel that
 * fails while it runs (here a device-side assert, as in the
 * simpleAssert_nvrtc sample) lets the launch return CUDA_SUCCESS; the next
 * synchronisation returns CUDA_ERROR_ASSERT, and the context stays unusable
 * from then on. The kernel is compiled by NVRTC and loaded as a module.
 */
// CUEMU_OPTIONS: -lcuda -lnvrtc
// NVCC_OPTIONS: -lcuda -lnvrtc
#include <cstdio>

#include <cuda.h>
#include <nvrtc.h>

#include "../check.cuh"

static const char *kSource =
    "extern \"C\" __global__ void bounded(int n, int *out) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  assert(i < n);\n"
    "  out[i] = i;\n"
    "}\n";

int main() {
  CHECK(cuInit(0) == CUDA_SUCCESS);
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0) == CUDA_SUCCESS);
  CUcontext ctx;
  CHECK(cuCtxCreate(&ctx, NULL, 0, dev) == CUDA_SUCCESS);

  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, kSource, "bounded.cu", 0, NULL, NULL) ==
        NVRTC_SUCCESS);
  const char *opts[] = {"--gpu-architecture=sm_90"};
  CHECK(nvrtcCompileProgram(prog, 1, opts) == NVRTC_SUCCESS);
  size_t size = 0;
  CHECK(nvrtcGetCUBINSize(prog, &size) == NVRTC_SUCCESS);
  char *cubin = new char[size];
  CHECK(nvrtcGetCUBIN(prog, cubin) == NVRTC_SUCCESS);
  CHECK(nvrtcDestroyProgram(&prog) == NVRTC_SUCCESS);
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, cubin) == CUDA_SUCCESS);
  delete[] cubin;
  CUfunction fn;
  CHECK(cuModuleGetFunction(&fn, mod, "bounded") == CUDA_SUCCESS);

  CUdeviceptr out;
  CHECK(cuMemAlloc(&out, 64 * sizeof(int)) == CUDA_SUCCESS);

  /* Within bounds: runs and writes 0..63. */
  int n = 64;
  void *args[] = {&n, &out};
  CHECK(cuLaunchKernel(fn, 2, 1, 1, 32, 1, 1, 0, NULL, args, NULL) ==
        CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
  int host[64];
  CHECK(cuMemcpyDtoH(host, out, sizeof host) == CUDA_SUCCESS);
  int wrong = 0;
  for (int i = 0; i < 64; ++i)
    wrong += host[i] != i;
  CHECK(wrong == 0);

  /* Threads 60..63 fail their assert: the launch still succeeds. */
  n = 60;
  std::printf("The four assertion messages below are expected.\n");
  CHECK(cuLaunchKernel(fn, 2, 1, 1, 32, 1, 1, 0, NULL, args, NULL) ==
        CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_ERROR_ASSERT);
  CUdeviceptr more;
  CHECK(cuMemAlloc(&more, 16) == CUDA_ERROR_ASSERT);
  CHECK(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL) ==
        CUDA_ERROR_ASSERT);
  return finish();
}
