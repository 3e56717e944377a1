/*
 * cuemu_intrinsics.h: CUDA's integer intrinsics (__popc, __clz, __ffs,
 * __brev, __byte_perm, funnel shifts, 24-bit and high-half multiplies,
 * averages, sums of absolute differences, __fns, __dp4a, __dp2a_lo/hi) and
 * the min/max overloads CUDA declares at global namespace, as host C++.
 *
 * Results wrap modulo 2^32 or 2^64 where the GPU's do; the C++ code below
 * computes in unsigned or wider types so that it never overflows a signed
 * type.
 */
#ifndef CUEMU_INTRINSICS_H
#define CUEMU_INTRINSICS_H

#ifndef __cplusplus
#error "the CUDA shims are C++ headers; compile .cu files with cuemu-cc"
#endif

#include <cmath>
#include <cstdint>

#include "vector_types.h"

/* The helpers of the funnel shifts, 24-bit products and dot products
 * below. */
inline unsigned long long int cuemu_funnel(unsigned int lo, unsigned int hi) {
  return (static_cast<unsigned long long int>(hi) << 32) | lo;
}

/* The sign-extended low 24 bits of x (__mul24). */
inline int cuemu_sext24(int x) { return static_cast<int>(static_cast<unsigned int>(x) << 8) >> 8; }
inline int cuemu_sbyte(unsigned int v, int n) { return static_cast<signed char>((v >> (8 * n)) & 0xffu); }
inline unsigned int cuemu_ubyte(unsigned int v, int n) { return (v >> (8 * n)) & 0xffu; }
inline int cuemu_shalf(unsigned int v, int n) { return static_cast<short>((v >> (16 * n)) & 0xffffu); }
inline unsigned int cuemu_uhalf(unsigned int v, int n) { return (v >> (16 * n)) & 0xffffu; }

/* Sums signed products as unsigned values, which wrap as the GPU does. */
inline int cuemu_wrap_sum(int c, long long int products) {
  return static_cast<int>(static_cast<unsigned int>(c) + static_cast<unsigned int>(products));
}

/* The two 16-bit halves of srcA times bytes 0 and 1 (_lo) or 2 and 3 (_hi)
 * of srcB, plus c. */
inline int cuemu_dp2a(int srcA, int srcB, int c, int first) {
  const unsigned int a = static_cast<unsigned int>(srcA), b = static_cast<unsigned int>(srcB);
  const long long int __cuemu_sum = static_cast<long long int>(cuemu_shalf(a, 0)) * cuemu_sbyte(b, first) +
                            static_cast<long long int>(cuemu_shalf(a, 1)) * cuemu_sbyte(b, first + 1);
  return cuemu_wrap_sum(c, __cuemu_sum);
}

inline unsigned int cuemu_udp2a(unsigned int srcA, unsigned int srcB, unsigned int c, int first) {
  return c + cuemu_uhalf(srcA, 0) * cuemu_ubyte(srcB, first) + cuemu_uhalf(srcA, 1) * cuemu_ubyte(srcB, first + 1);
}

/* ------------------------------------------------------------------------ */
/* min and max. A signed and an unsigned operand compare as unsigned, as in  */
/* CUDA; the floating-point forms are fmin and fmax (a NaN operand loses).   */
/* CUDA declares all of them __host__ __device__ (crt/math_functions.hpp),   */
/* so the host code of a .cu file calls them too: both passes read them,     */
/* before the host pass's lean prelude (cuemu_host_decls.h).                 */
/* ------------------------------------------------------------------------ */

inline int min(int a, int b) { return a < b ? a : b; }
inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline long long int llmin(long long int a, long long int b) { return a < b ? a : b; }
inline unsigned long long int ullmin(unsigned long long int a, unsigned long long int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline long long int llmax(long long int a, long long int b) { return a > b ? a : b; }
inline unsigned long long int ullmax(unsigned long long int a, unsigned long long int b) { return a > b ? a : b; }

inline unsigned int min(unsigned int a, unsigned int b) { return umin(a, b); }
inline unsigned int min(int a, unsigned int b) { return umin(static_cast<unsigned int>(a), b); }
inline unsigned int min(unsigned int a, int b) { return umin(a, static_cast<unsigned int>(b)); }
inline long int min(long int a, long int b) { return a < b ? a : b; }
inline unsigned long int min(unsigned long int a, unsigned long int b) { return a < b ? a : b; }
inline unsigned long int min(long int a, unsigned long int b) { return min(static_cast<unsigned long int>(a), b); }
inline unsigned long int min(unsigned long int a, long int b) { return min(a, static_cast<unsigned long int>(b)); }
inline long long int min(long long int a, long long int b) { return llmin(a, b); }
inline unsigned long long int min(unsigned long long int a, unsigned long long int b) { return ullmin(a, b); }
inline unsigned long long int min(long long int a, unsigned long long int b) {
  return ullmin(static_cast<unsigned long long int>(a), b);
}
inline unsigned long long int min(unsigned long long int a, long long int b) {
  return ullmin(a, static_cast<unsigned long long int>(b));
}
inline float min(float a, float b) { return std::fmin(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double min(float a, double b) { return std::fmin(static_cast<double>(a), b); }
inline double min(double a, float b) { return std::fmin(a, static_cast<double>(b)); }

inline unsigned int max(unsigned int a, unsigned int b) { return umax(a, b); }
inline unsigned int max(int a, unsigned int b) { return umax(static_cast<unsigned int>(a), b); }
inline unsigned int max(unsigned int a, int b) { return umax(a, static_cast<unsigned int>(b)); }
inline long int max(long int a, long int b) { return a > b ? a : b; }
inline unsigned long int max(unsigned long int a, unsigned long int b) { return a > b ? a : b; }
inline unsigned long int max(long int a, unsigned long int b) { return max(static_cast<unsigned long int>(a), b); }
inline unsigned long int max(unsigned long int a, long int b) { return max(a, static_cast<unsigned long int>(b)); }
inline long long int max(long long int a, long long int b) { return llmax(a, b); }
inline unsigned long long int max(unsigned long long int a, unsigned long long int b) { return ullmax(a, b); }
inline unsigned long long int max(long long int a, unsigned long long int b) {
  return ullmax(static_cast<unsigned long long int>(a), b);
}
inline unsigned long long int max(unsigned long long int a, long long int b) {
  return ullmax(a, static_cast<unsigned long long int>(b));
}
inline float max(float a, float b) { return std::fmax(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline double max(float a, double b) { return std::fmax(static_cast<double>(a), b); }
inline double max(double a, float b) { return std::fmax(a, static_cast<double>(b)); }

#ifdef CUEMU_HOST_DECLS
/* The host pass's lean prelude: declarations only (cuemu_host_decls.h). */
#include "cuemu_intrinsics_decls.h"
#else

/* ------------------------------------------------------------------------ */
/* Bit counting and reversal.                                                */
/* ------------------------------------------------------------------------ */

inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long int x) { return __builtin_popcountll(x); }

/* Leading zeros; __clz(0) is 32 and __clzll(0) is 64. */
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x)); }
inline int __clzll(long long int x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long int>(x));
}

/* The 1-based position of the least significant set bit; 0 for 0. */
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long int x) { return __builtin_ffsll(x); }

inline unsigned int __brev(unsigned int x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  return (x >> 16) | (x << 16);
}

inline unsigned long long int __brevll(unsigned long long int x) {
  const unsigned long long int lo = __brev(static_cast<unsigned int>(x));
  const unsigned long long int hi = __brev(static_cast<unsigned int>(x >> 32));
  return (lo << 32) | hi;
}

/*
 * Byte n of the result is byte (s >> 4n) & 7 of the eight bytes of y:x
 * (x holds bytes 0-3, y bytes 4-7); the upper 16 bits of s and the high bit
 * of each selector nibble are ignored.
 */
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  const unsigned long long int bytes = (static_cast<unsigned long long int>(y) << 32) | x;
  unsigned int result = 0;
  for (int n = 0; n < 4; ++n) {
    const unsigned int sel = (s >> (4 * n)) & 7u;
    result |= static_cast<unsigned int>((bytes >> (8 * sel)) & 0xffu) << (8 * n);
  }
  return result;
}

/* ------------------------------------------------------------------------ */
/* Funnel shifts of the 64-bit value hi:lo. The plain forms shift by         */
/* shift & 31, the _c forms by min(shift, 32).                               */
/* ------------------------------------------------------------------------ */

inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  return static_cast<unsigned int>((cuemu_funnel(lo, hi) << (shift & 31u)) >> 32);
}

inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned int s = shift < 32u ? shift : 32u;
  return static_cast<unsigned int>((cuemu_funnel(lo, hi) << s) >> 32);
}

inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  return static_cast<unsigned int>(cuemu_funnel(lo, hi) >> (shift & 31u));
}

inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned int s = shift < 32u ? shift : 32u;
  return static_cast<unsigned int>(cuemu_funnel(lo, hi) >> s);
}

/* ------------------------------------------------------------------------ */
/* Multiplication.                                                           */
/* ------------------------------------------------------------------------ */


inline int __mul24(int x, int y) {
  const long long int product = static_cast<long long int>(cuemu_sext24(x)) * cuemu_sext24(y);
  return static_cast<int>(static_cast<unsigned int>(product));
}

inline unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }

inline int __mulhi(int x, int y) {
  return static_cast<int>((static_cast<long long int>(x) * static_cast<long long int>(y)) >> 32);
}

inline unsigned int __umulhi(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long int>(x) * y) >> 32);
}

inline long long int __mul64hi(long long int x, long long int y) {
  return static_cast<long long int>((static_cast<__int128>(x) * static_cast<__int128>(y)) >> 64);
}

inline unsigned long long int __umul64hi(unsigned long long int x, unsigned long long int y) {
  return static_cast<unsigned long long int>((static_cast<unsigned __int128>(x) * y) >> 64);
}

/* ------------------------------------------------------------------------ */
/* Averages and sums of absolute differences.                                */
/* ------------------------------------------------------------------------ */

/* (x + y) >> 1 and (x + y + 1) >> 1 without overflow in the sum. */
inline int __hadd(int x, int y) {
  return static_cast<int>((static_cast<long long int>(x) + static_cast<long long int>(y)) >> 1);
}

inline int __rhadd(int x, int y) {
  return static_cast<int>((static_cast<long long int>(x) + static_cast<long long int>(y) + 1) >> 1);
}

inline unsigned int __uhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long int>(x) + y) >> 1);
}

inline unsigned int __urhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long int>(x) + y + 1) >> 1);
}

/* |x - y| + z, modulo 2^32. */
inline unsigned int __sad(int x, int y, unsigned int z) {
  const unsigned int d = x > y ? static_cast<unsigned int>(x) - static_cast<unsigned int>(y)
                               : static_cast<unsigned int>(y) - static_cast<unsigned int>(x);
  return d + z;
}

inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return (x > y ? x - y : y - x) + z; }

/* ------------------------------------------------------------------------ */
/* __fns: the position of the |offset|-th set bit of mask counting from bit  */
/* base, upwards for a positive offset and downwards for a negative one; for */
/* offset 0, base itself if that bit is set. 0xffffffff when there is none.  */
/* ------------------------------------------------------------------------ */

inline unsigned int __fns(unsigned int mask, unsigned int base, int offset) {
  if (base > 31u)
    return 0xffffffffu;
  if (offset == 0)
    return ((mask >> base) & 1u) ? base : 0xffffffffu;
  const int __cuemu_step = offset > 0 ? 1 : -1;
  long long int remaining = offset > 0 ? offset : -static_cast<long long int>(offset);
  for (int __cuemu_pos = static_cast<int>(base); __cuemu_pos >= 0 && __cuemu_pos < 32; __cuemu_pos += __cuemu_step) {
    if ((mask >> __cuemu_pos) & 1u) {
      if (--remaining == 0)
        return static_cast<unsigned int>(__cuemu_pos);
    }
  }
  return 0xffffffffu;
}

/* ------------------------------------------------------------------------ */
/* Dot products with 32-bit accumulation, modulo 2^32.                       */
/* ------------------------------------------------------------------------ */

inline int __dp4a(int srcA, int srcB, int c) {
  const unsigned int a = static_cast<unsigned int>(srcA), b = static_cast<unsigned int>(srcB);
  long long int __cuemu_sum = 0;
  for (int n = 0; n < 4; ++n)
    __cuemu_sum += cuemu_sbyte(a, n) * cuemu_sbyte(b, n);
  return cuemu_wrap_sum(c, __cuemu_sum);
}

inline unsigned int __dp4a(unsigned int srcA, unsigned int srcB, unsigned int c) {
  unsigned int __cuemu_sum = c;
  for (int n = 0; n < 4; ++n)
    __cuemu_sum += cuemu_ubyte(srcA, n) * cuemu_ubyte(srcB, n);
  return __cuemu_sum;
}

inline int __dp4a(char4 srcA, char4 srcB, int c) {
  const long long int __cuemu_sum = srcA.x * srcB.x + srcA.y * srcB.y + srcA.z * srcB.z + srcA.w * srcB.w;
  return cuemu_wrap_sum(c, __cuemu_sum);
}

inline unsigned int __dp4a(uchar4 srcA, uchar4 srcB, unsigned int c) {
  return c + static_cast<unsigned int>(srcA.x * srcB.x + srcA.y * srcB.y + srcA.z * srcB.z + srcA.w * srcB.w);
}

inline int __dp2a_lo(int srcA, int srcB, int c) { return cuemu_dp2a(srcA, srcB, c, 0); }
inline int __dp2a_hi(int srcA, int srcB, int c) { return cuemu_dp2a(srcA, srcB, c, 2); }
inline unsigned int __dp2a_lo(unsigned int srcA, unsigned int srcB, unsigned int c) {
  return cuemu_udp2a(srcA, srcB, c, 0);
}
inline unsigned int __dp2a_hi(unsigned int srcA, unsigned int srcB, unsigned int c) {
  return cuemu_udp2a(srcA, srcB, c, 2);
}

inline int __dp2a_lo(short2 srcA, char4 srcB, int c) {
  return cuemu_wrap_sum(c, static_cast<long long int>(srcA.x) * srcB.x + static_cast<long long int>(srcA.y) * srcB.y);
}
inline int __dp2a_hi(short2 srcA, char4 srcB, int c) {
  return cuemu_wrap_sum(c, static_cast<long long int>(srcA.x) * srcB.z + static_cast<long long int>(srcA.y) * srcB.w);
}
inline unsigned int __dp2a_lo(ushort2 srcA, uchar4 srcB, unsigned int c) {
  return c + static_cast<unsigned int>(srcA.x) * srcB.x + static_cast<unsigned int>(srcA.y) * srcB.y;
}
inline unsigned int __dp2a_hi(ushort2 srcA, uchar4 srcB, unsigned int c) {
  return c + static_cast<unsigned int>(srcA.x) * srcB.z + static_cast<unsigned int>(srcA.y) * srcB.w;
}

#endif /* CUEMU_HOST_DECLS */

#endif /* CUEMU_INTRINSICS_H */
