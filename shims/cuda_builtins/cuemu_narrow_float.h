/*
 * cuemu_narrow_float.h: software arithmetic for 16-bit floating-point formats.
 *
 * This is the shared core of cuda_fp16.h (binary16: 5 exponent bits, 10
 * fraction bits) and cuda_bf16.h (bfloat16: 8 exponent bits, 7 fraction
 * bits). Values travel as their raw 16-bit patterns. Every operation widens
 * its operands exactly to double, computes there and rounds once, in
 * software, to the narrow format, so that g++ and clang++ give bit-identical
 * results without relying on _Float16 or the host's rounding mode.
 *
 * Rounding twice (to double, then to the narrow format) gives the correctly
 * rounded result for +, -, *, / and sqrt, because double carries more than
 * 2p+2 bits for both formats. A fused multiply-add is rounded to odd in double
 * first, which makes the second rounding correct too.
 *
 * Internal header of the shims: kernel code uses cuda_fp16.h and cuda_bf16.h.
 */
#ifndef CUEMU_NARROW_FLOAT_H
#define CUEMU_NARROW_FLOAT_H
/* A system header: its C++17 forms that C++14 accepts (if constexpr, inline
 * variables, fold expressions) give no warning in a C++14 build of a .cpp
 * file (docs/dialects.md). */
#pragma GCC system_header

#ifndef __cplusplus
#error "the CUDA shims are C++ headers; compile .cu files with cuemu-cc"
#endif

#include <cmath>
#include <cstdint>
#include <cstring>

#include "cuemu_bit_cast.h"

/* Rounding directions of the conversions (_rn, _rz, _rd, _ru suffixes). */
enum cuemu_round_mode {
  CUEMU_ROUND_RN = 0, /* to nearest, ties to even */
  CUEMU_ROUND_RZ = 1, /* towards zero */
  CUEMU_ROUND_RD = 2, /* towards minus infinity */
  CUEMU_ROUND_RU = 3  /* towards plus infinity */
};

/* A 16-bit binary floating-point format: `ebits` exponent bits and `mbits`
 * stored fraction bits (1 + ebits + mbits == 16). */
struct cuemu_nf_format {
  int ebits;
  int mbits;
};

inline constexpr cuemu_nf_format cuemu_nf_binary16 = {5, 10};
inline constexpr cuemu_nf_format cuemu_nf_bfloat16 = {8, 7};

/* The canonical NaN that CUDA returns from arithmetic and conversions. */
inline constexpr unsigned short cuemu_nf_canonical_nan = 0x7FFFU;

/* The bits of a double or a float and back (cuemu_bit_cast.h: no memory
 * access that a checked build would see). */
inline uint64_t cuemu_double_bits(double d) { return cuemu_bit_cast<uint64_t>(d); }

inline double cuemu_bits_double(uint64_t __cuemu_u) { return cuemu_bit_cast<double>(__cuemu_u); }

inline uint32_t cuemu_float_bits(float f) { return cuemu_bit_cast<uint32_t>(f); }

inline float cuemu_bits_float(uint32_t __cuemu_u) { return cuemu_bit_cast<float>(__cuemu_u); }

inline bool cuemu_nf_isnan(unsigned short h, cuemu_nf_format f) {
  const unsigned exp_mask = ((1U << f.ebits) - 1U) << f.mbits;
  const unsigned frac_mask = (1U << f.mbits) - 1U;
  return (h & exp_mask) == exp_mask && (h & frac_mask) != 0U;
}

inline bool cuemu_nf_isinf(unsigned short h, cuemu_nf_format f) {
  const unsigned exp_mask = ((1U << f.ebits) - 1U) << f.mbits;
  return (h & 0x7FFFU) == exp_mask;
}

/* Rounds `x` to the format `f` in direction `mode`. NaN gives the canonical
 * NaN; overflow gives infinity or the largest finite value, as IEEE 754
 * prescribes for the direction. */
inline unsigned short cuemu_nf_from_double(double x, cuemu_nf_format f,
                                                  int mode) {
  const uint64_t __cuemu_u = cuemu_double_bits(x);
  const unsigned sign = static_cast<unsigned>(__cuemu_u >> 63) << 15;
  const int dexp = static_cast<int>((__cuemu_u >> 52) & 0x7FFU);
  uint64_t sig = __cuemu_u & ((UINT64_C(1) << 52) - 1U);
  const unsigned inf_bits = ((1U << f.ebits) - 1U) << f.mbits;
  if (dexp == 0x7FF)
    return sig != 0U ? cuemu_nf_canonical_nan
                     : static_cast<unsigned short>(sign | inf_bits);
  if (dexp == 0 && sig == 0U)
    return static_cast<unsigned short>(sign);

  /* x = sig * 2^(e - 52) with sig in [2^52, 2^53). */
  int e;
  if (dexp == 0) {
    e = -1022;
    while ((sig & (UINT64_C(1) << 52)) == 0U) {
      sig <<= 1;
      --e;
    }
  } else {
    sig |= UINT64_C(1) << 52;
    e = dexp - 1023;
  }

  const int bias = (1 << (f.ebits - 1)) - 1;
  const int emin = 1 - bias;
  int shift = 52 - f.mbits;
  if (e < emin)
    shift += emin - e; /* the result is subnormal (or rounds up to normal) */
  if (shift > 60)
    shift = 60; /* every bit is below half an ulp; only stickiness matters */

  uint64_t __cuemu_q = sig >> shift;
  const uint64_t rem = sig & ((UINT64_C(1) << shift) - 1U);
  const uint64_t half = UINT64_C(1) << (shift - 1);
  bool up = false;
  switch (mode) {
  case CUEMU_ROUND_RN:
    up = rem > half || (rem == half && (__cuemu_q & 1U) != 0U);
    break;
  case CUEMU_ROUND_RU:
    up = rem != 0U && sign == 0U;
    break;
  case CUEMU_ROUND_RD:
    up = rem != 0U && sign != 0U;
    break;
  default:
    break;
  }
  __cuemu_q += up ? 1U : 0U;

  /* For a subnormal result q already is the bit pattern (q == 2^mbits is
   * the smallest normal). For a normal one, q has its implicit bit at
   * position mbits, which carries into the exponent field when rounding
   * overflows the significand. */
  uint64_t __cuemu_bits;
  if (e < emin)
    __cuemu_bits = __cuemu_q;
  else
    __cuemu_bits = (static_cast<uint64_t>(e + bias - 1) << f.mbits) + __cuemu_q;
  if (__cuemu_bits >= inf_bits) {
    const unsigned max_bits = inf_bits - 1U;
    bool to_inf = mode == CUEMU_ROUND_RN ||
                  (mode == CUEMU_ROUND_RU && sign == 0U) ||
                  (mode == CUEMU_ROUND_RD && sign != 0U);
    __cuemu_bits = to_inf ? inf_bits : max_bits;
  }
  return static_cast<unsigned short>(sign | __cuemu_bits);
}

/* The exact value of `h` as a double (NaN stays NaN). Every operation widens
 * its operands through here, so the double is built from its bits rather
 * than with std::ldexp, a call into the C library that cost about half the
 * time of an __hfma2 (mixbench's half2 kernels ran 10 to 50 times slower
 * than its float ones). A normal value keeps its fraction bits, shifted to
 * the top of double's, and gets its exponent rebiased; a subnormal one is its
 * fraction times 2^(1 - bias - mbits), a power of two, so the product is
 * exact. */
inline double cuemu_nf_to_double(unsigned short h, cuemu_nf_format f) {
  const uint64_t __cuemu_sign = static_cast<uint64_t>(h & 0x8000U) << 48;
  const unsigned exp = (h >> f.mbits) & ((1U << f.ebits) - 1U);
  const uint64_t frac = h & ((1U << f.mbits) - 1U);
  const int bias = (1 << (f.ebits - 1)) - 1;
  if (exp == (1U << f.ebits) - 1U)
    return cuemu_bits_double(__cuemu_sign | (frac != 0U ? UINT64_C(0x7FF8000000000000)
                                                : UINT64_C(0x7FF0000000000000)));
  if (exp == 0U) {
    const double __cuemu_scale = cuemu_bits_double(
        static_cast<uint64_t>(1023 + 1 - bias - f.mbits) << 52);
    const double v = static_cast<double>(frac) * __cuemu_scale;
    return (h & 0x8000U) != 0U ? -v : v;
  }
  return cuemu_bits_double(
      __cuemu_sign | static_cast<uint64_t>(static_cast<int>(exp) - bias + 1023) << 52 |
      frac << (52 - f.mbits));
}

/* The value of `h` as a float, exact for both formats; a NaN becomes the
 * canonical float NaN, as in CUDA's own conversion. */
inline float cuemu_nf_to_float(unsigned short h, cuemu_nf_format f) {
  if (cuemu_nf_isnan(h, f))
    return cuemu_bits_float(0x7FFFFFFFU);
  return static_cast<float>(cuemu_nf_to_double(h, f));
}

/* Rounds the exact value a * b + c to the format, once. The product of two
 * narrow values is exact in double; the sum is rounded to odd in double
 * (an inexact result gets its last bit set) so that rounding it again to the
 * narrow format cannot create a false tie. */
inline unsigned short cuemu_nf_fma(unsigned short a, unsigned short b,
                                          unsigned short c, cuemu_nf_format f) {
  const double p = cuemu_nf_to_double(a, f) * cuemu_nf_to_double(b, f);
  const double z = cuemu_nf_to_double(c, f);
  double s = p + z;
  if (std::isfinite(s) && std::isfinite(p) && std::isfinite(z)) {
    /* Knuth's TwoSum: err is the exact rounding error of p + z. */
    const double pp = s - z;
    const double zz = s - pp;
    const double err = (p - pp) + (z - zz);
    if (err != 0.0) {
      uint64_t su = cuemu_double_bits(s);
      if ((su & 1U) == 0U) {
        /* Step to the neighbour on the side of the exact value; that
         * neighbour has an odd last bit. */
        const bool away = (err > 0.0) == (s > 0.0);
        su = away ? su + 1U : su - 1U;
        s = cuemu_bits_double(su);
      }
    }
  }
  return cuemu_nf_from_double(s, f, CUEMU_ROUND_RN);
}

/* Converts `h` to an integer of the range [lo, hi] after rounding to an
 * integral value in direction `mode`. NaN gives `nan_value`; values out of
 * range saturate. */
inline long long cuemu_nf_to_integer(unsigned short h, cuemu_nf_format f,
                                            int mode, double lo, double hi,
                                            long long nan_value) {
  if (cuemu_nf_isnan(h, f))
    return nan_value;
  double v = cuemu_nf_to_double(h, f);
  switch (mode) {
  case CUEMU_ROUND_RN:
    v = std::nearbyint(v); /* the default environment rounds to even */
    break;
  case CUEMU_ROUND_RZ:
    v = std::trunc(v);
    break;
  case CUEMU_ROUND_RD:
    v = std::floor(v);
    break;
  default:
    v = std::ceil(v);
    break;
  }
  if (v <= lo)
    return static_cast<long long>(lo);
  if (v >= hi)
    return hi >= 9.2e18 ? static_cast<long long>(INT64_MAX)
                        : static_cast<long long>(hi);
  return static_cast<long long>(v);
}

/* Same for unsigned 64-bit results, which do not fit a long long. */
inline unsigned long long cuemu_nf_to_ull(unsigned short h,
                                                 cuemu_nf_format f, int mode) {
  if (cuemu_nf_isnan(h, f))
    return UINT64_C(0x8000000000000000);
  double v = cuemu_nf_to_double(h, f);
  switch (mode) {
  case CUEMU_ROUND_RN:
    v = std::nearbyint(v);
    break;
  case CUEMU_ROUND_RZ:
    v = std::trunc(v);
    break;
  case CUEMU_ROUND_RD:
    v = std::floor(v);
    break;
  default:
    v = std::ceil(v);
    break;
  }
  if (!(v > 0.0))
    return 0U;
  if (v >= 18446744073709551616.0)
    return UINT64_MAX;
  return static_cast<unsigned long long>(v);
}

/* Rounds a 64-bit integer to the format. A double cannot hold every 64-bit
 * integer, so the integer is first narrowed to 62 significant bits with a
 * sticky bit, which double holds exactly. */
inline unsigned short cuemu_nf_from_ull(unsigned long long v, bool neg,
                                               cuemu_nf_format f, int mode) {
  int drop = 0;
  while ((v >> drop) >= (UINT64_C(1) << 52))
    ++drop;
  uint64_t kept = v >> drop;
  if (drop > 0 && (v & ((UINT64_C(1) << drop) - 1U)) != 0U)
    kept |= 1U; /* sticky: the value is not a tie and not exact */
  double d = std::ldexp(static_cast<double>(kept), drop);
  return cuemu_nf_from_double(neg ? -d : d, f, mode);
}

inline unsigned short cuemu_nf_from_ll(long long v, cuemu_nf_format f,
                                              int mode) {
  const bool neg = v < 0;
  const unsigned long long mag =
      neg ? 0ULL - static_cast<unsigned long long>(v)
          : static_cast<unsigned long long>(v);
  return cuemu_nf_from_ull(mag, neg, f, mode);
}

#endif /* CUEMU_NARROW_FLOAT_H */
