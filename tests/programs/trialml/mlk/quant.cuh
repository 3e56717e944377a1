#pragma once
#include <cuda_fp8.h>
#include <cstdint>

#include "dtype.cuh"
#include "reduce.cuh"

namespace mlk {

// Per-token symmetric int8 quantization: one block per row, the absolute
// maximum by a block reduction, scales stored per row.
template <typename T, int BlockSize>
__global__ void quantize_per_token_int8(int8_t *__restrict__ q, float *__restrict__ scales,
                                        const T *__restrict__ x, int hidden) {
  const size_t base = static_cast<size_t>(blockIdx.x) * hidden;
  float amax = 0.f;
  for (int c = threadIdx.x; c < hidden; c += BlockSize) amax = fmaxf(amax, fabsf(to_float(x[base + c])));
  amax = block_all_reduce<float, MaxOp, BlockSize>(amax, MaxOp(), 0.f);
  const float scale = amax > 0.f ? amax / 127.f : 1.f;
  const float inv = 1.f / scale;
  if (threadIdx.x == 0) scales[blockIdx.x] = scale;
  // Four values per store through char4.
  char4 *q4 = reinterpret_cast<char4 *>(q + base);
  for (int v = threadIdx.x; v < hidden / 4; v += BlockSize) {
    int r[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      int iv = __float2int_rn(to_float(x[base + 4 * v + j]) * inv);
      r[j] = max(-127, min(127, iv));
    }
    q4[v] = make_char4(static_cast<signed char>(r[0]), static_cast<signed char>(r[1]),
                       static_cast<signed char>(r[2]), static_cast<signed char>(r[3]));
  }
}

template <typename T>
__global__ void dequantize_int8(T *__restrict__ y, const int8_t *__restrict__ q,
                                const float *__restrict__ scales, int rows, int hidden) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * hidden) return;
  y[i] = from_float<T>(static_cast<float>(q[i]) * scales[i / hidden]);
}

// Per-tensor fp8 quantization with a given scale (amax / 448 for e4m3):
// pairs converted by the saturating intrinsic, four at a time through the
// x4 type.
__global__ void quantize_fp8_e4m3(__nv_fp8_storage_t *__restrict__ q, const float *__restrict__ x,
                                  const float *__restrict__ scale, int n) {
  const int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  const float inv = 1.f / *scale;
  if (i + 3 < n) {
    const float4 v = *reinterpret_cast<const float4 *>(x + i);
    const float4 s = make_float4(v.x * inv, v.y * inv, v.z * inv, v.w * inv);
    __nv_fp8x4_e4m3 p(s);
    *reinterpret_cast<__nv_fp8x4_storage_t *>(q + i) = p.__x;
  } else if (i < n) {
    for (int j = i; j < n; ++j) q[j] = __nv_cvt_float_to_fp8(x[j] * inv, __NV_SATFINITE, __NV_E4M3);
  }
}

__global__ void dequantize_fp8_e4m3_to_half(__half *__restrict__ y, const __nv_fp8_storage_t *__restrict__ q,
                                            float scale, int n) {
  const int i = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
  if (i + 1 >= n) return;
  const __nv_fp8x2_storage_t pair = *reinterpret_cast<const __nv_fp8x2_storage_t *>(q + i);
  __half2_raw raw = __nv_cvt_fp8x2_to_halfraw2(pair, __NV_E4M3);
  __half2 h(raw);
  const __half2 s2 = __float2half2_rn(scale);
  *reinterpret_cast<__half2 *>(y + i) = __hmul2(h, s2);
}

// e5m2 round trip through the class type and bf16.
__global__ void round_trip_e5m2(__nv_bfloat16 *y, const __nv_bfloat16 *x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_fp8_e5m2 f(x[i]);
  y[i] = __float2bfloat16(static_cast<float>(f));
}

}  // namespace mlk
