// pool_peer_access.cu (trial of public-style multi-GPU samples, issue 16).
// Stream-ordered allocation across devices: an explicit pool on device 0
// made accessible to device 1 (cudaMemPoolSetAccess), kernels of device 1
// reading it, the default pools of both devices with release thresholds,
// usage statistics and trimming.
#include <vector>
#include <cstdint>
#include "mg_check.h"
#include "reduce.cuh"

static const int N = 1 << 14;

int main() {
  mg_device_count(2);
  bool ok = true;

  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool0;
  MG_CHECK(cudaSetDevice(0));
  MG_CHECK(cudaMemPoolCreate(&pool0, &props));
  uint64_t threshold = UINT64_MAX;
  MG_CHECK(cudaMemPoolSetAttribute(pool0, cudaMemPoolAttrReleaseThreshold, &threshold));

  cudaMemLocation loc1 = {};
  loc1.type = cudaMemLocationTypeDevice;
  loc1.id = 1;
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  MG_CHECK(cudaMemPoolGetAccess(&flags, pool0, &loc1));
  ok = ok && flags == cudaMemAccessFlagsProtNone;
  cudaMemLocation loc0 = loc1;
  loc0.id = 0;
  MG_CHECK(cudaMemPoolGetAccess(&flags, pool0, &loc0));
  ok = ok && flags == cudaMemAccessFlagsProtReadWrite;

  cudaStream_t s0, s1;
  MG_CHECK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
  MG_CHECK(cudaSetDevice(1));
  MG_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  cudaEvent_t produced, consumed;
  MG_CHECK(cudaEventCreateWithFlags(&consumed, cudaEventDisableTiming));
  MG_CHECK(cudaSetDevice(0));
  MG_CHECK(cudaEventCreateWithFlags(&produced, cudaEventDisableTiming));

  // Grant device 1 read-write access and use the memory from device 1.
  cudaMemAccessDesc desc = {};
  desc.location = loc1;
  desc.flags = cudaMemAccessFlagsProtReadWrite;
  MG_CHECK(cudaMemPoolSetAccess(pool0, &desc, 1));
  MG_CHECK(cudaMemPoolGetAccess(&flags, pool0, &loc1));
  ok = ok && flags == cudaMemAccessFlagsProtReadWrite;
  // The owner's own access cannot be changed.
  cudaMemAccessDesc self = {};
  self.location = loc0;
  self.flags = cudaMemAccessFlagsProtNone;
  MG_EXPECT(cudaMemPoolSetAccess(pool0, &self, 1), cudaErrorInvalidDevice);
  (void)cudaGetLastError();

  double *sum1 = nullptr;
  MG_CHECK(cudaSetDevice(1));
  MG_CHECK(cudaMallocAsync(&sum1, sizeof(double), s1));
  MG_CHECK(cudaMemsetAsync(sum1, 0, sizeof(double), s1));
  MG_CHECK(cudaSetDevice(0));

  for (int round = 0; round < 4; ++round) {
    double *data = nullptr;
    MG_CHECK(cudaMallocFromPoolAsync(&data, N * sizeof(double), pool0, s0));
    iota_scaled<double><<<(N + 255) / 256, 256, 0, s0>>>(data, (double)(round + 1), N);
    MG_CHECK(cudaGetLastError());
    MG_CHECK(cudaEventRecord(produced, s0));
    MG_CHECK(cudaSetDevice(1));
    MG_CHECK(cudaStreamWaitEvent(s1, produced, 0));
    block_sum<double, 128><<<16, 128, 0, s1>>>(data, sum1, N);
    MG_CHECK(cudaGetLastError());
    MG_CHECK(cudaEventRecord(consumed, s1));
    MG_CHECK(cudaSetDevice(0));
    MG_CHECK(cudaStreamWaitEvent(s0, consumed, 0));
    MG_CHECK(cudaFreeAsync(data, s0));
  }
  MG_CHECK(cudaSetDevice(1));
  double got = 0;
  MG_CHECK(cudaMemcpyAsync(&got, sum1, sizeof(double), cudaMemcpyDeviceToHost, s1));
  MG_CHECK(cudaFreeAsync(sum1, s1));
  MG_CHECK(cudaStreamSynchronize(s1));
  double tri = (double)N * (N - 1) / 2;
  double want = tri * (1 + 2 + 3 + 4);
  std::printf("sum on device 1 %.1f (want %.1f)\n", got, want);
  ok = ok && got == want;

  MG_CHECK(cudaSetDevice(0));
  MG_CHECK(cudaStreamSynchronize(s0));
  uint64_t reserved = 0, used = 1, high = 0;
  MG_CHECK(cudaMemPoolGetAttribute(pool0, cudaMemPoolAttrReservedMemCurrent, &reserved));
  MG_CHECK(cudaMemPoolGetAttribute(pool0, cudaMemPoolAttrUsedMemCurrent, &used));
  MG_CHECK(cudaMemPoolGetAttribute(pool0, cudaMemPoolAttrUsedMemHigh, &high));
  std::printf("pool0 reserved %s, used %llu, high >= one buffer %s\n", reserved >= N * sizeof(double) ? "yes" : "no",
              (unsigned long long)used, high >= N * sizeof(double) ? "yes" : "no");
  ok = ok && used == 0 && reserved >= N * sizeof(double) && high >= N * sizeof(double);
  MG_CHECK(cudaMemPoolTrimTo(pool0, 0));
  MG_CHECK(cudaMemPoolGetAttribute(pool0, cudaMemPoolAttrReservedMemCurrent, &reserved));
  ok = ok && reserved == 0;

  // Revoke access; the default pool of device 1 serves a stream of device 1.
  desc.flags = cudaMemAccessFlagsProtNone;
  MG_CHECK(cudaMemPoolSetAccess(pool0, &desc, 1));
  MG_CHECK(cudaMemPoolGetAccess(&flags, pool0, &loc1));
  ok = ok && flags == cudaMemAccessFlagsProtNone;
  cudaMemPool_t def1;
  MG_CHECK(cudaDeviceGetDefaultMemPool(&def1, 1));
  cudaMemPool_t cur1;
  MG_CHECK(cudaDeviceGetMemPool(&cur1, 1));
  ok = ok && cur1 == def1;
  // A stream of device 1 allocates from device 1's pool even while device 0 is current.
  int *p = nullptr;
  MG_CHECK(cudaMallocAsync(&p, 4096, s1));
  cudaPointerAttributes attr;
  MG_CHECK(cudaPointerGetAttributes(&attr, p));
  std::printf("allocation on stream of device 1 belongs to device %d\n", attr.device);
  ok = ok && attr.device == 1 && attr.type == cudaMemoryTypeDevice;
  MG_CHECK(cudaFreeAsync(p, s1));
  // cudaMallocAsync with the pool of device 0 current on device 1.
  MG_CHECK(cudaDeviceSetMemPool(1, def1));
  MG_EXPECT(cudaDeviceSetMemPool(1, pool0), cudaErrorInvalidValue);
  (void)cudaGetLastError();

  MG_CHECK(cudaStreamSynchronize(s1));
  MG_CHECK(cudaMemPoolDestroy(pool0));
  MG_CHECK(cudaStreamDestroy(s0));
  MG_CHECK(cudaStreamDestroy(s1));
  MG_CHECK(cudaEventDestroy(produced));
  MG_CHECK(cudaEventDestroy(consumed));
  return mg_finish(ok, "pool_peer_access");
}
