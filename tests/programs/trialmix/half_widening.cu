// half_widening.cu: every one of the 65536 bit patterns of __half and of
// __nv_bfloat16, widened to float in a kernel (__half2float,
// __bfloat162float, __low2float and __high2float of a __half2), gives the
// value its bits encode: zeros of both signs, subnormals, normals,
// infinities, and NaN for a NaN. And every non-NaN half times one, plus
// zero by a fused multiply-add in both lanes of a __half2, gives itself
// back (-0 * 1 + -0 stays -0): the arithmetic widens its operands the same
// way and rounds back. mixbench's half2 kernels were 10 to 50 times slower
// than its float ones while the widening called the C library's ldexp;
// bench/bench_half_arith.cu measures the speed, this program the values.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdio>
#include <cstring>

static const int patterns = 65536;

__global__ void widen(const unsigned short *bits, float *half_out,
                      float *bf16_out, float *low_out, float *high_out,
                      unsigned short *fma_out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= patterns) return;
  const __half h = __ushort_as_half(bits[i]);
  half_out[i] = __half2float(h);
  bf16_out[i] = __bfloat162float(__ushort_as_bfloat16(bits[i]));
  const __half2 pair = __halves2half2(h, __ushort_as_half(bits[patterns - 1 - i]));
  low_out[i] = __low2float(pair);
  high_out[i] = __high2float(pair);
  const __half2 one = __float2half2_rn(1.0f);
  const __half2 zero = __halves2half2(__ushort_as_half(bits[i] & 0x8000U),
                                      __ushort_as_half(bits[patterns - 1 - i] & 0x8000U));
  const __half2 same = __hfma2(pair, one, zero);
  fma_out[2 * i] = __half_as_ushort(__low2half(same));
  fma_out[2 * i + 1] = __half_as_ushort(__high2half(same));
}

// The value of a 16-bit pattern with `ebits` exponent and `mbits` fraction
// bits, decoded with integer arithmetic and ldexp, as the formats define it.
static double decode(unsigned bits, int ebits, int mbits) {
  const int bias = (1 << (ebits - 1)) - 1;
  const unsigned e = (bits >> mbits) & ((1U << ebits) - 1U);
  const unsigned m = bits & ((1U << mbits) - 1U);
  double v;
  if (e == (1U << ebits) - 1U)
    v = m != 0U ? NAN : INFINITY;
  else if (e == 0U)
    v = std::ldexp((double)m, 1 - bias - mbits);
  else
    v = std::ldexp((double)(m | (1U << mbits)), (int)e - bias - mbits);
  return (bits & 0x8000U) != 0U ? -v : v;
}

// Whether `got` is exactly `want`: the same bits for numbers (so -0 is not
// +0), any NaN for a NaN.
static bool same_value(float got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  const float w = (float)want;
  return std::memcmp(&got, &w, sizeof w) == 0;
}

static bool is_half_nan(unsigned bits) {
  return (bits & 0x7C00U) == 0x7C00U && (bits & 0x03FFU) != 0U;
}

int main() {
  static unsigned short bits[patterns], fma_bits[2 * patterns];
  static float half_vals[patterns], bf16_vals[patterns], low[patterns], high[patterns];
  for (int i = 0; i < patterns; ++i) bits[i] = (unsigned short)i;
  unsigned short *d_bits, *d_fma;
  float *d_half, *d_bf16, *d_low, *d_high;
  cudaMalloc(&d_bits, sizeof bits);
  cudaMalloc(&d_fma, sizeof fma_bits);
  cudaMalloc(&d_half, sizeof half_vals);
  cudaMalloc(&d_bf16, sizeof bf16_vals);
  cudaMalloc(&d_low, sizeof low);
  cudaMalloc(&d_high, sizeof high);
  cudaMemcpy(d_bits, bits, sizeof bits, cudaMemcpyHostToDevice);
  widen<<<patterns / 256, 256>>>(d_bits, d_half, d_bf16, d_low, d_high, d_fma);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAIL: the kernel failed: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  cudaMemcpy(half_vals, d_half, sizeof half_vals, cudaMemcpyDeviceToHost);
  cudaMemcpy(bf16_vals, d_bf16, sizeof bf16_vals, cudaMemcpyDeviceToHost);
  cudaMemcpy(low, d_low, sizeof low, cudaMemcpyDeviceToHost);
  cudaMemcpy(high, d_high, sizeof high, cudaMemcpyDeviceToHost);
  cudaMemcpy(fma_bits, d_fma, sizeof fma_bits, cudaMemcpyDeviceToHost);
  int failures = 0;
  for (int i = 0; i < patterns && failures < 10; ++i) {
    const unsigned other = patterns - 1 - i;
    const double h = decode(i, 5, 10), b = decode(i, 8, 7);
    if (!same_value(half_vals[i], h) || !same_value(low[i], h) ||
        !same_value(high[i], decode(other, 5, 10))) {
      printf("FAIL: half 0x%04x: %a (low %a, high %a of 0x%04x), expected %a\n", i,
             half_vals[i], low[i], high[i], other, h);
      ++failures;
    }
    if (!same_value(bf16_vals[i], b)) {
      printf("FAIL: bfloat16 0x%04x: %a, expected %a\n", i, bf16_vals[i], b);
      ++failures;
    }
    if ((!is_half_nan(i) && fma_bits[2 * i] != i) ||
        (!is_half_nan(other) && fma_bits[2 * i + 1] != other)) {
      printf("FAIL: __hfma2 of 0x%04x, 0x%04x by one plus zero: 0x%04x, 0x%04x\n", i,
             other, fma_bits[2 * i], fma_bits[2 * i + 1]);
      ++failures;
    }
  }
  if (failures != 0) return 1;
  printf("PASS\n");
  return 0;
}
