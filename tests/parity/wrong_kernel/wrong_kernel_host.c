/* wrong_kernel_host.c: the correct host implementation of y = a * x + y. */
#include <math.h>

void axpy(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i) y[i] = fmaf(a, x[i], y[i]);
}
