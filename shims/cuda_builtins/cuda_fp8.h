/*
 * cuda_fp8.h: CUDA's 8-bit floating-point types __nv_fp8_e4m3 and
 * __nv_fp8_e5m2 (with their pairs __nv_fp8x2_* and quadruples __nv_fp8x4_*),
 * __nv_fp8_e8m0, and the C-style conversions __nv_cvt_*, in software.
 * Kernel and host code.
 *
 * The formats and the rounding of E4M3 and E5M2 are cuemu_fp8_round.h's
 * (shared with inline PTX's cvt): one rounding of the exact input to
 * nearest even, as the documentation of __nv_cvt_float_to_fp8 says; the
 * saturation mode decides what an overflow gives (__NV_SATFINITE the
 * largest finite value, __NV_NOSAT infinity or NaN), and NaN handling is
 * CUDA's host code's. Every FP8 value is exact as a half, so the
 * conversions out go through __half_raw (a NaN becomes the canonical half
 * NaN 0x7FFF), as CUDA's do. The constructors saturate (__NV_SATFINITE), as
 * CUDA's do.
 *
 * __nv_fp8_e8m0 (CUDA 12.8's scale format: a power of two 2^(b - 127),
 * 0xFF NaN) converts as CUDA's host code does: the magnitude is taken to
 * bfloat16 (toward zero, or up for cudaRoundPosInf; a double first to a
 * float with a sticky bit), then to its power of two in the direction
 * asked, at least 2^-127; an overflow gives 2^127 (__NV_SATFINITE) or NaN.
 * The constructors round up and saturate. Its pair and quadruple types
 * (__nv_fp8x2_e8m0, __nv_fp8x4_e8m0) are declared only, so that a program
 * using them stops at compile time with "incomplete type"; the x2
 * conversion functions exist. CUDA's switches __CUDA_NO_FP8_CONVERSIONS__ and
 * __CUDA_NO_FP8_CONVERSION_OPERATORS__ work as in CUDA.
 */
#ifndef CUEMU_CUDA_FP8_H
#define CUEMU_CUDA_FP8_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "cuemu_bit_cast.h"
#include "cuemu_fp8_round.h"
#include "device_types.h"
#include "vector_functions.h"
#include "vector_types.h"

/* CUDA's own guard and feature macros, which some programs test. */
#define __CUDA_FP8_H__
#define __CUDA_FP8_HPP__
#define __CUDA_FP8_TYPES_EXIST__

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;

typedef enum __nv_saturation_t {
  __NV_NOSAT,
  __NV_SATFINITE,
} __nv_saturation_t;

typedef enum __nv_fp8_interpretation_t {
  __NV_E4M3,
  __NV_E5M2,
} __nv_fp8_interpretation_t;

/* ---- The rounding core (cuemu_fp8_round.h) ------------------------------- */

inline bool cuemu_fp8_isnan(unsigned b, __nv_fp8_interpretation_t kind) {
  return cuemu_fp8_isnan(b, kind == __NV_E4M3);
}

inline __half_raw cuemu_fp8_to_halfraw(unsigned b, __nv_fp8_interpretation_t kind) {
  __half_raw __cuemu_r;
  __cuemu_r.x = cuemu_fp8_to_half_bits(b, kind == __NV_E4M3);
  return __cuemu_r;
}

/* ---- The C-style conversions ---------------------------------------------- */

inline __nv_fp8_storage_t __nv_cvt_double_to_fp8(const double x, const __nv_saturation_t saturate,
                                                 const __nv_fp8_interpretation_t fp8_interpretation) {
  return cuemu_fp8_round(x, fp8_interpretation == __NV_E4M3, saturate == __NV_SATFINITE);
}

/* From float, half and bfloat16 a NaN gives 0x7F whatever its sign and
 * payload (CUDA canonicalises it to the float NaN 0x7FFFFFFF first). */
inline __nv_fp8_storage_t __nv_cvt_float_to_fp8(const float x, const __nv_saturation_t saturate,
                                                const __nv_fp8_interpretation_t fp8_interpretation) {
  return cuemu_fp8_round_narrow(static_cast<double>(x), fp8_interpretation == __NV_E4M3,
                                saturate == __NV_SATFINITE);
}

inline __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(const __half_raw x, const __nv_saturation_t saturate,
                                                  const __nv_fp8_interpretation_t fp8_interpretation) {
  return __nv_cvt_float_to_fp8(cuemu_nf_to_float(x.x, cuemu_nf_binary16), saturate,
                               fp8_interpretation);
}

inline __nv_fp8_storage_t
__nv_cvt_bfloat16raw_to_fp8(const __nv_bfloat16_raw x, const __nv_saturation_t saturate,
                            const __nv_fp8_interpretation_t fp8_interpretation) {
  return __nv_cvt_float_to_fp8(cuemu_nf_to_float(x.x, cuemu_nf_bfloat16), saturate,
                               fp8_interpretation);
}

/* The pairs: .x in the low byte, .y in the high byte. */
inline __nv_fp8x2_storage_t cuemu_fp8x2_pack(__nv_fp8_storage_t lo, __nv_fp8_storage_t hi) {
  return static_cast<__nv_fp8x2_storage_t>(lo | (hi << 8));
}

inline __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(const double2 x, const __nv_saturation_t saturate,
                                                      const __nv_fp8_interpretation_t fp8_interpretation) {
  return cuemu_fp8x2_pack(__nv_cvt_double_to_fp8(x.x, saturate, fp8_interpretation),
                          __nv_cvt_double_to_fp8(x.y, saturate, fp8_interpretation));
}

inline __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(const float2 x, const __nv_saturation_t saturate,
                                                     const __nv_fp8_interpretation_t fp8_interpretation) {
  return cuemu_fp8x2_pack(__nv_cvt_float_to_fp8(x.x, saturate, fp8_interpretation),
                          __nv_cvt_float_to_fp8(x.y, saturate, fp8_interpretation));
}

inline __nv_fp8x2_storage_t
__nv_cvt_halfraw2_to_fp8x2(const __half2_raw x, const __nv_saturation_t saturate,
                           const __nv_fp8_interpretation_t fp8_interpretation) {
  __half_raw lo, hi;
  lo.x = x.x;
  hi.x = x.y;
  return cuemu_fp8x2_pack(__nv_cvt_halfraw_to_fp8(lo, saturate, fp8_interpretation),
                          __nv_cvt_halfraw_to_fp8(hi, saturate, fp8_interpretation));
}

inline __nv_fp8x2_storage_t
__nv_cvt_bfloat16raw2_to_fp8x2(const __nv_bfloat162_raw x, const __nv_saturation_t saturate,
                               const __nv_fp8_interpretation_t fp8_interpretation) {
  __nv_bfloat16_raw lo, hi;
  lo.x = x.x;
  hi.x = x.y;
  return cuemu_fp8x2_pack(__nv_cvt_bfloat16raw_to_fp8(lo, saturate, fp8_interpretation),
                          __nv_cvt_bfloat16raw_to_fp8(hi, saturate, fp8_interpretation));
}

inline __half_raw __nv_cvt_fp8_to_halfraw(const __nv_fp8_storage_t x,
                                          const __nv_fp8_interpretation_t fp8_interpretation) {
  return cuemu_fp8_to_halfraw(x, fp8_interpretation);
}

inline __half2_raw __nv_cvt_fp8x2_to_halfraw2(const __nv_fp8x2_storage_t x,
                                              const __nv_fp8_interpretation_t fp8_interpretation) {
  __half2_raw __cuemu_r;
  __cuemu_r.x = cuemu_fp8_to_halfraw(x & 0xFFU, fp8_interpretation).x;
  __cuemu_r.y = cuemu_fp8_to_halfraw(x >> 8, fp8_interpretation).x;
  return __cuemu_r;
}

/* A small integer conversion of CUDA's operators: NaN gives 0, values out
 * of range saturate, the rest truncate. */
template <class T> inline T cuemu_fp8_to_small_int(float f, bool nan) {
  const float lo = std::is_signed<T>::value ? -128.0f : 0.0f;
  const float hi = std::is_signed<T>::value ? 127.0f : 255.0f;
  if (nan)
    return T(0);
  if (f > hi)
    return static_cast<T>(hi);
  if (f < lo)
    return static_cast<T>(lo);
  return static_cast<T>(f);
}

/* ---- The types -------------------------------------------------------------
 *
 * One macro writes the scalar, the pair and the quadruple of a format: T, T2
 * and T4 are their names (spelled out: a name pasted from a suffix such as
 * e4m3 would put that plain name in the header), K the interpretation. */

#if !defined(__CUDA_NO_FP8_CONVERSIONS__)
#define CUEMU_FP8_SCALAR_CONVERSIONS(T, K)                                                        \
  explicit T(const __half f)                                                                     \
      : __x(__nv_cvt_halfraw_to_fp8(static_cast<__half_raw>(f), __NV_SATFINITE, K)) {}           \
  explicit T(const __nv_bfloat16 f)                                                              \
      : __x(__nv_cvt_bfloat16raw_to_fp8(static_cast<__nv_bfloat16_raw>(f), __NV_SATFINITE, K)) {} \
  explicit T(const float f) : __x(__nv_cvt_float_to_fp8(f, __NV_SATFINITE, K)) {}                \
  explicit T(const double f) : __x(__nv_cvt_double_to_fp8(f, __NV_SATFINITE, K)) {}              \
  explicit T(const unsigned short int v) : T(static_cast<float>(v)) {}                           \
  explicit T(const unsigned int v) : T(static_cast<float>(v)) {}                                 \
  explicit T(const unsigned long int v) : T(static_cast<float>(v)) {}                            \
  explicit T(const unsigned long long int v) : T(static_cast<float>(v)) {}                       \
  explicit T(const short int v) : T(static_cast<float>(v)) {}                                    \
  explicit T(const int v) : T(static_cast<float>(v)) {}                                          \
  explicit T(const long int v) : T(static_cast<float>(v)) {}                                     \
  explicit T(const long long int v) : T(static_cast<float>(v)) {}                                \
  CUEMU_FP8_SCALAR_OPERATORS(K)
#else
#define CUEMU_FP8_SCALAR_CONVERSIONS(T, K)
#endif

#if !defined(__CUDA_NO_FP8_CONVERSION_OPERATORS__)
#define CUEMU_FP8_SCALAR_OPERATORS(K)                                                             \
  explicit operator __half() const { return __half(__nv_cvt_fp8_to_halfraw(__x, K)); }           \
  explicit operator float() const {                                                              \
    return cuemu_nf_to_float(__nv_cvt_fp8_to_halfraw(__x, K).x, cuemu_nf_binary16);              \
  }                                                                                              \
  explicit operator __nv_bfloat16() const { return __float2bfloat16(float(*this)); /* exact */ }          \
  explicit operator double() const { return static_cast<double>(float(*this)); }                \
  explicit operator unsigned char() const {                                                      \
    return cuemu_fp8_to_small_int<unsigned char>(float(*this), cuemu_fp8_isnan(__x, K));         \
  }                                                                                              \
  explicit operator signed char() const {                                                        \
    return cuemu_fp8_to_small_int<signed char>(float(*this), cuemu_fp8_isnan(__x, K));           \
  }                                                                                              \
  explicit operator char() const { return static_cast<char>(static_cast<signed char>(*this)); }  \
  explicit operator unsigned short int() const { return __half2ushort_rz(__half(*this)); }       \
  explicit operator unsigned int() const { return __half2uint_rz(__half(*this)); }               \
  explicit operator unsigned long int() const {                                                  \
    return static_cast<unsigned long>(__half2ull_rz(__half(*this)));                             \
  }                                                                                              \
  explicit operator unsigned long long int() const { return __half2ull_rz(__half(*this)); }      \
  explicit operator short int() const { return __half2short_rz(__half(*this)); }                 \
  explicit operator int() const { return __half2int_rz(__half(*this)); }                         \
  explicit operator long int() const { return static_cast<long>(__half2ll_rz(__half(*this))); }  \
  explicit operator long long int() const { return __half2ll_rz(__half(*this)); }                \
  explicit operator bool() const { return (__x & 0x7FU) != 0U; }
#else
#define CUEMU_FP8_SCALAR_OPERATORS(K)
#endif

#if !defined(__CUDA_NO_FP8_CONVERSIONS__)
#define CUEMU_FP8_PAIR_CONVERSIONS(T2, K)                                                         \
  explicit T2(const __half2 f)                                                                   \
      : __x(__nv_cvt_halfraw2_to_fp8x2(static_cast<__half2_raw>(f), __NV_SATFINITE, K)) {}       \
  explicit T2(const __nv_bfloat162 f)                                                            \
      : __x(__nv_cvt_bfloat16raw2_to_fp8x2(static_cast<__nv_bfloat162_raw>(f), __NV_SATFINITE,   \
                                           K)) {}                                                \
  explicit T2(const float2 f) : __x(__nv_cvt_float2_to_fp8x2(f, __NV_SATFINITE, K)) {}           \
  explicit T2(const double2 f) : __x(__nv_cvt_double2_to_fp8x2(f, __NV_SATFINITE, K)) {}         \
  explicit operator __half2() const { return __half2(__nv_cvt_fp8x2_to_halfraw2(__x, K)); }      \
  explicit operator float2() const {                                                             \
    const __half2_raw h = __nv_cvt_fp8x2_to_halfraw2(__x, K);                                    \
    return make_float2(cuemu_nf_to_float(h.x, cuemu_nf_binary16),                                \
                       cuemu_nf_to_float(h.y, cuemu_nf_binary16));                               \
  }

#define CUEMU_FP8_QUAD_CONVERSIONS(T4, K)                                                         \
  explicit T4(const __half2 flo, const __half2 fhi)                                              \
      : __x(__nv_cvt_halfraw2_to_fp8x2(static_cast<__half2_raw>(flo), __NV_SATFINITE, K) |       \
            (static_cast<__nv_fp8x4_storage_t>(__nv_cvt_halfraw2_to_fp8x2(                       \
                 static_cast<__half2_raw>(fhi), __NV_SATFINITE, K))                              \
             << 16)) {}                                                                          \
  explicit T4(const __nv_bfloat162 flo, const __nv_bfloat162 fhi)                                \
      : __x(__nv_cvt_bfloat16raw2_to_fp8x2(static_cast<__nv_bfloat162_raw>(flo), __NV_SATFINITE, \
                                           K) |                                                  \
            (static_cast<__nv_fp8x4_storage_t>(__nv_cvt_bfloat16raw2_to_fp8x2(                   \
                 static_cast<__nv_bfloat162_raw>(fhi), __NV_SATFINITE, K))                       \
             << 16)) {}                                                                          \
  explicit T4(const float4 f)                                                                    \
      : __x(__nv_cvt_float2_to_fp8x2(make_float2(f.x, f.y), __NV_SATFINITE, K) |                 \
            (static_cast<__nv_fp8x4_storage_t>(                                                  \
                 __nv_cvt_float2_to_fp8x2(make_float2(f.z, f.w), __NV_SATFINITE, K))             \
             << 16)) {}                                                                          \
  explicit T4(const double4 f)                                                                   \
      : __x(__nv_cvt_double2_to_fp8x2(make_double2(f.x, f.y), __NV_SATFINITE, K) |               \
            (static_cast<__nv_fp8x4_storage_t>(                                                  \
                 __nv_cvt_double2_to_fp8x2(make_double2(f.z, f.w), __NV_SATFINITE, K))           \
             << 16)) {}                                                                          \
  explicit T4(const double4_16a f)                                                                   \
      : __x(__nv_cvt_double2_to_fp8x2(make_double2(f.x, f.y), __NV_SATFINITE, K) |               \
            (static_cast<__nv_fp8x4_storage_t>(                                                  \
                 __nv_cvt_double2_to_fp8x2(make_double2(f.z, f.w), __NV_SATFINITE, K))           \
             << 16)) {}                                                                          \
  explicit T4(const double4_32a f)                                                                   \
      : __x(__nv_cvt_double2_to_fp8x2(make_double2(f.x, f.y), __NV_SATFINITE, K) |               \
            (static_cast<__nv_fp8x4_storage_t>(                                                  \
                 __nv_cvt_double2_to_fp8x2(make_double2(f.z, f.w), __NV_SATFINITE, K))           \
             << 16)) {}                                                                          \
  explicit operator float4() const {                                                             \
    const __half2_raw lo = __nv_cvt_fp8x2_to_halfraw2(static_cast<__nv_fp8x2_storage_t>(__x), K); \
    const __half2_raw hi =                                                                       \
        __nv_cvt_fp8x2_to_halfraw2(static_cast<__nv_fp8x2_storage_t>(__x >> 16), K);             \
    return make_float4(                                                                          \
        cuemu_nf_to_float(lo.x, cuemu_nf_binary16), cuemu_nf_to_float(lo.y, cuemu_nf_binary16),  \
        cuemu_nf_to_float(hi.x, cuemu_nf_binary16), cuemu_nf_to_float(hi.y, cuemu_nf_binary16)); \
  }
#else
#define CUEMU_FP8_PAIR_CONVERSIONS(T2, K)
#define CUEMU_FP8_QUAD_CONVERSIONS(T4, K)
#endif

#define CUEMU_FP8_DEFINE_TYPES(T, T2, T4, K)                                                     \
  struct alignas(1) T {                                                                          \
    __nv_fp8_storage_t __x;                                                                      \
    T() = default;                                                                               \
    CUEMU_FP8_SCALAR_CONVERSIONS(T, K)                                                           \
  };                                                                                             \
  struct alignas(2) T2 {                                                                         \
    __nv_fp8x2_storage_t __x;                                                                    \
    T2() = default;                                                                              \
    CUEMU_FP8_PAIR_CONVERSIONS(T2, K)                                                            \
  };                                                                                             \
  struct alignas(4) T4 {                                                                         \
    __nv_fp8x4_storage_t __x;                                                                    \
    T4() = default;                                                                              \
    CUEMU_FP8_QUAD_CONVERSIONS(T4, K)                                                            \
  };

/* The quadruples take a double4 as CUDA's do, a type CUDA 13 deprecates. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
CUEMU_FP8_DEFINE_TYPES(__nv_fp8_e5m2, __nv_fp8x2_e5m2, __nv_fp8x4_e5m2, __NV_E5M2)
CUEMU_FP8_DEFINE_TYPES(__nv_fp8_e4m3, __nv_fp8x2_e4m3, __nv_fp8x4_e4m3, __NV_E4M3)
#pragma GCC diagnostic pop

/* ---- E8M0 ------------------------------------------------------------------ */

/* The scale of a bfloat16 pattern's magnitude. */
inline __nv_fp8_storage_t cuemu_e8m0_from_bf16(unsigned short b, __nv_saturation_t sat,
                                               cudaRoundMode rounding) {
  const unsigned mag = b & 0x7FFFU;
  unsigned res = (b >> 7) & 0xFFU;
  /* Up, unless the value is a power of two, at most 2^-127, or not finite. */
  if (rounding == cudaRoundPosInf && (b & 0x7FU) != 0U && mag > 0x40U && mag < 0x7F80U)
    ++res;
  if (sat == __NV_SATFINITE && mag <= 0x7F80U && res == 0xFFU)
    res = 0xFEU;
  return static_cast<__nv_fp8_storage_t>(res);
}

inline __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_e8m0(const __nv_bfloat16_raw x,
                                                       const __nv_saturation_t saturate,
                                                       const cudaRoundMode rounding) {
  return cuemu_e8m0_from_bf16(x.x, saturate, rounding);
}

inline __nv_fp8_storage_t __nv_cvt_float_to_e8m0(const float x, const __nv_saturation_t saturate,
                                                 const cudaRoundMode rounding) {
  uint32_t __cuemu_u = cuemu_bit_cast<uint32_t>(x);
  unsigned short b;
  if ((__cuemu_u & 0x7FFFFFFFU) > 0x7F800000U)
    b = 0x7FFFU;
  else if (rounding == cudaRoundPosInf) {
    __cuemu_u &= 0x7FFFFFFFU; /* the magnitude, rounded up to bfloat16 */
    b = static_cast<unsigned short>((__cuemu_u >> 16) + ((__cuemu_u < 0x7F800000U && (__cuemu_u & 0xFFFFU) != 0U) ? 1U : 0U));
  } else
    b = static_cast<unsigned short>(__cuemu_u >> 16);
  return cuemu_e8m0_from_bf16(b, saturate, rounding);
}

inline __nv_fp8_storage_t __nv_cvt_double_to_e8m0(const double x, const __nv_saturation_t saturate,
                                                  const cudaRoundMode rounding) {
  /* To float toward zero, with a sticky last bit when inexact. */
  const float f = static_cast<float>(x);
  const double d = static_cast<double>(f);
  uint32_t __cuemu_u = cuemu_bit_cast<uint32_t>(f);
  const bool __cuemu_not_nan = (__cuemu_u << 1) <= 0xFF000000U;
  if ((x > 0.0 && d > x) || (x < 0.0 && d < x))
    --__cuemu_u;
  if (d != x && __cuemu_not_nan)
    __cuemu_u |= 1U;
  return __nv_cvt_float_to_e8m0(cuemu_bit_cast<float>(__cuemu_u), saturate, rounding);
}

inline __nv_bfloat16_raw __nv_cvt_e8m0_to_bf16raw(const __nv_fp8_storage_t x) {
  __nv_bfloat16_raw __cuemu_r;
  __cuemu_r.x = x == 0xFFU ? 0x7FFFU : x == 0U ? 0x0040U : static_cast<unsigned short>(x << 7);
  return __cuemu_r;
}

inline __nv_fp8x2_storage_t __nv_cvt_float2_to_e8m0x2(const float2 x, const __nv_saturation_t saturate,
                                                      const cudaRoundMode rounding) {
  return cuemu_fp8x2_pack(__nv_cvt_float_to_e8m0(x.x, saturate, rounding),
                          __nv_cvt_float_to_e8m0(x.y, saturate, rounding));
}

inline __nv_fp8x2_storage_t __nv_cvt_double2_to_e8m0x2(const double2 x, const __nv_saturation_t saturate,
                                                       const cudaRoundMode rounding) {
  return cuemu_fp8x2_pack(__nv_cvt_double_to_e8m0(x.x, saturate, rounding),
                          __nv_cvt_double_to_e8m0(x.y, saturate, rounding));
}

inline __nv_fp8x2_storage_t __nv_cvt_bfloat162raw_to_e8m0x2(const __nv_bfloat162_raw x,
                                                            const __nv_saturation_t saturate,
                                                            const cudaRoundMode rounding) {
  return cuemu_fp8x2_pack(cuemu_e8m0_from_bf16(x.x, saturate, rounding),
                          cuemu_e8m0_from_bf16(x.y, saturate, rounding));
}

inline __nv_bfloat162_raw __nv_cvt_e8m0x2_to_bf162raw(const __nv_fp8x2_storage_t x) {
  __nv_bfloat162_raw __cuemu_r;
  __cuemu_r.x = __nv_cvt_e8m0_to_bf16raw(static_cast<__nv_fp8_storage_t>(x & 0xFFU)).x;
  __cuemu_r.y = __nv_cvt_e8m0_to_bf16raw(static_cast<__nv_fp8_storage_t>(x >> 8)).x;
  return __cuemu_r;
}

/* The scale of an integer's magnitude, rounded up: 2^ceil(log2 |v|). */
inline __nv_fp8_storage_t cuemu_e8m0_from_magnitude(unsigned long long __cuemu_m) {
  if (__cuemu_m == 0U)
    return 0U;
  const int __cuemu_floor_log2 = 63 - __builtin_clzll(__cuemu_m);
  return static_cast<__nv_fp8_storage_t>(127 + __cuemu_floor_log2 + ((__cuemu_m & (__cuemu_m - 1U)) != 0U ? 1 : 0));
}

struct alignas(1) __nv_fp8_e8m0 {
  __nv_fp8_storage_t __x;
  __nv_fp8_e8m0() = default;
#if !defined(__CUDA_NO_FP8_CONVERSIONS__)
  explicit __nv_fp8_e8m0(const __half f)
      : __x(__nv_cvt_float_to_e8m0(__half2float(f), __NV_SATFINITE, cudaRoundPosInf)) {}
  explicit __nv_fp8_e8m0(const __nv_bfloat16 f)
      : __x(__nv_cvt_bfloat16raw_to_e8m0(static_cast<__nv_bfloat16_raw>(f), __NV_SATFINITE,
                                         cudaRoundPosInf)) {}
  explicit __nv_fp8_e8m0(const float f) : __x(__nv_cvt_float_to_e8m0(f, __NV_SATFINITE, cudaRoundPosInf)) {}
  explicit __nv_fp8_e8m0(const double f)
      : __x(__nv_cvt_double_to_e8m0(f, __NV_SATFINITE, cudaRoundPosInf)) {}
  explicit __nv_fp8_e8m0(const unsigned short int v) : __x(cuemu_e8m0_from_magnitude(v)) {}
  explicit __nv_fp8_e8m0(const unsigned int v) : __x(cuemu_e8m0_from_magnitude(v)) {}
  explicit __nv_fp8_e8m0(const unsigned long int v) : __x(cuemu_e8m0_from_magnitude(v)) {}
  explicit __nv_fp8_e8m0(const unsigned long long int v) : __x(cuemu_e8m0_from_magnitude(v)) {}
  explicit __nv_fp8_e8m0(const short int v) : __nv_fp8_e8m0(static_cast<long long>(v)) {}
  explicit __nv_fp8_e8m0(const int v) : __nv_fp8_e8m0(static_cast<long long>(v)) {}
  explicit __nv_fp8_e8m0(const long int v) : __nv_fp8_e8m0(static_cast<long long>(v)) {}
  explicit __nv_fp8_e8m0(const long long int v)
      : __x(cuemu_e8m0_from_magnitude(v < 0 ? 0ULL - static_cast<unsigned long long>(v)
                                            : static_cast<unsigned long long>(v))) {}
#if !defined(__CUDA_NO_FP8_CONVERSION_OPERATORS__)
  explicit operator float() const { /* the bfloat16 widened: NaN gives 0x7FFF0000 */
    const uint32_t __cuemu_u = static_cast<uint32_t>(__nv_cvt_e8m0_to_bf16raw(__x).x) << 16;
    return cuemu_bit_cast<float>(__cuemu_u);
  }
  explicit operator __nv_bfloat16() const { return __nv_bfloat16(__nv_cvt_e8m0_to_bf16raw(__x)); }
  explicit operator double() const { return static_cast<double>(float(*this)); }
  explicit operator __half() const { return __float2half_rn(float(*this)); }
  explicit operator unsigned char() const {
    const float f = float(*this);
    return __x == 0xFFU ? 0 : f > 255.0f ? 255 : static_cast<unsigned char>(f);
  }
  explicit operator signed char() const {
    const float f = float(*this);
    return __x == 0xFFU ? 0 : f > 127.0f ? 127 : static_cast<signed char>(f);
  }
  explicit operator char() const { return static_cast<char>(static_cast<signed char>(*this)); }
  explicit operator unsigned short int() const { return __bfloat162ushort_rz(__nv_bfloat16(*this)); }
  explicit operator unsigned int() const { return __bfloat162uint_rz(__nv_bfloat16(*this)); }
  explicit operator unsigned long int() const {
    return static_cast<unsigned long>(__bfloat162ull_rz(__nv_bfloat16(*this)));
  }
  explicit operator unsigned long long int() const { return __bfloat162ull_rz(__nv_bfloat16(*this)); }
  explicit operator short int() const { return __bfloat162short_rz(__nv_bfloat16(*this)); }
  explicit operator int() const { return __bfloat162int_rz(__nv_bfloat16(*this)); }
  explicit operator long int() const { return static_cast<long>(__bfloat162ll_rz(__nv_bfloat16(*this))); }
  explicit operator long long int() const { return __bfloat162ll_rz(__nv_bfloat16(*this)); }
  explicit operator bool() const { return true; } /* no zero in E8M0 */
#endif
#endif
};

struct __nv_fp8x2_e8m0;
struct __nv_fp8x4_e8m0;

#endif
