/* out_of_bounds.cu: wrong on purpose: each thread writes y[i + 1], so the
 * last thread writes one element past the end of y. */
extern "C" __global__ void shift(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i + 1] = x[i];
}
