/* unknown_kernel_host.c: the host implementation of unknown_kernel.cu. */
void scale(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i];
}
