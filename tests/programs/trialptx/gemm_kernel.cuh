#pragma once
#include "mma_ptx.cuh"

// C[M,N] = A[M,K] (row-major) * B[N,K]^T (B stored as N x K, i.e. "col" operand) in fp32.
// Block tile 64x64x32, 4 warps (2x2), each warp 32x32 = 2 m16 x 4 n8 tiles. 2-stage cp.async.
template <typename T, int BM = 64, int BN = 64, int BK = 32, int STAGES = 2>
__global__ void __launch_bounds__(128) gemm_tn(const T* __restrict__ A, const T* __restrict__ B,
                                                float* __restrict__ C, int M, int N, int K) {
  extern __shared__ __align__(128) unsigned char smem_raw[];
  T* sA = reinterpret_cast<T*>(smem_raw);
  T* sB = sA + STAGES * BM * BK;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wm = (warp / 2) * 32, wn = (warp % 2) * 32;
  const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  uint64_t pol = tc::make_policy_evict_first();

  auto load_stage = [&](int stage, int k0) {
    // 64 rows x 32 halves = 64 x 64 bytes = 256 chunks of 16 bytes, 2 per thread per matrix.
    for (int c = tid; c < BM * BK / 8; c += 128) {
      int r = c / (BK / 8), kc = (c % (BK / 8)) * 8;
      // XOR swizzle on 16-byte chunks to avoid ldmatrix bank conflicts.
      int sw = ((kc / 8) ^ (r % 4)) * 8;
      int gr = bm + r;
      bool ok = gr < M;
      const T* src = A + (size_t)(ok ? gr : 0) * K + k0 + kc;
      tc::cp_async_cg<16>(tc::smem_u32(sA + stage * BM * BK + r * BK + sw), src, ok);
    }
    for (int c = tid; c < BN * BK / 8; c += 128) {
      int r = c / (BK / 8), kc = (c % (BK / 8)) * 8;
      int sw = ((kc / 8) ^ (r % 4)) * 8;
      int gr = bn + r;
      const T* src = B + (size_t)(gr < N ? gr : 0) * K + k0 + kc;
      if (c & 1)
        tc::cp_async_hint(tc::smem_u32(sB + stage * BN * BK + r * BK + sw), src, pol);
      else
        tc::cp_async_pred(tc::smem_u32(sB + stage * BN * BK + r * BK + sw), src, gr < N);
    }
  };

  float acc[2][4][4] = {};
  int ktiles = K / BK;
  load_stage(0, 0);
  tc::cp_async_commit();
  for (int kt = 0; kt < ktiles; ++kt) {
    if (kt + 1 < ktiles) load_stage((kt + 1) % STAGES, (kt + 1) * BK);
    tc::cp_async_commit();
    tc::cp_async_wait<1>();
    __syncthreads();
    const T* a = sA + (kt % STAGES) * BM * BK;
    const T* b = sB + (kt % STAGES) * BN * BK;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      uint32_t af[2][4], bf[4][2];
#pragma unroll
      for (int mi = 0; mi < 2; ++mi) {
        int r = wm + mi * 16 + (lane % 16);
        int kc = kk + (lane / 16) * 8;
        int sw = ((kc / 8) ^ (r % 4)) * 8;
        tc::ldsm_x4(af[mi], tc::smem_u32(a + r * BK + sw));
      }
#pragma unroll
      for (int ni = 0; ni < 4; ++ni) {
        int r = wn + ni * 8 + (lane % 8);
        int kc = kk + ((lane / 8) % 2) * 8;
        int sw = ((kc / 8) ^ (r % 4)) * 8;
        tc::ldsm_x2(bf[ni], tc::smem_u32(b + r * BK + sw));
      }
#pragma unroll
      for (int mi = 0; mi < 2; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni) tc::MmaOp<T>::run(acc[mi][ni], af[mi], bf[ni]);
    }
    __syncthreads();
  }
  tc::cp_async_wait<0>();
  // Epilogue: fragment (row = lane/4 (+8), col = (lane%4)*2 (+1)).
#pragma unroll
  for (int mi = 0; mi < 2; ++mi)
#pragma unroll
    for (int ni = 0; ni < 4; ++ni) {
      int r0 = bm + wm + mi * 16 + lane / 4, c0 = bn + wn + ni * 8 + (lane % 4) * 2;
      if (r0 < M) {
        C[(size_t)r0 * N + c0] = acc[mi][ni][0];
        C[(size_t)r0 * N + c0 + 1] = acc[mi][ni][1];
      }
      if (r0 + 8 < M) {
        C[(size_t)(r0 + 8) * N + c0] = acc[mi][ni][2];
        C[(size_t)(r0 + 8) * N + c0 + 1] = acc[mi][ni][3];
      }
    }
}

// A small int8 GEMM tile: one warp computes 16x8 with K=32 via mma.m16n8k32.s8,
// loading fragments straight from global memory in the documented layout.
__global__ void int8_tile(const int8_t* A, const int8_t* B, int* C) {
  int lane = threadIdx.x;
  int g = lane / 4, t = lane % 4;
  uint32_t a[4], b[2];
  const uint32_t* A32 = reinterpret_cast<const uint32_t*>(A);  // 16 x 32 bytes row-major
  const uint32_t* B32 = reinterpret_cast<const uint32_t*>(B);  // 8 x 32 bytes (N x K)
  a[0] = A32[g * 8 + t];
  a[1] = A32[(g + 8) * 8 + t];
  a[2] = A32[g * 8 + t + 4];
  a[3] = A32[(g + 8) * 8 + t + 4];
  b[0] = B32[g * 8 + t];
  b[1] = B32[g * 8 + t + 4];
  int c[4] = {0, 0, 0, 0};
  tc::mma_s8(c, a, b);
  C[g * 8 + t * 2] = c[0];
  C[g * 8 + t * 2 + 1] = c[1];
  C[(g + 8) * 8 + t * 2] = c[2];
  C[(g + 8) * 8 + t * 2 + 1] = c[3];
}

// Transposed ldmatrix + f16 packing check: each warp loads an 8x8 (x2) tile transposed.
__global__ void ldsm_trans_kernel(const half* in, uint32_t* out) {
  __shared__ __align__(16) half tile[16 * 8];
  for (int i = threadIdx.x; i < 128; i += 32) tile[i] = in[i];
  __syncwarp();
  uint32_t r[2];
  tc::ldsm_x2_trans(r, tc::smem_u32(tile + (threadIdx.x % 16) * 8));
  out[threadIdx.x * 2] = r[0];
  out[threadIdx.x * 2 + 1] = r[1];
  // cvt / h-operand round trip.
  float f = (float)threadIdx.x * 0.25f - 3.0f;
  unsigned short h = tc::f2h_bits(f);
  uint32_t p = tc::pack_h(h, tc::f2h_bits(-f));
  if (tc::h2f_bits(h) != f || p != tc::pack_f16x2(f, -f)) asm volatile("trap;");
}
