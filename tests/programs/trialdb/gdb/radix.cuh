// radix.cuh: radix partitioning in two passes on the key's hash. Each pass
// is a histogram per (block, partition), an exclusive scan of the histogram
// matrix (partition-major, so the scan gives each block's output offsets)
// and a scatter. Pass 2 subpartitions every partition of pass 1 (grid.y).
#pragma once

#include "gdb/common.cuh"
#include "gdb/hash.cuh"

namespace gdb {

struct tuple_kv {
  unsigned long long key;
  unsigned int row;
};

__device__ __forceinline__ unsigned radix_of(unsigned long long key, int shift, int bits) {
  return (hash_key(key) >> shift) & ((1u << bits) - 1);
}

// Bounds of the part of the input a block of this pass reads: pass 1 has one
// part (the whole input), pass 2 one per partition of pass 1.
__device__ __forceinline__ void part_bounds(const unsigned* part_offsets, unsigned n, unsigned& begin, unsigned& end) {
  if (part_offsets == nullptr) {
    begin = 0;
    end = n;
  } else {
    begin = part_offsets[blockIdx.y];
    end = blockIdx.y + 1 < gridDim.y ? part_offsets[blockIdx.y + 1] : n;
  }
}

template <int BLOCK, int BITS>
__global__ void __launch_bounds__(BLOCK) radix_histogram(const tuple_kv* __restrict__ in, unsigned n,
                                                          const unsigned* __restrict__ part_offsets, int shift,
                                                          unsigned* __restrict__ hist) {
  constexpr int kParts = 1 << BITS;
  __shared__ unsigned s_hist[kParts];
  for (int p = threadIdx.x; p < kParts; p += BLOCK) s_hist[p] = 0;
  __syncthreads();
  unsigned begin, end;
  part_bounds(part_offsets, n, begin, end);
  for (unsigned i = begin + blockIdx.x * BLOCK + threadIdx.x; i < end; i += gridDim.x * BLOCK)
    atomicAdd(&s_hist[radix_of(in[i].key, shift, BITS)], 1u);
  __syncthreads();
  // Layout: [part][partition][block].
  for (int p = threadIdx.x; p < kParts; p += BLOCK)
    hist[(size_t(blockIdx.y) * kParts + p) * gridDim.x + blockIdx.x] = s_hist[p];
}

template <int BLOCK, int BITS>
__global__ void __launch_bounds__(BLOCK) radix_scatter(const tuple_kv* __restrict__ in, unsigned n,
                                                        const unsigned* __restrict__ part_offsets, int shift,
                                                        const unsigned* __restrict__ offsets,
                                                        tuple_kv* __restrict__ out) {
  constexpr int kParts = 1 << BITS;
  __shared__ unsigned s_next[kParts];
  for (int p = threadIdx.x; p < kParts; p += BLOCK)
    s_next[p] = offsets[(size_t(blockIdx.y) * kParts + p) * gridDim.x + blockIdx.x];
  __syncthreads();
  unsigned begin, end;
  part_bounds(part_offsets, n, begin, end);
  for (unsigned i = begin + blockIdx.x * BLOCK + threadIdx.x; i < end; i += gridDim.x * BLOCK) {
    const tuple_kv t = in[i];
    const unsigned at = atomicAdd(&s_next[radix_of(t.key, shift, BITS)], 1u);
    out[at] = t;
  }
}

// The start of every partition of a pass: offsets[(part * parts + p) * blocks].
template <int BITS>
__global__ void partition_starts(const unsigned* offsets, unsigned blocks, unsigned total_parts, unsigned* starts) {
  for (unsigned p = blockIdx.x * blockDim.x + threadIdx.x; p < total_parts; p += gridDim.x * blockDim.x)
    starts[p] = offsets[size_t(p) * blocks];
}

}  // namespace gdb
