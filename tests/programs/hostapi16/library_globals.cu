/*
 * library_globals.cu: a context-independent library's __device__ and
 * __constant__ variables are per context, as on CUDA: each device that
 * uses the library gets its own copy, initialised from the image, which
 * cudaLibraryGetGlobal (current device) and cuLibraryGetGlobal (current
 * context) give, and which the library's kernels use when they run on that
 * device (launched through cudaLaunchKernel, or as cuKernelGetFunction's
 * CUfunction or the CUkernel itself through cuLaunchKernel). Two devices
 * (CUEMU_DEVICE=count=2); on a GPU machine, as many as there are, up to
 * two. Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "../check.cuh"

namespace {

const char *source = R"(
__device__ int counter = 5;
__constant__ int base = 100;
extern "C" __global__ void bump(int *out) {
  counter += 1;
  *out = counter + base;
}
)";

std::string compile() {
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, source, "lib.cu", 0, nullptr, nullptr) ==
        NVRTC_SUCCESS);
  const char *opts[] = {"-arch=compute_90"};
  CHECK(nvrtcCompileProgram(prog, 1, opts) == NVRTC_SUCCESS);
  size_t n = 0;
  CHECK(nvrtcGetPTXSize(prog, &n) == NVRTC_SUCCESS);
  std::string ptx(n, '\0');
  CHECK(nvrtcGetPTX(prog, &ptx[0]) == NVRTC_SUCCESS);
  nvrtcDestroyProgram(&prog);
  return ptx;
}

void runtime_library(const std::string &image, int devices) {
  CHECK(cudaSetDevice(0) == cudaSuccess);
  cudaLibrary_t lib;
  CHECK(cudaLibraryLoadData(&lib, image.c_str(), nullptr, nullptr, 0, nullptr,
                            nullptr, 0) == cudaSuccess);
  cudaKernel_t bump;
  CHECK(cudaLibraryGetKernel(&bump, lib, "bump") == cudaSuccess);
  void *where[2] = {nullptr, nullptr};
  for (int d = 0; d < devices; ++d) {
    CHECK(cudaSetDevice(d) == cudaSuccess);
    size_t size = 0;
    CHECK(cudaLibraryGetGlobal(&where[d], &size, lib, "counter") ==
          cudaSuccess);
    CHECK(size == sizeof(int));
    int value = -1;
    CHECK(cudaMemcpy(&value, where[d], sizeof value,
                     cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(value == 5); // the image's value, whatever the other device did
    value = 10 * (d + 1);
    CHECK(cudaMemcpy(where[d], &value, sizeof value,
                     cudaMemcpyHostToDevice) == cudaSuccess);
    int *out;
    CHECK(cudaMalloc(&out, sizeof(int)) == cudaSuccess);
    void *args[] = {&out};
    CHECK(cudaLaunchKernel((const void *)bump, dim3(1), dim3(1), args, 0,
                           0) == cudaSuccess);
    int got = 0;
    CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost) ==
          cudaSuccess);
    CHECK(got == 10 * (d + 1) + 1 + 100);
    cudaFree(out);
  }
  if (devices > 1)
    CHECK(where[0] != where[1]);
  // Each device kept its own count.
  for (int d = 0; d < devices; ++d) {
    CHECK(cudaSetDevice(d) == cudaSuccess);
    void *p = nullptr;
    CHECK(cudaLibraryGetGlobal(&p, nullptr, lib, "counter") == cudaSuccess);
    CHECK(p == where[d]);
    int value = -1;
    CHECK(cudaMemcpy(&value, p, sizeof value, cudaMemcpyDeviceToHost) ==
          cudaSuccess);
    CHECK(value == 10 * (d + 1) + 1);
  }
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaLibraryUnload(lib) == cudaSuccess);
}

void driver_library(const std::string &image, int devices) {
  CUlibrary lib;
  CHECK(cuLibraryLoadData(&lib, image.c_str(), nullptr, nullptr, 0, nullptr,
                          nullptr, 0) == CUDA_SUCCESS);
  CUkernel bump;
  CHECK(cuLibraryGetKernel(&bump, lib, "bump") == CUDA_SUCCESS);
  CUcontext ctx[2] = {nullptr, nullptr};
  for (int d = 0; d < devices; ++d) {
    CUdevice dev;
    CHECK(cuDeviceGet(&dev, d) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxRetain(&ctx[d], dev) == CUDA_SUCCESS);
    CHECK(cuCtxSetCurrent(ctx[d]) == CUDA_SUCCESS);
    CUdeviceptr g = 0;
    size_t size = 0;
    CHECK(cuLibraryGetGlobal(&g, &size, lib, "counter") == CUDA_SUCCESS);
    int value = -1;
    CHECK(cuMemcpyDtoH(&value, g, sizeof value) == CUDA_SUCCESS);
    CHECK(value == 5);
    CUdeviceptr out;
    CHECK(cuMemAlloc(&out, sizeof(int)) == CUDA_SUCCESS);
    void *args[] = {&out};
    // Once as the context's CUfunction, once as the CUkernel itself.
    CUfunction f;
    CHECK(cuKernelGetFunction(&f, bump) == CUDA_SUCCESS);
    CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, args, nullptr) ==
          CUDA_SUCCESS);
    CHECK(cuLaunchKernel((CUfunction)bump, 1, 1, 1, 1, 1, 1, 0, 0, args,
                         nullptr) == CUDA_SUCCESS);
    int got = 0;
    CHECK(cuMemcpyDtoH(&got, out, sizeof got) == CUDA_SUCCESS);
    CHECK(got == 5 + 2 + 100);
    CHECK(cuMemcpyDtoH(&value, g, sizeof value) == CUDA_SUCCESS);
    CHECK(value == 7);
    cuMemFree(out);
  }
  for (int d = 0; d < devices; ++d) {
    CUdevice dev;
    CHECK(cuDeviceGet(&dev, d) == CUDA_SUCCESS);
    cuDevicePrimaryCtxRelease(dev);
  }
  CHECK(cuLibraryUnload(lib) == CUDA_SUCCESS);
}

} // namespace

int main() {
  setenv("CUEMU_DEVICE", "count=2", 1); // before the first CUDA call
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1) {
    std::printf("no device\n");
    return 1;
  }
  if (devices > 2)
    devices = 2;
  CHECK(cuInit(0) == CUDA_SUCCESS);
  std::string image = compile();
  runtime_library(image, devices);
  driver_library(image, devices);
  return finish();
}
