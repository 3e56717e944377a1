/* host_compile_error.cu: y = a * x over n floats; the kernel is fine, its
 * host file does not compile. */
extern "C" __global__ void scale(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
