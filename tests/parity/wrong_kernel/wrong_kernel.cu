/* wrong_kernel.cu: wrong on purpose: the bound is i < n - 1, so the last
 * element of y is never updated (one element of 1000 differs). */
extern "C" __global__ void axpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1) y[i] = fmaf(a, x[i], y[i]);
}
