/* host_overrun.cu: a correct kernel (y[i] = 2 * x[i]) whose host
 * implementations write out of bounds of y (host_overrun_host.c). */
extern "C" __global__ void twice(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}
