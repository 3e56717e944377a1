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

#include <float.h>
#include <math.h>

#include "vector_types.h"

/* cuComplex.h's own include guard, which some programs test. */
#define CU_COMPLEX_H_

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

/* A C program (a .c file that the host compiler compiles, as NVIDIA's
 * cuSPARSE samples are, through <cusparse.h>, <cublas_v2.h>, <cufft.h> or
 * <cusolverDn.h>) includes this header as C++ code does, as it does
 * NVIDIA's: the functions are C's static inline functions there, C++'s
 * inline functions here, with one body. */
#ifdef __cplusplus
#define CUEMU_CUCOMPLEX_FN_ inline
#else
#define CUEMU_CUCOMPLEX_FN_ static inline
#endif

/* ---- One implementation for both precisions ------------------------------
 *
 * __cuemu_C is cuFloatComplex or cuDoubleComplex, __cuemu_T its part's
 * type, __cuemu_S the suffix of its names (f for float, none for double),
 * __cuemu_MAKE its constructor, __cuemu_FABS and __cuemu_SQRT the C
 * library's functions for __cuemu_T and __cuemu_MAX its largest finite
 * value. */
#define CUEMU_CUCOMPLEX_DEFINE_(__cuemu_C, __cuemu_T, __cuemu_S, __cuemu_MAKE, \
                                __cuemu_FABS, __cuemu_SQRT, __cuemu_MAX)       \
  CUEMU_CUCOMPLEX_FN_ __cuemu_T cuCreal##__cuemu_S(__cuemu_C x) {              \
    return x.x;                                                                \
  }                                                                            \
  CUEMU_CUCOMPLEX_FN_ __cuemu_T cuCimag##__cuemu_S(__cuemu_C x) {              \
    return x.y;                                                                \
  }                                                                            \
  CUEMU_CUCOMPLEX_FN_ __cuemu_C __cuemu_MAKE(__cuemu_T __cuemu_r,              \
                                             __cuemu_T __cuemu_i) {            \
    __cuemu_C __cuemu_c;                                                       \
    __cuemu_c.x = __cuemu_r;                                                   \
    __cuemu_c.y = __cuemu_i;                                                   \
    return __cuemu_c;                                                          \
  }                                                                            \
  CUEMU_CUCOMPLEX_FN_ __cuemu_C cuConj##__cuemu_S(__cuemu_C x) {               \
    return __cuemu_MAKE(x.x, -x.y);                                            \
  }                                                                            \
  CUEMU_CUCOMPLEX_FN_ __cuemu_C cuCadd##__cuemu_S(__cuemu_C x, __cuemu_C y) {  \
    return __cuemu_MAKE(x.x + y.x, x.y + y.y);                                 \
  }                                                                            \
  CUEMU_CUCOMPLEX_FN_ __cuemu_C cuCsub##__cuemu_S(__cuemu_C x, __cuemu_C y) {  \
    return __cuemu_MAKE(x.x - y.x, x.y - y.y);                                 \
  }                                                                            \
  CUEMU_CUCOMPLEX_FN_ __cuemu_C cuCmul##__cuemu_S(__cuemu_C x, __cuemu_C y) {  \
    const __cuemu_T __cuemu_re = x.x * y.x - x.y * y.y;                        \
    const __cuemu_T __cuemu_im = x.x * y.y + x.y * y.x;                        \
    return __cuemu_MAKE(__cuemu_re, __cuemu_im);                               \
  }                                                                            \
  /* x / y, with both scaled by 1 / (|y.re| + |y.im|) to avoid overflow. */    \
  CUEMU_CUCOMPLEX_FN_ __cuemu_C cuCdiv##__cuemu_S(__cuemu_C x, __cuemu_C y) {  \
    const __cuemu_T scale =                                                    \
        (__cuemu_T)1 / (__cuemu_FABS(y.x) + __cuemu_FABS(y.y));                \
    const __cuemu_T xr = x.x * scale, xi = x.y * scale;                        \
    const __cuemu_T yr = y.x * scale, yi = y.y * scale;                        \
    const __cuemu_T inv = (__cuemu_T)1 / (yr * yr + yi * yi);                  \
    return __cuemu_MAKE((xr * yr + xi * yi) * inv, (xi * yr - xr * yi) * inv); \
  }                                                                            \
  /* |x| as big * sqrt(1 + (small / big)^2); zero and infinite parts give      \
   * big + small. */                                                           \
  CUEMU_CUCOMPLEX_FN_ __cuemu_T cuCabs##__cuemu_S(__cuemu_C x) {               \
    const __cuemu_T a = __cuemu_FABS(x.x), b = __cuemu_FABS(x.y);              \
    const __cuemu_T big = a > b ? a : b;                                       \
    const __cuemu_T small = a > b ? b : a;                                     \
    const __cuemu_T __cuemu_q = small / big;                                   \
    __cuemu_T __cuemu_r =                                                      \
        big * __cuemu_SQRT((__cuemu_T)1 + __cuemu_q * __cuemu_q);              \
    if (big == (__cuemu_T)0 || big > __cuemu_MAX || small > __cuemu_MAX)       \
      __cuemu_r = big + small;                                                 \
    return __cuemu_r;                                                          \
  }                                                                            \
  /* x * y + d, accumulating in CUDA's order: first the x.re terms, then the   \
   * x.im terms. */                                                            \
  CUEMU_CUCOMPLEX_FN_ __cuemu_C cuCfma##__cuemu_S(__cuemu_C x, __cuemu_C y,    \
                                                  __cuemu_C d) {               \
    __cuemu_T __cuemu_re = x.x * y.x + d.x;                                    \
    __cuemu_T __cuemu_im = x.x * y.y + d.y;                                    \
    __cuemu_re = -(x.y * y.y) + __cuemu_re;                                    \
    __cuemu_im = x.y * y.x + __cuemu_im;                                       \
    return __cuemu_MAKE(__cuemu_re, __cuemu_im);                               \
  }

CUEMU_CUCOMPLEX_DEFINE_(cuFloatComplex, float, f, make_cuFloatComplex, fabsf,
                        sqrtf, FLT_MAX)
CUEMU_CUCOMPLEX_DEFINE_(cuDoubleComplex, double, , make_cuDoubleComplex, fabs,
                        sqrt, DBL_MAX)

#undef CUEMU_CUCOMPLEX_DEFINE_

/* ---- Conversions --------------------------------------------------------- */

CUEMU_CUCOMPLEX_FN_ cuComplex make_cuComplex(float x, float y) {
  return make_cuFloatComplex(x, y);
}

CUEMU_CUCOMPLEX_FN_ cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return make_cuDoubleComplex((double)c.x, (double)c.y);
}

CUEMU_CUCOMPLEX_FN_ cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_cuFloatComplex((float)c.x, (float)c.y);
}

#undef CUEMU_CUCOMPLEX_FN_

#endif /* CUEMU_CUCOMPLEX_H */
