// init_half_conversions.cu: a deliberately buggy program for the checkers (tests/checkers.sh).
// CHECK: init
// EXPECT: init uninitialised global line 19 line 20 line 21 line 22
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

/* A half-precision model's weights, read through the conversions that
 * fp16 code uses (__half2float, float(), __bfloat162float, __low2float):
 * the loads happen inside the shims' inlined conversions and are the
 * user's reads all the same. Only the first half of the weights was
 * written: each conversion's read of the second half is reported at its
 * own line. */
__global__ void dequantize(const __half *w16, const __nv_bfloat16 *wb16,
                           const __half2 *w2, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __half2float(w16[i]) +
             float(w16[n - 1 - i]) +
             __bfloat162float(wb16[i]) +
             __low2float(w2[i]);
}

__global__ void fill_first_half(__half *w16, __nv_bfloat16 *wb16, __half2 *w2,
                                int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 2) {
    w16[i] = __float2half(1.0f);
    wb16[i] = __float2bfloat16(1.0f);
    w2[i] = __floats2half2_rn(1.0f, 1.0f);
  }
}

int main() {
  const int n = 64;
  __half *w16;
  __nv_bfloat16 *wb16;
  __half2 *w2;
  float *out, host[n];
  cudaMalloc(&w16, n * sizeof(__half));
  cudaMalloc(&wb16, n * sizeof(__nv_bfloat16));
  cudaMalloc(&w2, n * sizeof(__half2));
  cudaMalloc(&out, n * sizeof(float));
  fill_first_half<<<1, n>>>(w16, wb16, w2, n);
  dequantize<<<1, n>>>(w16, wb16, w2, out, n);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("%g\n", host[0]);
  cudaFree(w16);
  cudaFree(wb16);
  cudaFree(w2);
  cudaFree(out);
  return 0;
}
