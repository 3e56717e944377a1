/*
 * saxpy.cu: y = a * x + y over n elements, one thread per element, with a
 * partial last block. The product and the sum are one fused multiply-add
 * (fmaf), rounded once, so the host's fmaf gives the same bits.
 */
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaf(a, x[i], y[i]);
}
