/*
 * stream_ordered_pools.cu: cudaMallocAsync / cudaFreeAsync with the default
 * pool and with explicit pools (cudaMemPoolCreate, cudaMallocFromPoolAsync,
 * cudaDeviceSetMemPool), the pools' attributes and statistics (reserved and
 * used memory, high-water marks, release threshold, cudaMemPoolTrimTo),
 * reuse policies, access, and CUDA's errors. Prints PASS when all is well.
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

/* Fills n ints from a stream-ordered allocation of `pool` (the current
 * pool when null), sums them and frees; returns the sum. */
static long long round_trip(cudaStream_t s, cudaMemPool_t pool, int n) {
  int *data = nullptr, *sum = nullptr;
  if (pool)
    CHECK(cudaMallocFromPoolAsync(&data, n * sizeof(int), pool, s) ==
          cudaSuccess);
  else
    CHECK(cudaMallocAsync(&data, n * sizeof(int), s) == cudaSuccess);
  CHECK(cudaMallocAsync(reinterpret_cast<void **>(&sum), sizeof *sum, s) ==
        cudaSuccess);
  CHECK(cudaMemsetAsync(sum, 0, sizeof *sum, s) == cudaSuccess);
  fill<int><<<(n + 127) / 128, 128, 0, s>>>(data, n, 1);
  block_sum<int, 128><<<(n + 127) / 128, 128, 0, s>>>(data, n, sum);
  int host = 0;
  CHECK(cudaMemcpyAsync(&host, sum, sizeof host, cudaMemcpyDeviceToHost, s) ==
        cudaSuccess);
  CHECK(cudaFreeAsync(data, s) == cudaSuccess);
  CHECK(cudaFreeAsync(sum, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  return host;
}

int main() {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s) == cudaSuccess);
  const int n = 4096; /* 1 + 2 + ... + 4096 */
  const long long expected = static_cast<long long>(n) * (n + 1) / 2;

  /* The default pool is the device's current pool. */
  cudaMemPool_t def = nullptr, cur = nullptr;
  CHECK(cudaDeviceGetDefaultMemPool(&def, 0) == cudaSuccess);
  CHECK(cudaDeviceGetMemPool(&cur, 0) == cudaSuccess);
  CHECK(def != nullptr && def == cur);
  CHECK(attr(def, cudaMemPoolAttrReleaseThreshold) == 0);
  int reuse = -1;
  CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowOpportunistic,
                                &reuse) == cudaSuccess &&
        reuse == 1);

  CHECK(round_trip(s, nullptr, n) == expected);

  /* Statistics: in use while allocated, released at synchronisation with
   * a threshold of 0. */
  void *p = nullptr;
  CHECK(cudaMallocAsync(&p, 3 << 20, s) == cudaSuccess && p);
  CHECK(attr(def, cudaMemPoolAttrUsedMemCurrent) >= (3u << 20));
  CHECK(attr(def, cudaMemPoolAttrReservedMemCurrent) >=
        attr(def, cudaMemPoolAttrUsedMemCurrent));
  CHECK(attr(def, cudaMemPoolAttrUsedMemHigh) >= (3u << 20));
  cudaPointerAttributes pa;
  CHECK(cudaPointerGetAttributes(&pa, p) == cudaSuccess &&
        pa.type == cudaMemoryTypeDevice);
  CHECK(cudaFreeAsync(p, s) == cudaSuccess);
  CHECK(attr(def, cudaMemPoolAttrUsedMemCurrent) == 0);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(attr(def, cudaMemPoolAttrReservedMemCurrent) == 0);
  CHECK(attr(def, cudaMemPoolAttrReservedMemHigh) >= (3u << 20));

  /* A high threshold keeps the memory across synchronisation; trimming
   * gives it back. */
  uint64_t keep = ~0ull;
  CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold,
                                &keep) == cudaSuccess);
  CHECK(cudaMallocAsync(&p, 1 << 20, s) == cudaSuccess);
  CHECK(cudaFreeAsync(p, s) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(attr(def, cudaMemPoolAttrReservedMemCurrent) >= (1u << 20));
  CHECK(attr(def, cudaMemPoolAttrUsedMemCurrent) == 0);
  CHECK(cudaMemPoolTrimTo(def, 0) == cudaSuccess);
  CHECK(attr(def, cudaMemPoolAttrReservedMemCurrent) == 0);

  /* High-water marks reset to the current value with 0 only. */
  uint64_t zero = 0, one = 1;
  CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &zero) ==
        cudaSuccess);
  CHECK(attr(def, cudaMemPoolAttrUsedMemHigh) == 0);
  CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &one) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &zero) ==
        cudaErrorInvalidValue);
  cudaGetLastError();

  /* An explicit pool: its own books, the device's current pool when set,
   * and the default pool again once it is destroyed. */
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool = nullptr;
  CHECK(cudaMemPoolCreate(&pool, &props) == cudaSuccess && pool != def);
  CHECK(round_trip(s, pool, n) == expected);
  CHECK(attr(pool, cudaMemPoolAttrUsedMemHigh) >= n * sizeof(int));
  CHECK(attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0);
  CHECK(attr(def, cudaMemPoolAttrUsedMemHigh) < n * sizeof(int));
  CHECK(cudaDeviceSetMemPool(0, pool) == cudaSuccess);
  CHECK(cudaDeviceGetMemPool(&cur, 0) == cudaSuccess && cur == pool);
  CHECK(cudaMallocAsync(&p, 1000, s) == cudaSuccess);
  CHECK(attr(pool, cudaMemPoolAttrUsedMemCurrent) >= 1000);
  CHECK(attr(def, cudaMemPoolAttrUsedMemCurrent) == 0);
  CHECK(cudaFree(p) == cudaSuccess); /* cudaFree takes it too */
  CHECK(attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0);
  int follow = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseFollowEventDependencies,
                                &follow) == cudaSuccess);
  follow = 1;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseFollowEventDependencies,
                                &follow) == cudaSuccess &&
        follow == 0);

  /* Access: the owning device reads and writes; other devices are not. */
  cudaMemLocation here = {cudaMemLocationTypeDevice, 0};
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  CHECK(cudaMemPoolGetAccess(&flags, pool, &here) == cudaSuccess &&
        flags == cudaMemAccessFlagsProtReadWrite);
  cudaMemAccessDesc desc = {here, cudaMemAccessFlagsProtReadWrite};
  CHECK(cudaMemPoolSetAccess(pool, &desc, 1) == cudaSuccess);
  int devices = 0;
  CHECK(cudaGetDeviceCount(&devices) == cudaSuccess);
  desc.location.id = devices;
  CHECK(cudaMemPoolSetAccess(pool, &desc, 1) == cudaErrorInvalidDevice);
  cudaGetLastError();

  CHECK(cudaMemPoolDestroy(pool) == cudaSuccess);
  CHECK(cudaDeviceGetMemPool(&cur, 0) == cudaSuccess && cur == def);

  /* Errors. */
  CHECK(cudaMemPoolDestroy(def) == cudaErrorInvalidValue);
  int on_stack = 0;
  CHECK(cudaFreeAsync(&on_stack, s) == cudaErrorInvalidValue);
  CHECK(cudaMallocAsync(static_cast<void **>(nullptr), 16, s) ==
        cudaErrorInvalidValue);
  /* No Windows handles on Linux (file descriptors: drv/pool_ipc.cu). */
  props.handleTypes = cudaMemHandleTypeWin32;
  CHECK(cudaMemPoolCreate(&pool, &props) == cudaErrorNotSupported);
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.id = devices;
  CHECK(cudaMemPoolCreate(&pool, &props) == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaSuccess);

  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  return finish();
}
