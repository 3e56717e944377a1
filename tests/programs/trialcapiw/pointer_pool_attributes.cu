// pointer_pool_attributes.cu: cuPointerGetAttribute answers
// CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE for any memory CUDA knows: the pool
// of a stream-ordered allocation, NULL for cuMemAlloc's (cuda-api-wrappers'
// unified_addressing example checks the NULL), with
// CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE (cudaIpcGetMemHandle's
// memory: cuMemAlloc's, not a pool's) and CU_POINTER_ATTRIBUTE_ACCESS_FLAGS
// (the current device's access: read-write for its own memory). cuemu
// refused all three with CUDA_ERROR_INVALID_VALUE.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>

#include <cstdio>
#include <cstring>

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);              \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  CUdevice dev;
  CUcontext ctx;
  CHECK(cuInit(0) == CUDA_SUCCESS);
  CHECK(cuDeviceGet(&dev, 0) == CUDA_SUCCESS);
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev) == CUDA_SUCCESS);
  CHECK(cuCtxSetCurrent(ctx) == CUDA_SUCCESS);

  CUdeviceptr plain;
  CHECK(cuMemAlloc(&plain, 123) == CUDA_SUCCESS);
  CUmemoryPool pool = reinterpret_cast<CUmemoryPool>(1);
  CHECK(cuPointerGetAttribute(&pool, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE,
                              plain) == CUDA_SUCCESS);
  CHECK(pool == nullptr);
  int ipc = -1;
  CHECK(cuPointerGetAttribute(&ipc, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE,
                              plain) == CUDA_SUCCESS);
  CHECK(ipc == 1);
  CUDA_POINTER_ATTRIBUTE_ACCESS_FLAGS access =
      CU_POINTER_ATTRIBUTE_ACCESS_FLAG_NONE;
  CHECK(cuPointerGetAttribute(&access, CU_POINTER_ATTRIBUTE_ACCESS_FLAGS,
                              plain + 17) == CUDA_SUCCESS);
  CHECK(access == CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE);

  CUmemPoolProps props;
  std::memset(&props, 0, sizeof props);
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = dev;
  CUmemoryPool own;
  CHECK(cuMemPoolCreate(&own, &props) == CUDA_SUCCESS);
  CUstream s;
  CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
  CUdeviceptr pooled, defaulted;
  CHECK(cuMemAllocFromPoolAsync(&pooled, 4096, own, s) == CUDA_SUCCESS);
  CHECK(cuMemAllocAsync(&defaulted, 256, s) == CUDA_SUCCESS);
  CHECK(cuPointerGetAttribute(&pool, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE,
                              pooled) == CUDA_SUCCESS);
  CHECK(pool == own);
  CUmemoryPool device_pool = nullptr;
  CHECK(cuDeviceGetMemPool(&device_pool, dev) == CUDA_SUCCESS);
  CHECK(cuPointerGetAttribute(&pool, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE,
                              defaulted) == CUDA_SUCCESS);
  CHECK(pool == device_pool);
  CHECK(cuPointerGetAttribute(&ipc, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE,
                              pooled) == CUDA_SUCCESS);
  CHECK(ipc == 0);

  // All at once, as cuPointerGetAttributes gives them.
  CUpointer_attribute which[2] = {CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE,
                                  CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
  CUmemoryPool got = nullptr;
  int ordinal = -1;
  void *out[2] = {&got, &ordinal};
  CHECK(cuPointerGetAttributes(2, which, out, pooled) == CUDA_SUCCESS);
  CHECK(got == own && ordinal == 0);

  CHECK(cuMemFreeAsync(pooled, s) == CUDA_SUCCESS);
  CHECK(cuMemFreeAsync(defaulted, s) == CUDA_SUCCESS);
  CHECK(cuStreamSynchronize(s) == CUDA_SUCCESS);
  CHECK(cuMemPoolDestroy(own) == CUDA_SUCCESS);
  CHECK(cuStreamDestroy(s) == CUDA_SUCCESS);
  CHECK(cuMemFree(plain) == CUDA_SUCCESS);
  CHECK(cuDevicePrimaryCtxRelease(dev) == CUDA_SUCCESS);
  std::printf("PASS\n");
  return 0;
}
