/*
 * cuemu_fp8_round.h: the rounding core of the 8-bit floating-point formats
 * E4M3 and E5M2, shared by cuda_fp8.h and the inline PTX `cvt` to and from
 * .e4m3x2 / .e5m2x2 (cuemu_ptx_float.h). Kernel and host code.
 *
 * E4M3 has 4 exponent bits (bias 7), 3 fraction bits, no infinity, a
 * largest finite value of 448 (0x7E) and one NaN per sign (0x7F, 0xFF);
 * E5M2 is IEEE-like (bias 15, 2 fraction bits, infinity 0x7C, largest
 * finite 57344 = 0x7B). A value rounds once, to nearest with ties to even;
 * an overflow gives the largest finite value of its sign when saturating
 * (also for an infinite input), else infinity (E5M2) or NaN (E4M3). A NaN
 * keeps its sign (E4M3 0x7F, E5M2 0x7E or 0x7F after the input's two top
 * fraction bits), as CUDA's host code converts a double; its float, half
 * and bfloat16 conversions, and PTX's cvt, give 0x7F for every NaN.
 *
 * Internal header of the shims.
 */
#ifndef CUEMU_FP8_ROUND_H
#define CUEMU_FP8_ROUND_H

#include <cmath>
#include <cstdint>
#include <cstring>

#include "cuemu_narrow_float.h"

/* Whether `b` is a NaN of the format. */
inline bool cuemu_fp8_isnan(unsigned b, bool __cuemu_e4m3) {
  return __cuemu_e4m3 ? (b & 0x7FU) == 0x7FU : (b & 0x7FU) > 0x7CU;
}

/* Rounds `x` to E4M3 (e4m3) or E5M2 once, to nearest with ties to even. */
inline unsigned char cuemu_fp8_round(double x, bool __cuemu_e4m3, bool __cuemu_satfinite) {
  const int mbits = __cuemu_e4m3 ? 3 : 2;
  const int bias = __cuemu_e4m3 ? 7 : 15;
  const unsigned max_bits = __cuemu_e4m3 ? 0x7EU : 0x7BU;
  const unsigned __cuemu_overflow_bits = __cuemu_satfinite ? max_bits : (__cuemu_e4m3 ? 0x7FU : 0x7CU);
  uint64_t __cuemu_u;
  std::memcpy(&__cuemu_u, &x, sizeof __cuemu_u);
  const unsigned sign = static_cast<unsigned>(__cuemu_u >> 63) << 7;
  const unsigned dexp = static_cast<unsigned>(__cuemu_u >> 52) & 0x7FFU;
  const uint64_t frac = __cuemu_u & ((UINT64_C(1) << 52) - 1U);
  if (dexp == 0x7FFU) {
    if (frac != 0U) /* NaN */
      return static_cast<unsigned char>(
          sign | (__cuemu_e4m3 ? 0x7FU : 0x7EU | static_cast<unsigned>((__cuemu_u >> 50) & 3U)));
    return static_cast<unsigned char>(sign | __cuemu_overflow_bits);
  }
  const double __cuemu_ax = std::fabs(x);
  if (__cuemu_ax == 0.0)
    return static_cast<unsigned char>(sign);

  /* ax = m * 2^e with m in [1, 2); below the smallest normal exponent the
   * quantum stays that of the subnormals. */
  int e = std::ilogb(__cuemu_ax);
  const int emin = 1 - bias;
  if (e < emin)
    e = emin;
  /* q = ax / quantum: exact, a power-of-two scaling of a double. */
  const double __cuemu_q = std::ldexp(__cuemu_ax, mbits - e);
  double __cuemu_r = std::floor(__cuemu_q);
  const double rem = __cuemu_q - __cuemu_r;
  if (rem > 0.5 || (rem == 0.5 && std::fmod(__cuemu_r, 2.0) != 0.0))
    __cuemu_r += 1.0;
  /* r counts quanta. For a normal result its implicit bit (2^mbits) carries
   * into the exponent field, and a rounding up into the next binade carries
   * once more; for a subnormal one e + bias - 1 is 0, and r == 2^mbits is
   * the smallest normal's pattern. */
  uint64_t __cuemu_bits = static_cast<uint64_t>(__cuemu_r) + (static_cast<uint64_t>(e + bias - 1) << mbits);
  if (__cuemu_bits > max_bits)
    __cuemu_bits = __cuemu_overflow_bits;
  return static_cast<unsigned char>(sign | __cuemu_bits);
}

/* The same from a float, half or bfloat16 value (exact as a double): every
 * NaN gives 0x7F. */
inline unsigned char cuemu_fp8_round_narrow(double x, bool __cuemu_e4m3, bool __cuemu_satfinite) {
  return std::isnan(x) ? 0x7FU : cuemu_fp8_round(x, __cuemu_e4m3, __cuemu_satfinite);
}

/* The exact value of `b` as binary16 bits; a NaN becomes 0x7FFF. */
inline unsigned short cuemu_fp8_to_half_bits(unsigned b, bool __cuemu_e4m3) {
  if (cuemu_fp8_isnan(b, __cuemu_e4m3))
    return 0x7FFFU;
  if (!__cuemu_e4m3) /* E5M2 is the top byte of a binary16 */
    return static_cast<unsigned short>((b & 0xFFU) << 8);
  const unsigned exp = (b >> 3) & 0xFU;
  const unsigned frac = b & 7U;
  double v = exp == 0U ? std::ldexp(static_cast<double>(frac), -9)
                       : std::ldexp(static_cast<double>(8U + frac), static_cast<int>(exp) - 10);
  return cuemu_nf_from_double((b & 0x80U) ? -v : v, cuemu_nf_binary16, CUEMU_ROUND_RN);
}

#endif /* CUEMU_FP8_ROUND_H */
