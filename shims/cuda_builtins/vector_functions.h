/*
 * vector_functions.h: CUDA's make_<type>() constructors for every vector
 * type of vector_types.h. In C they are static inline functions, as in
 * CUDA's header.
 */
#ifndef CUEMU_VECTOR_FUNCTIONS_H
#define CUEMU_VECTOR_FUNCTIONS_H

#include "vector_types.h"

#ifndef __VECTOR_FUNCTIONS_H__
#define __VECTOR_FUNCTIONS_H__
#endif

#ifdef __cplusplus
#define CUEMU_MAKE_INLINE_ inline
#else
#define CUEMU_MAKE_INLINE_ static __inline__
#endif

/* make_<type>() for every type of CUEMU_VECTOR_TYPES (vector_types.h). */
#define CUEMU_MAKE_VECTOR_(V_, T)                                              \
  CUEMU_MAKE_INLINE_ V_##1 make_##V_##1(T x) {                                 \
    V_##1 v = {x};                                                             \
    return v;                                                                  \
  }                                                                            \
  CUEMU_MAKE_INLINE_ V_##2 make_##V_##2(T x, T y) {                            \
    V_##2 v = {x, y};                                                          \
    return v;                                                                  \
  }                                                                            \
  CUEMU_MAKE_INLINE_ V_##3 make_##V_##3(T x, T y, T z) {                       \
    V_##3 v = {x, y, z};                                                       \
    return v;                                                                  \
  }
#define CUEMU_MAKE_VECTOR4_(V_, T)                                             \
  CUEMU_MAKE_INLINE_ V_ make_##V_(T x, T y, T z, T w) {                        \
    V_ v = {x, y, z, w};                                                       \
    return v;                                                                  \
  }
#define CUEMU_MAKE_NARROW_(stem, T, align2, align4)                            \
  CUEMU_MAKE_VECTOR_(stem, T)                                                  \
  CUEMU_MAKE_VECTOR4_(stem##4, T)
/* The deprecated stem4 type: its use, not this definition, should warn. */
#define CUEMU_MAKE_WIDE_(stem, T)                                              \
  CUEMU_MAKE_VECTOR_(stem, T)                                                  \
  _Pragma("GCC diagnostic push")                                               \
  _Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"")              \
  CUEMU_MAKE_VECTOR4_(stem##4, T)                                              \
  _Pragma("GCC diagnostic pop")                                                \
  CUEMU_MAKE_VECTOR4_(stem##4_16a, T)                                          \
  CUEMU_MAKE_VECTOR4_(stem##4_32a, T)

CUEMU_VECTOR_TYPES(CUEMU_MAKE_NARROW_, CUEMU_MAKE_WIDE_)

#undef CUEMU_MAKE_WIDE_
#undef CUEMU_MAKE_NARROW_
#undef CUEMU_MAKE_VECTOR4_
#undef CUEMU_MAKE_VECTOR_
#undef CUEMU_MAKE_INLINE_

#endif /* CUEMU_VECTOR_FUNCTIONS_H */
