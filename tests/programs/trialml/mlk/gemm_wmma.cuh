#pragma once
#include <mma.h>

#include "dtype.cuh"

namespace mlk {

namespace wmma = nvcuda::wmma;

// C = alpha * A B + beta * C with A [M, K] row major and B [K, N] row or
// column major, half inputs and float accumulation. Block tile BM x BN,
// warps arranged WarpsM x WarpsN, each owning (BM / WarpsM) x (BN / WarpsN)
// in 16 x 16 fragments. The tiles go through padded shared memory.
template <int BM, int BN, int BK, int WarpsM, int WarpsN, typename BLayout, typename OutT>
__global__ void __launch_bounds__(WarpsM * WarpsN * 32)
wmma_gemm_kernel(OutT *__restrict__ C, const __half *__restrict__ A, const __half *__restrict__ B,
                 int M, int N, int K, float alpha, float beta) {
  constexpr int kThreads = WarpsM * WarpsN * 32;
  constexpr int kWarpM = BM / WarpsM, kWarpN = BN / WarpsN;
  constexpr int kFragM = kWarpM / 16, kFragN = kWarpN / 16;
  constexpr int kPad = 8;
  constexpr bool kBRow = std::is_same<BLayout, wmma::row_major>::value;
  constexpr int kLdA = BK + kPad;
  constexpr int kLdB = kBRow ? BN + kPad : BK + kPad;
  constexpr int kLdC = BN + 4;

  __shared__ __align__(32) __half sA[BM * kLdA];
  __shared__ __align__(32) __half sB[kBRow ? BK * kLdB : BN * kLdB];
  __shared__ __align__(32) float sC[BM * kLdC];

  const int warp = threadIdx.x / 32;
  const int wm = warp / WarpsN, wn = warp % WarpsN;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[kFragM][kFragN];
#pragma unroll
  for (int i = 0; i < kFragM; ++i)
#pragma unroll
    for (int j = 0; j < kFragN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int idx = threadIdx.x; idx < BM * BK; idx += kThreads) {
      const int r = idx / BK, c = idx % BK;
      const int gr = row0 + r, gc = k0 + c;
      sA[r * kLdA + c] = (gr < M && gc < K) ? A[static_cast<size_t>(gr) * K + gc] : __float2half(0.f);
    }
    for (int idx = threadIdx.x; idx < BK * BN; idx += kThreads) {
      if (kBRow) {
        const int r = idx / BN, c = idx % BN;
        const int gr = k0 + r, gc = col0 + c;
        sB[r * kLdB + c] = (gr < K && gc < N) ? B[static_cast<size_t>(gr) * N + gc] : __float2half(0.f);
      } else {
        const int c = idx / BK, r = idx % BK;  // column c of B holds K contiguous values
        const int gr = k0 + r, gc = col0 + c;
        sB[c * kLdB + r] = (gr < K && gc < N) ? B[static_cast<size_t>(gc) * K + gr] : __float2half(0.f);
      }
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[kFragM];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, BLayout> b[kFragN];
#pragma unroll
      for (int i = 0; i < kFragM; ++i)
        wmma::load_matrix_sync(a[i], sA + (wm * kWarpM + i * 16) * kLdA + kk, kLdA);
#pragma unroll
      for (int j = 0; j < kFragN; ++j) {
        const __half *p = kBRow ? sB + kk * kLdB + wn * kWarpN + j * 16
                                : sB + (wn * kWarpN + j * 16) * kLdB + kk;
        wmma::load_matrix_sync(b[j], p, kLdB);
      }
#pragma unroll
      for (int i = 0; i < kFragM; ++i)
#pragma unroll
        for (int j = 0; j < kFragN; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }

  // Epilogue: alpha scales the fragment elements in registers, then through
  // shared memory to apply beta C and convert.
#pragma unroll
  for (int i = 0; i < kFragM; ++i)
#pragma unroll
    for (int j = 0; j < kFragN; ++j) {
#pragma unroll
      for (int e = 0; e < acc[i][j].num_elements; ++e) acc[i][j].x[e] *= alpha;
      wmma::store_matrix_sync(sC + (wm * kWarpM + i * 16) * kLdC + wn * kWarpN + j * 16, acc[i][j], kLdC,
                              wmma::mem_row_major);
    }
  __syncthreads();
  for (int idx = threadIdx.x; idx < BM * BN; idx += kThreads) {
    const int r = idx / BN, c = idx % BN;
    const int gr = row0 + r, gc = col0 + c;
    if (gr < M && gc < N) {
      const size_t o = static_cast<size_t>(gr) * N + gc;
      const float prev = beta != 0.f ? to_float(C[o]) : 0.f;
      C[o] = from_float<OutT>(sC[r * kLdC + c] + beta * prev);
    }
  }
}

}  // namespace mlk
