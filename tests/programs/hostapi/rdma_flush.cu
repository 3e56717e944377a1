// GPUDirect RDMA flushes, as a NIC-facing library calls them before it
// reads what a remote peer wrote: the device reports the flush API
// (cudaDevAttrGPUDirectRDMAFlushWritesOptions has the host bit) and writes
// ordered for all devices (cudaDevAttrGPUDirectRDMAWritesOrdering), so
// cudaDeviceFlushGPUDirectRDMAWrites (and cuFlushGPUDirectRDMAWrites) is a
// no-op that still checks its target and scope. cuemu once had no such
// function (the program did not compile).
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include "../check.cuh"

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

int main() {
  int options = -1, ordering = -1;
  CHECK(cudaDeviceGetAttribute(&options, cudaDevAttrGPUDirectRDMAFlushWritesOptions, 0) ==
        cudaSuccess);
  CHECK(cudaDeviceGetAttribute(&ordering, cudaDevAttrGPUDirectRDMAWritesOrdering, 0) ==
        cudaSuccess);
  if (options & cudaFlushGPUDirectRDMAWritesOptionHost) {
    CHECK(cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                             cudaFlushGPUDirectRDMAWritesToOwner) == cudaSuccess);
    CHECK(cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                             cudaFlushGPUDirectRDMAWritesToAllDevices) ==
          cudaSuccess);
  }
#ifdef __CUEMU__
  // The emulated device: one coherent memory, ordered for every scope.
  CHECK(options == cudaFlushGPUDirectRDMAWritesOptionHost);
  CHECK(ordering == cudaGPUDirectRDMAWritesOrderingAllDevices);
#endif
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  CHECK((int)prop.gpuDirectRDMAFlushWritesOptions == options &&
        prop.gpuDirectRDMAWritesOrdering == ordering);

  // The arguments are checked whatever the device supports.
  CHECK(cudaDeviceFlushGPUDirectRDMAWrites((cudaFlushGPUDirectRDMAWritesTarget)1,
                                           cudaFlushGPUDirectRDMAWritesToOwner) ==
        cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                           (cudaFlushGPUDirectRDMAWritesScope)150) ==
        cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);

  // The driver's form, in the primary context.
  CUcontext ctx;
  CHECK(cuInit(0) == CUDA_SUCCESS);
  CHECK(cuDevicePrimaryCtxRetain(&ctx, 0) == CUDA_SUCCESS);
  CHECK(cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
  if (options & cudaFlushGPUDirectRDMAWritesOptionHost)
    CHECK(cuFlushGPUDirectRDMAWrites(CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX,
                                     CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER) == CUDA_SUCCESS);
  CHECK(cuFlushGPUDirectRDMAWrites(CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX,
                                   (CUflushGPUDirectRDMAWritesScope)7) ==
        CUDA_ERROR_INVALID_VALUE);

  // Work around the flush is unaffected.
  int *d = nullptr, h[32];
  CHECK(cudaMalloc(&d, sizeof h) == cudaSuccess);
  fill<<<1, 32>>>(d, 7);
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < 32; ++i)
    CHECK(h[i] == 7);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cuDevicePrimaryCtxRelease(0) == CUDA_SUCCESS);
  return finish();
}
