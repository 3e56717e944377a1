/*
 * many_live_async.cu: 100,000 stream-ordered allocations live at once, as
 * a graph-heavy program or one that keeps per-iteration temporaries (CUB
 * temp storage in a loop) makes them. A GPU serves them in milliseconds;
 * cuemu looked each one up by scanning every live one (and moved its
 * sorted table on each), so this took 38 s of CPU and ran past the test's
 * time budget: the count itself is the check. Each allocation is filled by
 * a kernel and read back; interior pointers are device memory to
 * cudaPointerGetAttributes; the pool counts them as used, frees them all
 * in stream order, serves the second round from what the first gave back
 * (no new memory reserved), and gives it all back at cudaMemPoolTrimTo.
 * Prints PASS when all is well.
 */
#include <cstdint>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "../check.cuh"

static const int kCount = 100000;

// Writes i * 4 + k into word k of the 16-byte allocation `pointers[i]`.
__global__ void fill(int **pointers, int n, int salt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int k = 0; k < 4; ++k)
      pointers[i][k] = i * 4 + k + salt;
}

static uint64_t attr(cudaMemPool_t pool, cudaMemPoolAttr a) {
  uint64_t v = ~0ull;
  CHECK(cudaMemPoolGetAttribute(pool, a, &v) == cudaSuccess);
  return v;
}

// One round: kCount live allocations of 16 bytes on `stream`, used and
// checked, then freed on the stream.
static void round_trip(cudaStream_t stream, cudaMemPool_t pool, int salt) {
  std::vector<int *> pointers(kCount, nullptr);
  int failed = 0;
  for (int i = 0; i < kCount; ++i)
    failed += cudaMallocAsync(&pointers[i], 16, stream) != cudaSuccess;
  CHECK(failed == 0);
  if (failed)
    return;
  CHECK(attr(pool, cudaMemPoolAttrUsedMemCurrent) >= 16ull * kCount);
  int **table = nullptr;
  CHECK(cudaMallocAsync(&table, kCount * sizeof(int *), stream) ==
        cudaSuccess);
  CHECK(cudaMemcpyAsync(table, pointers.data(), kCount * sizeof(int *),
                        cudaMemcpyHostToDevice, stream) == cudaSuccess);
  fill<<<(kCount + 255) / 256, 256, 0, stream>>>(table, kCount, salt);
  CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
  // Every allocation distinct, holding what the kernel wrote; an interior
  // pointer of each is device memory.
  int wrong = 0, not_device = 0;
  for (int i = 0; i < kCount; i += 97) {
    int got[4] = {0, 0, 0, 0};
    if (cudaMemcpy(got, pointers[i], sizeof got, cudaMemcpyDeviceToHost) !=
        cudaSuccess)
      ++wrong;
    for (int k = 0; k < 4; ++k)
      wrong += got[k] != i * 4 + k + salt;
  }
  for (int i = 0; i < kCount; ++i) {
    cudaPointerAttributes a;
    not_device += cudaPointerGetAttributes(&a, pointers[i] + 2) !=
                      cudaSuccess ||
                  a.type != cudaMemoryTypeDevice;
  }
  CHECK(wrong == 0);
  CHECK(not_device == 0);
  for (int i = 0; i < kCount; ++i)
    failed += cudaFreeAsync(pointers[i], stream) != cudaSuccess;
  CHECK(cudaFreeAsync(table, stream) == cudaSuccess);
  CHECK(failed == 0);
  CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK(attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0);
}

int main() {
  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess);
  // The pool keeps what is freed across synchronisation.
  uint64_t keep = ~0ull;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
                                &keep) == cudaSuccess);
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream) == cudaSuccess);
  round_trip(stream, pool, 0);
  uint64_t reserved = attr(pool, cudaMemPoolAttrReservedMemCurrent);
  CHECK(reserved >= 16ull * kCount);
  // The second round reuses the first one's memory.
  round_trip(stream, pool, 7);
  CHECK(attr(pool, cudaMemPoolAttrReservedMemHigh) == reserved);
  CHECK(cudaMemPoolTrimTo(pool, 0) == cudaSuccess);
  CHECK(attr(pool, cudaMemPoolAttrReservedMemCurrent) == 0);
  CHECK(cudaStreamDestroy(stream) == cudaSuccess);
  return finish();
}
