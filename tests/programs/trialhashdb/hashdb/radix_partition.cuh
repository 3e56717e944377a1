#pragma once
// Radix partitioning with a shared-memory histogram, a warp scan of the
// partition sizes and a scatter. (The trial's version also holds the CUB
// helpers for its sort-based group-by; the test leaves CUB out, whose
// build would cost more than all of these programs.)
#include <cstdint>
#include <hashdb/common.cuh>

namespace hashdb {

template <int RadixBits>
__global__ void partition_histogram(const uint32_t* keys, size_t n, int shift, unsigned int* histogram) {
  constexpr int kParts = 1 << RadixBits;
  __shared__ unsigned int local[kParts];
  for (int p = threadIdx.x; p < kParts; p += blockDim.x) local[p] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    atomicAdd(&local[(keys[i] >> shift) & (kParts - 1)], 1u);
  __syncthreads();
  for (int p = threadIdx.x; p < kParts; p += blockDim.x)
    if (local[p]) atomicAdd(&histogram[p], local[p]);
}

template <int RadixBits, typename Value>
__global__ void partition_scatter(const uint32_t* keys, const Value* values, size_t n, int shift,
                                  unsigned int* cursors, uint32_t* keys_out, Value* values_out) {
  constexpr int kParts = 1 << RadixBits;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t k = keys[i];
    const unsigned int pos = atomicAdd(&cursors[(k >> shift) & (kParts - 1)], 1u);
    keys_out[pos] = k;
    values_out[pos] = values[i];
  }
}

// A row survives the filter when its key is not a multiple of `modulus`.
struct KeyFilter {
  uint32_t modulus;
  __host__ __device__ bool operator()(const unsigned long long& row) const {
    return (uint32_t(row >> 32) % modulus) != 0;
  }
};

// Exclusive scan of up to 32 partition sizes by one warp, with
// __shfl_up_sync.
__global__ void partition_offsets(const unsigned int* sizes, int parts, unsigned int* offsets) {
  const int lane = threadIdx.x;
  const unsigned int mine = lane < parts ? sizes[lane] : 0u;
  unsigned int inclusive = mine;
  for (int d = 1; d < 32; d <<= 1) {
    const unsigned int up = __shfl_up_sync(kFullMask, inclusive, d);
    if (lane >= d) inclusive += up;
  }
  if (lane < parts) offsets[lane] = inclusive - mine;
}

}  // namespace hashdb
