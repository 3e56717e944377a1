/*
 * pool_reuse.cu: a memory pool caches what cudaFreeAsync gives back and
 * serves later allocations from it, as CUDA documents: with a high
 * release threshold freed memory stays reserved across synchronisation
 * and a later allocation on the same stream takes no new memory (the
 * reserved high-water mark stays put); with the reuse policies off an
 * allocation on another stream never gets memory freed on the first one;
 * at synchronisation the pool keeps no more than its release threshold;
 * cudaMemPoolTrimTo keeps at least what it is asked to and never what is
 * in use. Only what CUDA guarantees is checked (no pointer equality).
 * Prints PASS when all is well.
 */
#include <cstdint>
#include <cstdio>

#include <cuda_runtime.h>

#include "../check.cuh"
#include "pool_kernels.cuh"

static uint64_t attr(cudaMemPool_t pool, cudaMemPoolAttr a) {
  uint64_t v = ~0ull;
  CHECK(cudaMemPoolGetAttribute(pool, a, &v) == cudaSuccess);
  return v;
}

static void set(cudaMemPool_t pool, cudaMemPoolAttr a, uint64_t v) {
  CHECK(cudaMemPoolSetAttribute(pool, a, &v) == cudaSuccess);
}

static void set_reuse(cudaMemPool_t pool, int follow, int opportunistic,
                      int internal) {
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseFollowEventDependencies,
                                &follow) == cudaSuccess);
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic,
                                &opportunistic) == cudaSuccess);
  CHECK(cudaMemPoolSetAttribute(
            pool, cudaMemPoolReuseAllowInternalDependencies, &internal) ==
        cudaSuccess);
}

/* Allocates n values on s, fills, scales and sums them on s, frees them
 * on s; returns the sum (checked against the host's by the caller). */
static unsigned work(cudaStream_t s, cudaMemPool_t pool, int n,
                     unsigned *sum) {
  const int Block = 256;
  unsigned *data = nullptr;
  CHECK(cudaMallocFromPoolAsync(&data, n * sizeof(unsigned), pool, s) ==
        cudaSuccess);
  CHECK(cudaMemsetAsync(sum, 0, sizeof *sum, s) == cudaSuccess);
  fill<unsigned><<<(n + Block - 1) / Block, Block, 0, s>>>(data, n, 1u);
  scale_by<unsigned><<<4, Block, 0, s>>>(data, n, 2u);
  block_sum<unsigned, Block>
      <<<(n + Block - 1) / Block, Block, 0, s>>>(data, n, sum);
  CHECK(cudaFreeAsync(data, s) == cudaSuccess);
  unsigned host = 0;
  CHECK(cudaMemcpyAsync(&host, sum, sizeof host, cudaMemcpyDeviceToHost, s) ==
        cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  return host;
}

static bool disjoint(const void *a, const void *b, size_t bytes) {
  const char *x = static_cast<const char *>(a);
  const char *y = static_cast<const char *>(b);
  return x + bytes <= y || y + bytes <= x;
}

int main() {
  const int n = 1 << 18; /* 1 MiB of floats */
  const size_t bytes = n * sizeof(unsigned);
  unsigned expected = 0; /* 2 (1 + 2 + ... + n), modulo 2^32 */
  for (int i = 1; i <= n; ++i)
    expected += 2u * static_cast<unsigned>(i);
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking) == cudaSuccess);
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking) == cudaSuccess);
  unsigned *sum = nullptr;
  CHECK(cudaMalloc(&sum, sizeof *sum) == cudaSuccess);

  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool = nullptr;
  CHECK(cudaMemPoolCreate(&pool, &props) == cudaSuccess);

  /* A high threshold: the freed memory stays reserved across
   * synchronisation, and the next allocation on the stream reuses it. */
  set(pool, cudaMemPoolAttrReleaseThreshold, UINT64_MAX);
  CHECK(work(s1, pool, n, sum) == expected);
  uint64_t reserved = attr(pool, cudaMemPoolAttrReservedMemCurrent);
  CHECK(reserved >= bytes);
  CHECK(attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(attr(pool, cudaMemPoolAttrReservedMemCurrent) == reserved);
  set(pool, cudaMemPoolAttrReservedMemHigh, 0);
  set(pool, cudaMemPoolAttrUsedMemHigh, 0);
  for (int round = 0; round < 3; ++round)
    CHECK(work(s1, pool, n, sum) == expected);
  CHECK(attr(pool, cudaMemPoolAttrReservedMemHigh) == reserved);
  CHECK(attr(pool, cudaMemPoolAttrUsedMemHigh) >= bytes);

  /* Reuse policies off: memory freed on s1 and not yet released is never
   * handed to s2, which has no dependency on the free. */
  set_reuse(pool, 0, 0, 0);
  void *a = nullptr, *b = nullptr;
  CHECK(cudaMallocFromPoolAsync(&a, bytes, pool, s1) == cudaSuccess);
  CHECK(cudaFreeAsync(a, s1) == cudaSuccess);
  CHECK(cudaMallocFromPoolAsync(&b, bytes, pool, s2) == cudaSuccess);
  CHECK(disjoint(a, b, bytes));
  CHECK(attr(pool, cudaMemPoolAttrReservedMemCurrent) >= reserved + bytes);
  CHECK(cudaFreeAsync(b, s2) == cudaSuccess);
  set_reuse(pool, 1, 1, 1);

  /* At synchronisation a pool keeps no more than its threshold. */
  CHECK(cudaStreamSynchronize(s2) == cudaSuccess);
  CHECK(attr(pool, cudaMemPoolAttrReservedMemCurrent) >= 2 * bytes);
  set(pool, cudaMemPoolAttrReleaseThreshold, 0);
  CHECK(cudaStreamSynchronize(s1) == cudaSuccess);
  CHECK(attr(pool, cudaMemPoolAttrReservedMemCurrent) == 0);

  /* cudaMemPoolTrimTo: at least what it is asked to keep stays, memory in
   * use always stays, and trimming to 0 with nothing in use frees all. */
  set(pool, cudaMemPoolAttrReleaseThreshold, UINT64_MAX);
  void *p[4] = {};
  for (void *&q : p)
    CHECK(cudaMallocFromPoolAsync(&q, bytes, pool, s1) == cudaSuccess);
  for (int i = 1; i < 4; ++i)
    CHECK(cudaFreeAsync(p[i], s1) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s1) == cudaSuccess);
  uint64_t before = attr(pool, cudaMemPoolAttrReservedMemCurrent);
  CHECK(before >= 4 * bytes);
  CHECK(cudaMemPoolTrimTo(pool, 2 * bytes) == cudaSuccess);
  uint64_t after = attr(pool, cudaMemPoolAttrReservedMemCurrent);
  CHECK(after >= 2 * bytes && after <= before);
  CHECK(cudaMemPoolTrimTo(pool, 0) == cudaSuccess);
  CHECK(attr(pool, cudaMemPoolAttrReservedMemCurrent) >= bytes);
  CHECK(attr(pool, cudaMemPoolAttrUsedMemCurrent) >= bytes);
  fill<unsigned><<<n / 256, 256, 0, s1>>>(static_cast<unsigned *>(p[0]), n,
                                          0u);
  CHECK(cudaFreeAsync(p[0], s1) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s1) == cudaSuccess);
  CHECK(cudaMemPoolTrimTo(pool, 0) == cudaSuccess);
  CHECK(attr(pool, cudaMemPoolAttrReservedMemCurrent) == 0);

#ifdef __CUEMU__
  /* The emulator reuses what its policies allow and CUDA only may reuse:
   * a block freed on s1 serves s2 once s2 waited for an event recorded
   * after the free (FollowEventDependencies alone), and the same stream
   * gets the very block back. */
  set_reuse(pool, 1, 0, 0);
  cudaEvent_t freed;
  CHECK(cudaEventCreateWithFlags(&freed, cudaEventDisableTiming) ==
        cudaSuccess);
  CHECK(cudaMallocFromPoolAsync(&a, bytes, pool, s1) == cudaSuccess);
  CHECK(cudaFreeAsync(a, s1) == cudaSuccess);
  CHECK(cudaMallocFromPoolAsync(&b, bytes, pool, s1) == cudaSuccess);
  CHECK(b == a);
  CHECK(cudaFreeAsync(b, s1) == cudaSuccess);
  CHECK(cudaEventRecord(freed, s1) == cudaSuccess);
  CHECK(cudaStreamWaitEvent(s2, freed, 0) == cudaSuccess);
  CHECK(cudaMallocFromPoolAsync(&b, bytes, pool, s2) == cudaSuccess);
  CHECK(b == a);
  CHECK(cudaFreeAsync(b, s2) == cudaSuccess);
  CHECK(cudaEventDestroy(freed) == cudaSuccess);
  /* cudaStreamLegacy is stream 0: what one frees the other reuses. */
  set_reuse(pool, 0, 0, 0);
  CHECK(cudaMallocFromPoolAsync(&a, bytes, pool, cudaStreamLegacy) ==
        cudaSuccess);
  CHECK(cudaFreeAsync(a, cudaStreamLegacy) == cudaSuccess);
  CHECK(cudaMallocFromPoolAsync(&b, bytes, pool, 0) == cudaSuccess);
  CHECK(b == a);
  /* Legacy IPC takes cudaMalloc's memory only. */
  cudaIpcMemHandle_t ipc;
  CHECK(cudaIpcGetMemHandle(&ipc, b) == cudaErrorInvalidValue);
  cudaGetLastError();
  CHECK(cudaFreeAsync(b, 0) == cudaSuccess);
#endif

  /* A pool never reserves more than its maxSize. */
  cudaMemPool_t small = nullptr;
  props.maxSize = 4 << 20;
  CHECK(cudaMemPoolCreate(&small, &props) == cudaSuccess);
  void *big = nullptr, *more = nullptr;
  CHECK(cudaMallocFromPoolAsync(&big, 3 << 20, small, s1) == cudaSuccess);
  CHECK(cudaMallocFromPoolAsync(&more, 3 << 20, small, s1) ==
        cudaErrorMemoryAllocation);
  CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);
  CHECK(cudaFreeAsync(big, s1) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s1) == cudaSuccess);
  CHECK(cudaMemPoolDestroy(small) == cudaSuccess);

  CHECK(cudaStreamSynchronize(s2) == cudaSuccess);
  CHECK(cudaMemPoolDestroy(pool) == cudaSuccess);
  CHECK(cudaFree(sum) == cudaSuccess);
  CHECK(cudaStreamDestroy(s1) == cudaSuccess);
  CHECK(cudaStreamDestroy(s2) == cudaSuccess);
  return finish();
}
