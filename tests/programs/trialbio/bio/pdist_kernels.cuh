// pdist_kernels.cuh: the pairwise p-distance matrix of packed DNA sequences
// by shared-memory tiles, and the neighbour-joining style search of the
// closest pair: a block argmin by warp shuffles of (value, index), merged
// across blocks by atomicMin on a packed 64-bit (value, index).
#ifndef TRIALBIO_PDIST_KERNELS_CUH
#define TRIALBIO_PDIST_KERNELS_CUH
#include <cfloat>
#include "bio_common.cuh"

namespace pdist {

constexpr int kTile = 16;
constexpr int kChunk = 8;  // words of each sequence staged at a time

__device__ __forceinline__ int mismatches(uint32_t a, uint32_t b) {
  const uint32_t x = a ^ b;
  return __popc((x | (x >> 1)) & 0x55555555u);
}

// seqs: count sequences of words words each (16 bases a word, unused bases 0
// in both, so they never mismatch). dist: count x count floats.
__global__ void distance_kernel(const uint32_t* __restrict__ seqs, int count, int words, int length,
                                float* __restrict__ dist) {
  __shared__ uint32_t s_row[kTile][kChunk + 1];
  __shared__ uint32_t s_col[kTile][kChunk + 1];
  const int ty = threadIdx.y, tx = threadIdx.x;
  const int row = blockIdx.y * kTile + ty;
  const int col = blockIdx.x * kTile + tx;
  int diff = 0;
  for (int w0 = 0; w0 < words; w0 += kChunk) {
    // The 16x16 threads stage 16 sequences x kChunk words of each side.
    for (int k = ty * kTile + tx; k < kTile * kChunk; k += kTile * kTile) {
      const int s = k / kChunk, w = k % kChunk;
      const int rs = blockIdx.y * kTile + s, cs = blockIdx.x * kTile + s;
      s_row[s][w] = (rs < count && w0 + w < words) ? seqs[(size_t)rs * words + w0 + w] : 0u;
      s_col[s][w] = (cs < count && w0 + w < words) ? seqs[(size_t)cs * words + w0 + w] : 0u;
    }
    __syncthreads();
#pragma unroll
    for (int w = 0; w < kChunk; ++w) diff += mismatches(s_row[ty][w], s_col[tx][w]);
    __syncthreads();
  }
  if (row < count && col < count) dist[(size_t)row * count + col] = (float)diff / (float)length;
}

__device__ __forceinline__ unsigned long long pack_min(float value, unsigned int index) {
  // Non-negative floats order as their bits do.
  return ((unsigned long long)__float_as_uint(value) << 32) | index;
}

template <typename T>
struct ValueIndex {
  T value;
  unsigned int index;
};

template <typename T>
__device__ __forceinline__ ValueIndex<T> warp_argmin(ValueIndex<T> v) {
  for (int off = warpSize / 2; off > 0; off /= 2) {
    const T ov = __shfl_down_sync(0xffffffffu, v.value, off);
    const unsigned int oi = __shfl_down_sync(0xffffffffu, v.index, off);
    if (ov < v.value || (ov == v.value && oi < v.index)) v = {ov, oi};
  }
  return v;
}

template <int BLOCK>
__global__ void closest_pair_kernel(const float* __restrict__ dist, int count,
                                    unsigned long long* __restrict__ best) {
  __shared__ ValueIndex<float> s_warp[BLOCK / 32];
  ValueIndex<float> v{FLT_MAX, 0xffffffffu};
  const unsigned int total = (unsigned int)count * count;
  for (unsigned int k = blockIdx.x * BLOCK + threadIdx.x; k < total; k += gridDim.x * BLOCK) {
    const unsigned int i = k / count, j = k % count;
    if (j <= i) continue;  // the upper triangle only
    const float d = dist[k];
    if (d < v.value || (d == v.value && k < v.index)) v = {d, k};
  }
  v = warp_argmin(v);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) s_warp[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < BLOCK / 32 ? s_warp[lane] : ValueIndex<float>{FLT_MAX, 0xffffffffu};
    v = warp_argmin(v);
    if (lane == 0 && v.index != 0xffffffffu) atomicMin(best, pack_min(v.value, v.index));
  }
}

__global__ void report_kernel(const unsigned long long* best, int count) {
  const unsigned long long b = *best;
  const unsigned int k = (unsigned int)(b & 0xffffffffu);
  printf("device: closest pair (%u, %u) at p-distance %.4f of %d sequences\n", k / count, k % count,
         __uint_as_float((unsigned int)(b >> 32)), count);
}

}  // namespace pdist

#endif  // TRIALBIO_PDIST_KERNELS_CUH
