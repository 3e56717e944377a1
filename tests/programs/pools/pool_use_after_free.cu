/*
 * pool_use_after_free.cu: memory that a pool keeps after cudaFreeAsync is
 * still freed memory for memcheck (built with --check=mem), as for
 * compute-sanitizer: a kernel that reads it fails with
 * cudaErrorLaunchFailure (sticky until cudaDeviceReset), although the pool
 * holds the memory and has since handed other memory, and part of the
 * same, to later allocations that kernels use without complaint. Prints
 * PASS when all is well.
 * CUEMU_OPTIONS: --check=mem
 */
#include <cstdlib>
#include <cstdint>
#include <cstdio>

#include <cuda_runtime.h>

#include "../check.cuh"
#include "pool_kernels.cuh"

int main() {
#ifdef __CUEMU__
  /* Its memcheck reports are expected: they leave the exit status 0
   * (they count for it otherwise, docs/checkers.md). */
  setenv("CUEMU_CHECK_EXIT_STATUS", "0", 1);
#endif
  const int n = 16384; /* 64 KiB of ints */
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking) == cudaSuccess);
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking) == cudaSuccess);
  cudaMemPool_t pool = nullptr;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess);
  uint64_t keep = UINT64_MAX;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
                                &keep) == cudaSuccess);
  int *sum = nullptr;
  CHECK(cudaMalloc(&sum, sizeof *sum) == cudaSuccess);

  /* `stale` is freed on s1 and stays in the pool (the threshold keeps it
   * across synchronisation). */
  int *stale = nullptr, *other = nullptr, *again = nullptr;
  CHECK(cudaMallocAsync(&stale, n * sizeof(int), s1) == cudaSuccess);
  fill<int><<<n / 256, 256, 0, s1>>>(stale, n, 0);
  CHECK(cudaFreeAsync(stale, s1) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s1) == cudaSuccess);
  uint64_t reserved = 0;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent,
                                &reserved) == cudaSuccess &&
        reserved >= n * sizeof(int));

  /* Later allocations on both streams are used cleanly. */
  CHECK(cudaMallocAsync(&other, n * sizeof(int), s2) == cudaSuccess);
  CHECK(cudaMallocAsync(&again, n / 4 * sizeof(int), s1) == cudaSuccess);
  fill<int><<<n / 256, 256, 0, s2>>>(other, n, 1);
  fill<int><<<n / 4 / 256, 256, 0, s1>>>(again, n / 4, 1);
  CHECK(cudaMemsetAsync(sum, 0, sizeof *sum, s1) == cudaSuccess);
  block_sum<int, 256><<<n / 4 / 256, 256, 0, s1>>>(again, n / 4, sum);
  int host = 0;
  CHECK(cudaMemcpyAsync(&host, sum, sizeof host, cudaMemcpyDeviceToHost, s1) ==
        cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(host == (n / 4) * (n / 4 + 1) / 2);
  CHECK(cudaFreeAsync(other, s2) == cudaSuccess);
  CHECK(cudaFreeAsync(again, s1) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  /* Wrong: a kernel reads the stale pointer, whose memory the pool holds
   * but no allocation owns. */
  CHECK(cudaMemsetAsync(sum, 0, sizeof *sum, s1) == cudaSuccess);
  block_sum<int, 256><<<n / 256, 256, 0, s1>>>(stale, n, sum);
  cudaError_t e = cudaStreamSynchronize(s1);
  CHECK(e == cudaErrorLaunchFailure || e == cudaErrorIllegalAddress);
  CHECK(cudaMallocAsync(&other, 16, s1) == e); /* sticky */
  CHECK(cudaDeviceReset() == cudaSuccess);
  CHECK(cudaMallocAsync(&other, 16, 0) == cudaSuccess);
  CHECK(cudaFreeAsync(other, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::fflush(stdout);
  return finish();
}
