// bitmap.cuh: bitmap indexes over low-cardinality columns, 64 rows a word.
#pragma once

#include "gdb/common.cuh"

namespace gdb {

using word_t = unsigned long long;
constexpr int kWordBits = 64;

// One bitmap per value of a column with `values` distinct values: bitmap v
// starts at out + v * words. A warp builds a word from two ballots.
__global__ void build_bitmaps(const unsigned char* __restrict__ column, size_t rows, int values, size_t words,
                              word_t* __restrict__ out) {
  const size_t warps = size_t(gridDim.x) * blockDim.x / kWarpSize;
  const unsigned lane = threadIdx.x % kWarpSize;
  for (size_t w = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) / kWarpSize; w < words; w += warps) {
    const size_t r0 = w * kWordBits + lane, r1 = r0 + kWarpSize;
    const int v0 = r0 < rows ? column[r0] : -1;
    const int v1 = r1 < rows ? column[r1] : -1;
    for (int v = 0; v < values; ++v) {
      const word_t lo = __ballot_sync(kFullMask, v0 == v);
      const word_t hi = __ballot_sync(kFullMask, v1 == v);
      if (lane == 0) out[size_t(v) * words + w] = lo | (hi << 32);
    }
  }
}

enum class bitop : int { op_and, op_or, op_andnot };

// dst = dst OP src, word by word.
template <bitop OP>
__global__ void combine_bitmaps(word_t* __restrict__ dst, const word_t* __restrict__ src, size_t words) {
  for (size_t w = blockIdx.x * size_t(blockDim.x) + threadIdx.x; w < words; w += size_t(gridDim.x) * blockDim.x) {
    if constexpr (OP == bitop::op_and) dst[w] &= src[w];
    else if constexpr (OP == bitop::op_or) dst[w] |= src[w];
    else dst[w] &= ~src[w];
  }
}

// The row ids of the set bits, in row order: popcounts scanned within the
// warp, one atomicAdd per warp for the warp's base.
__global__ void bitmap_to_rows(const word_t* __restrict__ bits, size_t words, unsigned* __restrict__ rows,
                               unsigned* __restrict__ count, unsigned* __restrict__ word_base) {
  for (size_t base = blockIdx.x * size_t(blockDim.x); base < words; base += size_t(gridDim.x) * blockDim.x) {
    const size_t w = base + threadIdx.x;
    const word_t word = w < words ? bits[w] : 0;
    const unsigned lane = threadIdx.x % kWarpSize;
    unsigned pop = __popcll(word);
    unsigned incl = pop;
    for (int d = 1; d < kWarpSize; d <<= 1) {
      unsigned up = __shfl_up_sync(kFullMask, incl, d);
      if (lane >= unsigned(d)) incl += up;
    }
    unsigned first = 0;
    if (lane == kWarpSize - 1) first = atomicAdd(count, incl);
    first = __shfl_sync(kFullMask, first, kWarpSize - 1);
    unsigned at = first + incl - pop;
    if (w < words) word_base[w] = at;
    word_t rest = word;
    while (rest) {
      const int bit = __ffsll(static_cast<long long>(rest)) - 1;
      rows[at++] = unsigned(w * kWordBits + bit);
      rest &= rest - 1;
    }
  }
}

// The lowest set row of each 32-bit half by __brev + __clz, checked against
// __ffs; the last set row of the bitmap by __clzll.
__global__ void bit_positions(const word_t* __restrict__ bits, size_t words, int* __restrict__ mismatches,
                              unsigned long long* __restrict__ last_row) {
  for (size_t w = blockIdx.x * size_t(blockDim.x) + threadIdx.x; w < words; w += size_t(gridDim.x) * blockDim.x) {
    const word_t word = bits[w];
    const unsigned halves[2] = {unsigned(word), unsigned(word >> 32)};
    for (int h = 0; h < 2; ++h) {
      const unsigned x = halves[h];
      const int by_brev = x ? __clz(__brev(x)) : -1;
      if (by_brev != __ffs(int(x)) - 1) atomicAdd(mismatches, 1);
    }
    if (word) atomicMax(last_row, (unsigned long long)(w * kWordBits + (kWordBits - 1 - __clzll(word))));
  }
}

}  // namespace gdb

#include <cub/block/block_radix_sort.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cuda/std/optional>

namespace gdb {

// A bit-sliced index of an 8-bit column: slice j holds bit j of every row.
// SUM(v) WHERE filter is the sum over j of 2^j * popcount(slice_j & filter).
template <int SLICES>
__global__ void build_slices(const unsigned char* __restrict__ column, size_t rows, size_t words,
                             word_t* __restrict__ slices) {
  const size_t warps = size_t(gridDim.x) * blockDim.x / kWarpSize;
  const unsigned lane = threadIdx.x % kWarpSize;
  for (size_t w = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) / kWarpSize; w < words; w += warps) {
    const size_t r0 = w * kWordBits + lane, r1 = r0 + kWarpSize;
    const unsigned v0 = r0 < rows ? column[r0] : 0, v1 = r1 < rows ? column[r1] : 0;
#pragma unroll
    for (int j = 0; j < SLICES; ++j) {
      const word_t lo = __ballot_sync(kFullMask, (v0 >> j) & 1);
      const word_t hi = __ballot_sync(kFullMask, (v1 >> j) & 1);
      if (lane == 0) slices[size_t(j) * words + w] = lo | (hi << 32);
    }
  }
}

template <int SLICES, int BLOCK>
__global__ void __launch_bounds__(BLOCK) sliced_sum(const word_t* __restrict__ slices, const word_t* __restrict__ filter,
                                                     size_t words, unsigned long long* __restrict__ sum) {
  using warp_reduce = cub::WarpReduce<unsigned long long>;
  __shared__ typename warp_reduce::TempStorage temp[BLOCK / kWarpSize];
  unsigned long long local = 0;
  for (size_t w = blockIdx.x * size_t(BLOCK) + threadIdx.x; w < words; w += size_t(gridDim.x) * BLOCK) {
    const word_t f = filter[w];
#pragma unroll
    for (int j = 0; j < SLICES; ++j) local += (unsigned long long)__popcll(slices[size_t(j) * words + w] & f) << j;
  }
  const unsigned long long warp_total = warp_reduce(temp[threadIdx.x / kWarpSize]).Sum(local);
  if (threadIdx.x % kWarpSize == 0) atomicAdd(sum, warp_total);
}

// The first set row at or after `from`, if any (device code, cuda::std::optional).
__device__ inline cuda::std::optional<unsigned> next_set(const word_t* bits, size_t words, unsigned from) {
  for (size_t w = from / kWordBits; w < words; ++w) {
    word_t word = bits[w];
    if (w == from / kWordBits) word &= ~word_t(0) << (from % kWordBits);
    if (word) return unsigned(w * kWordBits + __ffsll(static_cast<long long>(word)) - 1);
  }
  return cuda::std::nullopt;
}

__global__ void walk_rows(const word_t* bits, size_t words, unsigned* rows, unsigned max_rows, unsigned* count) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  unsigned c = 0;
  for (auto row = next_set(bits, words, 0); row && c < max_rows; row = next_set(bits, words, *row + 1)) rows[c++] = *row;
  *count = c;
}

// Top-k of each block's candidates by cub::BlockRadixSort (descending scores,
// ties in row order because the sort is stable and rows come in order).
template <int BLOCK, int ITEMS, int K>
__global__ void __launch_bounds__(BLOCK) radix_topk(const float* __restrict__ scores, const unsigned* __restrict__ rows,
                                                     unsigned n, float* __restrict__ top_scores,
                                                     unsigned* __restrict__ top_rows) {
  using sort_t = cub::BlockRadixSort<float, BLOCK, ITEMS, unsigned>;
  __shared__ typename sort_t::TempStorage temp;
  float keys[ITEMS];
  unsigned vals[ITEMS];
  const unsigned base = blockIdx.x * BLOCK * ITEMS;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const unsigned at = base + threadIdx.x * ITEMS + i;
    keys[i] = at < n ? scores[at] : -1.0f;
    vals[i] = at < n ? rows[at] : 0xffffffffu;
  }
  sort_t(temp).SortDescendingBlockedToStriped(keys, vals);
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const unsigned rank = i * BLOCK + threadIdx.x;
    if (rank < K) {
      top_scores[blockIdx.x * K + rank] = keys[i];
      top_rows[blockIdx.x * K + rank] = vals[i];
    }
  }
}

}  // namespace gdb
