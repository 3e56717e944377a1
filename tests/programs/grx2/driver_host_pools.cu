// driver_host_pools.cu: the driver API's side of host and managed memory
// pools: cuMemPoolCreate of a pool of host memory, CUDA 13's
// cuMemGetDefaultMemPool / cuMemGetMemPool / cuMemSetMemPool with a host
// location and with managed memory, and cuMemAllocFromPoolAsync from them
// (memory the host then uses directly). cuemu once refused the pool
// (CUDA_ERROR_NOT_SUPPORTED) and had no cuMem*MemPool calls.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstring>

#include "../check.cuh"

int main() {
  CHECK(cuInit(0) == CUDA_SUCCESS);
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0) == CUDA_SUCCESS);
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev) == CUDA_SUCCESS);
  CHECK(cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
  CUstream s;
  CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);

  CUmemPoolProps props;
  std::memset(&props, 0, sizeof props);
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.location.type = CU_MEM_LOCATION_TYPE_HOST;
  CUmemoryPool pool;
  CHECK(cuMemPoolCreate(&pool, &props) == CUDA_SUCCESS);
  CUmemLocation host;
  std::memset(&host, 0, sizeof host);
  host.type = CU_MEM_LOCATION_TYPE_HOST;
  CUmemoryPool def = nullptr, cur = nullptr;
  CHECK(cuMemGetDefaultMemPool(&def, &host, CU_MEM_ALLOCATION_TYPE_PINNED) ==
        CUDA_SUCCESS);
  CHECK(def != nullptr && def != pool);
  CHECK(cuMemSetMemPool(&host, CU_MEM_ALLOCATION_TYPE_PINNED, pool) ==
        CUDA_SUCCESS);
  CHECK(cuMemGetMemPool(&cur, &host, CU_MEM_ALLOCATION_TYPE_PINNED) ==
        CUDA_SUCCESS);
  CHECK(cur == pool);

  CUdeviceptr p = 0;
  CHECK(cuMemAllocFromPoolAsync(&p, 4096, pool, s) == CUDA_SUCCESS);
  CHECK(cuStreamSynchronize(s) == CUDA_SUCCESS);
  int *h = reinterpret_cast<int *>(p);
  for (int i = 0; i < 1024; ++i)
    h[i] = i;
  CUdeviceptr d = 0;
  CHECK(cuMemAlloc(&d, 4096) == CUDA_SUCCESS);
  CHECK(cuMemcpyAsync(d, p, 4096, s) == CUDA_SUCCESS);
  int back[1024];
  CHECK(cuMemcpyDtoHAsync(back, d, sizeof back, s) == CUDA_SUCCESS);
  CHECK(cuMemFreeAsync(p, s) == CUDA_SUCCESS);
  CHECK(cuStreamSynchronize(s) == CUDA_SUCCESS);
  CHECK(back[0] == 0 && back[1023] == 1023);

  CUmemLocation none;
  std::memset(&none, 0, sizeof none);
  none.type = CU_MEM_LOCATION_TYPE_NONE;
  CUmemoryPool managed = nullptr;
  CHECK(cuMemGetDefaultMemPool(&managed, &none,
                               CU_MEM_ALLOCATION_TYPE_MANAGED) ==
        CUDA_SUCCESS);
  CUdeviceptr m = 0;
  CHECK(cuMemAllocFromPoolAsync(&m, 256, managed, s) == CUDA_SUCCESS);
  CHECK(cuStreamSynchronize(s) == CUDA_SUCCESS);
  unsigned type = 0;
  CHECK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_IS_MANAGED, m) ==
        CUDA_SUCCESS);
  CHECK(type == 1);
  *reinterpret_cast<int *>(m) = 5;
  CHECK(*reinterpret_cast<int *>(m) == 5);
  CHECK(cuMemFreeAsync(m, s) == CUDA_SUCCESS);
  CHECK(cuStreamSynchronize(s) == CUDA_SUCCESS);

  CHECK(cuMemFree(d) == CUDA_SUCCESS);
  CHECK(cuMemPoolDestroy(pool) == CUDA_SUCCESS);
  CHECK(cuStreamDestroy(s) == CUDA_SUCCESS);
  return finish();
}
