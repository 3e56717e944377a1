/*
 * cuemu_math.h: CUDA's math API and floating-point intrinsics as host C++.
 *
 * What the C and C++ libraries already provide (sinf, std::sin(float),
 * exp10, sincos, j0f, ...) is reused: <math.h> brings the float and double
 * overloads of <cmath> to global namespace, as CUDA's own header does. This
 * header adds what CUDA has and the libraries lack:
 *
 * - the CUDA-only functions (rsqrt, rcbrt, sinpi, cospi, sincospi, erfinv,
 *   erfcinv, erfcx, normcdf, normcdfinv, norm3d, norm4d, norm, rnorm*,
 *   rhypot, cyl_bessel_i0/i1, fdivide) in double and float precision, and
 *   the float overloads CUDA declares for them and for exp10, sincos and the
 *   Bessel functions;
 * - the fast intrinsics (__expf, __sinf, __powf, __fdividef, ...), which
 *   in the device pass are libdevice's (its __nv_fast_*: the GPU's
 *   composition, such as __expf's rounded product x * log2(e), around
 *   hardware approximations that are computed exactly rounded here), and
 *   elsewhere computed accurately;
 * - the arithmetic intrinsics with a rounding direction (__fadd_rd,
 *   __dmul_ru, __fsqrt_rz, ...), which round exactly as IEEE 754 says;
 * - the conversion and reinterpretation intrinsics (__float2int_rn,
 *   __ull2float_rd, __float_as_int, __hiloint2double, ...), with the GPU's
 *   saturation and NaN results.
 *
 * Directed rounding: an operation with a rounding direction runs between a
 * switch of the rounding mode to that direction and a switch back to the
 * caller's mode, with its operands and result in volatile variables so that the
 * compiler cannot move or fold the operation across the mode changes. The
 * mode never outlives the call, so it cannot leak into another emulated
 * thread through a context switch. The _rn intrinsics round to nearest
 * whatever the caller's mode, and cost no mode change in the default mode.
 */
#ifndef CUEMU_MATH_H
#define CUEMU_MATH_H

#ifndef __cplusplus
#error "the CUDA shims are C++ headers; compile .cu files with cuemu-cc"
#endif

#include <cfenv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <math.h>
#include <stdlib.h>
#include <type_traits>

#include "cuemu_bit_cast.h"

/*
 * In the device pass of a cuemu built with the CUDA toolkit's libdevice
 * (docs/device-math.md), CUDA's own math functions (rsqrt, sinpi, erfinv,
 * normcdf, ...) return what libdevice computes on a GPU; the C library's
 * (sin, expf, pow...) reach libdevice by a rename of the device pass's
 * calls. Host code and a cuemu without libdevice use the definitions below.
 */
#if defined(__CUDA_ARCH__) && defined(CUEMU_LIBDEVICE)
#include <cuemu/cuemu_libdevice.h>
#define CUEMU_LIBDEVICE_RETURN(function, ...) return function(__VA_ARGS__)
#else
#define CUEMU_LIBDEVICE_RETURN(function, ...) (void)0
#endif

/* ------------------------------------------------------------------------ */
/* Internal helpers.                                                         */
/* ------------------------------------------------------------------------ */

/* The rounding directions of CUDA's _rn, _rz, _rd and _ru intrinsics. */
enum cuemu_rounding {
  cuemu_round_nearest,
  cuemu_round_zero,
  cuemu_round_down,
  cuemu_round_up
};


/*
 * The floating-point rounding mode, read and set. On x86-64, float and
 * double arithmetic uses only the SSE unit, so the mode is the MXCSR
 * rounding field, which is several times cheaper to switch than fesetround()
 * (which also rewrites the x87 control word); elsewhere <cfenv> is used.
 */
#if defined(__x86_64__) && defined(__SSE2_MATH__)
inline unsigned int cuemu_rounding_mode_get() { return __builtin_ia32_stmxcsr(); }
inline void cuemu_rounding_mode_set(unsigned int mode) { __builtin_ia32_ldmxcsr(mode); }
/* MXCSR with its rounding field (bits 13-14) set for direction r. */
inline unsigned int cuemu_rounding_mode_for(unsigned int current, cuemu_rounding __cuemu_r) {
  static const unsigned int field[] = {0x0000u, 0x6000u, 0x2000u, 0x4000u};
  return (current & ~0x6000u) | field[__cuemu_r];
}
#else
inline unsigned int cuemu_rounding_mode_get() { return static_cast<unsigned int>(std::fegetround()); }
inline void cuemu_rounding_mode_set(unsigned int mode) { std::fesetround(static_cast<int>(mode)); }
inline unsigned int cuemu_rounding_mode_for(unsigned int, cuemu_rounding __cuemu_r) {
  static const int mode[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  return static_cast<unsigned int>(mode[__cuemu_r]);
}
#endif

/*
 * Rounds in direction r from its construction to its end, and then
 * restores the caller's rounding mode; neither changes the mode when it is
 * r's already (the common case of an _rn intrinsic). The operation in
 * between must read its operands from volatile variables and store its
 * result to one, which keeps it between the mode changes.
 */
class cuemu_rounding_scope {
public:
  explicit cuemu_rounding_scope(cuemu_rounding __cuemu_r)
      : __cuemu_saved(cuemu_rounding_mode_get()),
        __cuemu_wanted(cuemu_rounding_mode_for(__cuemu_saved, __cuemu_r)) {
    if (__cuemu_saved != __cuemu_wanted)
      cuemu_rounding_mode_set(__cuemu_wanted);
  }
  ~cuemu_rounding_scope() {
    if (__cuemu_saved != __cuemu_wanted)
      cuemu_rounding_mode_set(__cuemu_saved);
  }
  cuemu_rounding_scope(const cuemu_rounding_scope &) = delete;
  cuemu_rounding_scope &operator=(const cuemu_rounding_scope &) = delete;

private:
  const unsigned int __cuemu_saved;
  const unsigned int __cuemu_wanted;
};

/*
 * Evaluates op() rounding in direction r, and restores the caller's
 * rounding mode before returning. op must read its operands from volatile
 * variables; the volatile result keeps the operation before the restoring
 * mode change.
 */
template <typename T, typename Op>
inline T cuemu_with_rounding(cuemu_rounding __cuemu_r, Op op) {
  volatile T result;
  {
    cuemu_rounding_scope scope(__cuemu_r);
    result = op();
  }
  return result;
}

/* x rounded to an integral value in direction r, ties to even for nearest;
 * independent of the current rounding mode. */
template <typename F_>
inline F_ cuemu_round_integral(F_ x, cuemu_rounding __cuemu_r) {
  switch (__cuemu_r) {
  case cuemu_round_zero:
    return std::trunc(x);
  case cuemu_round_down:
    return std::floor(x);
  case cuemu_round_up:
    return std::ceil(x);
  default: {
    F_ t = std::trunc(x);
    if (std::fabs(x - t) == F_(0.5))
      return F_(2) * std::round(x / F_(2));
    return std::round(x);
  }
  }
}

/*
 * Converts a float or double to the integer type I as the GPU's cvt
 * instruction does: rounded in direction r, clamped to I's range (infinities
 * included). A NaN gives 0 when a float converts to a 32-bit integer and
 * 1 << (bits - 1) otherwise (INT_MIN, 0x80000000, LLONG_MIN or 1 << 63), as
 * the PTX ISA (9.0, cvt) specifies.
 */
template <typename I_, typename F_>
inline I_ cuemu_float_to_int(F_ x, cuemu_rounding __cuemu_r) {
  constexpr int __cuemu_bits = std::numeric_limits<I_>::digits + (std::is_signed<I_>::value ? 1 : 0);
  if (std::isnan(x)) {
    if (sizeof(F_) == sizeof(float) && __cuemu_bits == 32)
      return I_(0);
    if (std::is_signed<I_>::value)
      return std::numeric_limits<I_>::min();
    return static_cast<I_>(I_(1) << (__cuemu_bits - 1));
  }
  const F_ v = cuemu_round_integral(x, __cuemu_r);
  const F_ limit = std::ldexp(F_(1), std::numeric_limits<I_>::digits);
  if (v >= limit)
    return std::numeric_limits<I_>::max();
  if (std::is_signed<I_>::value ? v < -limit : v < F_(0))
    return std::numeric_limits<I_>::min();
  return static_cast<I_>(v);
}

/* Converts an arithmetic value to the floating type F, rounding in
 * direction r. */
template <typename F_, typename V_>
inline F_ cuemu_convert_rounded(V_ value, cuemu_rounding __cuemu_r) {
  volatile V_ v = value;
  return cuemu_with_rounding<F_>(__cuemu_r, [&] { return static_cast<F_>(v); });
}

/* Adds, multiplies, divides and takes square roots and fused multiply-adds
 * rounding in direction r, in float and in double: plain functions, not
 * templates, so that the intrinsics that call them (plain inline
 * functions) instantiate nothing at the end of every unit. */
#define CUEMU_ROUNDED_OP(F_, NAME, PARAMS, EXPR, ...)                         \
  inline F_ NAME PARAMS {                                                      \
    volatile F_ __VA_ARGS__, result;                                           \
    {                                                                          \
      cuemu_rounding_scope scope(__cuemu_r);                                   \
      result = EXPR;                                                           \
    }                                                                          \
    return result;                                                             \
  }
#define CUEMU_ROUNDED_ARITHMETIC(F_)                                           \
  CUEMU_ROUNDED_OP(F_, cuemu_add_rounded, (F_ x, F_ y, cuemu_rounding __cuemu_r), \
                   a + b, a = x, b = y)                                        \
  CUEMU_ROUNDED_OP(F_, cuemu_sub_rounded, (F_ x, F_ y, cuemu_rounding __cuemu_r), \
                   a - b, a = x, b = y)                                        \
  CUEMU_ROUNDED_OP(F_, cuemu_mul_rounded, (F_ x, F_ y, cuemu_rounding __cuemu_r), \
                   a * b, a = x, b = y)                                        \
  CUEMU_ROUNDED_OP(F_, cuemu_div_rounded, (F_ x, F_ y, cuemu_rounding __cuemu_r), \
                   a / b, a = x, b = y)                                        \
  CUEMU_ROUNDED_OP(F_, cuemu_sqrt_rounded, (F_ x, cuemu_rounding __cuemu_r),   \
                   std::sqrt(F_(a)), a = x)                                    \
  CUEMU_ROUNDED_OP(F_, cuemu_fma_rounded,                                      \
                   (F_ x, F_ y, F_ z, cuemu_rounding __cuemu_r),               \
                   std::fma(F_(a), F_(b), F_(c)), a = x, b = y, c = z)
CUEMU_ROUNDED_ARITHMETIC(float)
CUEMU_ROUNDED_ARITHMETIC(double)
#undef CUEMU_ROUNDED_ARITHMETIC
#undef CUEMU_ROUNDED_OP

/* Constants in double precision. */
constexpr double cuemu_pi = 3.141592653589793238462643383279502884;
constexpr double cuemu_two_over_sqrt_pi = 1.128379167095512573896158903121545172;
constexpr double cuemu_sqrt_pi = 1.772453850905516027298167483341145183;
constexpr double cuemu_sqrt2 = 1.414213562373095048801688724209698079;
/* sqrt(1/2) as the sum of a double and a small correction: 0x1.6a09e667f3bcdp-1
 * and -0x1.bdd3413b26456p-55, written in decimal (exactly these doubles),
 * since C++ before C++17 has no hexadecimal floating literals. */
constexpr double cuemu_sqrt_half_hi = 0.7071067811865476;
constexpr double cuemu_sqrt_half_lo = -4.833646656726457e-17;

/*
 * The Euclidean norm of n values without undue overflow or underflow: the
 * values are scaled by a power of two near the largest. An infinite value
 * gives +inf even if another is NaN, as for hypot.
 */
template <typename F_>
inline double cuemu_norm(int n, const F_ *a) {
  double largest = 0.0;
  bool nan = false;
  for (int __cuemu_i = 0; __cuemu_i < n; ++__cuemu_i) {
    const double v = std::fabs(static_cast<double>(a[__cuemu_i]));
    if (std::isinf(v))
      return std::numeric_limits<double>::infinity();
    if (std::isnan(v))
      nan = true;
    else if (v > largest)
      largest = v;
  }
  if (nan)
    return std::numeric_limits<double>::quiet_NaN();
  if (largest == 0.0)
    return 0.0;
  int e;
  std::frexp(largest, &e);
  double __cuemu_sum = 0.0;
  for (int __cuemu_i = 0; __cuemu_i < n; ++__cuemu_i) {
    const double v = std::ldexp(static_cast<double>(a[__cuemu_i]), -e);
    __cuemu_sum = std::fma(v, v, __cuemu_sum);
  }
  return std::ldexp(std::sqrt(__cuemu_sum), e);
}

/*
 * The modified Bessel functions of the first kind of orders 0 and 1 for
 * x >= 0, in long double so that double results stay within an ulp or two:
 * the power series sum (x^2/4)^k / (k! (k + nu)!) * (x/2)^nu below x = 20,
 * and the asymptotic series e^x / sqrt(2 pi x) * sum_k t_k with
 * t_k / t_(k-1) = ((2k - 1)^2 - 4 nu^2) / (8 k x) above, whose smallest
 * term there is below e^-40.
 */
inline double cuemu_bessel_i(int nu, double x) {
  if (std::isinf(x))
    return x;
  const long double lx = x;
  long double __cuemu_sum, term;
  if (x < 20.0) {
    const long double __cuemu_q = lx * lx / 4.0L;
    term = nu == 0 ? 1.0L : lx / 2.0L;
    __cuemu_sum = term;
    for (int __cuemu_k = 1; __cuemu_k < 500; ++__cuemu_k) {
      term *= __cuemu_q / (static_cast<long double>(__cuemu_k) * (__cuemu_k + nu));
      __cuemu_sum += term;
      if (term < 1e-22L * __cuemu_sum)
        break;
    }
    return static_cast<double>(__cuemu_sum);
  }
  term = 1.0L;
  __cuemu_sum = 1.0L;
  for (int __cuemu_k = 1; __cuemu_k < 60; ++__cuemu_k) {
    const long double odd = 2.0L * __cuemu_k - 1.0L;
    term *= (odd * odd - 4.0L * nu * nu) / (8.0L * __cuemu_k * lx);
    __cuemu_sum += term;
    if (std::fabs(term) < 1e-22L * __cuemu_sum)
      break;
  }
  return static_cast<double>(std::exp(lx) / std::sqrt(2.0L * static_cast<long double>(cuemu_pi) * lx) * __cuemu_sum);
}

#ifdef CUEMU_HOST_DECLS
/* The host pass's lean prelude: declarations only, which a host function
 * cannot call (CUDA declares all of these __device__; cuemu_host_decls.h).
 */
#include "cuemu_math_decls.h"
#else

/* ------------------------------------------------------------------------ */
/* Reinterpretation intrinsics.                                              */
/* ------------------------------------------------------------------------ */

inline int __float_as_int(float x) { return cuemu_bit_cast<int>(x); }
inline float __int_as_float(int x) { return cuemu_bit_cast<float>(x); }
inline unsigned int __float_as_uint(float x) { return cuemu_bit_cast<unsigned int>(x); }
inline float __uint_as_float(unsigned int x) { return cuemu_bit_cast<float>(x); }
inline long long int __double_as_longlong(double x) { return cuemu_bit_cast<long long int>(x); }
inline double __longlong_as_double(long long int x) { return cuemu_bit_cast<double>(x); }

inline int __double2hiint(double x) {
  return static_cast<int>(static_cast<unsigned long long>(__double_as_longlong(x)) >> 32);
}

inline int __double2loint(double x) {
  return static_cast<int>(static_cast<unsigned long long>(__double_as_longlong(x)) & 0xffffffffu);
}

inline double __hiloint2double(int hi, int lo) {
  const unsigned long long __cuemu_bits = (static_cast<unsigned long long>(static_cast<unsigned int>(hi)) << 32) |
                                  static_cast<unsigned int>(lo);
  return cuemu_bit_cast<double>(__cuemu_bits);
}

/* NAME_rn, NAME_rz, NAME_rd and NAME_ru, CUDA's four rounding forms of one
 * operation: each returns F(ARGS..., its rounding direction). */
#define CUEMU_ROUNDED_FORMS(RET, NAME, PARAMS, F_, ...)                        \
  inline RET NAME##_rn PARAMS { return F_(__VA_ARGS__, cuemu_round_nearest); } \
  inline RET NAME##_rz PARAMS { return F_(__VA_ARGS__, cuemu_round_zero); }   \
  inline RET NAME##_rd PARAMS { return F_(__VA_ARGS__, cuemu_round_down); }   \
  inline RET NAME##_ru PARAMS { return F_(__VA_ARGS__, cuemu_round_up); }

/* ------------------------------------------------------------------------ */
/* Floating-point to integer conversions.                                    */
/* ------------------------------------------------------------------------ */

CUEMU_ROUNDED_FORMS(int, __float2int, (float x), cuemu_float_to_int<int>, x)
CUEMU_ROUNDED_FORMS(unsigned int, __float2uint, (float x), cuemu_float_to_int<unsigned int>, x)
CUEMU_ROUNDED_FORMS(long long int, __float2ll, (float x), cuemu_float_to_int<long long int>, x)
CUEMU_ROUNDED_FORMS(unsigned long long int, __float2ull, (float x), cuemu_float_to_int<unsigned long long int>, x)
CUEMU_ROUNDED_FORMS(int, __double2int, (double x), cuemu_float_to_int<int>, x)
CUEMU_ROUNDED_FORMS(unsigned int, __double2uint, (double x), cuemu_float_to_int<unsigned int>, x)
CUEMU_ROUNDED_FORMS(long long int, __double2ll, (double x), cuemu_float_to_int<long long int>, x)
CUEMU_ROUNDED_FORMS(unsigned long long int, __double2ull, (double x), cuemu_float_to_int<unsigned long long int>, x)

/* ------------------------------------------------------------------------ */
/* Conversions to floating point.                                            */
/* ------------------------------------------------------------------------ */

CUEMU_ROUNDED_FORMS(float, __double2float, (double x), cuemu_convert_rounded<float>, x)
CUEMU_ROUNDED_FORMS(float, __int2float, (int x), cuemu_convert_rounded<float>, x)
CUEMU_ROUNDED_FORMS(float, __uint2float, (unsigned int x), cuemu_convert_rounded<float>, x)
CUEMU_ROUNDED_FORMS(float, __ll2float, (long long int x), cuemu_convert_rounded<float>, x)
CUEMU_ROUNDED_FORMS(float, __ull2float, (unsigned long long int x), cuemu_convert_rounded<float>, x)

/* Every int and unsigned int is a double, so these are exact. */
inline double __int2double_rn(int x) { return static_cast<double>(x); }
inline double __uint2double_rn(unsigned int x) { return static_cast<double>(x); }

CUEMU_ROUNDED_FORMS(double, __ll2double, (long long int x), cuemu_convert_rounded<double>, x)
CUEMU_ROUNDED_FORMS(double, __ull2double, (unsigned long long int x), cuemu_convert_rounded<double>, x)

/* ------------------------------------------------------------------------ */
/* Single-precision arithmetic with a rounding direction. CUDA never fuses   */
/* these into a multiply-add, so neither does the volatile round trip here.  */
/* ------------------------------------------------------------------------ */

CUEMU_ROUNDED_FORMS(float, __fadd, (float x, float y), cuemu_add_rounded, x, y)
CUEMU_ROUNDED_FORMS(float, __fsub, (float x, float y), cuemu_sub_rounded, x, y)
CUEMU_ROUNDED_FORMS(float, __fmul, (float x, float y), cuemu_mul_rounded, x, y)
CUEMU_ROUNDED_FORMS(float, __fdiv, (float x, float y), cuemu_div_rounded, x, y)
CUEMU_ROUNDED_FORMS(float, __frcp, (float x), cuemu_div_rounded, 1.0f, x)
CUEMU_ROUNDED_FORMS(float, __fsqrt, (float x), cuemu_sqrt_rounded, x)
CUEMU_ROUNDED_FORMS(float, __fmaf, (float x, float y, float z), cuemu_fma_rounded, x, y, z)

inline float __fmaf_ieee_rn(float x, float y, float z) { return __fmaf_rn(x, y, z); }
inline float __fmaf_ieee_rz(float x, float y, float z) { return __fmaf_rz(x, y, z); }
inline float __fmaf_ieee_rd(float x, float y, float z) { return __fmaf_rd(x, y, z); }
inline float __fmaf_ieee_ru(float x, float y, float z) { return __fmaf_ru(x, y, z); }

/*
 * 1/sqrt(x) rounded to nearest. The double-precision estimate is within a
 * few double ulps, so it is at most one float away from the correctly
 * rounded result; the neighbours are then decided exactly by comparing the
 * squares of the midpoints with 1/x (m*m is exact in double, and the sign of
 * fma(m*m, x, -1) is exact).
 */
inline float __frsqrt_rn(float x) {
  if (std::isnan(x) || x < 0.0f)
    return std::numeric_limits<float>::quiet_NaN();
  if (x == 0.0f)
    return std::copysign(std::numeric_limits<float>::infinity(), x);
  if (std::isinf(x))
    return 0.0f;
  float y = static_cast<float>(1.0 / std::sqrt(static_cast<double>(x)));
  const double up = (static_cast<double>(y) + std::nextafter(y, INFINITY)) / 2.0;
  const double down = (static_cast<double>(y) + std::nextafter(y, 0.0f)) / 2.0;
  if (std::fma(up * up, static_cast<double>(x), -1.0) < 0.0)
    y = std::nextafter(y, INFINITY);
  else if (std::fma(down * down, static_cast<double>(x), -1.0) > 0.0)
    y = std::nextafter(y, 0.0f);
  return y;
}

/* ------------------------------------------------------------------------ */
/* Double-precision arithmetic with a rounding direction.                    */
/* ------------------------------------------------------------------------ */

CUEMU_ROUNDED_FORMS(double, __dadd, (double x, double y), cuemu_add_rounded, x, y)
CUEMU_ROUNDED_FORMS(double, __dsub, (double x, double y), cuemu_sub_rounded, x, y)
CUEMU_ROUNDED_FORMS(double, __dmul, (double x, double y), cuemu_mul_rounded, x, y)
CUEMU_ROUNDED_FORMS(double, __ddiv, (double x, double y), cuemu_div_rounded, x, y)
CUEMU_ROUNDED_FORMS(double, __drcp, (double x), cuemu_div_rounded, 1.0, x)
CUEMU_ROUNDED_FORMS(double, __dsqrt, (double x), cuemu_sqrt_rounded, x)
CUEMU_ROUNDED_FORMS(double, __fma, (double x, double y, double z), cuemu_fma_rounded, x, y, z)

/* ------------------------------------------------------------------------ */
/* Fast single-precision intrinsics. The GPU approximates these in hardware; */
/* here they are computed accurately, except where CUDA documents a result   */
/* that follows from the approximation (noted at each function).             */
/* ------------------------------------------------------------------------ */

inline float __expf(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_fast_expf, x);
  return static_cast<float>(std::exp(static_cast<double>(x)));
}
inline float __exp10f(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_fast_exp10f, x);
  return static_cast<float>(std::pow(10.0, static_cast<double>(x)));
}
inline float __logf(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_fast_logf, x);
  return static_cast<float>(std::log(static_cast<double>(x)));
}
inline float __log2f(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_fast_log2f, x);
  return static_cast<float>(std::log2(static_cast<double>(x)));
}
inline float __log10f(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_fast_log10f, x);
  return static_cast<float>(std::log10(static_cast<double>(x)));
}
inline float __sinf(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_fast_sinf, x);
  return static_cast<float>(std::sin(static_cast<double>(x)));
}
inline float __cosf(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_fast_cosf, x);
  return static_cast<float>(std::cos(static_cast<double>(x)));
}
inline float __tanf(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_fast_tanf, x);
  return static_cast<float>(std::tan(static_cast<double>(x)));
}
inline float __tanhf(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_fast_tanhf, x);
  return static_cast<float>(std::tanh(static_cast<double>(x)));
}

inline void __sincosf(float x, float *sptr, float *cptr) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_fast_sincosf, x, sptr, cptr);
  *sptr = __sinf(x);
  *cptr = __cosf(x);
}

/* CUDA computes __powf(x, y) as exp2(y * log2(x)), so a negative x gives
 * NaN and __powf(0, 0) is NaN; the same composition is used here. */
inline float __powf(float x, float y) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_fast_powf, x, y);
  return static_cast<float>(std::exp2(static_cast<double>(y) * std::log2(static_cast<double>(x))));
}

/* CUDA documents that for 2^126 < |y| < 2^128 __fdividef(x, y) is 0 for a
 * finite x and NaN for an infinite x (it multiplies by a flushed 1/y). */
inline float __fdividef(float x, float y) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_fast_fdividef, x, y);
  const float ay = std::fabs(y);
  if (ay > 8.507059173023462e+37f /* 2^126 */ &&
      ay < std::numeric_limits<float>::infinity())
    return x * std::copysign(0.0f, y);
  return x / y;
}

/* Clamps to [+0.0, 1.0]; NaN gives 0. */
inline float __saturatef(float x) {
  if (!(x > 0.0f))
    return 0.0f;
  return x > 1.0f ? 1.0f : x;
}

inline float fdividef(float x, float y) { return x / y; }
inline double fdivide(double x, double y) { return x / y; }

/* CUDA's norms, reciprocal hypotenuse and modified Bessel functions of
 * orders 0 and 1 are __device__ only in CUDA 13, as the intrinsics above:
 * nvcc refuses a host call of norm3d or cyl_bessel_i0. */
inline double norm(int dim, const double *p) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_norm, dim, p);
  return cuemu_norm(dim, p);
}
inline double rnorm(int dim, const double *p) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_rnorm, dim, p);
  return 1.0 / cuemu_norm(dim, p);
}
inline float normf(int dim, const float *p) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_normf, dim, p);
  return static_cast<float>(cuemu_norm(dim, p));
}
inline float rnormf(int dim, const float *p) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_rnormf, dim, p);
  return static_cast<float>(1.0 / cuemu_norm(dim, p));
}

inline double norm3d(double a, double b, double c) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_norm3d, a, b, c);
  const double v[3] = {a, b, c};
  return cuemu_norm(3, v);
}
inline double rnorm3d(double a, double b, double c) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_rnorm3d, a, b, c);
  return 1.0 / norm3d(a, b, c);
}
inline double norm4d(double a, double b, double c, double d) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_norm4d, a, b, c, d);
  const double v[4] = {a, b, c, d};
  return cuemu_norm(4, v);
}
inline double rnorm4d(double a, double b, double c, double d) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_rnorm4d, a, b, c, d);
  return 1.0 / norm4d(a, b, c, d);
}

inline float norm3df(float a, float b, float c) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_norm3df, a, b, c);
  return static_cast<float>(norm3d(a, b, c));
}
inline float rnorm3df(float a, float b, float c) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_rnorm3df, a, b, c);
  return static_cast<float>(1.0 / norm3d(a, b, c));
}
inline float norm4df(float a, float b, float c, float d) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_norm4df, a, b, c, d);
  return static_cast<float>(norm4d(a, b, c, d));
}
inline float rnorm4df(float a, float b, float c, float d) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_rnorm4df, a, b, c, d);
  return static_cast<float>(1.0 / norm4d(a, b, c, d));
}

inline double rhypot(double x, double y) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_rhypot, x, y);
  return 1.0 / std::hypot(x, y);
}
inline float rhypotf(float x, float y) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_rhypotf, x, y);
  return static_cast<float>(1.0 / std::hypot(static_cast<double>(x), static_cast<double>(y)));
}

/* I0 is even and I1 is odd. */
inline double cyl_bessel_i0(double x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_cyl_bessel_i0, x);
  if (std::isnan(x))
    return x;
  return cuemu_bessel_i(0, std::fabs(x));
}

inline double cyl_bessel_i1(double x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_cyl_bessel_i1, x);
  if (std::isnan(x))
    return x;
  return std::copysign(cuemu_bessel_i(1, std::fabs(x)), x);
}

inline float cyl_bessel_i0f(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_cyl_bessel_i0f, x);
  return static_cast<float>(cyl_bessel_i0(x));
}
inline float cyl_bessel_i1f(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_cyl_bessel_i1f, x);
  return static_cast<float>(cyl_bessel_i1(x));
}

/* Their float overloads. */
inline float cyl_bessel_i0(float x) { return cyl_bessel_i0f(x); }
inline float cyl_bessel_i1(float x) { return cyl_bessel_i1f(x); }

#undef CUEMU_ROUNDED_FORMS
#endif /* CUEMU_HOST_DECLS */

/* ------------------------------------------------------------------------ */
/* Functions CUDA has and the C library may lack.                            */
/* ------------------------------------------------------------------------ */

/* glibc 2.41 declares sinpi and cospi, and glibc 2.42 rsqrt, for ISO C23;
 * then theirs are used. */
#if defined(__GLIBC__) && defined(__GLIBC_PREREQ) && defined(__GLIBC_USE)
#if __GLIBC_PREREQ(2, 41) && __GLIBC_USE(IEC_60559_FUNCS_EXT_C23)
#define CUEMU_LIBC_HAS_SINPI 1
#endif
#if __GLIBC_PREREQ(2, 42) && __GLIBC_USE(IEC_60559_FUNCS_EXT_C23)
#define CUEMU_LIBC_HAS_RSQRT 1
#endif
#endif

/* sin(pi * x) with the argument reduced exactly: r = |x| mod 2 and
 * t = r - q/2 with q = round(2r) are exact, and |t| <= 1/4. */
inline double cuemu_sinpi(double x) {
  if (!std::isfinite(x))
    return x - x;
  const double __cuemu_r = std::fmod(std::fabs(x), 2.0);
  const double __cuemu_q = std::round(__cuemu_r * 2.0);
  const double t = __cuemu_r - __cuemu_q * 0.5;
  double s;
  switch (static_cast<int>(__cuemu_q) & 3) {
  case 0:
    s = std::sin(cuemu_pi * t);
    break;
  case 1:
    s = std::cos(cuemu_pi * t);
    break;
  case 2:
    s = -std::sin(cuemu_pi * t);
    break;
  default:
    s = -std::cos(cuemu_pi * t);
    break;
  }
  if (s == 0.0)
    s = 0.0;
  return std::signbit(x) ? -s : s;
}

/* cos(pi * x), reduced as in cuemu_sinpi; zeros are +0. */
inline double cuemu_cospi(double x) {
  if (!std::isfinite(x))
    return x - x;
  const double __cuemu_r = std::fmod(std::fabs(x), 2.0);
  const double __cuemu_q = std::round(__cuemu_r * 2.0);
  const double t = __cuemu_r - __cuemu_q * 0.5;
  double c;
  switch (static_cast<int>(__cuemu_q) & 3) {
  case 0:
    c = std::cos(cuemu_pi * t);
    break;
  case 1:
    c = -std::sin(cuemu_pi * t);
    break;
  case 2:
    c = -std::cos(cuemu_pi * t);
    break;
  default:
    c = std::sin(cuemu_pi * t);
    break;
  }
  return c == 0.0 ? 0.0 : c;
}

#ifndef CUEMU_LIBC_HAS_SINPI
inline double sinpi(double x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_sinpi, x);
  return cuemu_sinpi(x);
}
inline double cospi(double x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_cospi, x);
  return cuemu_cospi(x);
}
inline float sinpif(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_sinpif, x);
  return static_cast<float>(cuemu_sinpi(x));
}
inline float cospif(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_cospif, x);
  return static_cast<float>(cuemu_cospi(x));
}
#endif

inline void sincospi(double x, double *sptr, double *cptr) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_sincospi, x, sptr, cptr);
  *sptr = cuemu_sinpi(x);
  *cptr = cuemu_cospi(x);
}

inline void sincospif(float x, float *sptr, float *cptr) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_sincospif, x, sptr, cptr);
  *sptr = static_cast<float>(cuemu_sinpi(x));
  *cptr = static_cast<float>(cuemu_cospi(x));
}

#ifndef CUEMU_LIBC_HAS_RSQRT
inline double rsqrt(double x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_rsqrt, x);
  return 1.0 / std::sqrt(x);
}
/* In float: the square root and the division are each rounded to nearest,
 * so the result is within 1.5 ulp of 1/sqrt(x) (half an ulp from the
 * division, less than one from the square root's relative error of 2^-24),
 * inside CUDA's 2 ulp for rsqrtf; measured 1.47 ulp at worst over 1.5M
 * inputs (tests/programs/mathulp/rsqrt_ulp.cu). It costs a sqrtss and a
 * divss, where the double version converted and took a sqrtsd and a divsd.
 * 0, -0, inf and negative inputs give inf, -inf, 0 and NaN, as CUDA's. */
inline float rsqrtf(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_rsqrtf, x);
  return 1.0f / std::sqrt(x);
}
#endif

inline double rcbrt(double x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_rcbrt, x);
  return 1.0 / std::cbrt(x);
}
inline float rcbrtf(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_rcbrtf, x);
  return static_cast<float>(1.0 / std::cbrt(static_cast<double>(x)));
}

#ifndef __USE_GNU
/* glibc declares these only for _GNU_SOURCE, which g++ and clang++ define
 * for C++; other C libraries get our versions. */
inline double exp10(double x) { return std::pow(10.0, x); }
inline float exp10f(float x) { return static_cast<float>(std::pow(10.0, static_cast<double>(x))); }
inline void sincos(double x, double *sptr, double *cptr) {
  *sptr = std::sin(x);
  *cptr = std::cos(x);
}
inline void sincosf(float x, float *sptr, float *cptr) {
  *sptr = std::sin(x);
  *cptr = std::cos(x);
}
#endif

/*
 * erfcx(x) = exp(x^2) * erfc(x). exp(x^2) is evaluated as exp(hi) * (1 + lo)
 * with hi + lo = x^2 exactly, so it keeps full precision; beyond x = 26,
 * where erfc(x) approaches the subnormal range, the asymptotic series
 * 1/(x sqrt(pi)) * sum (-1)^n (2n-1)!! / (2x^2)^n is used.
 */
inline double erfcx(double x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_erfcx, x);
  if (std::isnan(x))
    return x;
  if (std::isinf(x))
    return x > 0 ? 0.0 : std::numeric_limits<double>::infinity();
  if (x < 26.0) {
    const double hi = x * x;
    const double lo = std::fma(x, x, -hi);
    return std::exp(hi) * (1.0 + lo) * std::erfc(x);
  }
  const double __cuemu_u = 1.0 / (2.0 * x * x);
  double term = 1.0, __cuemu_sum = 1.0;
  for (int n = 1; n < 40; ++n) {
    term *= -(2.0 * n - 1.0) * __cuemu_u;
    __cuemu_sum += term;
    if (std::fabs(term) < 1e-18 * __cuemu_sum)
      break;
  }
  return __cuemu_sum / (x * cuemu_sqrt_pi);
}

inline float erfcxf(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_erfcxf, x);
  return static_cast<float>(erfcx(static_cast<double>(x)));
}

/* The Newton steps below stop at a step under 1e-15 of the root: they
 * converge quadratically, so the next step would be under the rounding of
 * the terms, and a step that small never shrinks further (a bound of 1e-17
 * was never met below 1/2, and erfcinv ran its 60 steps, about 3 us a call
 * on the host: tests/programs/trialuda/host_erfcinv_speed.cu). */

/* erfinv(a) for 0 <= a <= 1/2: a Maclaurin estimate refined by Newton steps
 * on erf(x) - a, which is well conditioned there. */
inline double cuemu_erfinv_small(double a) {
  if (a == 0.0)
    return 0.0;
  const double p = cuemu_pi * a * a;
  double x = 0.5 * cuemu_sqrt_pi * a *
             (1.0 + p / 12.0 + 7.0 * p * p / 480.0 + 127.0 * p * p * p / 40320.0 +
              4369.0 * p * p * p * p / 5806080.0);
  for (int __cuemu_i = 0; __cuemu_i < 8; ++__cuemu_i) {
    const double __cuemu_step = (std::erf(x) - a) / (cuemu_two_over_sqrt_pi * std::exp(-x * x));
    x -= __cuemu_step;
    if (std::fabs(__cuemu_step) <= 1e-15 * x)
      break;
  }
  return x;
}

/*
 * erfcinv(y) for 0 < y <= 1. Above 1/2 it is erfinv(1 - y), and 1 - y is
 * exact there. Below, Newton's method runs on the log-concave
 * g(x) = log(erfc(x)) - log(y) = -x^2 + log(erfcx(x)) - log(y), whose
 * derivative is -2/(sqrt(pi) erfcx(x)); neither underflows for any double y,
 * and the iterates approach the root from above.
 */
inline double cuemu_erfcinv_unit(double y) {
  if (y >= 0.5)
    return cuemu_erfinv_small(1.0 - y);
  const double log_y = std::log(y);
  double x = std::sqrt(-log_y);
  for (int __cuemu_i = 0; __cuemu_i < 60; ++__cuemu_i) {
    const double ex = erfcx(x);
    const double __cuemu_g = std::fma(-x, x, std::log(ex) - log_y);
    const double __cuemu_step = __cuemu_g * ex / cuemu_two_over_sqrt_pi;
    x += __cuemu_step;
    if (std::fabs(__cuemu_step) <= 1e-15 * x)
      break;
  }
  return x;
}

inline double erfcinv(double y) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_erfcinv, y);
  if (std::isnan(y))
    return y;
  if (y < 0.0 || y > 2.0)
    return std::numeric_limits<double>::quiet_NaN();
  if (y == 0.0)
    return std::numeric_limits<double>::infinity();
  if (y == 2.0)
    return -std::numeric_limits<double>::infinity();
  if (y <= 1.0)
    return cuemu_erfcinv_unit(y);
  return -cuemu_erfcinv_unit(2.0 - y);
}

inline double erfinv(double y) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_erfinv, y);
  if (std::isnan(y))
    return y;
  const double a = std::fabs(y);
  if (a > 1.0)
    return std::numeric_limits<double>::quiet_NaN();
  if (a == 1.0)
    return std::copysign(std::numeric_limits<double>::infinity(), y);
  if (a == 0.0)
    return y;
  const double x = a <= 0.5 ? cuemu_erfinv_small(a) : cuemu_erfcinv_unit(1.0 - a);
  return std::copysign(x, y);
}

inline float erfinvf(float y) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_erfinvf, y);
  return static_cast<float>(erfinv(static_cast<double>(y)));
}
inline float erfcinvf(float y) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_erfcinvf, y);
  return static_cast<float>(erfcinv(static_cast<double>(y)));
}

/*
 * normcdf(x) = erfc(-x/sqrt(2))/2. The argument t = -x/sqrt(2) is carried
 * as hi + lo, and erfc(hi + lo) ~ erfc(hi) - 2/sqrt(pi) exp(-hi^2) lo, so
 * the rounding of t does not cost accuracy in the far tail.
 */
inline double normcdf(double x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_normcdf, x);
  if (std::isnan(x))
    return x;
  if (std::isinf(x))
    return x > 0 ? 1.0 : 0.0;
  const double hi = -x * cuemu_sqrt_half_hi;
  const double lo = std::fma(-x, cuemu_sqrt_half_hi, -hi) - x * cuemu_sqrt_half_lo;
  return 0.5 * (std::erfc(hi) - cuemu_two_over_sqrt_pi * std::exp(-hi * hi) * lo);
}

inline float normcdff(float x) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_normcdff, x);
  return static_cast<float>(normcdf(static_cast<double>(x)));
}

/* normcdfinv(p) = -sqrt(2) erfcinv(2p); 2p is exact. */
inline double normcdfinv(double p) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_normcdfinv, p);
  if (std::isnan(p))
    return p;
  if (p < 0.0 || p > 1.0)
    return std::numeric_limits<double>::quiet_NaN();
  if (p == 0.0)
    return -std::numeric_limits<double>::infinity();
  if (p == 1.0)
    return std::numeric_limits<double>::infinity();
  return -cuemu_sqrt2 * erfcinv(2.0 * p);
}

inline float normcdfinvf(float p) {
  CUEMU_LIBDEVICE_RETURN(cuemu_nv_normcdfinvf, p);
  return static_cast<float>(normcdfinv(static_cast<double>(p)));
}

/* ------------------------------------------------------------------------ */
/* The float overloads CUDA declares at global namespace for functions that  */
/* C++ does not overload.                                                    */
/* ------------------------------------------------------------------------ */

inline float exp10(float x) { return exp10f(x); }
inline float rsqrt(float x) { return rsqrtf(x); }
inline float rcbrt(float x) { return rcbrtf(x); }
inline float sinpi(float x) { return sinpif(x); }
inline float cospi(float x) { return cospif(x); }
inline void sincospi(float x, float *sptr, float *cptr) { sincospif(x, sptr, cptr); }
inline void sincos(float x, float *sptr, float *cptr) { sincosf(x, sptr, cptr); }
inline float j0(float x) { return j0f(x); }
inline float j1(float x) { return j1f(x); }
inline float jn(int n, float x) { return jnf(n, x); }
inline float y0(float x) { return y0f(x); }
inline float y1(float x) { return y1f(x); }
inline float yn(int n, float x) { return ynf(n, x); }
inline float erfinv(float x) { return erfinvf(x); }
inline float erfcinv(float x) { return erfcinvf(x); }
inline float normcdfinv(float x) { return normcdfinvf(x); }
inline float normcdf(float x) { return normcdff(x); }
inline float erfcx(float x) { return erfcxf(x); }
inline double copysign(double x, float y) { return std::copysign(x, static_cast<double>(y)); }
inline double copysign(float x, double y) { return std::copysign(static_cast<double>(x), y); }

#endif /* CUEMU_MATH_H */
