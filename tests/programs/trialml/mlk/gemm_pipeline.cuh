#pragma once
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>

#include "common.cuh"

namespace mlk {

namespace cg = cooperative_groups;

// SGEMM C[M, N] = A[M, K] B[K, N], all row major, with a multi-stage
// cuda::pipeline shared by the block: each stage holds a BM x BK tile of A
// and a BK x BN tile of B in dynamic shared memory, copied 16 bytes at a time
// with cuda::memcpy_async. M, N, K multiples of the tiles.
template <int BM, int BN, int BK, int TM, int TN, int Stages>
__global__ void pipelined_sgemm_kernel(float *__restrict__ C, const float *__restrict__ A,
                                       const float *__restrict__ B, int M, int N, int K) {
  constexpr int kThreads = (BM / TM) * (BN / TN);
  extern __shared__ __align__(16) float smem[];
  float *sA = smem;                          // [Stages][BM][BK]
  float *sB = smem + Stages * BM * BK;       // [Stages][BK][BN]

  auto block = cg::this_thread_block();
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, Stages> state;
  auto pipe = cuda::make_pipeline(block, &state);

  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ty = threadIdx.x / (BN / TN), tx = threadIdx.x % (BN / TN);
  const int tiles = K / BK;

  auto issue = [&](int tile) {
    const int s = tile % Stages;
    const int k0 = tile * BK;
    pipe.producer_acquire();
    for (int v = threadIdx.x; v < BM * BK / 4; v += kThreads) {
      const int r = v / (BK / 4), c = (v % (BK / 4)) * 4;
      cuda::memcpy_async(sA + (s * BM + r) * BK + c, A + static_cast<size_t>(row0 + r) * K + k0 + c,
                         cuda::aligned_size_t<16>(16), pipe);
    }
    for (int v = threadIdx.x; v < BK * BN / 4; v += kThreads) {
      const int r = v / (BN / 4), c = (v % (BN / 4)) * 4;
      cuda::memcpy_async(sB + (s * BK + r) * BN + c, B + static_cast<size_t>(k0 + r) * N + col0 + c,
                         cuda::aligned_size_t<16>(16), pipe);
    }
    pipe.producer_commit();
  };

  float acc[TM][TN] = {};
  int fetched = 0;
  for (; fetched < Stages - 1 && fetched < tiles; ++fetched) issue(fetched);
  for (int t = 0; t < tiles; ++t) {
    if (fetched < tiles) issue(fetched++);
    pipe.consumer_wait();
    const int s = t % Stages;
    const float *a = sA + s * BM * BK;
    const float *b = sB + s * BK * BN;
#pragma unroll 4
    for (int k = 0; k < BK; ++k) {
      float ra[TM], rb[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) ra[i] = a[(ty * TM + i) * BK + k];
#pragma unroll
      for (int j = 0; j < TN; ++j) rb[j] = b[k * BN + tx * TN + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
    }
    pipe.consumer_release();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    float4 *dst = reinterpret_cast<float4 *>(C + static_cast<size_t>(row0 + ty * TM + i) * N + col0 + tx * TN);
#pragma unroll
    for (int j = 0; j < TN / 4; ++j)
      dst[j] = make_float4(acc[i][4 * j], acc[i][4 * j + 1], acc[i][4 * j + 2], acc[i][4 * j + 3]);
  }
}

// Double buffering with cooperative_groups::memcpy_async and wait_prior:
// a 32 x 32 tile GEMM, one output per thread, 32 x 8 threads.
template <int Tile>
__global__ void cg_double_buffer_sgemm_kernel(float *__restrict__ C, const float *__restrict__ A,
                                              const float *__restrict__ B, int M, int N, int K) {
  __shared__ __align__(16) float sA[2][Tile][Tile];
  __shared__ __align__(16) float sB[2][Tile][Tile];
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  const int row0 = blockIdx.y * Tile, col0 = blockIdx.x * Tile;
  constexpr int kRowsPerThread = Tile / 8;
  float acc[kRowsPerThread] = {};
  const int tiles = K / Tile;

  // Each warp copies its rows of the tile, a row per call.
  auto load = [&](int t, int buf) {
    for (int r = warp.meta_group_rank(); r < Tile; r += warp.meta_group_size()) {
      cg::memcpy_async(warp, &sA[buf][r][0], A + static_cast<size_t>(row0 + r) * K + t * Tile,
                       sizeof(float) * Tile);
      cg::memcpy_async(warp, &sB[buf][r][0], B + static_cast<size_t>(t * Tile + r) * N + col0,
                       cuda::aligned_size_t<16>(sizeof(float) * Tile));
    }
  };
  load(0, 0);
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      load(t + 1, (t + 1) & 1);
      cg::wait_prior<1>(warp);
    } else {
      cg::wait(warp);
    }
    block.sync();
    const int buf = t & 1;
    for (int i = 0; i < kRowsPerThread; ++i) {
      const int r = threadIdx.y + 8 * i;
      float s = 0.f;
#pragma unroll 8
      for (int k = 0; k < Tile; ++k) s += sA[buf][r][k] * sB[buf][k][threadIdx.x];
      acc[i] += s;
    }
    block.sync();
  }
  for (int i = 0; i < kRowsPerThread; ++i)
    C[static_cast<size_t>(row0 + threadIdx.y + 8 * i) * N + col0 + threadIdx.x] = acc[i];
}

// Elementwise bias + GELU (tanh form) used to exercise the occupancy API.
template <typename T>
__global__ void bias_gelu_kernel(T *y, const T *x, const T *bias, int rows, int cols) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows * cols; i += gridDim.x * blockDim.x) {
    const float v = static_cast<float>(x[i]) + static_cast<float>(bias[i % cols]);
    const float u = 0.7978845608f * (v + 0.044715f * v * v * v);
    y[i] = static_cast<T>(0.5f * v * (1.f + tanhf(u)));
  }
}

}  // namespace mlk
