// sw_kernels.cuh: Smith-Waterman local alignment with affine gaps (Gotoh),
// inter-task (one thread per pair) and intra-task (one warp per pair, the
// anti-diagonal wavefront carried by warp shuffles).
#ifndef TRIALBIO_SW_KERNELS_CUH
#define TRIALBIO_SW_KERNELS_CUH
#include <climits>
#include "bio_common.cuh"
#include "sw_params.h"

// Included by one translation unit: the matrix lives with the kernels.
__constant__ int8_t c_subst[SW_ALPHA * SW_ALPHA];

namespace sw {

using Pack4 = bio::Packer<4>;

__device__ __forceinline__ int subst(uint32_t a, uint32_t b) {
  return c_subst[a * SW_ALPHA + b];
}

// The maximum of three scores in one video instruction, as SIMD aligners
// write it.
__device__ __forceinline__ int max3(int a, int b, int c) {
  int d;
  asm("vmax.s32.s32.s32.max %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}

__device__ __forceinline__ bool better(int s, int i, int j, const SwResult& r) {
  // Ties go to the smallest row, then the smallest column, as on the host.
  return s > r.score || (s == r.score && (i < r.query_end || (i == r.query_end && j < r.target_end)));
}

// One thread per pair. H and E of the previous column live in shared memory,
// one column of each per thread, interleaved so that a warp's accesses fall in
// different banks.
template <int BLOCK, int MAXQ>
__global__ void __launch_bounds__(BLOCK) sw_inter_kernel(SwBatch batch, SwScoring sc,
                                                         SwResult* __restrict__ out) {
  __shared__ short s_h[MAXQ][BLOCK];
  __shared__ short s_e[MAXQ][BLOCK];
  const int pair = blockIdx.x * BLOCK + threadIdx.x;
  if (pair >= batch.pairs) return;
  const uint32_t* q = batch.query + (size_t)pair * batch.stride_words;
  const uint32_t* t = batch.target + (size_t)pair * batch.stride_words;
  const int m = batch.query_len[pair];
  const int n = batch.target_len[pair];
  const int tid = threadIdx.x;
  for (int i = 0; i < m; ++i) {
    s_h[i][tid] = 0;
    s_e[i][tid] = SHRT_MIN / 2;
  }
  SwResult best{0, -1, -1};
  for (int j = 0; j < n; ++j) {
    const uint32_t tj = Pack4::get(t, j);
    int diag = 0;               // H[i-1][j-1]
    int up = 0;                 // H[i-1][j]
    int f = SHRT_MIN / 2;       // F[i][j], the vertical gap
    for (int i = 0; i < m; ++i) {
      const int left = s_h[i][tid];
      int e = max(s_e[i][tid] - sc.gap_extend, left - sc.gap_open);
      f = max(f - sc.gap_extend, up - sc.gap_open);
      const int h = max(0, max3(diag + subst(Pack4::get(q, i), tj), e, f));
      s_e[i][tid] = (short)e;
      s_h[i][tid] = (short)h;
      diag = left;
      up = h;
      if (better(h, i, j, best)) best = SwResult{h, i, j};
    }
  }
  out[pair] = best;
}

// One warp per pair: lane i owns query row i and, at step s, computes the
// cell (i, s - i). The row above arrives from lane i-1 by __shfl_up_sync.
template <int WARPS>
__global__ void sw_intra_kernel(SwBatch batch, SwScoring sc, SwResult* __restrict__ out) {
  __shared__ uint8_t s_target[WARPS][SW_MAX_TARGET];
  __shared__ int s_score[WARPS][32];
  const int warp = threadIdx.x / warpSize;
  const int lane = threadIdx.x % warpSize;
  const int pair = blockIdx.x * WARPS + warp;
  if (pair >= batch.pairs) return;  // whole warps leave together
  const unsigned full = 0xffffffffu;
  const uint32_t* q = batch.query + (size_t)pair * batch.stride_words;
  const uint32_t* t = batch.target + (size_t)pair * batch.stride_words;
  int m = 0, n = 0;
  if (lane == 0) {
    m = batch.query_len[pair];
    n = batch.target_len[pair];
  }
  m = __shfl_sync(full, m, 0);
  n = __shfl_sync(full, n, 0);
  for (int j = lane; j < n; j += warpSize) s_target[warp][j] = (uint8_t)Pack4::get(t, j);
  __syncwarp();
  const bool active = lane < m;
  const uint32_t qi = active ? Pack4::get(q, lane) : 0;
  const int neg = INT_MIN / 4;
  int h_left = 0;      // H[i][j-1]
  int e = neg;         // E[i][j-1]
  int h_mine = 0;      // H[i][j] of the last step
  int f_mine = neg;    // F[i][j] of the last step
  int diag_in = 0;     // H[i-1][j-1]: what lane i-1 sent the step before
  SwResult best{0, -1, -1};
  for (int s = 0; s < m + n - 1; ++s) {
    int up_h = __shfl_up_sync(full, h_mine, 1);
    int up_f = __shfl_up_sync(full, f_mine, 1);
    const int j = s - lane;
    if (lane == 0) {
      up_h = 0;
      up_f = neg;
    }
    if (active && j >= 0 && j < n) {
      const int diag = (j == 0) ? 0 : diag_in;
      const int up = up_h;
      e = max(e - sc.gap_extend, h_left - sc.gap_open);
      const int f = max(up_f - sc.gap_extend, up - sc.gap_open);
      int h = max(0, diag + subst(qi, s_target[warp][j]));
      h = max(h, max(e, f));
      h_left = h;
      h_mine = h;
      f_mine = f;
      if (better(h, lane, j, best)) best = SwResult{h, lane, j};
    }
    diag_in = (lane == 0) ? 0 : up_h;
  }
  // Reduce the lanes' bests: the score in shared memory, the winner by shuffle.
  s_score[warp][lane] = best.score;
  __syncwarp();
  for (int off = 16; off > 0; off >>= 1) {
    const int os = __shfl_down_sync(full, best.score, off);
    const int oi = __shfl_down_sync(full, best.query_end, off);
    const int oj = __shfl_down_sync(full, best.target_end, off);
    if (oi >= 0 && (best.query_end < 0 || better(os, oi, oj, best))) best = SwResult{os, oi, oj};
  }
  if (lane == 0) {
    int top = 0;
    for (int l = 0; l < 32; ++l) top = max(top, s_score[warp][l]);
    if (top != best.score) printf("sw_intra: pair %d lane reduction disagrees (%d vs %d)\n", pair, top, best.score);
    out[pair] = best;
  }
}

}  // namespace sw

#endif  // TRIALBIO_SW_KERNELS_CUH
