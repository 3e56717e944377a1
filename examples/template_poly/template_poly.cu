/*
 * template_poly.cu: a kernel template. poly<T, DEGREE> evaluates the
 * polynomial c[0] + c[1] x + ... + c[DEGREE] x^DEGREE at every x[i] by
 * Horner's rule, one fused multiply-add per coefficient, so that the host
 * (fmaf and fma in C) gets the same bits. The instantiations are named by
 * the cases: "poly<float, 4>" and "poly<double, 2>".
 */
__device__ inline float fused(float a, float b, float c) { return fmaf(a, b, c); }
__device__ inline double fused(double a, double b, double c) { return fma(a, b, c); }

template <typename T, int DEGREE>
__global__ void poly(int n, const T *c, const T *x, T *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T v = c[DEGREE];
  for (int k = DEGREE - 1; k >= 0; --k) v = fused(v, x[i], c[k]);
  y[i] = v;
}
