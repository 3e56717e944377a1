/*
 * wgmma_registers.cu: wgmma.mma_async of sm_90a with A in registers, and
 * the scales: each warp of the warpgroup loads its 16 rows of A (64 x 16
 * .f16) into the fragment of the PTX ISA (as mma.sync's A: lane 4g + t
 * holds (g, 2t..2t+1), (g+8, 2t..), (g, 2t+8..), (g+8, 2t+8..)), B sits in
 * shared memory (K-major with the 128-byte swizzle, or MN-major without
 * swizzle), and D starts as C. Checked against a host GEMM of small
 * integers, every element: scale-d 1 (D = C + AB), 0 (D = AB, C not
 * read), imm-scale-a -1 (D = C - AB), both scales -1 (D = C + AB), and
 * imm-scale-b -1 with A in registers. Prints PASS.
 */
// CUEMU_OPTIONS: -arch=sm_90a
// NVCC_OPTIONS: -arch=sm_90a
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "../check.cuh"
#include "wgmma_ops.cuh"

namespace {

constexpr int kN = 64, kK = 16;

/* B (kN x kK, each column's K elements together) placed K-major with the
 * 128-byte swizzle (rows of 128 bytes, chunk XOR row % 8; only the first
 * 32 bytes of each row used), or MN-major without swizzle (core matrices
 * of 8 k-rows of 8 columns, the next 8 columns 128 bytes on (SBO), the
 * next 8 k kN / 8 x 128 bytes on (LBO)). */
__device__ unsigned place_b(int n, int k, bool mn_major) {
  if (mn_major) return (n / 8) * 128 + (k % 8) * 16 + (k / 8) * (kN / 8 * 128) + (n % 8) * 2;
  const unsigned o = n * 128 + k * 2;
  return o ^ (((o >> 7) & 7) << 4);
}

__device__ unsigned long long b_descriptor(const void *tile, bool mn_major) {
  const unsigned start = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  const unsigned long long lbo = mn_major ? kN / 8 * 128 : 16, sbo = mn_major ? 128 : 1024;
  return ((start & 0x3ffff) >> 4) | ((lbo >> 4) << 16) | ((sbo >> 4) << 32) |
         (mn_major ? 0ull : 1ull << 62);
}

__device__ unsigned pack(const __half *a, int row, int col) {
  __half2 h = __halves2half2(a[row * kK + col], a[row * kK + col + 1]);
  unsigned u;
  memcpy(&u, &h, 4);
  return u;
}

/* mode 0: scale-d 1; 1: scale-d 0; 2: imm-scale-a -1; 3: both -1 (A in
 * shared memory, K-major, no swizzle: 8 rows of 16 bytes, SBO 128, LBO
 * 64 x 16 bytes); 4: A in registers, B MN-major, imm-scale-b -1; 5: A in
 * registers, B K-major. */
__global__ void product(const __half *a, const __half *b, const float *c, int mode, float *out) {
  extern __shared__ __align__(1024) unsigned char tiles[];
  unsigned char *sa = tiles, *sb = tiles + 4096;
  const int tid = threadIdx.x, warp = tid / 32, g = tid % 32 / 4, t = tid % 4;
  const bool b_mn = mode == 4;
  for (int i = tid; i < 64 * kK; i += blockDim.x) {
    const int m = i / kK, k = i % kK;
    memcpy(sa + (m / 8) * 128 + (k / 8) * 1024 + (m % 8) * 16 + (k % 8) * 2, &a[i], 2);
  }
  for (int i = tid; i < kN * kK; i += blockDim.x) memcpy(sb + place_b(i / kK, i % kK, b_mn), &b[i], 2);
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  float d[kN / 2];
  for (int r = 0; r < kN / 2; ++r) {
    const int row = 16 * warp + g + 8 * (r % 4 / 2), col = 8 * (r / 4) + 2 * t + r % 2;
    d[r] = c[row * kN + col];
  }
  const unsigned long long da = ((static_cast<unsigned>(__cvta_generic_to_shared(sa)) & 0x3ffff) >> 4) |
                                ((1024ull >> 4) << 16) | ((128ull >> 4) << 32);
  const unsigned long long db = b_descriptor(sb, b_mn);
  const int r0 = 16 * warp + g;
  const unsigned ar[4] = {pack(a, r0, 2 * t), pack(a, r0 + 8, 2 * t), pack(a, r0, 2 * t + 8),
                          pack(a, r0 + 8, 2 * t + 8)};
#if CUEMU_TEST_WGMMA
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
  switch (mode) {
    case 0: wgmma_f16_n64<1, 1, 0, 0>(d, da, db, 1); break;
    case 1: wgmma_f16_n64<1, 1, 0, 0>(d, da, db, 0); break;
    case 2: wgmma_f16_n64<-1, 1, 0, 0>(d, da, db, 1); break;
    case 3: wgmma_f16_n64<-1, -1, 0, 0>(d, da, db, 1); break;
    case 4: wgmma_rs_f16_n64<1, -1, 1>(d, ar, db, 1); break;
    default: wgmma_rs_f16_n64<1, 1, 0>(d, ar, db, 1); break;
  }
#if CUEMU_TEST_WGMMA
  asm volatile("wgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;" ::: "memory");
#endif
  for (int r = 0; r < kN / 2; ++r) {
    const int row = 16 * warp + g + 8 * (r % 4 / 2), col = 8 * (r / 4) + 2 * t + r % 2;
    out[row * kN + col] = d[r];
  }
}

}  // namespace

int main() {
  std::vector<__half> a(64 * kK), b(kN * kK);
  std::vector<float> af(64 * kK), bf(kN * kK), c(64 * kN), got(64 * kN);
  for (int i = 0; i < 64 * kK; ++i) {
    af[i] = static_cast<float>((i * 2654435761u >> 20) % 7) - 3.0f;
    a[i] = __float2half(af[i]);
  }
  for (int i = 0; i < kN * kK; ++i) {
    bf[i] = static_cast<float>(((i + 777u) * 2654435761u >> 20) % 5) - 2.0f;
    b[i] = __float2half(bf[i]);
  }
  for (int i = 0; i < 64 * kN; ++i) c[i] = static_cast<float>(i % 11) - 5.0f;
  __half *da, *db;
  float *dc, *dout;
  cudaMalloc(&da, a.size() * sizeof(__half));
  cudaMalloc(&db, b.size() * sizeof(__half));
  cudaMalloc(&dc, c.size() * sizeof(float));
  cudaMalloc(&dout, got.size() * sizeof(float));
  cudaMemcpy(da, a.data(), a.size() * sizeof(__half), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * sizeof(__half), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), c.size() * sizeof(float), cudaMemcpyHostToDevice);
  /* D = c_scale C + ab_scale A B for each mode. */
  const float c_scale[6] = {1, 0, 1, 1, 1, 1}, ab_scale[6] = {1, 1, -1, 1, -1, 1};
  for (int mode = 0; mode < 6; ++mode) {
    product<<<1, 128, 16384>>>(da, db, dc, mode, dout);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    cudaMemcpy(got.data(), dout, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int m = 0; m < 64; ++m)
      for (int n = 0; n < kN; ++n) {
        float want = c_scale[mode] * c[m * kN + n];
        for (int k = 0; k < kK; ++k) want += ab_scale[mode] * af[m * kK + k] * bf[n * kK + k];
        if (got[m * kN + n] != want && wrong++ < 3)
          std::fprintf(stderr, "mode %d: D[%d][%d] = %g, not %g\n", mode, m, n, got[m * kN + n], want);
      }
    CHECK(wrong == 0);
  }
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(dout);
  return finish();
}
