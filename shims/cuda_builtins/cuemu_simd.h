/*
 * cuemu_simd.h: the SIMD intrinsics of the CUDA Math API, as host C++:
 * the per-halfword (`2`, `s16x2`, `u16x2`) and per-byte (`4`) operations on
 * the parts of a 32-bit word (__vadd2, __vabsdiffu4, __vcmpgts2,
 * __vsads4, ...), and the 3-way, relu, add-then-min/max and min/max with
 * predicate forms of CUDA 12 (__vimax3_s32, __viaddmin_u16x2,
 * __vibmax_s16x2, ...).
 *
 * As the Math API documents them: each part is taken as a signed or
 * unsigned integer of its width (the name says which; `2`/`4` without
 * `s`/`u` wrap, so sign does not matter); plain sums and differences wrap,
 * `ss` ones saturate to the signed range and `us` ones to the unsigned
 * range; __vcmp* give all ones or 0 per part, __vset* 1 or 0; averages
 * round half up (unsigned) or half away from zero (signed: (a + b) >> 1
 * when a + b < 0, else (a + b + 1) >> 1), __vhaddu* truncate; __vsad*
 * return the sum of the parts' absolute differences; __vabs* and __vneg*
 * wrap (-32768 stays -32768) and __vabsss2, __vnegss4 and the like saturate. Results are
 * exact (integer arithmetic in a wider type). Kernel and host code.
 */
#ifndef CUEMU_SIMD_H
#define CUEMU_SIMD_H

#ifndef __cplusplus
#error "the CUDA shims are C++ headers; compile .cu files with cuemu-cc"
#endif

namespace cuemu {
namespace simd {

/* Part i (of `bits` bits) of x, as a signed or unsigned value. */
inline long long part_s(unsigned x, int __cuemu_bits, int __cuemu_i) {
  const unsigned v = (x >> (__cuemu_i * __cuemu_bits)) & ((1u << __cuemu_bits) - 1u);
  return (v & (1u << (__cuemu_bits - 1))) ? (long long)v - (1LL << __cuemu_bits) : (long long)v;
}
inline long long part_u(unsigned x, int __cuemu_bits, int __cuemu_i) {
  return (x >> (__cuemu_i * __cuemu_bits)) & ((1u << __cuemu_bits) - 1u);
}

inline long long clamp(long long v, long long lo, long long hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* The operation of map2() and map3() on one part: a plain function, not a
 * template parameter, so that the intrinsics below (non-template inline
 * functions) instantiate nothing: GCC instantiates the templates they call
 * at the end of every unit that includes them, also from a precompiled
 * prelude. Once map2() is inlined, f is a known function, inlined too. */
typedef long long (*__cuemu_part_op2)(long long, long long);
typedef long long (*__cuemu_part_op3)(long long, long long, long long);

/* Applies f to each of the 32 / bits parts of a and b (taken as signed
 * when is_signed) and packs the low bits of the results. */
inline unsigned map2(unsigned a, unsigned b, int __cuemu_bits, bool is_signed, __cuemu_part_op2 f) {
  unsigned __cuemu_r = 0;
  for (int __cuemu_i = 0; __cuemu_i < 32 / __cuemu_bits; ++__cuemu_i) {
    const long long x = is_signed ? part_s(a, __cuemu_bits, __cuemu_i) : part_u(a, __cuemu_bits, __cuemu_i);
    const long long y = is_signed ? part_s(b, __cuemu_bits, __cuemu_i) : part_u(b, __cuemu_bits, __cuemu_i);
    __cuemu_r |= ((unsigned)f(x, y) & ((1u << __cuemu_bits) - 1u)) << (__cuemu_i * __cuemu_bits);
  }
  return __cuemu_r;
}
inline unsigned map3(unsigned a, unsigned b, unsigned c, int __cuemu_bits, bool is_signed, __cuemu_part_op3 f) {
  unsigned __cuemu_r = 0;
  for (int __cuemu_i = 0; __cuemu_i < 32 / __cuemu_bits; ++__cuemu_i) {
    const long long x = is_signed ? part_s(a, __cuemu_bits, __cuemu_i) : part_u(a, __cuemu_bits, __cuemu_i);
    const long long y = is_signed ? part_s(b, __cuemu_bits, __cuemu_i) : part_u(b, __cuemu_bits, __cuemu_i);
    const long long z = is_signed ? part_s(c, __cuemu_bits, __cuemu_i) : part_u(c, __cuemu_bits, __cuemu_i);
    __cuemu_r |= ((unsigned)f(x, y, z) & ((1u << __cuemu_bits) - 1u)) << (__cuemu_i * __cuemu_bits);
  }
  return __cuemu_r;
}

inline long long smax(int __cuemu_bits) { return (1LL << (__cuemu_bits - 1)) - 1; }
inline long long smin(int __cuemu_bits) { return -(1LL << (__cuemu_bits - 1)); }
inline long long umax(int __cuemu_bits) { return (1LL << __cuemu_bits) - 1; }
inline long long max2(long long x, long long y) { return x > y ? x : y; }
inline long long min2(long long x, long long y) { return x < y ? x : y; }
inline long long avg_s(long long x, long long y) {
  const long long s = x + y;
  return s < 0 ? (s >> 1) : ((s + 1) >> 1);
}

/* The sum of the parts' absolute differences. */
inline unsigned sad(unsigned a, unsigned b, int __cuemu_bits, bool is_signed) {
  long long __cuemu_sum = 0;
  for (int __cuemu_i = 0; __cuemu_i < 32 / __cuemu_bits; ++__cuemu_i) {
    const long long x = is_signed ? part_s(a, __cuemu_bits, __cuemu_i) : part_u(a, __cuemu_bits, __cuemu_i);
    const long long y = is_signed ? part_s(b, __cuemu_bits, __cuemu_i) : part_u(b, __cuemu_bits, __cuemu_i);
    __cuemu_sum += x > y ? x - y : y - x;
  }
  return (unsigned)__cuemu_sum;
}

} // namespace simd
} // namespace cuemu

#ifdef CUEMU_HOST_DECLS
/* The host pass's lean prelude: declarations only (cuemu_host_decls.h). */
#include "cuemu_simd_decls.h"
#else

/* The per-halfword (N = 2, B = 16) and per-byte (N = 4, B = 8) families. */
#define CUEMU_SIMD_FAMILY(N, B_)                                                \
  inline unsigned int __vabs##N(unsigned int a) {                              \
    return ::cuemu::simd::map2(a, 0, B_, true, [](long long x, long long) {    \
      return x < 0 ? -x : x;                                                   \
    });                                                                        \
  }                                                                            \
  inline unsigned int __vabsss##N(unsigned int a) {                            \
    return ::cuemu::simd::map2(a, 0, B_, true, [](long long x, long long) {    \
      return ::cuemu::simd::clamp(x < 0 ? -x : x, 0, ::cuemu::simd::smax(B_)); \
    });                                                                        \
  }                                                                            \
  inline unsigned int __vneg##N(unsigned int a) {                              \
    return ::cuemu::simd::map2(a, 0, B_, true,                                 \
                               [](long long x, long long) { return -x; });     \
  }                                                                            \
  inline unsigned int __vnegss##N(unsigned int a) {                            \
    return ::cuemu::simd::map2(a, 0, B_, true, [](long long x, long long) {    \
      return ::cuemu::simd::clamp(-x, ::cuemu::simd::smin(B_),                 \
                                  ::cuemu::simd::smax(B_));                    \
    });                                                                        \
  }                                                                            \
  inline unsigned int __vabsdiffs##N(unsigned int a, unsigned int b) {         \
    return ::cuemu::simd::map2(a, b, B_, true, [](long long x, long long y) {  \
      return x > y ? x - y : y - x;                                            \
    });                                                                        \
  }                                                                            \
  inline unsigned int __vabsdiffu##N(unsigned int a, unsigned int b) {         \
    return ::cuemu::simd::map2(a, b, B_, false, [](long long x, long long y) { \
      return x > y ? x - y : y - x;                                            \
    });                                                                        \
  }                                                                            \
  inline unsigned int __vadd##N(unsigned int a, unsigned int b) {              \
    return ::cuemu::simd::map2(a, b, B_, false,                                \
                               [](long long x, long long y) { return x + y; });\
  }                                                                            \
  inline unsigned int __vaddss##N(unsigned int a, unsigned int b) {            \
    return ::cuemu::simd::map2(a, b, B_, true, [](long long x, long long y) {  \
      return ::cuemu::simd::clamp(x + y, ::cuemu::simd::smin(B_),              \
                                  ::cuemu::simd::smax(B_));                    \
    });                                                                        \
  }                                                                            \
  inline unsigned int __vaddus##N(unsigned int a, unsigned int b) {            \
    return ::cuemu::simd::map2(a, b, B_, false, [](long long x, long long y) { \
      return ::cuemu::simd::clamp(x + y, 0, ::cuemu::simd::umax(B_));          \
    });                                                                        \
  }                                                                            \
  inline unsigned int __vsub##N(unsigned int a, unsigned int b) {              \
    return ::cuemu::simd::map2(a, b, B_, false,                                \
                               [](long long x, long long y) { return x - y; });\
  }                                                                            \
  inline unsigned int __vsubss##N(unsigned int a, unsigned int b) {            \
    return ::cuemu::simd::map2(a, b, B_, true, [](long long x, long long y) {  \
      return ::cuemu::simd::clamp(x - y, ::cuemu::simd::smin(B_),              \
                                  ::cuemu::simd::smax(B_));                    \
    });                                                                        \
  }                                                                            \
  inline unsigned int __vsubus##N(unsigned int a, unsigned int b) {            \
    return ::cuemu::simd::map2(a, b, B_, false, [](long long x, long long y) { \
      return ::cuemu::simd::clamp(x - y, 0, ::cuemu::simd::umax(B_));          \
    });                                                                        \
  }                                                                            \
  inline unsigned int __vavgs##N(unsigned int a, unsigned int b) {             \
    return ::cuemu::simd::map2(a, b, B_, true, ::cuemu::simd::avg_s);          \
  }                                                                            \
  inline unsigned int __vavgu##N(unsigned int a, unsigned int b) {             \
    return ::cuemu::simd::map2(a, b, B_, false, [](long long x, long long y) { \
      return (x + y + 1) >> 1;                                                 \
    });                                                                        \
  }                                                                            \
  inline unsigned int __vhaddu##N(unsigned int a, unsigned int b) {            \
    return ::cuemu::simd::map2(a, b, B_, false,                                \
                               [](long long x, long long y) {                  \
                                 return (x + y) >> 1;                          \
                               });                                             \
  }                                                                            \
  inline unsigned int __vmaxs##N(unsigned int a, unsigned int b) {             \
    return ::cuemu::simd::map2(a, b, B_, true, ::cuemu::simd::max2);           \
  }                                                                            \
  inline unsigned int __vmaxu##N(unsigned int a, unsigned int b) {             \
    return ::cuemu::simd::map2(a, b, B_, false, ::cuemu::simd::max2);          \
  }                                                                            \
  inline unsigned int __vmins##N(unsigned int a, unsigned int b) {             \
    return ::cuemu::simd::map2(a, b, B_, true, ::cuemu::simd::min2);           \
  }                                                                            \
  inline unsigned int __vminu##N(unsigned int a, unsigned int b) {             \
    return ::cuemu::simd::map2(a, b, B_, false, ::cuemu::simd::min2);          \
  }                                                                            \
  inline unsigned int __vsads##N(unsigned int a, unsigned int b) {             \
    return ::cuemu::simd::sad(a, b, B_, true);                                 \
  }                                                                            \
  inline unsigned int __vsadu##N(unsigned int a, unsigned int b) {             \
    return ::cuemu::simd::sad(a, b, B_, false);                                \
  }                                                                            \
  CUEMU_SIMD_COMPARE(N, B_, eq, false, ==)                                     \
  CUEMU_SIMD_COMPARE(N, B_, ne, false, !=)                                     \
  CUEMU_SIMD_COMPARE(N, B_, ges, true, >=)                                     \
  CUEMU_SIMD_COMPARE(N, B_, geu, false, >=)                                    \
  CUEMU_SIMD_COMPARE(N, B_, gts, true, >)                                      \
  CUEMU_SIMD_COMPARE(N, B_, gtu, false, >)                                     \
  CUEMU_SIMD_COMPARE(N, B_, les, true, <=)                                     \
  CUEMU_SIMD_COMPARE(N, B_, leu, false, <=)                                    \
  CUEMU_SIMD_COMPARE(N, B_, lts, true, <)                                      \
  CUEMU_SIMD_COMPARE(N, B_, ltu, false, <)

/* __vcmpXX gives all ones per part that compares true, __vsetXX gives 1. */
#define CUEMU_SIMD_COMPARE(N, B_, NAME, SIGNED, OP)                             \
  inline unsigned int __vcmp##NAME##N(unsigned int a, unsigned int b) {        \
    return ::cuemu::simd::map2(a, b, B_, SIGNED, [](long long x, long long y) { \
      return (x OP y) ? -1LL : 0LL;                                            \
    });                                                                        \
  }                                                                            \
  inline unsigned int __vset##NAME##N(unsigned int a, unsigned int b) {        \
    return ::cuemu::simd::map2(a, b, B_, SIGNED, [](long long x, long long y) { \
      return (x OP y) ? 1LL : 0LL;                                             \
    });                                                                        \
  }

CUEMU_SIMD_FAMILY(2, 16)
CUEMU_SIMD_FAMILY(4, 8)

#undef CUEMU_SIMD_COMPARE
#undef CUEMU_SIMD_FAMILY

/* ---- CUDA 12's 3-way, relu, add-then-min/max and predicate forms ---- */

/* Whole 32-bit values. */
inline int __vimax3_s32(const int a, const int b, const int c) {
  const int __cuemu_m = a > b ? a : b;
  return __cuemu_m > c ? __cuemu_m : c;
}
inline unsigned int __vimax3_u32(const unsigned int a, const unsigned int b,
                                 const unsigned int c) {
  const unsigned __cuemu_m = a > b ? a : b;
  return __cuemu_m > c ? __cuemu_m : c;
}
inline int __vimin3_s32(const int a, const int b, const int c) {
  const int __cuemu_m = a < b ? a : b;
  return __cuemu_m < c ? __cuemu_m : c;
}
inline unsigned int __vimin3_u32(const unsigned int a, const unsigned int b,
                                 const unsigned int c) {
  const unsigned __cuemu_m = a < b ? a : b;
  return __cuemu_m < c ? __cuemu_m : c;
}
inline int __vimax_s32_relu(const int a, const int b) {
  return __vimax3_s32(a, b, 0);
}
inline int __vimin_s32_relu(const int a, const int b) {
  const int __cuemu_m = a < b ? a : b;
  return __cuemu_m > 0 ? __cuemu_m : 0;
}
inline int __vimax3_s32_relu(const int a, const int b, const int c) {
  const int __cuemu_m = __vimax3_s32(a, b, c);
  return __cuemu_m > 0 ? __cuemu_m : 0;
}
inline int __vimin3_s32_relu(const int a, const int b, const int c) {
  const int __cuemu_m = __vimin3_s32(a, b, c);
  return __cuemu_m > 0 ? __cuemu_m : 0;
}
/* The sums wrap modulo 2^32. */
inline int __viaddmax_s32(const int a, const int b, const int c) {
  const int s = (int)((unsigned)a + (unsigned)b);
  return s > c ? s : c;
}
inline unsigned int __viaddmax_u32(const unsigned int a, const unsigned int b,
                                   const unsigned int c) {
  const unsigned s = a + b;
  return s > c ? s : c;
}
inline int __viaddmin_s32(const int a, const int b, const int c) {
  const int s = (int)((unsigned)a + (unsigned)b);
  return s < c ? s : c;
}
inline unsigned int __viaddmin_u32(const unsigned int a, const unsigned int b,
                                   const unsigned int c) {
  const unsigned s = a + b;
  return s < c ? s : c;
}
inline int __viaddmax_s32_relu(const int a, const int b, const int c) {
  const int __cuemu_m = __viaddmax_s32(a, b, c);
  return __cuemu_m > 0 ? __cuemu_m : 0;
}
inline int __viaddmin_s32_relu(const int a, const int b, const int c) {
  const int __cuemu_m = __viaddmin_s32(a, b, c);
  return __cuemu_m > 0 ? __cuemu_m : 0;
}
/* max (min) with *pred = a >= b (a <= b). */
inline int __vibmax_s32(const int a, const int b, bool *const pred) {
  *pred = a >= b;
  return a >= b ? a : b;
}
inline unsigned int __vibmax_u32(const unsigned int a, const unsigned int b,
                                 bool *const pred) {
  *pred = a >= b;
  return a >= b ? a : b;
}
inline int __vibmin_s32(const int a, const int b, bool *const pred) {
  *pred = a <= b;
  return a <= b ? a : b;
}
inline unsigned int __vibmin_u32(const unsigned int a, const unsigned int b,
                                 bool *const pred) {
  *pred = a <= b;
  return a <= b ? a : b;
}

/* Per halfword. */
#define CUEMU_SIMD_HALVES3(NAME, SIGNED, EXPR)                                  \
  inline unsigned int NAME(const unsigned int a, const unsigned int b,         \
                           const unsigned int c) {                             \
    return ::cuemu::simd::map3(a, b, c, 16, SIGNED,                            \
                               [](long long x, long long y, long long z) {     \
                                 using namespace ::cuemu::simd;                \
                                 return EXPR;                                  \
                               });                                             \
  }
/* The halfword sums wrap before the comparison. */
#define CUEMU_SIMD_WRAP16(v, SIGNED)                                            \
  ((SIGNED) ? part_s((unsigned)(v), 16, 0) : part_u((unsigned)(v), 16, 0))
CUEMU_SIMD_HALVES3(__vimax3_s16x2, true, max2(max2(x, y), z))
CUEMU_SIMD_HALVES3(__vimax3_u16x2, false, max2(max2(x, y), z))
CUEMU_SIMD_HALVES3(__vimin3_s16x2, true, min2(min2(x, y), z))
CUEMU_SIMD_HALVES3(__vimin3_u16x2, false, min2(min2(x, y), z))
CUEMU_SIMD_HALVES3(__vimax3_s16x2_relu, true, max2(max2(max2(x, y), z), 0))
CUEMU_SIMD_HALVES3(__vimin3_s16x2_relu, true, max2(min2(min2(x, y), z), 0))
CUEMU_SIMD_HALVES3(__viaddmax_s16x2, true, max2(CUEMU_SIMD_WRAP16(x + y, true), z))
CUEMU_SIMD_HALVES3(__viaddmax_u16x2, false, max2(CUEMU_SIMD_WRAP16(x + y, false), z))
CUEMU_SIMD_HALVES3(__viaddmin_s16x2, true, min2(CUEMU_SIMD_WRAP16(x + y, true), z))
CUEMU_SIMD_HALVES3(__viaddmin_u16x2, false, min2(CUEMU_SIMD_WRAP16(x + y, false), z))
CUEMU_SIMD_HALVES3(__viaddmax_s16x2_relu, true,
                   max2(max2(CUEMU_SIMD_WRAP16(x + y, true), z), 0))
CUEMU_SIMD_HALVES3(__viaddmin_s16x2_relu, true,
                   max2(min2(CUEMU_SIMD_WRAP16(x + y, true), z), 0))
#undef CUEMU_SIMD_HALVES3
#undef CUEMU_SIMD_WRAP16

inline unsigned int __vimax_s16x2_relu(const unsigned int a, const unsigned int b) {
  return ::cuemu::simd::map2(a, b, 16, true, [](long long x, long long y) {
    return ::cuemu::simd::max2(::cuemu::simd::max2(x, y), 0);
  });
}
inline unsigned int __vimin_s16x2_relu(const unsigned int a, const unsigned int b) {
  return ::cuemu::simd::map2(a, b, 16, true, [](long long x, long long y) {
    return ::cuemu::simd::max2(::cuemu::simd::min2(x, y), 0);
  });
}

/* Per-halfword max (min) with *pred_hi and *pred_lo = a >= b (a <= b) of
 * the high and low halves. */
#define CUEMU_SIMD_BPRED(NAME, SIGNED, OP)                                      \
  inline unsigned int NAME(const unsigned int a, const unsigned int b,         \
                           bool *const pred_hi, bool *const pred_lo) {         \
    using namespace ::cuemu::simd;                                             \
    const long long alo = SIGNED ? part_s(a, 16, 0) : part_u(a, 16, 0);        \
    const long long ahi = SIGNED ? part_s(a, 16, 1) : part_u(a, 16, 1);        \
    const long long blo = SIGNED ? part_s(b, 16, 0) : part_u(b, 16, 0);        \
    const long long bhi = SIGNED ? part_s(b, 16, 1) : part_u(b, 16, 1);        \
    *pred_hi = ahi OP bhi;                                                     \
    *pred_lo = alo OP blo;                                                     \
    return ((unsigned)(*pred_hi ? ahi : bhi) << 16) |                          \
           ((unsigned)(*pred_lo ? alo : blo) & 0xffffu);                       \
  }
CUEMU_SIMD_BPRED(__vibmax_s16x2, true, >=)
CUEMU_SIMD_BPRED(__vibmax_u16x2, false, >=)
CUEMU_SIMD_BPRED(__vibmin_s16x2, true, <=)
CUEMU_SIMD_BPRED(__vibmin_u16x2, false, <=)
#undef CUEMU_SIMD_BPRED

#endif /* CUEMU_HOST_DECLS */

#endif /* CUEMU_SIMD_H */
