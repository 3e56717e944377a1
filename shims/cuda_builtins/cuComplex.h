/*
 * cuComplex.h: CUDA's single- and double-precision complex numbers.
 *
 * cuFloatComplex is float2 and cuDoubleComplex is double2 (x the real part,
 * y the imaginary part), as in CUDA. Division and the absolute value use
 * CUDA's algorithms (scaling by |re| + |im|, and a hypotenuse through the
 * ratio of the smaller to the larger part), in CUDA's order of operations,
 * so results agree with the GPU's bit for bit unless the GPU contracts a
 * product and a sum into a fused multiply-add.
 */
#ifndef CUEMU_CUCOMPLEX_H
#define CUEMU_CUCOMPLEX_H

#ifndef __cplusplus
#error "the CUDA shims are C++ headers; compile .cu files with cuemu-cc"
#endif

#include <cmath>

#include "vector_types.h"

/* cuComplex.h's own include guard, which some programs test. */
#define CU_COMPLEX_H_

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

/* ---- Single precision ---------------------------------------------------- */

inline float cuCrealf(cuFloatComplex x) { return x.x; }
inline float cuCimagf(cuFloatComplex x) { return x.y; }

inline cuFloatComplex make_cuFloatComplex(float r, float i) {
  cuFloatComplex c;
  c.x = r;
  c.y = i;
  return c;
}

inline cuFloatComplex cuConjf(cuFloatComplex x) {
  return make_cuFloatComplex(x.x, -x.y);
}

inline cuFloatComplex cuCaddf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(x.x + y.x, x.y + y.y);
}

inline cuFloatComplex cuCsubf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(x.x - y.x, x.y - y.y);
}

inline cuFloatComplex cuCmulf(cuFloatComplex x, cuFloatComplex y) {
  const float re = x.x * y.x - x.y * y.y;
  const float im = x.x * y.y + x.y * y.x;
  return make_cuFloatComplex(re, im);
}

/* x / y, with both scaled by 1 / (|y.re| + |y.im|) to avoid overflow. */
inline cuFloatComplex cuCdivf(cuFloatComplex x, cuFloatComplex y) {
  const float scale = 1.0f / (std::fabs(y.x) + std::fabs(y.y));
  const float xr = x.x * scale, xi = x.y * scale;
  const float yr = y.x * scale, yi = y.y * scale;
  const float inv = 1.0f / (yr * yr + yi * yi);
  return make_cuFloatComplex((xr * yr + xi * yi) * inv, (xi * yr - xr * yi) * inv);
}

/* |x| as big * sqrt(1 + (small / big)^2); zero and infinite parts give
 * big + small. */
inline float cuCabsf(cuFloatComplex x) {
  const float a = std::fabs(x.x), b = std::fabs(x.y);
  const float big = a > b ? a : b;
  const float small = a > b ? b : a;
  const float q = small / big;
  float r = big * std::sqrt(1.0f + q * q);
  if (big == 0.0f || big > 3.402823466e38f || small > 3.402823466e38f)
    r = big + small;
  return r;
}

/* ---- Double precision ---------------------------------------------------- */

inline double cuCreal(cuDoubleComplex x) { return x.x; }
inline double cuCimag(cuDoubleComplex x) { return x.y; }

inline cuDoubleComplex make_cuDoubleComplex(double r, double i) {
  cuDoubleComplex c;
  c.x = r;
  c.y = i;
  return c;
}

inline cuDoubleComplex cuConj(cuDoubleComplex x) {
  return make_cuDoubleComplex(x.x, -x.y);
}

inline cuDoubleComplex cuCadd(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(x.x + y.x, x.y + y.y);
}

inline cuDoubleComplex cuCsub(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(x.x - y.x, x.y - y.y);
}

inline cuDoubleComplex cuCmul(cuDoubleComplex x, cuDoubleComplex y) {
  const double re = x.x * y.x - x.y * y.y;
  const double im = x.x * y.y + x.y * y.x;
  return make_cuDoubleComplex(re, im);
}

inline cuDoubleComplex cuCdiv(cuDoubleComplex x, cuDoubleComplex y) {
  const double scale = 1.0 / (std::fabs(y.x) + std::fabs(y.y));
  const double xr = x.x * scale, xi = x.y * scale;
  const double yr = y.x * scale, yi = y.y * scale;
  const double inv = 1.0 / (yr * yr + yi * yi);
  return make_cuDoubleComplex((xr * yr + xi * yi) * inv, (xi * yr - xr * yi) * inv);
}

inline double cuCabs(cuDoubleComplex x) {
  const double a = std::fabs(x.x), b = std::fabs(x.y);
  const double big = a > b ? a : b;
  const double small = a > b ? b : a;
  const double q = small / big;
  double r = big * std::sqrt(1.0 + q * q);
  if (big == 0.0 || big > 1.79769313486231570e+308 || small > 1.79769313486231570e+308)
    r = big + small;
  return r;
}

/* ---- Conversions and fused multiply-add ---------------------------------- */

inline cuComplex make_cuComplex(float x, float y) { return make_cuFloatComplex(x, y); }

inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return make_cuDoubleComplex(static_cast<double>(c.x), static_cast<double>(c.y));
}

inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_cuFloatComplex(static_cast<float>(c.x), static_cast<float>(c.y));
}

/* x * y + d, accumulating in CUDA's order: first the x.re terms, then the
 * x.im terms. */
inline cuComplex cuCfmaf(cuComplex x, cuComplex y, cuComplex d) {
  float re = x.x * y.x + d.x;
  float im = x.x * y.y + d.y;
  re = -(x.y * y.y) + re;
  im = x.y * y.x + im;
  return make_cuComplex(re, im);
}

inline cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d) {
  double re = x.x * y.x + d.x;
  double im = x.x * y.y + d.y;
  re = -(x.y * y.y) + re;
  im = x.y * y.x + im;
  return make_cuDoubleComplex(re, im);
}

#endif /* CUEMU_CUCOMPLEX_H */
