/* template_poly_host.c: the host implementations of the two instantiations
 * of poly in template_poly.cu that the cases use. */
#include <math.h>

/* poly<float, 4>. */
void poly_float_4(int n, const float *c, const float *x, float *y) {
  for (int i = 0; i < n; ++i) {
    float v = c[4];
    for (int k = 3; k >= 0; --k) v = fmaf(v, x[i], c[k]);
    y[i] = v;
  }
}

/* poly<double, 2>. */
void poly_double_2(int n, const double *c, const double *x, double *y) {
  for (int i = 0; i < n; ++i) {
    double v = c[2];
    for (int k = 1; k >= 0; --k) v = fma(v, x[i], c[k]);
    y[i] = v;
  }
}
