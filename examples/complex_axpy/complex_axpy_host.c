/* complex_axpy_host.c: the host implementations of complex_axpy.cu. A
 * cuDoubleComplex is a struct of two doubles here; a cuFloatComplex is a
 * float _Complex (C allows either spelling of the same layout). The
 * products are written out as cuComplex.h defines them, without FMAs. */
#include <complex.h>

typedef struct {
  double x, y;
} complex_double;

void zaxpy(int n, complex_double a, const complex_double *x,
           complex_double *y) {
  for (int i = 0; i < n; ++i) {
    double re = a.x * x[i].x - a.y * x[i].y;
    double im = a.x * x[i].y + a.y * x[i].x;
    y[i].x = re + y[i].x;
    y[i].y = im + y[i].y;
  }
}

void cmul_conj(int n, float _Complex a, const float _Complex *x,
               float _Complex *y) {
  for (int i = 0; i < n; ++i) {
    float xr = crealf(x[i]), xi = -cimagf(x[i]);
    float ar = crealf(a), ai = cimagf(a);
    float re = xr * ar - xi * ai, im = xr * ai + xi * ar;
    y[i] = CMPLXF(re, im);
  }
}
