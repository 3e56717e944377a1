// driver_calls.cu: a program of the driver API (a context, memory, a
// kernel of its own found by cudaGetKernel and launched with
// cuLaunchKernel), which links only with the driver library (-lcuda), as
// with nvcc (tests/driver_libcuda_link.sh).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>

__global__ void fill(int *out, int value) { out[threadIdx.x] = value; }

#define CHECK(call)                                                            \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      std::printf("FAIL: %s: %d\n", #call, static_cast<int>(r_));            \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  CUdevice device;
  CUcontext context;
  CUdeviceptr out;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&device, 0));
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));
  CHECK(cuMemAlloc(&out, 32 * sizeof(int)));
  cudaKernel_t kernel;
  if (cudaGetKernel(&kernel, fill) != cudaSuccess) {
    std::printf("FAIL: cudaGetKernel\n");
    return 1;
  }
  int value = 7;
  void *params[] = {&out, &value};
  CHECK(cuLaunchKernel(reinterpret_cast<CUfunction>(kernel), 1, 1, 1, 32, 1,
                       1, 0, nullptr, params, nullptr));
  int host[32] = {};
  CHECK(cuMemcpyDtoH(host, out, sizeof host));
  for (int i = 0; i < 32; ++i)
    if (host[i] != 7) {
      std::printf("FAIL: element %d is %d\n", i, host[i]);
      return 1;
    }
  CHECK(cuMemFree(out));
  CHECK(cuDevicePrimaryCtxRelease(device));
  std::printf("PASS\n");
  return 0;
}
