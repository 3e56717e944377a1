/* arg_type.cu: y = a * x over n floats (see arg_type.parity.yaml for what is wrong). */
extern "C" __global__ void scale(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
