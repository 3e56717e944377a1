/* wrong_host.cu: y = a * x + y over n floats (correct; the host file of
 * this case is the wrong one). */
extern "C" __global__ void axpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaf(a, x[i], y[i]);
}
