/* Wrong on purpose: subtracts y instead of adding it, so every element
 * differs from the kernel's. */
#include <math.h>

void axpy(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i) y[i] = fmaf(a, x[i], -y[i]);
}
