/*
 * wgmma_tma.cu: a GEMM written as Hopper programs write it: one warpgroup
 * computes C (64 x 128, .f32) = A (64 x 128, .f16, row-major) times B
 * (128 x 128, .f16, stored as B's columns, K innermost); each K tile of 64
 * comes into shared memory by TMA tensor copies with the 128-byte swizzle
 * (cuTensorMapEncodeTiled, boxes of 64 x 64 and 64 x 128, an mbarrier's
 * transaction count), and four wgmma.mma_async m64n128k16 steps read it
 * through descriptors of the 128-byte swizzle (SBO 1024 bytes) whose start
 * address moves 32 bytes a step. Every element of C is checked against
 * a host GEMM of small integers. Prints PASS.
 */
// CUEMU_OPTIONS: -arch=sm_90a -lcuda
// NVCC_OPTIONS: -arch=sm_90a -lcuda
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <cstdio>
#include <vector>

#include "../check.cuh"
#include "wgmma_ops.cuh"

namespace {

constexpr int kM = 64, kN = 128, kK = 128, kTile = 64;

__device__ unsigned smem(const void *p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ unsigned long long sw128(const void *p) {
  return ((smem(p) & 0x3ffff) >> 4) | (1ull << 16) | ((1024ull >> 4) << 32) | (1ull << 62);
}

__global__ void gemm(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                     float *c) {
  extern __shared__ __align__(1024) unsigned char tiles[];
  __half *sa = reinterpret_cast<__half *>(tiles);                      /* 64 x 64: 8 KiB */
  __half *sb = reinterpret_cast<__half *>(tiles + kM * kTile * 2);     /* 128 x 64: 16 KiB */
  __shared__ alignas(8) unsigned long long bar;
  const unsigned b = smem(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  float d[kN / 2];
  for (int r = 0; r < kN / 2; ++r) d[r] = 0.0f;
  for (int t = 0; t < kK / kTile; ++t) {
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b),
                   "r"((kM + kN) * kTile * 2)
                   : "memory");
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem(sa)),
                   "l"(reinterpret_cast<unsigned long long>(&map_a)), "r"(t * kTile), "r"(0), "r"(b)
                   : "memory");
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem(sb)),
                   "l"(reinterpret_cast<unsigned long long>(&map_b)), "r"(t * kTile), "r"(0), "r"(b)
                   : "memory");
    }
    unsigned done = 0;
    while (!done)
      asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                   " selp.u32 %0, 1, 0, p;\n}"
                   : "=r"(done)
                   : "r"(b), "r"(t & 1)
                   : "memory");
#if CUEMU_TEST_WGMMA
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
    for (int k = 0; k < kTile / 16; ++k)
      wgmma_f16_n128<1, 1, 0, 0>(d, sw128(sa + 16 * k), sw128(sb + 16 * k), 1);
#if CUEMU_TEST_WGMMA
    asm volatile("wgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;" ::: "memory");
#endif
    __syncthreads(); /* every warp has read the tiles before the next copy */
  }
  const int warp = threadIdx.x / 32, g = threadIdx.x % 32 / 4, q = threadIdx.x % 4;
  for (int r = 0; r < kN / 2; ++r)
    c[(16 * warp + g + 8 * (r % 4 / 2)) * kN + 8 * (r / 4) + 2 * q + r % 2] = d[r];
}

}  // namespace

int main() {
  PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  cudaDriverEntryPointQueryResult found;
  CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", reinterpret_cast<void **>(&encode),
                                         12000, cudaEnableDefault, &found) == cudaSuccess);
  if (!encode) return finish();
  std::vector<__half> a(kM * kK), b(kN * kK);
  std::vector<float> af(kM * kK), bf(kN * kK), got(kM * kN);
  for (int i = 0; i < kM * kK; ++i) {
    af[i] = static_cast<float>((i * 2654435761u >> 20) % 5) - 2.0f;
    a[i] = __float2half(af[i]);
  }
  for (int i = 0; i < kN * kK; ++i) {
    bf[i] = static_cast<float>(((i + 99u) * 2654435761u >> 20) % 5) - 2.0f;
    b[i] = __float2half(bf[i]);
  }
  __half *da, *db;
  float *dc;
  cudaMalloc(&da, a.size() * 2);
  cudaMalloc(&db, b.size() * 2);
  cudaMalloc(&dc, got.size() * sizeof(float));
  cudaMemcpy(da, a.data(), a.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * 2, cudaMemcpyHostToDevice);
  /* A: K (inner) x M; B: K (inner) x N; boxes of 64 K by all rows. */
  CUtensorMap map_a, map_b;
  const cuuint64_t dim_a[2] = {kK, kM}, dim_b[2] = {kK, kN}, stride[1] = {kK * 2};
  const cuuint32_t box_a[2] = {kTile, kM}, box_b[2] = {kTile, kN}, step[2] = {1, 1};
  CHECK(encode(&map_a, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, da, dim_a, stride, box_a, step,
               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS);
  CHECK(encode(&map_b, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, db, dim_b, stride, box_b, step,
               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS);
  gemm<<<1, 128, (kM + kN) * kTile * 2>>>(map_a, map_b, dc);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(got.data(), dc, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int m = 0; m < kM; ++m)
    for (int n = 0; n < kN; ++n) {
      float want = 0.0f;
      for (int k = 0; k < kK; ++k) want += af[m * kK + k] * bf[n * kK + k];
      if (got[m * kN + n] != want && wrong++ < 3)
        std::fprintf(stderr, "C[%d][%d] = %g, not %g\n", m, n, got[m * kN + n], want);
    }
  CHECK(wrong == 0);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return finish();
}
