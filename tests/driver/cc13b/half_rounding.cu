// half_rounding.cu: accumulations in __half, __half2 and __nv_bfloat16
// round to the narrow format after every operation, as a GPU's half
// arithmetic does. Prints the bits of each result, one per line;
// tests/half_rounding.sh compares them with a software binary16 and
// bfloat16 computed on the host (numpy.float16 and round-to-nearest-even).
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

constexpr int kCount = 10000;
constexpr int kResults = 12;

// The number of steps is an argument, not a constant: with a constant
// count nvcc unrolls and folds the loops, and its compile of this file
// (tests/half_rounding.sh checks that nvcc takes it) took 54 s of CPU time
// instead of 1 s.
__global__ void accumulate(unsigned short *out, int count) {
  const __half tenth = __float2half(0.1f);
  __half by_operator = __float2half(0.0f);
  __half by_hadd = __float2half(0.0f);
  __half after_1000 = by_operator;
  __nv_bfloat16 bf16_after_100 = __float2bfloat16(0.0f);
  for (int i = 0; i < count; ++i) {
    by_operator += tenth;
    by_hadd = __hadd(by_hadd, tenth);
    if (i == 999)
      after_1000 = by_operator;
  }
  // __hfma: a fused multiply-add, one rounding per step.
  const __half x = __float2half(0.3f), y = __float2half(0.7f);
  __half by_hfma = __float2half(0.0f);
  for (int i = 0; i < count; ++i)
    by_hfma = __hfma(x, y, by_hfma);
  // __hadd2: each lane on its own.
  const __half2 step = __halves2half2(__float2half(0.1f), __float2half(0.01f));
  __half2 pair = __float2half2_rn(0.0f);
  for (int i = 0; i < count; ++i)
    pair = __hadd2(pair, step);
  // A product then a sum, each rounded: x * y + acc. (The product does not
  // change in the loop, so nvcc computes it once and cannot contract it
  // with the sum into a fused multiply-add: docs/nvcc-checks.md.)
  __half by_mul_add = __float2half(0.0f);
  for (int i = 0; i < count; ++i)
    by_mul_add = by_mul_add + x * y;
  // __nv_bfloat16: 8 bits of significand.
  const __nv_bfloat16 btenth = __float2bfloat16(0.1f);
  __nv_bfloat16 bsum = __float2bfloat16(0.0f);
  for (int i = 0; i < count; ++i) {
    bsum += btenth;
    if (i == 99)
      bf16_after_100 = bsum;
  }
  const __nv_bfloat16 bx = __float2bfloat16(0.3f), by = __float2bfloat16(0.7f);
  __nv_bfloat16 bfma = __float2bfloat16(0.0f);
  for (int i = 0; i < count; ++i)
    bfma = __hfma(bx, by, bfma);
  out[0] = __half_as_ushort(by_operator);
  out[1] = __half_as_ushort(by_hadd);
  out[2] = __half_as_ushort(by_hfma);
  out[3] = __half_as_ushort(__low2half(pair));
  out[4] = __half_as_ushort(__high2half(pair));
  out[5] = __half_as_ushort(by_mul_add);
  out[6] = __bfloat16_as_ushort(bsum);
  out[7] = __bfloat16_as_ushort(bfma);
  out[8] = __half_as_ushort(tenth);
  out[9] = __bfloat16_as_ushort(btenth);
  out[10] = __half_as_ushort(after_1000);
  out[11] = __bfloat16_as_ushort(bf16_after_100);
}

int main() {
  unsigned short *d = nullptr;
  unsigned short h[kResults];
  if (cudaMalloc(&d, sizeof h) != cudaSuccess)
    return 1;
  accumulate<<<1, 1>>>(d, kCount);
  if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
    return 1;
  cudaFree(d);
  const char *names[kResults] = {"half_operator", "half_hadd", "half_hfma",
                                 "half2_low",     "half2_high", "half_mul_add",
                                 "bf16_sum",      "bf16_hfma", "half_tenth",
                                 "bf16_tenth",    "half_after_1000",
                                 "bf16_after_100"};
  for (int i = 0; i < kResults; ++i)
    printf("%s %04x\n", names[i], h[i]);
  return 0;
}
