// pool_threshold.cu: a caching allocator's view of stream-ordered pools,
// as memory-pool samples print it: an explicit pool on device 0 whose
// release threshold decides what synchronisation gives back
// (cudaMemPoolAttrReservedMemCurrent read after each step), used-memory
// high marks reset, cudaMemPoolTrimTo, the reuse policies, the pool made
// the device's current pool (cudaDeviceSetMemPool), and the pool opened to
// device 1 (cudaMemPoolSetAccess / cudaMemPoolGetAccess) so that a kernel
// of device 1 reads an allocation made on device 0's stream.
#include <cstdint>
#include <vector>
#include "samp_check.h"

__global__ void iota(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 3 * i;
}
__global__ void sumInto(const int *p, int n, unsigned long long *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, (unsigned long long)p[i]);
}

static uint64_t attr(cudaMemPool_t pool, cudaMemPoolAttr a) {
  uint64_t v = 0;
  checkCudaErrors(cudaMemPoolGetAttribute(pool, a, &v));
  return v;
}

int main() {
  int count = 0;
  checkCudaErrors(cudaGetDeviceCount(&count));
  if (count < 2) {
    printf("two devices needed: WAIVED\n");
    return 2;
  }
  int supported = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
  if (!supported) return samp_result(false, "poolThreshold");

  checkCudaErrors(cudaSetDevice(0));
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  checkCudaErrors(cudaMemPoolCreate(&pool, &props));
  cudaStream_t s;
  checkCudaErrors(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const size_t big = 8 << 20;
  bool ok = true;

  // Threshold 0 (the default): synchronising gives the memory back.
  ok = ok && attr(pool, cudaMemPoolAttrReleaseThreshold) == 0;
  void *p;
  checkCudaErrors(cudaMallocFromPoolAsync(&p, big, pool, s));
  uint64_t reservedLive = attr(pool, cudaMemPoolAttrReservedMemCurrent);
  uint64_t usedLive = attr(pool, cudaMemPoolAttrUsedMemCurrent);
  checkCudaErrors(cudaFreeAsync(p, s));
  checkCudaErrors(cudaStreamSynchronize(s));
  uint64_t reservedAfter = attr(pool, cudaMemPoolAttrReservedMemCurrent);
  printf("threshold 0: reserved %llu while live (used %llu), %llu after sync\n",
         (unsigned long long)reservedLive, (unsigned long long)usedLive,
         (unsigned long long)reservedAfter);
  ok = ok && reservedLive >= big && usedLive >= big && reservedAfter == 0;

  // Threshold "everything": the memory stays reserved, a new allocation
  // reuses it, trimming gives it back.
  uint64_t keep = UINT64_MAX;
  checkCudaErrors(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  checkCudaErrors(cudaMallocFromPoolAsync(&p, big, pool, s));
  checkCudaErrors(cudaFreeAsync(p, s));
  checkCudaErrors(cudaStreamSynchronize(s));
  uint64_t kept = attr(pool, cudaMemPoolAttrReservedMemCurrent);
  void *q;
  checkCudaErrors(cudaMallocFromPoolAsync(&q, big / 2, pool, s));
  uint64_t keptAfterReuse = attr(pool, cudaMemPoolAttrReservedMemCurrent);
  checkCudaErrors(cudaFreeAsync(q, s));
  checkCudaErrors(cudaStreamSynchronize(s));
  printf("threshold max: reserved %llu after sync, %llu after reuse\n",
         (unsigned long long)kept, (unsigned long long)keptAfterReuse);
  ok = ok && kept >= big && keptAfterReuse == kept &&
       attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0;
  checkCudaErrors(cudaMemPoolTrimTo(pool, big / 4));
  uint64_t trimmed = attr(pool, cudaMemPoolAttrReservedMemCurrent);
  checkCudaErrors(cudaMemPoolTrimTo(pool, 0));
  ok = ok && trimmed <= kept && attr(pool, cudaMemPoolAttrReservedMemCurrent) == 0;

  // High marks: reset to zero (no memory in use now).
  ok = ok && attr(pool, cudaMemPoolAttrUsedMemHigh) >= big &&
       attr(pool, cudaMemPoolAttrReservedMemHigh) >= big;
  uint64_t zero = 0;
  checkCudaErrors(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  checkCudaErrors(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &zero));
  ok = ok && attr(pool, cudaMemPoolAttrUsedMemHigh) == 0 &&
       attr(pool, cudaMemPoolAttrReservedMemHigh) == 0;
  expectCuda(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &zero),
             cudaErrorInvalidValue);

  // Reuse policies are on by default and can be turned off.
  int on = -1, off = 0;
  checkCudaErrors(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &on));
  ok = ok && on == 1;
  checkCudaErrors(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &off));
  checkCudaErrors(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &on));
  ok = ok && on == 0;

  // The pool as device 0's current pool: cudaMallocAsync draws from it.
  cudaMemPool_t defaultPool, current;
  checkCudaErrors(cudaDeviceGetDefaultMemPool(&defaultPool, 0));
  checkCudaErrors(cudaDeviceSetMemPool(0, pool));
  checkCudaErrors(cudaDeviceGetMemPool(&current, 0));
  ok = ok && current == pool && defaultPool != pool;
  const int n = 1 << 16;
  int *data;
  checkCudaErrors(cudaMallocAsync(&data, n * sizeof(int), s));
  ok = ok && attr(pool, cudaMemPoolAttrUsedMemCurrent) >= n * sizeof(int);
  iota<<<n / 256, 256, 0, s>>>(data, n);
  cudaEvent_t written;
  checkCudaErrors(cudaEventCreateWithFlags(&written, cudaEventDisableTiming));
  checkCudaErrors(cudaEventRecord(written, s));

  // Device 1 gets read-write access to the pool (not peer access).
  cudaMemAccessFlags flags;
  cudaMemLocation loc1 = {cudaMemLocationTypeDevice, 1};
  checkCudaErrors(cudaMemPoolGetAccess(&flags, pool, &loc1));
  ok = ok && flags == cudaMemAccessFlagsProtNone;
  cudaMemAccessDesc desc = {};
  desc.location = loc1;
  desc.flags = cudaMemAccessFlagsProtReadWrite;
  checkCudaErrors(cudaMemPoolSetAccess(pool, &desc, 1));
  checkCudaErrors(cudaMemPoolGetAccess(&flags, pool, &loc1));
  ok = ok && flags == cudaMemAccessFlagsProtReadWrite;

  checkCudaErrors(cudaSetDevice(1));
  cudaStream_t s1;
  unsigned long long *sum1, h_sum = 0;
  checkCudaErrors(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  checkCudaErrors(cudaMallocAsync(&sum1, sizeof(*sum1), s1));
  checkCudaErrors(cudaMemsetAsync(sum1, 0, sizeof(*sum1), s1));
  checkCudaErrors(cudaStreamWaitEvent(s1, written, 0));
  sumInto<<<n / 256, 256, 0, s1>>>(data, n, sum1);
  checkCudaErrors(cudaMemcpyAsync(&h_sum, sum1, sizeof(h_sum), cudaMemcpyDeviceToHost, s1));
  checkCudaErrors(cudaFreeAsync(sum1, s1));
  checkCudaErrors(cudaStreamSynchronize(s1));
  unsigned long long expect = 3ull * n * (n - 1) / 2;
  printf("device 1 summed device 0's pool memory: %llu (expected %llu)\n", h_sum, expect);
  ok = ok && h_sum == expect;

  checkCudaErrors(cudaSetDevice(0));
  checkCudaErrors(cudaFreeAsync(data, s));
  checkCudaErrors(cudaStreamSynchronize(s));
  checkCudaErrors(cudaDeviceSetMemPool(0, defaultPool));
  checkCudaErrors(cudaMemPoolDestroy(pool));
  checkCudaErrors(cudaEventDestroy(written));
  checkCudaErrors(cudaStreamDestroy(s));
  checkCudaErrors(cudaSetDevice(1));
  checkCudaErrors(cudaStreamDestroy(s1));
  return samp_result(ok, "poolThreshold");
}
