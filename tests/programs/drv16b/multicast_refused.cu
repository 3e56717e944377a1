/*
 * multicast_refused.cu: a program of several GPUs that asks whether the
 * device supports NVLink multicast and dma-buf export, and calls the
 * calls only then, as NCCL-style code does, compiles and runs: no
 * emulated device supports either (both attributes 0), and the calls,
 * made anyway, are refused with CUDA_ERROR_NOT_SUPPORTED (a NULL output
 * with CUDA_ERROR_INVALID_VALUE), as CUDA refuses them on such a device.
 * Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

int main() {
  CUmulticastObjectProp prop = {};
  prop.numDevices = 1;
  prop.size = 2 << 20;
  prop.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  size_t granularity = 0;
  CHECK(cuMulticastGetGranularity(&granularity, &prop,
                                  CU_MULTICAST_GRANULARITY_MINIMUM) ==
        CUDA_ERROR_NOT_INITIALIZED);
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  int multicast = -1, dma_buf = -1;
  CU(cuDeviceGetAttribute(&multicast, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED,
                          dev));
  CU(cuDeviceGetAttribute(&dma_buf, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, dev));
  if (!multicast) {
    CHECK(cuMulticastGetGranularity(&granularity, &prop,
                                    CU_MULTICAST_GRANULARITY_RECOMMENDED) ==
          CUDA_ERROR_NOT_SUPPORTED);
    CUmemGenericAllocationHandle mc = 0;
    CHECK(cuMulticastCreate(&mc, &prop) == CUDA_ERROR_NOT_SUPPORTED);
    CHECK(cuMulticastCreate(nullptr, &prop) == CUDA_ERROR_INVALID_VALUE);
  }
  if (!dma_buf) {
    CUdeviceptr d;
    CU(cuMemAlloc(&d, 1 << 16));
    int fd = -1;
    CHECK(cuMemGetHandleForAddressRange(&fd, d, 1 << 16,
                                        CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD,
                                        0) == CUDA_ERROR_NOT_SUPPORTED);
    CU(cuMemFree(d));
  }
  CU(cuCtxSetCurrent(nullptr));
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
