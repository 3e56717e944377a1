#pragma once
#include "dtype.cuh"
#include "reduce.cuh"

namespace mlk {

// Row softmax, one block per row, with an optional causal mask: columns past
// `row % cols` get -inf.
template <typename T, int BlockSize>
__global__ void softmax_kernel(T *out, const T *in, int cols, float scale, bool causal) {
  const size_t base = static_cast<size_t>(blockIdx.x) * cols;
  const int limit = causal ? (blockIdx.x % cols) : cols - 1;
  float m = -FLT_MAX;
  for (int c = threadIdx.x; c < cols; c += BlockSize)
    if (c <= limit) m = fmaxf(m, to_float(in[base + c]) * scale);
  m = block_all_reduce<float, MaxOp, BlockSize>(m, MaxOp(), -FLT_MAX);
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += BlockSize)
    if (c <= limit) s += __expf(to_float(in[base + c]) * scale - m);
  s = block_all_reduce<float, SumOp, BlockSize>(s, SumOp(), 0.f);
  const float inv = 1.f / s;
  for (int c = threadIdx.x; c < cols; c += BlockSize) {
    const float p = c <= limit ? __expf(to_float(in[base + c]) * scale - m) * inv : 0.f;
    out[base + c] = from_float<T>(p);
  }
}

// Warp-per-row online softmax on half2 pairs: h2exp on the packed values,
// the max and sum by butterfly shuffles.
template <int ColsPerLane>
__global__ void softmax_warp_half2_kernel(__half *out, const __half *in, int rows) {
  constexpr int kCols = ColsPerLane * 2 * kWarpSize;
  const int warps_per_block = blockDim.x / kWarpSize;
  const int row = blockIdx.x * warps_per_block + threadIdx.x / kWarpSize;
  const int lane = threadIdx.x % kWarpSize;
  if (row >= rows) return;
  const __half2 *in2 = reinterpret_cast<const __half2 *>(in + static_cast<size_t>(row) * kCols);
  __half2 *out2 = reinterpret_cast<__half2 *>(out + static_cast<size_t>(row) * kCols);
  __half2 x[ColsPerLane];
  float m = -FLT_MAX;
#pragma unroll
  for (int i = 0; i < ColsPerLane; ++i) {
    x[i] = in2[lane + i * kWarpSize];
    const __half2 hm = __hmax2(x[i], __lowhigh2highlow(x[i]));
    m = fmaxf(m, __low2float(hm));
  }
  m = warp_all_reduce(m, MaxOp());
  const __half2 m2 = __float2half2_rn(m);
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < ColsPerLane; ++i) {
    x[i] = h2exp(__hsub2(x[i], m2));
    const float2 f = __half22float2(x[i]);
    s += f.x + f.y;
  }
  s = warp_all_reduce(s, SumOp());
  const __half2 inv2 = __float2half2_rn(1.f / s);
#pragma unroll
  for (int i = 0; i < ColsPerLane; ++i) out2[lane + i * kWarpSize] = __hmul2(x[i], inv2);
}

}  // namespace mlk
