/*
 * cuemu_ptx_float.h: PTX's floating-point instructions, comparisons and
 * conversions for inline PTX (see cuemu_ptx.h): add, sub, mul, fma, mad,
 * div, abs, neg, min, max of .f32 and .f64 with rounding modes (.rn .rz .rm
 * .rp, through cuemu_math.h's rounded operations), .ftz and .sat, and add,
 * sub, mul, fma, abs, neg, min, max of .f16, .bf16, .f16x2 and .bf16x2
 * (cuemu_narrow_float_ops.h, rounded once to nearest); rcp,
 * sqrt, rsqrt (exact with a rounding mode, the C library's result with
 * .approx), ex2, lg2, sin, cos, tanh (.approx); copysign, testp; setp, set,
 * slct; cvt between every integer and floating-point type (f16 and bf16
 * included) with rounding, saturation and .relu, and to and from the FP8
 * pairs .e4m3x2 and .e5m2x2 (.rn.satfinite from two .f32 or an .f16x2,
 * .rn to .f16x2; cuemu_fp8_round.h). Part of cuemu_ptx.h.
 */
#ifndef CUEMU_PTX_FLOAT_H
#define CUEMU_PTX_FLOAT_H
/* A system header: its C++17 forms that C++14 accepts (if constexpr, inline
 * variables, fold expressions) give no warning in a C++14 build of a .cpp
 * file (docs/dialects.md). */
#pragma GCC system_header

#include "cuemu_ptx_int.h"

#include <cmath>

#include "cuemu_fp8_round.h"
#include "cuemu_narrow_float_ops.h"

namespace cuemu {
namespace ptx {

/* The direction of the rounding modifier (nearest when there is none). */
template <int... M_> constexpr cuemu_rounding rounding() {
  return (has<m_rz, M_...> || has<m_rzi, M_...>)   ? cuemu_round_zero
         : (has<m_rm, M_...> || has<m_rmi, M_...>) ? cuemu_round_down
         : (has<m_rp, M_...> || has<m_rpi, M_...>) ? cuemu_round_up
                                                 : cuemu_round_nearest;
}

/* A subnormal float becomes a zero of its sign (.ftz). */
inline float flush(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}

/* The operand as float or double, flushed with .ftz (f32 only). */
template <int T, int... M_> inline auto fval(reg v) {
  if constexpr (T == f64) {
    return as_f64(v);
  } else {
    const float x = as_f32(v);
    return has<m_ftz, M_...> ? flush(x) : x;
  }
}

/* A float or double result as register bits, with .sat and .ftz. */
template <int... M_, typename F_> inline reg fbits(F_ x) {
  if constexpr (has<m_sat, M_...>) x = std::isnan(x) ? F_(0) : x < F_(0) ? F_(0) : x > F_(1) ? F_(1) : x;
  if constexpr (std::is_same<F_, float>::value && has<m_ftz, M_...>) x = flush(x);
  return bits_of(x);
}

/* ---- f16, bf16, f16x2, bf16x2 (round to nearest, as PTX has them) ------ */

template <int T> constexpr cuemu_nf_format half_format() {
  return (T == f16 || T == f16x2) ? cuemu_nf_binary16 : cuemu_nf_bfloat16;
}

/* A subnormal half becomes a zero of its sign (.ftz). */
inline unsigned short half_flush(unsigned short h, cuemu_nf_format f) {
  const unsigned exponent = (h >> f.mbits) & ((1u << f.ebits) - 1u);
  const unsigned mantissa = h & ((1u << f.mbits) - 1u);
  return exponent == 0 && mantissa != 0 ? static_cast<unsigned short>(h & 0x8000u) : h;
}

/* The NaN that a tensor copy's CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
 * gives out-of-bounds 16-bit elements (every bit set but the sign), which
 * fma.oob takes for zero's request. */
constexpr unsigned short __cuemu_half_oob_nan = 0x7fffu;

/* op(x, y, z, format) on each 16-bit half of the operands (two for the
 * pairs), with .ftz, .sat and .relu applied; with .oob (fma), a half one of
 * whose operands is the out-of-bounds NaN is +0. */
template <int... M_, typename Op> inline reg half_lanes(reg a, reg b, reg c, Op op) {
  constexpr int T = type_n<M_...>(0), lanes = width(T) / 16;
  constexpr cuemu_nf_format f = half_format<T>();
  reg d = 0;
  for (int __cuemu_i = 0; __cuemu_i < lanes; ++__cuemu_i) {
    unsigned short x = static_cast<unsigned short>(a >> (16 * __cuemu_i));
    unsigned short y = static_cast<unsigned short>(b >> (16 * __cuemu_i));
    unsigned short z = static_cast<unsigned short>(c >> (16 * __cuemu_i));
    if constexpr (has<m_ftz, M_...>) {
      x = half_flush(x, f);
      y = half_flush(y, f);
      z = half_flush(z, f);
    }
    unsigned short __cuemu_r = op(x, y, z, f);
    if constexpr (has<__cuemu_m_oob, M_...>)
      if (x == __cuemu_half_oob_nan || y == __cuemu_half_oob_nan || z == __cuemu_half_oob_nan) __cuemu_r = 0;
    if constexpr (has<m_ftz, M_...>) __cuemu_r = half_flush(__cuemu_r, f);
    if constexpr (has<m_sat, M_...>) __cuemu_r = cuemu_nf_sat(__cuemu_r, f);
    if constexpr (has<m_relu, M_...>) __cuemu_r = cuemu_nf_relu(__cuemu_r, f);
    d |= static_cast<reg>(__cuemu_r) << (16 * __cuemu_i);
  }
  return d;
}

#define CUEMU_PTX_HALF_OP(expr)                                                \
  [](unsigned short x, unsigned short y, unsigned short z, cuemu_nf_format f) { \
    (void)y;                                                                   \
    (void)z;                                                                   \
    return static_cast<unsigned short>(expr);                                  \
  }

template <int... M_> inline void fadd(reg &d, reg a, reg b) {
  constexpr int T = type_n<M_...>(0);
  if constexpr (is_half(T))
    d = half_lanes<M_...>(a, b, 0, CUEMU_PTX_HALF_OP(cuemu_nf_add(x, y, f)));
  else
    d = fbits<M_...>(cuemu_add_rounded(fval<T, M_...>(a), fval<T, M_...>(b), rounding<M_...>()));
}
template <int... M_> inline void fsub(reg &d, reg a, reg b) {
  constexpr int T = type_n<M_...>(0);
  if constexpr (is_half(T))
    d = half_lanes<M_...>(a, b, 0, CUEMU_PTX_HALF_OP(cuemu_nf_sub(x, y, f)));
  else
    d = fbits<M_...>(cuemu_sub_rounded(fval<T, M_...>(a), fval<T, M_...>(b), rounding<M_...>()));
}
template <int... M_> inline void fmul(reg &d, reg a, reg b) {
  constexpr int T = type_n<M_...>(0);
  if constexpr (is_half(T))
    d = half_lanes<M_...>(a, b, 0, CUEMU_PTX_HALF_OP(cuemu_nf_mul(x, y, f)));
  else
    d = fbits<M_...>(cuemu_mul_rounded(fval<T, M_...>(a), fval<T, M_...>(b), rounding<M_...>()));
}
template <int... M_> inline void ffma(reg &d, reg a, reg b, reg c) {
  constexpr int T = type_n<M_...>(0);
  static_assert(!has<__cuemu_m_oob, M_...> || is_half(T),
                "inline PTX: fma.oob takes .f16, .f16x2, .bf16 or .bf16x2 only");
  if constexpr (is_half(T))
    d = half_lanes<M_...>(a, b, c, CUEMU_PTX_HALF_OP(cuemu_nf_fma(x, y, z, f)));
  else
    d = fbits<M_...>(cuemu_fma_rounded(fval<T, M_...>(a), fval<T, M_...>(b),
                                      fval<T, M_...>(c), rounding<M_...>()));
}
template <int... M_> inline void fma(reg &d, reg a, reg b, reg c) {
  ffma<M_...>(d, a, b, c);
}
/* div.approx and div.full are the exact quotient here (within their
 * error bounds). */
template <int... M_> inline void fdiv(reg &d, reg a, reg b) {
  constexpr int T = type_n<M_...>(0);
  d = fbits<M_...>(cuemu_div_rounded(fval<T, M_...>(a), fval<T, M_...>(b), rounding<M_...>()));
}
template <int... M_> inline void fabs_(reg &d, reg a) {
  constexpr int T = type_n<M_...>(0);
  if constexpr (is_half(T))
    d = half_lanes<M_...>(a, 0, 0, CUEMU_PTX_HALF_OP(cuemu_nf_abs(x, f)));
  else
    d = fbits<M_...>(std::fabs(fval<T, M_...>(a)));
}
template <int... M_> inline void fneg(reg &d, reg a) {
  constexpr int T = type_n<M_...>(0);
  if constexpr (is_half(T))
    d = half_lanes<M_...>(a, 0, 0, CUEMU_PTX_HALF_OP(cuemu_nf_neg(x, f)));
  else
    d = fbits<M_...>(-fval<T, M_...>(a));
}

/* min/max: a NaN operand gives the other (the canonical NaN when both are,
 * or with .NaN when either is); -0.0 is below +0.0. */
template <int... M_> inline void fminmax(reg &d, reg a, reg b, bool want_max) {
  constexpr int T = type_n<M_...>(0);
  if constexpr (is_half(T)) {
    if (has<m_NaN, M_...>)
      d = want_max ? half_lanes<M_...>(a, b, 0, CUEMU_PTX_HALF_OP(cuemu_nf_max_nan(x, y, f)))
                   : half_lanes<M_...>(a, b, 0, CUEMU_PTX_HALF_OP(cuemu_nf_min_nan(x, y, f)));
    else
      d = want_max ? half_lanes<M_...>(a, b, 0, CUEMU_PTX_HALF_OP(cuemu_nf_max(x, y, f)))
                   : half_lanes<M_...>(a, b, 0, CUEMU_PTX_HALF_OP(cuemu_nf_min(x, y, f)));
    return;
  }
  const auto x = fval<T, M_...>(a), y = fval<T, M_...>(b);
  const reg nan = T == f64 ? 0x7fffffffffffffffULL : 0x7fffffffULL;
  if ((std::isnan(x) && std::isnan(y)) || (has<m_NaN, M_...> && (std::isnan(x) || std::isnan(y)))) {
    d = nan;
    return;
  }
  decltype(x + y) __cuemu_r;
  if (std::isnan(x)) __cuemu_r = y;
  else if (std::isnan(y)) __cuemu_r = x;
  else if (x == y) __cuemu_r = (std::signbit(x) != want_max) ? x : y;
  else __cuemu_r = (x > y) == want_max ? x : y;
  d = fbits<M_...>(__cuemu_r);
}

template <int... M_> inline void copysign(reg &d, reg a, reg b) {
  constexpr int T = type_n<M_...>(0);
  d = bits_of(std::copysign(fval<T>(b), fval<T>(a)));
}

template <int... M_> inline void testp(reg &p, reg a) {
  constexpr int T = type_n<M_...>(0);
  const int c = std::fpclassify(fval<T>(a));
  if constexpr (has<m_finite, M_...>) p = c != FP_INFINITE && c != FP_NAN;
  else if constexpr (has<m_infinite, M_...>) p = c == FP_INFINITE;
  else if constexpr (has<m_number, M_...>) p = c != FP_NAN;
  else if constexpr (has<m_notanumber, M_...>) p = c == FP_NAN;
  else if constexpr (has<m_normal, M_...>) p = c == FP_NORMAL;
  else p = c == FP_SUBNORMAL;
}

template <int... M_> inline void rcp(reg &d, reg a) {
  constexpr int T = type_n<M_...>(0);
  using F_ = decltype(fval<T, M_...>(a));
  d = fbits<M_...>(cuemu_div_rounded(F_(1), fval<T, M_...>(a), rounding<M_...>()));
}
template <int... M_> inline void sqrt(reg &d, reg a) {
  constexpr int T = type_n<M_...>(0);
  d = fbits<M_...>(cuemu_sqrt_rounded(fval<T, M_...>(a), rounding<M_...>()));
}
template <int... M_> inline void rsqrt(reg &d, reg a) {
  constexpr int T = type_n<M_...>(0);
  using F_ = decltype(fval<T, M_...>(a));
  d = fbits<M_...>(F_(1) / std::sqrt(fval<T, M_...>(a)));
}
/* ex2.approx and tanh.approx of .f16, .bf16 and their pairs (the flash
 * attention kernels' softmax and GELU): each half's exact result, rounded
 * once to nearest (within the instructions' stated error). */
#define CUEMU_PTX_HALF_APPROX(fn)                                              \
  CUEMU_PTX_HALF_OP(cuemu_nf_from_double(fn(static_cast<double>(cuemu_nf_to_float(x, f))), f, \
                                         CUEMU_ROUND_RN))
template <int... M_> inline void ex2(reg &d, reg a) {
  if constexpr (is_half(type_n<M_...>(0)))
    d = half_lanes<M_...>(a, 0, 0, CUEMU_PTX_HALF_APPROX(std::exp2));
  else
    d = fbits<M_...>(std::exp2(fval<f32, M_...>(a)));
}
template <int... M_> inline void lg2(reg &d, reg a) {
  d = fbits<M_...>(std::log2(fval<f32, M_...>(a)));
}
template <int... M_> inline void sin(reg &d, reg a) {
  d = fbits<M_...>(std::sin(fval<f32, M_...>(a)));
}
template <int... M_> inline void cos(reg &d, reg a) {
  d = fbits<M_...>(std::cos(fval<f32, M_...>(a)));
}
template <int... M_> inline void tanh(reg &d, reg a) {
  if constexpr (is_half(type_n<M_...>(0)))
    d = half_lanes<M_...>(a, 0, 0, CUEMU_PTX_HALF_APPROX(std::tanh));
  else
    d = fbits<M_...>(std::tanh(fval<f32, M_...>(a)));
}
#undef CUEMU_PTX_HALF_APPROX

/* ---- Comparisons --------------------------------------------------------- */

/* a CmpOp b for type T: ordered float comparisons are false and unordered
 * ones (equ ... geu) true when an operand is NaN; lo ls hi hs compare
 * unsigned. */
template <int T, int... M_> inline bool compare(reg a, reg b) {
  if constexpr (T == f16 || T == bf16) {
    /* A half compares as its float value (exact); .ftz flushes the
     * subnormal halves first. */
    constexpr cuemu_nf_format f = half_format<T>();
    unsigned short x = static_cast<unsigned short>(a), y = static_cast<unsigned short>(b);
    if constexpr (has<m_ftz, M_...>) {
      x = half_flush(x, f);
      y = half_flush(y, f);
    }
    return compare<f32, M_...>(bits_of(cuemu_nf_to_float(x, f)), bits_of(cuemu_nf_to_float(y, f)));
  } else if constexpr (is_float(T)) {
    const auto x = fval<T, M_...>(a), y = fval<T, M_...>(b);
    const bool un = std::isnan(x) || std::isnan(y);
    if constexpr (has<m_eq, M_...>) return !un && x == y;
    else if constexpr (has<m_ne, M_...>) return !un && x != y;
    else if constexpr (has<m_lt, M_...>) return !un && x < y;
    else if constexpr (has<m_le, M_...>) return !un && x <= y;
    else if constexpr (has<m_gt, M_...>) return !un && x > y;
    else if constexpr (has<m_ge, M_...>) return !un && x >= y;
    else if constexpr (has<m_equ, M_...>) return un || x == y;
    else if constexpr (has<m_neu, M_...>) return un || x != y;
    else if constexpr (has<m_ltu, M_...>) return un || x < y;
    else if constexpr (has<m_leu, M_...>) return un || x <= y;
    else if constexpr (has<m_gtu, M_...>) return un || x > y;
    else if constexpr (has<m_geu, M_...>) return un || x >= y;
    else if constexpr (has<m_num, M_...>) return !un;
    else return un; /* nan */
  } else {
    const wide_s x = value<T>(a), y = value<T>(b);
    const reg ux = zx(a, width(T)), uy = zx(b, width(T));
    if constexpr (has<m_eq, M_...>) return x == y;
    else if constexpr (has<m_ne, M_...>) return x != y;
    else if constexpr (has<m_lt, M_...>) return x < y;
    else if constexpr (has<m_le, M_...>) return x <= y;
    else if constexpr (has<m_gt, M_...>) return x > y;
    else if constexpr (has<m_ge, M_...>) return x >= y;
    else if constexpr (has<m_lo, M_...>) return ux < uy;
    else if constexpr (has<m_ls, M_...>) return ux <= uy;
    else if constexpr (has<m_hi, M_...>) return ux > uy;
    else return ux >= uy; /* hs */
  }
}

/* The comparison combined with c by .and, .or or .xor. */
template <int... M_> constexpr bool combine(bool t, reg c) {
  if constexpr (has<m_and, M_...>) return t && c;
  else if constexpr (has<m_or, M_...>) return t || c;
  else if constexpr (has<m_xor, M_...>) return t != (c != 0);
  else return t;
}

/* setp: p = t BoolOp c, q = !t BoolOp c. */
template <int... M_> inline void setp(reg &p, reg &__cuemu_q, reg a, reg b, reg c = 1) {
  constexpr int T = type_n<M_...>(0);
  if constexpr (T == f16x2 || T == bf16x2) {
    /* p|q: the lower halves' comparison and the upper halves'. */
    constexpr int H_ = T == f16x2 ? f16 : bf16;
    p = combine<M_...>(compare<H_, M_...>(a & 0xffffu, b & 0xffffu), c);
    __cuemu_q = combine<M_...>(compare<H_, M_...>((a >> 16) & 0xffffu, (b >> 16) & 0xffffu), c);
  } else {
    const bool t = compare<T, M_...>(a, b);
    p = combine<M_...>(t, c);
    __cuemu_q = combine<M_...>(!t, c);
  }
}

/* set.CmpOp{.BoolOp}.dtype.stype: 0xffffffff (or 1.0f) when true, else 0. */
template <int... M_> inline void set(reg &d, reg a, reg b, reg c = 1) {
  constexpr int D_ = type_n<M_...>(0), S_ = type_n<M_...>(1);
  if constexpr (S_ == f16x2 || S_ == bf16x2) {
    /* Each half: 1.0 of the destination's half type, or 0xffff (.u32). */
    constexpr int H_ = S_ == f16x2 ? f16 : bf16;
    constexpr reg one = D_ == f16x2 ? 0x3c00u : D_ == bf16x2 ? 0x3f80u : 0xffffu;
    d = 0;
    for (int __cuemu_i = 0; __cuemu_i < 2; ++__cuemu_i)
      if (combine<M_...>(compare<H_, M_...>((a >> (16 * __cuemu_i)) & 0xffffu,
                                            (b >> (16 * __cuemu_i)) & 0xffffu), c))
        d |= one << (16 * __cuemu_i);
  } else {
    const bool __cuemu_r = combine<M_...>(compare<S_, M_...>(a, b), c);
    d = !__cuemu_r               ? 0
        : D_ == f16              ? 0x3c00u
        : D_ == bf16             ? 0x3f80u
        : is_float(D_)           ? bits_of(1.0f)
        : width(D_) == 16        ? 0xffffULL
                                 : 0xffffffffULL;
  }
}

/* slct.dtype.{s32,f32} d, a, b, c: a when c >= 0, else b. */
template <int... M_> inline void slct(reg &d, reg a, reg b, reg c) {
  constexpr int D_ = type_n<M_...>(0), C_ = type_n<M_...>(1);
  bool take_a;
  if constexpr (C_ == f32) take_a = fval<f32, M_...>(c) >= 0.0f;
  else take_a = sx(c, 32) >= 0;
  d = result<D_>(take_a ? a : b);
}

/* ---- Conversions --------------------------------------------------------- */

/* The value of a floating-point register of type T as float or double. */
template <int T, int... M_> inline auto fsource(reg v) {
  if constexpr (T == f16) return cuemu_nf_to_float(static_cast<unsigned short>(v), cuemu_nf_binary16);
  else if constexpr (T == bf16) return cuemu_nf_to_float(static_cast<unsigned short>(v), cuemu_nf_bfloat16);
  else return fval<T, M_...>(v);
}

/* The C++ integer type of PTX integer type T. */
template <int T> struct int_of;
template <> struct int_of<u8> { using type = uint8_t; };
template <> struct int_of<u16> { using type = uint16_t; };
template <> struct int_of<u32> { using type = uint32_t; };
template <> struct int_of<u64> { using type = uint64_t; };
template <> struct int_of<s8> { using type = int8_t; };
template <> struct int_of<s16> { using type = int16_t; };
template <> struct int_of<s32> { using type = int32_t; };
template <> struct int_of<s64> { using type = int64_t; };
template <> struct int_of<b8> { using type = uint8_t; };
template <> struct int_of<b16> { using type = uint16_t; };
template <> struct int_of<b32> { using type = uint32_t; };
template <> struct int_of<b64> { using type = uint64_t; };

/* A float or double converted to floating-point type D in direction r
 * (with .relu: negative results become +0, NaN the canonical NaN). */
template <int D_, int... M_, typename F_> inline reg to_float(F_ x) {
  constexpr cuemu_rounding __cuemu_r = rounding<M_...>();
  if constexpr (has<m_relu, M_...>)
    if (!std::isnan(x) && x < F_(0)) x = F_(0);
  if constexpr (D_ == f16) {
    return cuemu_nf_from_double(static_cast<double>(x), cuemu_nf_binary16, __cuemu_r);
  } else if constexpr (D_ == bf16) {
    return cuemu_nf_from_double(static_cast<double>(x), cuemu_nf_bfloat16, __cuemu_r);
  } else if constexpr (D_ == f64) {
    return fbits<M_...>(static_cast<double>(x));
  } else if constexpr (std::is_same<F_, double>::value) {
    return fbits<M_...>(cuemu_convert_rounded<float>(x, __cuemu_r));
  } else {
    return fbits<M_...>(x);
  }
}

/* ---- FP8 pairs: .e4m3x2 and .e5m2x2 (cuemu_fp8_round.h) ------------------ */

constexpr bool __cuemu_is_fp8x2(int t) { return t == e4m3x2 || t == e5m2x2; }

/* One FP8 value of `x` (.satfinite; .relu makes a negative result +0 and a
 * NaN the canonical one). */
template <int D_, int... M_> inline reg __cuemu_fp8_of(double x) {
  static_assert(has<m_rn, M_...> && has<m_satfinite, M_...>,
                "inline PTX: cvt to .e4m3x2/.e5m2x2 needs .rn.satfinite");
  reg b = cuemu_fp8_round_narrow(x, D_ == e4m3x2, true);
  if constexpr (has<m_relu, M_...>)
    if ((b & 0x80U) != 0U) b = cuemu_fp8_isnan(static_cast<unsigned>(b), D_ == e4m3x2) ? 0x7FU : 0U;
  return b;
}

/* One FP8 value as binary16 bits (.relu: a negative one becomes +0). */
template <int S_, int... M_> inline reg __cuemu_half_of_fp8(reg b) {
  reg h = cuemu_fp8_to_half_bits(static_cast<unsigned>(b & 0xFFU), S_ == e4m3x2);
  if constexpr (has<m_relu, M_...>)
    if ((h & 0x8000U) != 0U) h = 0U;
  return h;
}

template <int... M_> inline void cvt(reg &d, reg a) {
  constexpr int D_ = type_n<M_...>(0), S_ = type_n<M_...>(1);
  constexpr cuemu_rounding __cuemu_r = rounding<M_...>();
  if constexpr (D_ == __cuemu_tf32) {
    /* cvt.{rna,rn,rz}.tf32.f32 d, a: a rounded to 10 fraction bits (.rna,
     * the translation drops, to nearest with ties away from zero), the
     * 13 low bits zero; a NaN stays a NaN. */
    static_assert(S_ == f32, "inline PTX: cvt to .tf32 takes .f32");
    const uint32_t x = static_cast<uint32_t>(a);
    if ((x & 0x7fffffffu) > 0x7f800000u) d = 0x7fffffffu;
    else if constexpr (has<m_rz, M_...>) d = x & ~0x1fffu;
    else if constexpr (has<m_rn, M_...>) d = (x + 0xfffu + ((x >> 13) & 1u)) & ~0x1fffu;
    else d = (x + 0x1000u) & ~0x1fffu;
  } else if constexpr (__cuemu_is_fp8x2(D_)) {
    /* cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2 d, a: the upper half
     * of a into the upper byte. */
    static_assert(S_ == f16x2, "inline PTX: cvt to .e4m3x2/.e5m2x2 takes .f16x2 (or two .f32)");
    d = (__cuemu_fp8_of<D_, M_...>(cuemu_nf_to_double(static_cast<unsigned short>(a >> 16), cuemu_nf_binary16)) << 8) |
        __cuemu_fp8_of<D_, M_...>(cuemu_nf_to_double(static_cast<unsigned short>(a & 0xFFFFU), cuemu_nf_binary16));
  } else if constexpr (__cuemu_is_fp8x2(S_)) {
    /* cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a: exact. */
    static_assert(D_ == f16x2 && has<m_rn, M_...>,
                  "inline PTX: cvt from .e4m3x2/.e5m2x2 gives .f16x2 with .rn");
    d = (__cuemu_half_of_fp8<S_, M_...>(a >> 8) << 16) | __cuemu_half_of_fp8<S_, M_...>(a);
  } else if constexpr (is_int(D_) && is_int(S_)) {
    wide_s v = value<S_>(a);
    if constexpr (has<m_sat, M_...>) v = clamp_to<D_>(v);
    d = result<D_>(static_cast<reg>(v));
  } else if constexpr (is_int(D_)) {
    /* Float to integer: rounded, clamped to the range (cuemu_math.h). */
    using I_ = typename int_of<D_>::type;
    const auto x = fsource<S_, M_...>(a);
    d = result<D_>(static_cast<reg>(cuemu_float_to_int<I_>(x, __cuemu_r)));
  } else if constexpr (is_int(S_)) {
    /* Integer to float, rounded in direction r. */
    const wide_s v = value<S_>(a);
    if constexpr (D_ == f16 || D_ == bf16) {
      constexpr cuemu_nf_format fmt = D_ == f16 ? cuemu_nf_binary16 : cuemu_nf_bfloat16;
      if constexpr (is_signed(S_)) d = cuemu_nf_from_ll(static_cast<long long>(v), fmt, __cuemu_r);
      else d = cuemu_nf_from_ull(static_cast<unsigned long long>(v), false, fmt, __cuemu_r);
    } else if constexpr (D_ == f64) {
      d = fbits<M_...>(is_signed(S_) ? cuemu_convert_rounded<double>(static_cast<long long>(v), __cuemu_r)
                                   : cuemu_convert_rounded<double>(static_cast<unsigned long long>(v), __cuemu_r));
    } else {
      d = fbits<M_...>(is_signed(S_) ? cuemu_convert_rounded<float>(static_cast<long long>(v), __cuemu_r)
                                   : cuemu_convert_rounded<float>(static_cast<unsigned long long>(v), __cuemu_r));
    }
  } else {
    /* Float to float; .rni .rzi .rmi .rpi round to an integral value. */
    auto x = fsource<S_, M_...>(a);
    if constexpr (has<m_rni, M_...> || has<m_rzi, M_...> || has<m_rmi, M_...> || has<m_rpi, M_...>)
      x = cuemu_round_integral(x, __cuemu_r);
    d = to_float<D_, M_...>(x);
  }
}

/* cvt.rn{.relu}.{f16x2,bf16x2}.f32 d, a, b: a in the upper half, b in the
 * lower; and the FP8 pairs. */
template <int... M_> inline void cvt(reg &d, reg a, reg b) {
  constexpr int __cuemu_T_ = type_n<M_...>(0);
  if constexpr (__cuemu_is_fp8x2(__cuemu_T_)) {
    /* cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b: a in the upper
     * byte. */
    d = (__cuemu_fp8_of<__cuemu_T_, M_...>(as_f32(a)) << 8) | __cuemu_fp8_of<__cuemu_T_, M_...>(as_f32(b));
  } else {
    constexpr int D_ = __cuemu_T_ == f16x2 ? f16 : bf16;
    d = (to_float<D_, M_...>(as_f32(a)) << 16) | to_float<D_, M_...>(as_f32(b));
  }
}

#undef CUEMU_PTX_HALF_OP

} // namespace ptx
} // namespace cuemu

#endif /* CUEMU_PTX_FLOAT_H */
