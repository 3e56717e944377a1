#pragma once
#include <cub/block/block_reduce.cuh>
#include <cuda/std/functional>

#include "dtype.cuh"
#include "reduce.cuh"

namespace mlk {

// LayerNorm over rows of length `hidden`: one block per row, mean and
// variance reduced with cub::BlockReduce (two passes over registers).
template <typename T, int BlockSize, int ItemsPerThread>
__global__ void __launch_bounds__(BlockSize)
layer_norm_kernel(T *__restrict__ out, const T *__restrict__ in,
                  const T *__restrict__ gamma, const T *__restrict__ beta,
                  int hidden, float eps) {
  using BlockReduce = cub::BlockReduce<float, BlockSize>;
  __shared__ typename BlockReduce::TempStorage temp;
  __shared__ float s_mean, s_rstd;

  const T *row_in = in + static_cast<size_t>(blockIdx.x) * hidden;
  T *row_out = out + static_cast<size_t>(blockIdx.x) * hidden;

  float vals[ItemsPerThread];
  float local = 0.f;
#pragma unroll
  for (int i = 0; i < ItemsPerThread; ++i) {
    const int col = threadIdx.x + i * BlockSize;
    vals[i] = col < hidden ? to_float(row_in[col]) : 0.f;
    local += vals[i];
  }
  float sum = BlockReduce(temp).Sum(local);
  if (threadIdx.x == 0) s_mean = sum / hidden;
  __syncthreads();
  const float mean = s_mean;

  float sq = 0.f;
#pragma unroll
  for (int i = 0; i < ItemsPerThread; ++i) {
    const int col = threadIdx.x + i * BlockSize;
    const float d = col < hidden ? vals[i] - mean : 0.f;
    sq += d * d;
  }
  float var = BlockReduce(temp).Reduce(sq, ::cuda::std::plus<float>{});
  if (threadIdx.x == 0) s_rstd = rsqrtf(var / hidden + eps);
  __syncthreads();
  const float rstd = s_rstd;

#pragma unroll
  for (int i = 0; i < ItemsPerThread; ++i) {
    const int col = threadIdx.x + i * BlockSize;
    if (col < hidden) {
      const float y = (vals[i] - mean) * rstd * to_float(gamma[col]) + to_float(beta[col]);
      row_out[col] = from_float<T>(y);
    }
  }
}

// RMSNorm for 16-bit types with packed pairs: each thread reads 8 values
// (one uint4) at a time; the sum of squares by warp shuffles and shared memory.
template <typename T, int BlockSize>
__global__ void rms_norm_vec_kernel(T *__restrict__ out, const T *__restrict__ in,
                                    const T *__restrict__ weight, int hidden, float eps) {
  using P2 = typename Packed2<T>::type;
  constexpr int kVec = 8;
  const int row = blockIdx.x;
  const uint4 *in4 = reinterpret_cast<const uint4 *>(in + static_cast<size_t>(row) * hidden);
  const uint4 *w4 = reinterpret_cast<const uint4 *>(weight);
  uint4 *out4 = reinterpret_cast<uint4 *>(out + static_cast<size_t>(row) * hidden);
  const int nvec = hidden / kVec;

  float sq = 0.f;
  for (int v = threadIdx.x; v < nvec; v += BlockSize) {
    uint4 raw = in4[v];
    const P2 *p = reinterpret_cast<const P2 *>(&raw);
#pragma unroll
    for (int j = 0; j < kVec / 2; ++j) {
      float2 f = to_float2(p[j]);
      sq += f.x * f.x + f.y * f.y;
    }
  }
  sq = block_all_reduce<float, SumOp, BlockSize>(sq, SumOp(), 0.f);
  const float scale = rsqrtf(sq / hidden + eps);
  const P2 scale2 = from_float2<P2>(make_float2(scale, scale));
  (void)scale2;

  for (int v = threadIdx.x; v < nvec; v += BlockSize) {
    uint4 raw = in4[v];
    uint4 wraw = w4[v];
    uint4 res;
    const P2 *p = reinterpret_cast<const P2 *>(&raw);
    const P2 *w = reinterpret_cast<const P2 *>(&wraw);
    P2 *r = reinterpret_cast<P2 *>(&res);
#pragma unroll
    for (int j = 0; j < kVec / 2; ++j) {
      float2 f = to_float2(p[j]);
      f.x *= scale;
      f.y *= scale;
      r[j] = __hmul2(from_float2<P2>(f), w[j]);
    }
    out4[v] = res;
  }
}

// Fused residual add + RMSNorm in float for every type, with cub's sum.
template <typename T, int BlockSize>
__global__ void add_rms_norm_kernel(T *__restrict__ out, T *__restrict__ residual,
                                    const T *__restrict__ in, const T *__restrict__ weight,
                                    int hidden, float eps) {
  using BlockReduce = cub::BlockReduce<float, BlockSize, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  __shared__ typename BlockReduce::TempStorage temp;
  __shared__ float s_scale;
  extern __shared__ float s_row[];
  const size_t base = static_cast<size_t>(blockIdx.x) * hidden;
  float sq = 0.f;
  for (int c = threadIdx.x; c < hidden; c += BlockSize) {
    const float x = to_float(in[base + c]) + to_float(residual[base + c]);
    residual[base + c] = from_float<T>(x);
    s_row[c] = x;
    sq += x * x;
  }
  const float total = BlockReduce(temp).Sum(sq);
  if (threadIdx.x == 0) s_scale = rsqrtf(total / hidden + eps);
  __syncthreads();
  for (int c = threadIdx.x; c < hidden; c += BlockSize)
    out[base + c] = from_float<T>(s_row[c] * s_scale * to_float(weight[c]));
}

}  // namespace mlk
