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
/* The toolkit's own cuComplex.h defines CU_COMPLEX_H_: where it came first
 * (cublas_api.h, cufft.h and cusolverDn.h include it as "cuComplex.h",
 * from their own folder), its definitions stand, and this file adds none,
 * so that <cublas_v2.h> then <cuComplex.h> builds as with nvcc. The same
 * functions with CUDA's algorithms either way. */
#if !defined(CUEMU_CUCOMPLEX_H) && !defined(CU_COMPLEX_H_)
#define CUEMU_CUCOMPLEX_H

#ifndef __cplusplus
#error "the CUDA shims are C++ headers; compile .cu files with cuemu-cc"
#endif

#include <cmath>
#include <limits>

#include "vector_types.h"

/* cuComplex.h's own include guard, which some programs test. */
#define CU_COMPLEX_H_

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

/* ---- One implementation for both precisions ------------------------------
 *
 * C is cuFloatComplex or cuDoubleComplex, T its part's type; CUDA's names
 * below forward to these. */

namespace cuemu {
namespace complex {

template <class C_, class T> inline C_ make(T re, T im) {
  C_ c;
  c.x = re;
  c.y = im;
  return c;
}

template <class C_> inline C_ conj(C_ x) { return make<C_>(x.x, -x.y); }

template <class C_> inline C_ add(C_ x, C_ y) {
  return make<C_>(x.x + y.x, x.y + y.y);
}

template <class C_> inline C_ sub(C_ x, C_ y) {
  return make<C_>(x.x - y.x, x.y - y.y);
}

template <class C_> inline C_ mul(C_ x, C_ y) {
  const auto re = x.x * y.x - x.y * y.y;
  const auto im = x.x * y.y + x.y * y.x;
  return make<C_>(re, im);
}

/* x / y, with both scaled by 1 / (|y.re| + |y.im|) to avoid overflow. */
template <class C_> inline C_ div(C_ x, C_ y) {
  using T = decltype(x.x);
  const T scale = T(1) / (std::fabs(y.x) + std::fabs(y.y));
  const T xr = x.x * scale, xi = x.y * scale;
  const T yr = y.x * scale, yi = y.y * scale;
  const T inv = T(1) / (yr * yr + yi * yi);
  return make<C_>((xr * yr + xi * yi) * inv, (xi * yr - xr * yi) * inv);
}

/* |x| as big * sqrt(1 + (small / big)^2); zero and infinite parts give
 * big + small. */
template <class C_> inline auto abs(C_ x) -> decltype(x.x) {
  using T = decltype(x.x);
  const T a = std::fabs(x.x), b = std::fabs(x.y);
  const T big = a > b ? a : b;
  const T small = a > b ? b : a;
  const T __cuemu_q = small / big;
  T __cuemu_r = big * std::sqrt(T(1) + __cuemu_q * __cuemu_q);
  if (big == T(0) || big > std::numeric_limits<T>::max() ||
      small > std::numeric_limits<T>::max())
    __cuemu_r = big + small;
  return __cuemu_r;
}

/* x * y + d, accumulating in CUDA's order: first the x.re terms, then the
 * x.im terms. */
template <class C_> inline C_ fma(C_ x, C_ y, C_ d) {
  auto re = x.x * y.x + d.x;
  auto im = x.x * y.y + d.y;
  re = -(x.y * y.y) + re;
  im = x.y * y.x + im;
  return make<C_>(re, im);
}

} // namespace complex
} // namespace cuemu

/* ---- Single precision ---------------------------------------------------- */

inline float cuCrealf(cuFloatComplex x) { return x.x; }
inline float cuCimagf(cuFloatComplex x) { return x.y; }
inline cuFloatComplex make_cuFloatComplex(float __cuemu_r, float __cuemu_i) {
  return cuemu::complex::make<cuFloatComplex>(__cuemu_r, __cuemu_i);
}
inline cuFloatComplex cuConjf(cuFloatComplex x) { return cuemu::complex::conj(x); }
inline cuFloatComplex cuCaddf(cuFloatComplex x, cuFloatComplex y) {
  return cuemu::complex::add(x, y);
}
inline cuFloatComplex cuCsubf(cuFloatComplex x, cuFloatComplex y) {
  return cuemu::complex::sub(x, y);
}
inline cuFloatComplex cuCmulf(cuFloatComplex x, cuFloatComplex y) {
  return cuemu::complex::mul(x, y);
}
inline cuFloatComplex cuCdivf(cuFloatComplex x, cuFloatComplex y) {
  return cuemu::complex::div(x, y);
}
inline float cuCabsf(cuFloatComplex x) { return cuemu::complex::abs(x); }
inline cuComplex cuCfmaf(cuComplex x, cuComplex y, cuComplex d) {
  return cuemu::complex::fma(x, y, d);
}

/* ---- Double precision ---------------------------------------------------- */

inline double cuCreal(cuDoubleComplex x) { return x.x; }
inline double cuCimag(cuDoubleComplex x) { return x.y; }
inline cuDoubleComplex make_cuDoubleComplex(double __cuemu_r, double __cuemu_i) {
  return cuemu::complex::make<cuDoubleComplex>(__cuemu_r, __cuemu_i);
}
inline cuDoubleComplex cuConj(cuDoubleComplex x) { return cuemu::complex::conj(x); }
inline cuDoubleComplex cuCadd(cuDoubleComplex x, cuDoubleComplex y) {
  return cuemu::complex::add(x, y);
}
inline cuDoubleComplex cuCsub(cuDoubleComplex x, cuDoubleComplex y) {
  return cuemu::complex::sub(x, y);
}
inline cuDoubleComplex cuCmul(cuDoubleComplex x, cuDoubleComplex y) {
  return cuemu::complex::mul(x, y);
}
inline cuDoubleComplex cuCdiv(cuDoubleComplex x, cuDoubleComplex y) {
  return cuemu::complex::div(x, y);
}
inline double cuCabs(cuDoubleComplex x) { return cuemu::complex::abs(x); }
inline cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y,
                              cuDoubleComplex d) {
  return cuemu::complex::fma(x, y, d);
}

/* ---- Conversions --------------------------------------------------------- */

inline cuComplex make_cuComplex(float x, float y) { return make_cuFloatComplex(x, y); }

inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return make_cuDoubleComplex(static_cast<double>(c.x), static_cast<double>(c.y));
}

inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_cuFloatComplex(static_cast<float>(c.x), static_cast<float>(c.y));
}

#endif /* CUEMU_CUCOMPLEX_H */
