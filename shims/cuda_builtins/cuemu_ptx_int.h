/*
 * cuemu_ptx_int.h: PTX's integer and bit instructions for inline PTX (see
 * cuemu_ptx.h): add, sub, mul, mad (with .cc and the carry chains of addc,
 * subc, madc), mul24, mad24, sad, div, rem, abs, neg, min, max, popc, clz,
 * brev, bfind, fns, bfe, bfi, bmsk, prmt, lop3, shf, and, or, xor, not, cnot,
 * shl, shr, selp, as the PTX ISA defines them. Floating-point types of
 * add, sub, mul, mad, div, abs, neg, min and max go to cuemu_ptx_float.h.
 * Part of cuemu_ptx.h.
 */
#ifndef CUEMU_PTX_INT_H
#define CUEMU_PTX_INT_H
/* A system header: its C++17 forms that C++14 accepts (if constexpr, inline
 * variables, fold expressions) give no warning in a C++14 build of a .cpp
 * file (docs/dialects.md). */
#pragma GCC system_header

#include "cuemu_ptx_base.h"

namespace cuemu {
namespace ptx {

using wide_u = unsigned __int128;
using wide_s = __int128;

/* The value of register bits as type T, in a 128-bit integer. */
template <int T> constexpr wide_s value(reg v) {
  if constexpr (is_signed(T)) return sx(v, width(T));
  else return static_cast<wide_s>(zx(v, width(T)));
}

/* v clamped to the range of type T (for .sat). */
template <int T> constexpr wide_s clamp_to(wide_s v) {
  constexpr int w = width(T);
  const wide_s hi = is_signed(T) ? (static_cast<wide_s>(1) << (w - 1)) - 1
                                 : (static_cast<wide_s>(1) << w) - 1;
  const wide_s lo = is_signed(T) ? -(static_cast<wide_s>(1) << (w - 1)) : 0;
  return v > hi ? hi : v < lo ? lo : v;
}

template <int... M_> void fadd(reg &, reg, reg);
template <int... M_> void fsub(reg &, reg, reg);
template <int... M_> void fmul(reg &, reg, reg);
template <int... M_> void ffma(reg &, reg, reg, reg);
template <int... M_> void fdiv(reg &, reg, reg);
template <int... M_> void fabs_(reg &, reg);
template <int... M_> void fneg(reg &, reg);
template <int... M_> void fminmax(reg &, reg, reg, bool);

/* add{.sat}{.cc}: with .cc, the carry out of the unsigned sum goes to CC.CF. */
template <int... M_> inline void add(reg &d, reg a, reg b, reg &cc) {
  constexpr int T = type_n<M_...>(0), w = width(T);
  if constexpr (is_fp(T)) {
    fadd<M_...>(d, a, b);
  } else if constexpr (has<m_sat, M_...>) {
    d = result<T>(static_cast<reg>(clamp_to<T>(value<T>(a) + value<T>(b))));
  } else {
    const wide_u __cuemu_sum = static_cast<wide_u>(zx(a, w)) + zx(b, w);
    if constexpr (has<m_cc, M_...>) cc = static_cast<reg>(__cuemu_sum >> w) & 1;
    d = result<T>(static_cast<reg>(__cuemu_sum));
  }
}

/* sub{.sat}{.cc}: with .cc, CC.CF is the carry out of a + ~b + 1, as the
 * GPU subtracts: 1 when nothing is borrowed. The GPU keeps one carry bit
 * for additions and subtractions, so an addc after a sub.cc, or a subc
 * after an add.cc, reads it that way (CGBN's warp-wide negate does). */
template <int... M_> inline void sub(reg &d, reg a, reg b, reg &cc) {
  constexpr int T = type_n<M_...>(0), w = width(T);
  if constexpr (is_fp(T)) {
    fsub<M_...>(d, a, b);
  } else if constexpr (has<m_sat, M_...>) {
    d = result<T>(static_cast<reg>(clamp_to<T>(value<T>(a) - value<T>(b))));
  } else {
    if constexpr (has<m_cc, M_...>) cc = zx(a, w) >= zx(b, w);
    d = result<T>(zx(a, w) - zx(b, w));
  }
}

/* addc{.cc}: d = a + b + CC.CF. */
template <int... M_> inline void addc(reg &d, reg a, reg b, reg &cc) {
  constexpr int T = type_n<M_...>(0), w = width(T);
  const wide_u __cuemu_sum = static_cast<wide_u>(zx(a, w)) + zx(b, w) + (cc & 1);
  if constexpr (has<m_cc, M_...>) cc = static_cast<reg>(__cuemu_sum >> w) & 1;
  d = result<T>(static_cast<reg>(__cuemu_sum));
}

/* subc{.cc}: d = a + ~b + CC.CF, that is a - (b + borrow) where the borrow
 * is 1 - CC.CF; with .cc, CC.CF becomes the carry out of that sum. */
template <int... M_> inline void subc(reg &d, reg a, reg b, reg &cc) {
  constexpr int T = type_n<M_...>(0), w = width(T);
  const wide_u sub = static_cast<wide_u>(zx(b, w)) + (1 - (cc & 1));
  if constexpr (has<m_cc, M_...>) cc = static_cast<wide_u>(zx(a, w)) >= sub;
  d = result<T>(static_cast<reg>(static_cast<wide_u>(zx(a, w)) - sub));
}

/* The full product of a and b as type T (2 * width bits). */
template <int T> constexpr wide_u product(reg a, reg b) {
  return static_cast<wide_u>(value<T>(a) * value<T>(b));
}

/* The .lo, .hi or .wide part of a product. */
template <int T, int... M_> constexpr reg product_part(wide_u p) {
  constexpr int w = width(T);
  if constexpr (has<m_hi, M_...>) return zx(static_cast<reg>(p >> w), w);
  else if constexpr (has<m_wide, M_...>) return zx(static_cast<reg>(p), 2 * w);
  else return zx(static_cast<reg>(p), w);
}

template <int... M_> inline void mul(reg &d, reg a, reg b) {
  constexpr int T = type_n<M_...>(0);
  if constexpr (is_fp(T)) fmul<M_...>(d, a, b);
  else d = product_part<T, M_...>(product<T>(a, b));
}

/* mad{.lo,.hi,.wide}{.cc}: the part of a * b, plus c. */
template <int... M_> inline void mad(reg &d, reg a, reg b, reg c, reg &cc) {
  constexpr int T = type_n<M_...>(0), w = width(T);
  if constexpr (is_fp(T)) {
    ffma<M_...>(d, a, b, c);
  } else {
    constexpr int dw = has<m_wide, M_...> ? 2 * w : w;
    const wide_u __cuemu_sum = static_cast<wide_u>(product_part<T, M_...>(product<T>(a, b))) + zx(c, dw);
    if constexpr (has<m_sat, M_...>) {
      /* mad.hi.sat.s32: the high half plus c, saturated. */
      d = result<T>(static_cast<reg>(clamp_to<T>(
          sx(product_part<T, M_...>(product<T>(a, b)), w) + value<T>(c))));
    } else {
      if constexpr (has<m_cc, M_...>) cc = static_cast<reg>(__cuemu_sum >> dw) & 1;
      d = zx(static_cast<reg>(__cuemu_sum), dw);
    }
  }
}

/* madc{.lo,.hi}{.cc}: the part of a * b, plus c, plus CC.CF. */
template <int... M_> inline void madc(reg &d, reg a, reg b, reg c, reg &cc) {
  constexpr int T = type_n<M_...>(0), w = width(T);
  const wide_u __cuemu_sum = static_cast<wide_u>(product_part<T, M_...>(product<T>(a, b))) +
                     zx(c, w) + (cc & 1);
  if constexpr (has<m_cc, M_...>) cc = static_cast<reg>(__cuemu_sum >> w) & 1;
  d = zx(static_cast<reg>(__cuemu_sum), w);
}

/* mul24/mad24: the 48-bit product of the low 24 bits; .lo its bits 31..0,
 * .hi its bits 47..16. */
template <int... M_> inline void mul24(reg &d, reg a, reg b) {
  constexpr int T = type_n<M_...>(0);
  const wide_s p = is_signed(T) ? static_cast<wide_s>(sx(a, 24)) * sx(b, 24)
                                : static_cast<wide_s>(zx(a, 24)) * zx(b, 24);
  d = zx(static_cast<reg>(has<m_hi, M_...> ? p >> 16 : p), 32);
}
template <int... M_> inline void mad24(reg &d, reg a, reg b, reg c) {
  mul24<M_...>(d, a, b);
  d = zx(d + c, 32);
}

/* sad: c + |a - b|. */
template <int... M_> inline void sad(reg &d, reg a, reg b, reg c) {
  constexpr int T = type_n<M_...>(0);
  const wide_s x = value<T>(a), y = value<T>(b);
  d = result<T>(static_cast<reg>(static_cast<wide_s>(zx(c, width(T))) + (x > y ? x - y : y - x)));
}

/* div and rem: a zero divisor gives all ones (div) or a (rem), and the
 * most negative value divided by -1 gives itself, as on the GPU, instead
 * of a host fault. */
template <int... M_> inline void div(reg &d, reg a, reg b) {
  constexpr int T = type_n<M_...>(0);
  if constexpr (is_fp(T)) {
    fdiv<M_...>(d, a, b);
  } else {
    const wide_s x = value<T>(a), y = value<T>(b);
    d = y == 0 ? mask(width(T)) : result<T>(static_cast<reg>(x / y));
  }
}
template <int... M_> inline void rem(reg &d, reg a, reg b) {
  constexpr int T = type_n<M_...>(0);
  const wide_s x = value<T>(a), y = value<T>(b);
  d = y == 0 ? result<T>(a) : result<T>(static_cast<reg>(x % y));
}

template <int... M_> inline void abs(reg &d, reg a) {
  constexpr int T = type_n<M_...>(0);
  if constexpr (is_fp(T)) {
    fabs_<M_...>(d, a);
  } else {
    const wide_s x = value<T>(a);
    d = result<T>(static_cast<reg>(x < 0 ? -x : x));
  }
}

template <int... M_> inline void neg(reg &d, reg a) {
  constexpr int T = type_n<M_...>(0);
  if constexpr (is_fp(T)) fneg<M_...>(d, a);
  else d = result<T>(static_cast<reg>(-value<T>(a)));
}

template <int... M_> inline void min(reg &d, reg a, reg b) {
  constexpr int T = type_n<M_...>(0);
  if constexpr (is_fp(T)) {
    fminmax<M_...>(d, a, b, false);
  } else {
    d = result<T>(value<T>(a) < value<T>(b) ? a : b);
    if (has<m_relu, M_...> && value<T>(d) < 0) d = 0;
  }
}

/* max.relu.s32: the maximum of a, b and 0. */
template <int... M_> inline void max(reg &d, reg a, reg b) {
  constexpr int T = type_n<M_...>(0);
  if constexpr (is_fp(T)) {
    fminmax<M_...>(d, a, b, true);
  } else {
    d = result<T>(value<T>(a) > value<T>(b) ? a : b);
    if (has<m_relu, M_...> && value<T>(d) < 0) d = 0;
  }
}

/* ---- Bits ---------------------------------------------------------------- */

template <int... M_> inline void popc(reg &d, reg a) {
  d = static_cast<reg>(__builtin_popcountll(zx(a, width(type_n<M_...>(0)))));
}

template <int... M_> inline void clz(reg &d, reg a) {
  constexpr int w = width(type_n<M_...>(0));
  const reg x = zx(a, w);
  d = x == 0 ? w : static_cast<reg>(__builtin_clzll(x) - (64 - w));
}

template <int... M_> inline void brev(reg &d, reg a) {
  if constexpr (width(type_n<M_...>(0)) == 32) d = __brev(static_cast<unsigned>(a));
  else d = __brevll(a);
}

/* bfind{.shiftamt}: the position of the most significant non-sign bit;
 * 0xffffffff when there is none. */
template <int... M_> inline void bfind(reg &d, reg a) {
  constexpr int T = type_n<M_...>(0), msb = width(T) - 1;
  reg x = zx(a, width(T));
  if (is_signed(T) && ((x >> msb) & 1)) x = zx(~x, width(T));
  reg __cuemu_r = 0xffffffffULL;
  for (int __cuemu_i = msb; __cuemu_i >= 0; --__cuemu_i)
    if ((x >> __cuemu_i) & 1) {
      __cuemu_r = static_cast<reg>(__cuemu_i);
      break;
    }
  if (has<m_shiftamt, M_...> && __cuemu_r != 0xffffffffULL) __cuemu_r = static_cast<reg>(msb) - __cuemu_r;
  d = __cuemu_r;
}

template <int... M_> inline void fns(reg &d, reg mask_, reg base, reg offset) {
  d = __fns(static_cast<unsigned>(mask_), static_cast<unsigned>(base),
            static_cast<int>(static_cast<unsigned>(offset)));
}

/* bfe: len = c[7:0] bits from position b[7:0]; past the msb (and for signed
 * types) the field is extended with its sign bit a[min(pos+len-1, msb)]. */
template <int... M_> inline void bfe(reg &d, reg a, reg b, reg c) {
  constexpr int T = type_n<M_...>(0), msb = width(T) - 1;
  const int __cuemu_pos = static_cast<int>(b & 0xff), len = static_cast<int>(c & 0xff);
  int sbit = 0;
  if (is_signed(T) && len != 0) {
    const int at = __cuemu_pos + len - 1 < msb ? __cuemu_pos + len - 1 : msb;
    sbit = static_cast<int>((a >> at) & 1);
  }
  reg __cuemu_r = 0;
  for (int __cuemu_i = 0; __cuemu_i <= msb; ++__cuemu_i) {
    const reg __cuemu_bit = (__cuemu_i < len && __cuemu_pos + __cuemu_i <= msb) ? (a >> (__cuemu_pos + __cuemu_i)) & 1 : static_cast<reg>(sbit);
    __cuemu_r |= __cuemu_bit << __cuemu_i;
  }
  d = __cuemu_r;
}

/* bfi f, a, b, c, d: b with len = d[7:0] bits of a inserted at c[7:0]. */
template <int... M_> inline void bfi(reg &f, reg a, reg b, reg c, reg dd) {
  constexpr int msb = width(type_n<M_...>(0)) - 1;
  const int __cuemu_pos = static_cast<int>(c & 0xff), len = static_cast<int>(dd & 0xff);
  reg __cuemu_r = zx(b, msb + 1);
  for (int __cuemu_i = 0; __cuemu_i < len && __cuemu_pos + __cuemu_i <= msb; ++__cuemu_i)
    __cuemu_r = (__cuemu_r & ~(1ULL << (__cuemu_pos + __cuemu_i))) | (((a >> __cuemu_i) & 1) << (__cuemu_pos + __cuemu_i));
  f = __cuemu_r;
}

/* bmsk.mode.b32 d, a, b: a mask of b bits from bit a, as the PTX ISA
 * defines it: 0 when the field reaches past bit 31 or b is 0, and with
 * .clamp also when a or b is 32 or more (with .wrap both are taken modulo
 * 32). */
template <int... M_> inline void bmsk(reg &d, reg a, reg b) {
  const unsigned a32 = static_cast<unsigned>(a), b32 = static_cast<unsigned>(b);
  const unsigned a1 = a32 & 0x1f, b1 = b32 & 0x1f, __cuemu_sum = a1 + b1;
  unsigned mask0 = ~0u << a1, mask1 = __cuemu_sum < 32 ? ~0u << __cuemu_sum : 0u;
  bool overflow = __cuemu_sum >= 32;
  if (has<m_clamp, M_...>) {
    if (a32 >= 32) {
      overflow = true;
      mask0 = 0;
    }
    if (b32 >= 32) overflow = true;
  }
  if (overflow)
    mask1 = 0;
  else if (b1 == 0)
    mask1 = ~0u;
  d = mask0 & ~mask1;
}

/* prmt: the bytes of d picked from the eight bytes of b:a. */
template <int... M_> inline void prmt(reg &d, reg a, reg b, reg c) {
  const reg bytes = zx(a, 32) | (zx(b, 32) << 32);
  const int sel = static_cast<int>(c & 3);
  static const unsigned char modes[6][4][4] = {
      /* f4e */ {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
      /* b4e */ {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
      /* rc8 */ {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
      /* ecl */ {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
      /* ecr */ {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
      /* rc16 */ {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}};
  constexpr int mode = has<m_f4e, M_...>   ? 0
                       : has<m_b4e, M_...> ? 1
                       : has<m_rc8, M_...> ? 2
                       : has<m_ecl, M_...> ? 3
                       : has<m_ecr, M_...> ? 4
                       : has<m_rc16, M_...> ? 5
                                          : -1;
  reg __cuemu_r = 0;
  for (int n = 0; n < 4; ++n) {
    reg byte;
    if constexpr (mode < 0) {
      /* Default mode: selector nibble n; its bit 3 replicates the sign. */
      const unsigned s = static_cast<unsigned>(c >> (4 * n)) & 0xf;
      byte = (bytes >> (8 * (s & 7))) & 0xff;
      if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
    } else {
      byte = (bytes >> (8 * modes[mode][sel][n])) & 0xff;
    }
    __cuemu_r |= byte << (8 * n);
  }
  d = __cuemu_r;
}

/* lop3: bit i of d is bit (a_i b_i c_i) of the look-up table. */
template <int... M_> inline void lop3(reg &d, reg a, reg b, reg c, reg lut) {
  reg __cuemu_r = 0;
  for (int __cuemu_i = 0; __cuemu_i < 32; ++__cuemu_i) {
    const unsigned __cuemu_idx = static_cast<unsigned>(((a >> __cuemu_i) & 1) << 2 | ((b >> __cuemu_i) & 1) << 1 | ((c >> __cuemu_i) & 1));
    __cuemu_r |= ((lut >> __cuemu_idx) & 1) << __cuemu_i;
  }
  d = __cuemu_r;
}

/* shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: the funnel shift of b:a by c. */
template <int... M_> inline void shf(reg &d, reg a, reg b, reg c) {
  const unsigned n = has<m_clamp, M_...> ? (zx(c, 32) < 32 ? static_cast<unsigned>(zx(c, 32)) : 32u)
                                        : static_cast<unsigned>(c & 31);
  const reg both = zx(a, 32) | (zx(b, 32) << 32);
  if constexpr (has<m_l, M_...>)
    d = n == 32 ? zx(a, 32) : zx((both << n) >> 32, 32);
  else
    d = n == 32 ? zx(b, 32) : zx(both >> n, 32);
}

template <int... M_> inline void and_(reg &d, reg a, reg b) {
  d = result<type_n<M_...>(0)>(a & b);
}
template <int... M_> inline void or_(reg &d, reg a, reg b) {
  d = result<type_n<M_...>(0)>(a | b);
}
template <int... M_> inline void xor_(reg &d, reg a, reg b) {
  d = result<type_n<M_...>(0)>(a ^ b);
}
template <int... M_> inline void not_(reg &d, reg a) {
  constexpr int T = type_n<M_...>(0);
  d = kind(T) == k_pred ? (a == 0) : result<T>(~a);
}
template <int... M_> inline void cnot(reg &d, reg a) {
  d = zx(a, width(type_n<M_...>(0))) == 0;
}

/* Shift amounts are unsigned; past the width, shl and a logical shr give 0
 * and an arithmetic shr the sign. */
template <int... M_> inline void shl(reg &d, reg a, reg b) {
  constexpr int T = type_n<M_...>(0);
  const reg n = zx(b, 32);
  d = n >= static_cast<reg>(width(T)) ? 0 : result<T>(a << n);
}
template <int... M_> inline void shr(reg &d, reg a, reg b) {
  constexpr int T = type_n<M_...>(0), w = width(T);
  const reg n = zx(b, 32);
  if constexpr (is_signed(T))
    d = result<T>(static_cast<reg>(sx(a, w) >> (n >= static_cast<reg>(w) ? w - 1 : n)));
  else
    d = n >= static_cast<reg>(w) ? 0 : zx(a, w) >> n;
}

/* The SIMD video instructions vadd, vsub, vavrg, vabsdiff, vmin, vmax of two
 * halves (vop2) or four bytes (vop4), .dtype.atype.btype: each element of
 * a and b, signed or unsigned by its type, gives op(a_i, b_i) (vavrg: the
 * average, rounded up for a non-negative sum and down for a negative one,
 * as the ISA's pseudo-code and CUDA's __vavgs2 have it); with .sat
 * it is clamped to the element's range of dtype, and d takes its low bits;
 * with .add, d is c plus the sum of the results (modulo 2^32). The masks
 * and element selectors are not emulated (the translation refuses them). */
enum : int { __cuemu_v_add, __cuemu_v_sub, __cuemu_v_absdiff, __cuemu_v_min, __cuemu_v_max, __cuemu_v_avrg,
             __cuemu_v_shl, __cuemu_v_shr };
/* The operation of a video instruction on two extended elements. */
template <int __cuemu_Op> constexpr long long __cuemu_video_op(long long x, long long y) {
  return __cuemu_Op == __cuemu_v_add       ? x + y
         : __cuemu_Op == __cuemu_v_sub     ? x - y
         : __cuemu_Op == __cuemu_v_absdiff ? (x > y ? x - y : y - x)
         : __cuemu_Op == __cuemu_v_min     ? (x < y ? x : y)
         : __cuemu_Op == __cuemu_v_avrg    ? (x + y >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1)
                                           : (x > y ? x : y);
}
template <int __cuemu_Op, int __cuemu_Bits, int... M_> inline void __cuemu_vsimd(reg &d, reg a, reg b, reg c) {
  constexpr int D_ = type_n<M_...>(0), A_ = type_n<M_...>(1), __cuemu_B = type_n<M_...>(2);
  static_assert(!(has<m_sat, M_...> && has<m_add, M_...>), "inline PTX: .sat and .add of a video instruction");
  const long long lo = is_signed(D_) ? -(1LL << (__cuemu_Bits - 1)) : 0;
  const long long hi = is_signed(D_) ? (1LL << (__cuemu_Bits - 1)) - 1 : (1LL << __cuemu_Bits) - 1;
  long long __cuemu_sum = 0;
  reg __cuemu_r = 0;
  for (int n = 0; n < 32 / __cuemu_Bits; ++n) {
    const reg __cuemu_ea = a >> (__cuemu_Bits * n), __cuemu_eb = b >> (__cuemu_Bits * n);
    const long long x = is_signed(A_) ? sx(__cuemu_ea, __cuemu_Bits) : static_cast<long long>(zx(__cuemu_ea, __cuemu_Bits));
    const long long y = is_signed(__cuemu_B) ? sx(__cuemu_eb, __cuemu_Bits) : static_cast<long long>(zx(__cuemu_eb, __cuemu_Bits));
    long long v = __cuemu_video_op<__cuemu_Op>(x, y);
    if constexpr (has<m_sat, M_...>) v = v < lo ? lo : v > hi ? hi : v;
    __cuemu_sum += v;
    __cuemu_r |= zx(static_cast<reg>(v), __cuemu_Bits) << (__cuemu_Bits * n);
  }
  d = has<m_add, M_...> ? zx(c + static_cast<reg>(__cuemu_sum), 32) : __cuemu_r;
}
#define CUEMU_PTX_VSIMD(name, op, bits)                                        \
  template <int... M_> inline void name(reg &d, reg a, reg b, reg c) {         \
    __cuemu_vsimd<op, bits, M_...>(d, a, b, c);                                        \
  }
CUEMU_PTX_VSIMD(__cuemu_vadd2, __cuemu_v_add, 16)
CUEMU_PTX_VSIMD(__cuemu_vadd4, __cuemu_v_add, 8)
CUEMU_PTX_VSIMD(__cuemu_vsub2, __cuemu_v_sub, 16)
CUEMU_PTX_VSIMD(__cuemu_vsub4, __cuemu_v_sub, 8)
CUEMU_PTX_VSIMD(__cuemu_vabsdiff2, __cuemu_v_absdiff, 16)
CUEMU_PTX_VSIMD(__cuemu_vabsdiff4, __cuemu_v_absdiff, 8)
CUEMU_PTX_VSIMD(__cuemu_vmin2, __cuemu_v_min, 16)
CUEMU_PTX_VSIMD(__cuemu_vmin4, __cuemu_v_min, 8)
CUEMU_PTX_VSIMD(__cuemu_vmax2, __cuemu_v_max, 16)
CUEMU_PTX_VSIMD(__cuemu_vmax4, __cuemu_v_max, 8)
CUEMU_PTX_VSIMD(__cuemu_vavrg2, __cuemu_v_avrg, 16)
CUEMU_PTX_VSIMD(__cuemu_vavrg4, __cuemu_v_avrg, 8)
#undef CUEMU_PTX_VSIMD

/* The SIMD comparisons vset2 and vset4, .atype.btype.cmp: each element of a
 * and b, signed or unsigned by its type, gives 1 where the comparison holds
 * and 0 where it does not (not an all-ones element); d takes the elements,
 * or with .add is c plus their sum (modulo 2^32). The masks and element
 * selectors are not emulated (the translation refuses them). */
/* The comparison of vset, vset2 and vset4 on two extended elements. */
template <int... M_> inline bool __cuemu_vcompare(long long x, long long y) {
  static_assert(has<m_eq, M_...> + has<m_ne, M_...> + has<m_lt, M_...> + has<m_le, M_...> +
                        has<m_gt, M_...> + has<m_ge, M_...> ==
                    1,
                "inline PTX: vset, vset2 and vset4 take one comparison (.eq .ne .lt .le .gt .ge)");
  if constexpr (has<m_eq, M_...>) return x == y;
  else if constexpr (has<m_ne, M_...>) return x != y;
  else if constexpr (has<m_lt, M_...>) return x < y;
  else if constexpr (has<m_le, M_...>) return x <= y;
  else if constexpr (has<m_gt, M_...>) return x > y;
  else return x >= y; /* ge */
}
template <int __cuemu_Bits, int... M_> inline void __cuemu_vset(reg &d, reg a, reg b, reg c) {
  constexpr int A_ = type_n<M_...>(0), __cuemu_B = type_n<M_...>(1);
  reg __cuemu_sum = 0, __cuemu_r = 0;
  for (int n = 0; n < 32 / __cuemu_Bits; ++n) {
    const reg __cuemu_ea = a >> (__cuemu_Bits * n), __cuemu_eb = b >> (__cuemu_Bits * n);
    const long long x = is_signed(A_) ? sx(__cuemu_ea, __cuemu_Bits) : static_cast<long long>(zx(__cuemu_ea, __cuemu_Bits));
    const long long y = is_signed(__cuemu_B) ? sx(__cuemu_eb, __cuemu_Bits) : static_cast<long long>(zx(__cuemu_eb, __cuemu_Bits));
    const bool t = __cuemu_vcompare<M_...>(x, y);
    __cuemu_sum += t;
    __cuemu_r |= static_cast<reg>(t) << (__cuemu_Bits * n);
  }
  d = has<m_add, M_...> ? zx(c + __cuemu_sum, 32) : __cuemu_r;
}
template <int... M_> inline void __cuemu_vset2(reg &d, reg a, reg b, reg c) { __cuemu_vset<16, M_...>(d, a, b, c); }
template <int... M_> inline void __cuemu_vset4(reg &d, reg a, reg b, reg c) { __cuemu_vset<8, M_...>(d, a, b, c); }

/* The scalar video instructions vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr
 * (whose btype is .u32 and which take .clamp or .wrap),
 * .dtype.atype.btype{.sat}{.op2} d, a, b{, c}, as the PTX ISA defines them:
 * a and b extended by their types, the operation on the wide values, with
 * .sat the clamp to dtype's range, then the secondary operation .add, .min
 * or .max with c (extended by dtype; SIMD Smith-Waterman code takes the
 * maximum of three scores as vmax.s32.s32.s32.max), and d the low 32 bits.
 * a and b may select a byte or half (__cuemu_vpart); the three-source form
 * takes a secondary operation or the data merge d.dsel (__cuemu_vmerge). */
/* The first bit and the width of the byte (.b0 to .b3) or half (.h0, .h1)
 * that a scalar video operand's selector names, the whole register without
 * one. __cuemu_B0 is the operand's .b0 modifier (__cuemu_m_asel_b0, __cuemu_m_bsel_b0
 * or __cuemu_m_dsel_b0); the other five follow it. */
template <int __cuemu_B0, int... M_> constexpr int __cuemu_vsel_shift() {
  return has<__cuemu_B0 + 1, M_...> ? 8 : has<__cuemu_B0 + 2, M_...> || has<__cuemu_B0 + 5, M_...> ? 16 : has<__cuemu_B0 + 3, M_...> ? 24 : 0;
}
template <int __cuemu_B0, int... M_> constexpr int __cuemu_vsel_bits() {
  return has<__cuemu_B0, M_...> || has<__cuemu_B0 + 1, M_...> || has<__cuemu_B0 + 2, M_...> || has<__cuemu_B0 + 3, M_...> ? 8
         : has<__cuemu_B0 + 4, M_...> || has<__cuemu_B0 + 5, M_...>                                          ? 16
                                                                                                : 32;
}
/* An operand of a scalar video instruction as the ISA's partSelectSignExtend
 * reads it: the selected part, extended by the operand's type T. */
template <int T, int __cuemu_B0, int... M_> constexpr long long __cuemu_vpart(reg v) {
  constexpr int __cuemu_shift = __cuemu_vsel_shift<__cuemu_B0, M_...>(), w = __cuemu_vsel_bits<__cuemu_B0, M_...>();
  return is_signed(T) ? sx(v >> __cuemu_shift, w) : static_cast<long long>(zx(v >> __cuemu_shift, w));
}
/* The ISA's optMerge of d.dsel: the low bits of the result in d's selected
 * byte or half, c's bits in the rest. */
template <int... M_> constexpr reg __cuemu_vmerge(long long v, reg c) {
  constexpr int __cuemu_shift = __cuemu_vsel_shift<__cuemu_m_dsel_b0, M_...>();
  constexpr reg __cuemu_mask = mask(__cuemu_vsel_bits<__cuemu_m_dsel_b0, M_...>()) << __cuemu_shift;
  return ((static_cast<reg>(v) << __cuemu_shift) & __cuemu_mask) | (zx(c, 32) & ~__cuemu_mask);
}
template <int __cuemu_Op, int... M_> inline long long __cuemu_vscalar_op(reg a, reg b) {
  constexpr int D_ = type_n<M_...>(0), A_ = type_n<M_...>(1), __cuemu_B = type_n<M_...>(2);
  const long long x = __cuemu_vpart<A_, __cuemu_m_asel_b0, M_...>(a);
  const long long y = __cuemu_vpart<__cuemu_B, __cuemu_m_bsel_b0, M_...>(b);
  __int128 v;
  if constexpr (__cuemu_Op == __cuemu_v_shl || __cuemu_Op == __cuemu_v_shr) {
    /* vshl, vshr: the amount is b as .u32, clamped to 32 (.clamp) or taken
     * modulo 32 (.wrap); the shift is of the extended a, so that .sat sees
     * the bits shifted out and a signed vshr by 32 gives the sign. */
    static_assert(has<m_clamp, M_...> != has<m_wrap, M_...>,
                  "inline PTX: vshl and vshr take one of .clamp and .wrap");
    const unsigned long long __cuemu_nb = zx(static_cast<reg>(y), 32);
    const unsigned long long n = has<m_clamp, M_...> ? (__cuemu_nb > 32 ? 32 : __cuemu_nb) : (__cuemu_nb & 31);
    v = __cuemu_Op == __cuemu_v_shl ? static_cast<__int128>(x) * (static_cast<__int128>(1) << n)
                                    : static_cast<__int128>(x >> n);
  } else {
    v = __cuemu_video_op<__cuemu_Op>(x, y);
  }
  if constexpr (has<m_sat, M_...>) {
    /* The ISA's optSaturate: the range of dtype, or of d's selected byte or
     * half with the data merge. */
    constexpr int w = __cuemu_vsel_bits<__cuemu_m_dsel_b0, M_...>();
    const __int128 lo = is_signed(D_) ? -(1LL << (w - 1)) : 0;
    const __int128 hi = is_signed(D_) ? (1LL << (w - 1)) - 1 : (1LL << w) - 1;
    v = v < lo ? lo : v > hi ? hi : v;
  }
  /* Only the low 32 bits of a result that .sat did not clamp are kept. */
  return has<m_sat, M_...> ? static_cast<long long>(v) : sx(static_cast<reg>(v), 64);
}
template <int __cuemu_Op, int... M_> inline void __cuemu_vscalar(reg &d, reg a, reg b) {
  static_assert(!has<m_add, M_...> && !has<m_min, M_...> && !has<m_max, M_...>,
                "inline PTX: the secondary operation of a video instruction needs an operand c");
  static_assert(__cuemu_vsel_bits<__cuemu_m_dsel_b0, M_...>() == 32,
                "inline PTX: the data merge d.dsel of a video instruction needs an operand c");
  d = zx(static_cast<reg>(__cuemu_vscalar_op<__cuemu_Op, M_...>(a, b)), 32);
}
template <int __cuemu_Op, int... M_> inline void __cuemu_vscalar(reg &d, reg a, reg b, reg c) {
  constexpr bool __cuemu_merge = __cuemu_vsel_bits<__cuemu_m_dsel_b0, M_...>() < 32;
  constexpr bool __cuemu_op2 = has<m_add, M_...> || has<m_min, M_...> || has<m_max, M_...>;
  static_assert(__cuemu_op2 != __cuemu_merge,
                "inline PTX: a scalar video instruction with an operand c takes one of a secondary "
                "operation (.add .min .max) and the data merge d.dsel");
  const long long v = __cuemu_vscalar_op<__cuemu_Op, M_...>(a, b);
  if constexpr (__cuemu_merge) {
    d = __cuemu_vmerge<M_...>(v, c);
    return;
  }
  const long long z = is_signed(type_n<M_...>(0)) ? sx(c, 32) : static_cast<long long>(zx(c, 32));
  const long long __cuemu_r =
      has<m_add, M_...> ? v + z : has<m_min, M_...> ? (v < z ? v : z) : (v > z ? v : z);
  d = zx(static_cast<reg>(__cuemu_r), 32);
}
#define CUEMU_PTX_VSCALAR(name, op)                                            \
  template <int... M_> inline void name(reg &d, reg a, reg b) {                \
    __cuemu_vscalar<op, M_...>(d, a, b);                                       \
  }                                                                            \
  template <int... M_> inline void name(reg &d, reg a, reg b, reg c) {         \
    __cuemu_vscalar<op, M_...>(d, a, b, c);                                    \
  }
CUEMU_PTX_VSCALAR(__cuemu_vadd, __cuemu_v_add)
CUEMU_PTX_VSCALAR(__cuemu_vsub, __cuemu_v_sub)
CUEMU_PTX_VSCALAR(__cuemu_vabsdiff, __cuemu_v_absdiff)
CUEMU_PTX_VSCALAR(__cuemu_vmin, __cuemu_v_min)
CUEMU_PTX_VSCALAR(__cuemu_vmax, __cuemu_v_max)
CUEMU_PTX_VSCALAR(__cuemu_vshl, __cuemu_v_shl)
CUEMU_PTX_VSCALAR(__cuemu_vshr, __cuemu_v_shr)
#undef CUEMU_PTX_VSCALAR

/* The scalar comparison vset.atype.btype.cmp{.op2} d, a, b{, c}: a and b
 * extended by their types, 1 where the comparison holds and 0 where it does
 * not, then the secondary operation .add, .min or .max with c (the ISA keeps
 * the comparison, c and d unsigned). a and b may select a byte or half, and
 * d.dsel merges into c, as for the other scalar ones. */
template <int... M_> inline long long __cuemu_vset_scalar_cmp(reg a, reg b) {
  constexpr int A_ = type_n<M_...>(0), __cuemu_B = type_n<M_...>(1);
  const long long x = __cuemu_vpart<A_, __cuemu_m_asel_b0, M_...>(a);
  const long long y = __cuemu_vpart<__cuemu_B, __cuemu_m_bsel_b0, M_...>(b);
  return __cuemu_vcompare<M_...>(x, y);
}
template <int... M_> inline void __cuemu_vset_scalar(reg &d, reg a, reg b) {
  static_assert(!has<m_add, M_...> && !has<m_min, M_...> && !has<m_max, M_...>,
                "inline PTX: the secondary operation of a video instruction needs an operand c");
  static_assert(__cuemu_vsel_bits<__cuemu_m_dsel_b0, M_...>() == 32,
                "inline PTX: the data merge d.dsel of a video instruction needs an operand c");
  d = static_cast<reg>(__cuemu_vset_scalar_cmp<M_...>(a, b));
}
template <int... M_> inline void __cuemu_vset_scalar(reg &d, reg a, reg b, reg c) {
  constexpr bool __cuemu_merge = __cuemu_vsel_bits<__cuemu_m_dsel_b0, M_...>() < 32;
  constexpr bool __cuemu_op2 = has<m_add, M_...> || has<m_min, M_...> || has<m_max, M_...>;
  static_assert(__cuemu_op2 != __cuemu_merge,
                "inline PTX: a scalar video instruction with an operand c takes one of a secondary "
                "operation (.add .min .max) and the data merge d.dsel");
  const long long v = __cuemu_vset_scalar_cmp<M_...>(a, b), z = static_cast<long long>(zx(c, 32));
  if constexpr (__cuemu_merge) {
    d = __cuemu_vmerge<M_...>(v, c);
    return;
  }
  const long long __cuemu_r =
      has<m_add, M_...> ? v + z : has<m_min, M_...> ? (v < z ? v : z) : (v > z ? v : z);
  d = zx(static_cast<reg>(__cuemu_r), 32);
}

/* The scalar multiply-add vmad.dtype.atype.btype{.po}{.sat}{.shr7|.shr15}
 * d, {-}a, {-}b, {-}c, as the PTX ISA's pseudo-code has it: the product of a
 * and b extended by their types, in 128 bits; the result is signed when a
 * type is signed or an operand is negated. Then the first that applies of:
 * .po adds 1; a negated product (one of a and b negated) is ~product + 1; a
 * negated c is ~c + 1. c is extended by the result's sign and added, .shr7 or
 * .shr15 shift the sum (arithmetically), .sat clamps its low 64 bits to the
 * 32-bit range of that sign, and d takes the low 32 bits. The translation
 * passes the negations as __cuemu_m_nega, __cuemu_m_negb, __cuemu_m_negc.
 * As ptxas does, .po with a negated operand and a negated product with a
 * negated c are refused. a and b may select a byte or half (__cuemu_vpart). */
template <int... M_> inline void __cuemu_vmad(reg &d, reg a, reg b, reg c) {
  constexpr int A_ = type_n<M_...>(1), __cuemu_B = type_n<M_...>(2);
  constexpr bool na = has<__cuemu_m_nega, M_...>, nb = has<__cuemu_m_negb, M_...>, __cuemu_nc = has<__cuemu_m_negc, M_...>;
  static_assert(!(has<__cuemu_m_po, M_...> && (na || nb || __cuemu_nc)),
                "inline PTX: vmad.po takes no negated operands");
  static_assert(!(na != nb && __cuemu_nc), "inline PTX: vmad negates the product (one of a and b) or c, not both");
  static_assert(!(has<__cuemu_m_shr7, M_...> && has<__cuemu_m_shr15, M_...>),
                "inline PTX: vmad takes one of .shr7 and .shr15");
  constexpr bool __cuemu_signed = is_signed(A_) || is_signed(__cuemu_B) || na != nb || __cuemu_nc;
  const __int128 x = __cuemu_vpart<A_, __cuemu_m_asel_b0, M_...>(a);
  const __int128 y = __cuemu_vpart<__cuemu_B, __cuemu_m_bsel_b0, M_...>(b);
  __int128 __cuemu_t = x * y;
  reg z = zx(c, 32);
  int __cuemu_lsb = 0;
  if constexpr (has<__cuemu_m_po, M_...>) {
    __cuemu_lsb = 1;
  } else if constexpr (na != nb) {
    __cuemu_t = ~__cuemu_t;
    __cuemu_lsb = 1;
  } else if constexpr (__cuemu_nc) {
    z = zx(~z, 32);
    __cuemu_lsb = 1;
  }
  __cuemu_t += (__cuemu_signed ? static_cast<__int128>(sx(z, 32)) : static_cast<__int128>(z)) + __cuemu_lsb;
  __cuemu_t >>= has<__cuemu_m_shr7, M_...> ? 7 : has<__cuemu_m_shr15, M_...> ? 15 : 0;
  reg __cuemu_r = static_cast<reg>(__cuemu_t);
  if constexpr (has<m_sat, M_...>) {
    if constexpr (__cuemu_signed) {
      const long long s = static_cast<long long>(__cuemu_r);
      __cuemu_r = static_cast<reg>(s > 0x7fffffffLL ? 0x7fffffffLL : s < -0x80000000LL ? -0x80000000LL : s);
    } else {
      __cuemu_r = __cuemu_r > 0xffffffffULL ? 0xffffffffULL : __cuemu_r;
    }
  }
  d = zx(__cuemu_r, 32);
}

/* dp4a.atype.btype d, a, b, c: c plus the products of the four bytes of a
 * and b (each signed or unsigned by its type), modulo 2^32. dp2a.{lo,hi}:
 * the two halves of a times bytes 1..0 or 3..2 of b. */
template <int... M_> inline void dp4a(reg &d, reg a, reg b, reg c) {
  constexpr bool sa = is_signed(type_n<M_...>(0)), sb = is_signed(type_n<M_...>(1));
  long long __cuemu_sum = 0;
  for (int n = 0; n < 4; ++n) {
    const long long x = sa ? sx(a >> (8 * n), 8) : static_cast<long long>((a >> (8 * n)) & 0xff);
    const long long y = sb ? sx(b >> (8 * n), 8) : static_cast<long long>((b >> (8 * n)) & 0xff);
    __cuemu_sum += x * y;
  }
  d = zx(c + static_cast<reg>(__cuemu_sum), 32);
}
template <int... M_> inline void dp2a(reg &d, reg a, reg b, reg c) {
  constexpr bool sa = is_signed(type_n<M_...>(0)), sb = is_signed(type_n<M_...>(1));
  const int first = has<m_hi, M_...> ? 2 : 0;
  long long __cuemu_sum = 0;
  for (int n = 0; n < 2; ++n) {
    const long long x = sa ? sx(a >> (16 * n), 16) : static_cast<long long>((a >> (16 * n)) & 0xffff);
    const reg byte = b >> (8 * (first + n));
    const long long y = sb ? sx(byte, 8) : static_cast<long long>(byte & 0xff);
    __cuemu_sum += x * y;
  }
  d = zx(c + static_cast<reg>(__cuemu_sum), 32);
}

template <int... M_> inline void selp(reg &d, reg a, reg b, reg c) {
  d = result<type_n<M_...>(0)>(c ? a : b);
}

} // namespace ptx
} // namespace cuemu

#endif /* CUEMU_PTX_INT_H */
