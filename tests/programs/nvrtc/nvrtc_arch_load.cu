/*
 * nvrtc_arch_load.cu: a module that NVRTC compiled for an architecture
 * loads only on a device that can run it, as a GPU's driver decides: PTX
 * of -arch=compute_80 loads on the (default, compute capability 9.0)
 * device and its kernel runs; PTX of compute_100 is refused as the
 * driver's JIT refuses PTX whose .target is newer than the device
 * (CUDA_ERROR_INVALID_PTX), and the cubin of sm_100 as a binary for
 * another GPU (CUDA_ERROR_NO_BINARY_FOR_GPU). Prints PASS when all is
 * well.
 */
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>

#include <vector>

#include "../check.cuh"

namespace {

const char *source = R"(
extern "C" __global__ void add_one(int *x) { x[threadIdx.x] += 1; }
)";

// The image NVRTC makes of `source` with -arch=`arch`: its CUBIN for a
// real architecture, else its PTX.
std::vector<char> compile(const char *arch, bool cubin) {
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, source, "add_one.cu", 0, nullptr,
                           nullptr) == NVRTC_SUCCESS);
  const char *options[] = {arch};
  CHECK(nvrtcCompileProgram(prog, 1, options) == NVRTC_SUCCESS);
  size_t size = 0;
  std::vector<char> image;
  if (cubin) {
    CHECK(nvrtcGetCUBINSize(prog, &size) == NVRTC_SUCCESS);
    image.resize(size);
    CHECK(nvrtcGetCUBIN(prog, image.data()) == NVRTC_SUCCESS);
  } else {
    CHECK(nvrtcGetPTXSize(prog, &size) == NVRTC_SUCCESS);
    image.resize(size);
    CHECK(nvrtcGetPTX(prog, image.data()) == NVRTC_SUCCESS);
  }
  CHECK(nvrtcDestroyProgram(&prog) == NVRTC_SUCCESS);
  return image;
}

} // namespace

int main() {
  CHECK(cuInit(0) == CUDA_SUCCESS);
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0) == CUDA_SUCCESS);
  int major = 0;
  CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                             dev) == CUDA_SUCCESS);
  CHECK(major == 9);
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev) == CUDA_SUCCESS);
  CHECK(cuCtxSetCurrent(ctx) == CUDA_SUCCESS);

  // PTX of an older architecture: loads, and its kernel runs.
  std::vector<char> ptx80 = compile("-arch=compute_80", false);
  CUmodule module;
  CHECK(cuModuleLoadData(&module, ptx80.data()) == CUDA_SUCCESS);
  CUfunction add_one;
  CHECK(cuModuleGetFunction(&add_one, module, "add_one") == CUDA_SUCCESS);
  CUdeviceptr d;
  int h[4] = {1, 2, 3, 4};
  CHECK(cuMemAlloc(&d, sizeof h) == CUDA_SUCCESS);
  CHECK(cuMemcpyHtoD(d, h, sizeof h) == CUDA_SUCCESS);
  void *args[] = {&d};
  CHECK(cuLaunchKernel(add_one, 1, 1, 1, 4, 1, 1, 0, nullptr, args,
                       nullptr) == CUDA_SUCCESS);
  CHECK(cuMemcpyDtoH(h, d, sizeof h) == CUDA_SUCCESS);
  CHECK(h[0] == 2 && h[3] == 5);
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);

  // PTX of a newer architecture: the JIT refuses it.
  std::vector<char> ptx100 = compile("-arch=compute_100", false);
  CHECK(cuModuleLoadData(&module, ptx100.data()) == CUDA_ERROR_INVALID_PTX);

  // A cubin of another GPU: no binary for this one.
  std::vector<char> cubin100 = compile("-arch=sm_100", true);
  CHECK(cuModuleLoadData(&module, cubin100.data()) ==
        CUDA_ERROR_NO_BINARY_FOR_GPU);

  CHECK(cuMemFree(d) == CUDA_SUCCESS);
  CHECK(cuDevicePrimaryCtxRelease(dev) == CUDA_SUCCESS);
  return finish();
}
