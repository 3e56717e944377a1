/*
 * half_axpy.cu: half precision from <cuda_fp16.h>.
 *
 * haxpy: y = a * x + y on __half with __hfma (one rounding to half of the
 * exact a * x + y).
 * half_round: h = __float2half_rn(x) (round to nearest even, overflow to
 * infinity, subnormal halves) and back = __half2float(h) (exact).
 */
#include <cuda_fp16.h>

extern "C" __global__ void haxpy(int n, __half a, const __half *x,
                                 __half *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hfma(a, x[i], y[i]);
}

extern "C" __global__ void half_round(int n, const float *x, __half *h,
                                      float *back) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half v = __float2half_rn(x[i]);
  h[i] = v;
  back[i] = __half2float(v);
}
