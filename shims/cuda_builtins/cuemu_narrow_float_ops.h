/*
 * cuemu_narrow_float_ops.h: bit-level operations shared by __half and
 * __nv_bfloat16, and the macros that give both types CUDA's overloads.
 *
 * CUDA declares __hadd, __heq, hsqrt, atomicAdd, __ldg and the rest once for
 * __half and once for __nv_bfloat16, as ordinary (non-template) overloads;
 * overload resolution between the two depends on that. The macros below
 * stamp out one such set per type from the functions on raw bits, so the two
 * types cannot drift apart. A header expands CUEMU_NF_DEFINE_CONVERSIONS
 * first (the raw bits, the conversions and cuemu_<N>_from_bits(), the MAKE
 * of the others), then the overload sets.
 *
 * Internal header of the shims: kernel code uses cuda_fp16.h and cuda_bf16.h.
 */
#ifndef CUEMU_NARROW_FLOAT_OPS_H
#define CUEMU_NARROW_FLOAT_OPS_H

#include <cstdint>

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_warp_step.h>

#include "cuemu_narrow_float.h"
#include "cuemu_narrow_float_raw.h"

/* ---- Operations on raw bits ---------------------------------------------- */

inline unsigned short cuemu_nf_add(unsigned short a, unsigned short b,
                                          cuemu_nf_format f) {
  return cuemu_nf_from_double(cuemu_nf_to_double(a, f) + cuemu_nf_to_double(b, f),
                              f, CUEMU_ROUND_RN);
}

inline unsigned short cuemu_nf_sub(unsigned short a, unsigned short b,
                                          cuemu_nf_format f) {
  return cuemu_nf_from_double(cuemu_nf_to_double(a, f) - cuemu_nf_to_double(b, f),
                              f, CUEMU_ROUND_RN);
}

inline unsigned short cuemu_nf_mul(unsigned short a, unsigned short b,
                                          cuemu_nf_format f) {
  return cuemu_nf_from_double(cuemu_nf_to_double(a, f) * cuemu_nf_to_double(b, f),
                              f, CUEMU_ROUND_RN);
}

inline unsigned short cuemu_nf_div(unsigned short a, unsigned short b,
                                          cuemu_nf_format f) {
  return cuemu_nf_from_double(cuemu_nf_to_double(a, f) / cuemu_nf_to_double(b, f),
                              f, CUEMU_ROUND_RN);
}

/* The absolute value; a NaN becomes the canonical NaN, as in CUDA. */
inline unsigned short cuemu_nf_abs(unsigned short a, cuemu_nf_format f) {
  return cuemu_nf_isnan(a, f) ? cuemu_nf_canonical_nan
                              : static_cast<unsigned short>(a & 0x7FFFU);
}

inline unsigned short cuemu_nf_neg(unsigned short a, cuemu_nf_format f) {
  return cuemu_nf_isnan(a, f) ? cuemu_nf_canonical_nan
                              : static_cast<unsigned short>(a ^ 0x8000U);
}

/* Ordered comparisons (false when either operand is NaN). */
inline bool cuemu_nf_eq(unsigned short a, unsigned short b, cuemu_nf_format f) {
  return cuemu_nf_to_double(a, f) == cuemu_nf_to_double(b, f);
}
inline bool cuemu_nf_lt(unsigned short a, unsigned short b, cuemu_nf_format f) {
  return cuemu_nf_to_double(a, f) < cuemu_nf_to_double(b, f);
}
inline bool cuemu_nf_le(unsigned short a, unsigned short b, cuemu_nf_format f) {
  return cuemu_nf_to_double(a, f) <= cuemu_nf_to_double(b, f);
}
inline bool cuemu_nf_unordered(unsigned short a, unsigned short b,
                                      cuemu_nf_format f) {
  return cuemu_nf_isnan(a, f) || cuemu_nf_isnan(b, f);
}

/* max (want_max) or min: a NaN operand yields the other one, two NaNs the
 * canonical NaN; max(+0, -0) is +0 and min(+0, -0) is -0. */
inline unsigned short cuemu_nf_extreme(unsigned short a, unsigned short b,
                                       cuemu_nf_format f, bool want_max) {
  if (cuemu_nf_isnan(a, f))
    return cuemu_nf_isnan(b, f) ? cuemu_nf_canonical_nan : b;
  if (cuemu_nf_isnan(b, f))
    return a;
  const bool a_below = cuemu_nf_eq(a, b, f) ? (a & 0x8000U) != 0U
                                             : cuemu_nf_lt(a, b, f);
  return a_below != want_max ? a : b;
}

inline unsigned short cuemu_nf_max(unsigned short a, unsigned short b,
                                   cuemu_nf_format f) {
  return cuemu_nf_extreme(a, b, f, true);
}

inline unsigned short cuemu_nf_min(unsigned short a, unsigned short b,
                                   cuemu_nf_format f) {
  return cuemu_nf_extreme(a, b, f, false);
}

/* max and min that propagate NaN (the _nan forms). */
inline unsigned short cuemu_nf_max_nan(unsigned short a, unsigned short b,
                                              cuemu_nf_format f) {
  return cuemu_nf_unordered(a, b, f) ? cuemu_nf_canonical_nan : cuemu_nf_max(a, b, f);
}

inline unsigned short cuemu_nf_min_nan(unsigned short a, unsigned short b,
                                              cuemu_nf_format f) {
  return cuemu_nf_unordered(a, b, f) ? cuemu_nf_canonical_nan : cuemu_nf_min(a, b, f);
}

/* Saturation to [0.0, 1.0] of the _sat forms: NaN and -0 become +0. */
inline unsigned short cuemu_nf_sat(unsigned short a, cuemu_nf_format f) {
  const unsigned short one = cuemu_nf_from_double(1.0, f, CUEMU_ROUND_RN);
  return cuemu_nf_min(cuemu_nf_max(a, 0U, f), one, f);
}

/* ReLU of the _relu forms: negative values and -0 become +0, NaN the
 * canonical NaN. */
inline unsigned short cuemu_nf_relu(unsigned short a, cuemu_nf_format f) {
  return cuemu_nf_max_nan(a, 0U, f);
}

/* Unary math in double, rounded once to the format. The transcendental
 * functions are correctly rounded here to within the host libm's accuracy,
 * whereas the GPU's may differ in the last place. */
enum cuemu_nf_math_op {
  CUEMU_NF_SQRT,
  CUEMU_NF_RSQRT,
  CUEMU_NF_RCP,
  CUEMU_NF_LOG,
  CUEMU_NF_LOG2,
  CUEMU_NF_LOG10,
  CUEMU_NF_EXP,
  CUEMU_NF_EXP2,
  CUEMU_NF_EXP10,
  CUEMU_NF_COS,
  CUEMU_NF_SIN,
  CUEMU_NF_TANH,
  CUEMU_NF_TRUNC,
  CUEMU_NF_CEIL,
  CUEMU_NF_FLOOR,
  CUEMU_NF_RINT
};

inline unsigned short cuemu_nf_math(unsigned short a, cuemu_nf_format f,
                                           cuemu_nf_math_op op) {
  const double x = cuemu_nf_to_double(a, f);
  double __cuemu_r;
  switch (op) {
  case CUEMU_NF_SQRT: __cuemu_r = std::sqrt(x); break;
  case CUEMU_NF_RSQRT: __cuemu_r = 1.0 / std::sqrt(x); break;
  case CUEMU_NF_RCP: __cuemu_r = 1.0 / x; break;
  case CUEMU_NF_LOG: __cuemu_r = std::log(x); break;
  case CUEMU_NF_LOG2: __cuemu_r = std::log2(x); break;
  case CUEMU_NF_LOG10: __cuemu_r = std::log10(x); break;
  case CUEMU_NF_EXP: __cuemu_r = std::exp(x); break;
  case CUEMU_NF_EXP2: __cuemu_r = std::exp2(x); break;
  case CUEMU_NF_EXP10: __cuemu_r = std::pow(10.0, x); break;
  case CUEMU_NF_COS: __cuemu_r = std::cos(x); break;
  case CUEMU_NF_SIN: __cuemu_r = std::sin(x); break;
  case CUEMU_NF_TANH: __cuemu_r = std::tanh(x); break;
  case CUEMU_NF_TRUNC: __cuemu_r = std::trunc(x); break;
  case CUEMU_NF_CEIL: __cuemu_r = std::ceil(x); break;
  case CUEMU_NF_FLOOR: __cuemu_r = std::floor(x); break;
  default: __cuemu_r = std::nearbyint(x); break;
  }
  return cuemu_nf_from_double(__cuemu_r, f, CUEMU_ROUND_RN);
}

/* Atomically replaces the 16-bit value at `p` by op(old, v) and returns the
 * old value (a compare-and-swap loop, because the hardware has no 16-bit
 * floating-point add). Always inlined, as the other atomics of the shims
 * are (cuemu_atomics.h), with the atomicAdd that calls it: a race report
 * names an atomic's line from its return address, which in a function of
 * its own was a line of this file. */
template <typename Op>
__attribute__((always_inline)) inline unsigned short cuemu_nf_atomic_update16(unsigned short *p, Op op,
                                               bool __cuemu_maybe_spin) {
  /* A misaligned atomic faults on a GPU (cuemu_atomics.h). */
  if (__builtin_expect((reinterpret_cast<uintptr_t>(p) & 1U) != 0, 0))
    cuemu_kernel_misaligned(p, 2, "an atomic operation", nullptr, 0);
  unsigned short old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &old, op(old), false, __ATOMIC_SEQ_CST,
                                      __ATOMIC_RELAXED)) {
  }
  /* An add of a zero that left the value as it was may be a spin on a flag
   * (cuemu_atomics.h); `maybe_spin` says the operand is a zero. */
  if (__cuemu_maybe_spin && __builtin_expect(op(old) == old, 0))
    cuemu_atomic_poll(p);
  return old;
}

/* Under schedule perturbation, an atomic add whose sum does not depend on
 * the order (cuemu_atomic_fadd_exact, <cuemu/cuemu_device.h>); returns the
 * old value. A misaligned address faults, as on a GPU. */
inline unsigned short cuemu_nf_atomic_add_exact(unsigned short *p,
                                                unsigned short v,
                                                cuemu_nf_format f) {
  if (__builtin_expect((reinterpret_cast<uintptr_t>(p) & 1U) != 0, 0))
    cuemu_kernel_misaligned(p, 2, "an atomic add", nullptr, 0);
  unsigned short old;
  cuemu_atomic_fadd_exact(p, &v, static_cast<unsigned>(f.ebits),
                          static_cast<unsigned>(f.mbits), &old);
  return old;
}

/* The pair's add under schedule perturbation: each lane's sum exact, as
 * CUDA adds the lanes one by one (`p` is aligned). Not inlined, so that
 * the pair's inlined update, whose misaligned report names the caller's
 * line, keeps its shape. */
__attribute__((__noinline__)) inline unsigned
cuemu_nf_atomic_pair_add_exact(unsigned *p, unsigned v, cuemu_nf_format f) {
  unsigned short *const __cuemu_lanes = reinterpret_cast<unsigned short *>(p);
  unsigned short __cuemu_v[2] = {static_cast<unsigned short>(v & 0xFFFFU),
                                 static_cast<unsigned short>(v >> 16)};
  unsigned short __cuemu_old[2];
  for (int __cuemu_i = 0; __cuemu_i < 2; ++__cuemu_i)
    cuemu_atomic_fadd_exact(__cuemu_lanes + __cuemu_i, &__cuemu_v[__cuemu_i],
                            static_cast<unsigned>(f.ebits),
                            static_cast<unsigned>(f.mbits),
                            &__cuemu_old[__cuemu_i]);
  return __cuemu_old[0] | static_cast<unsigned>(__cuemu_old[1]) << 16;
}

/* The pair's add, always inlined (as cuemu_nf_atomic_update16). */
__attribute__((always_inline)) inline unsigned
cuemu_nf_atomic_update32_add(unsigned *p, unsigned v, cuemu_nf_format f) {
  if (__builtin_expect((reinterpret_cast<uintptr_t>(p) & 3U) != 0, 0))
    cuemu_kernel_misaligned(p, 4, "an atomic add", nullptr, 0);
  if (__builtin_expect(cuemu_atomic_fadd_exact_on, 0) && (v & 0x7FFF7FFFU) != 0)
    return cuemu_nf_atomic_pair_add_exact(p, v, f);
  unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED);
  for (;;) {
    const unsigned lo = cuemu_nf_add(static_cast<unsigned short>(old & 0xFFFFU),
                                     static_cast<unsigned short>(v & 0xFFFFU), f);
    const unsigned hi = cuemu_nf_add(static_cast<unsigned short>(old >> 16),
                                     static_cast<unsigned short>(v >> 16), f);
    const unsigned next = lo | (hi << 16);
    if (__atomic_compare_exchange_n(p, &old, next, false, __ATOMIC_SEQ_CST,
                                    __ATOMIC_RELAXED)) {
      if ((v & 0x7FFF7FFFU) == 0 && __builtin_expect(next == old, 0))
        cuemu_atomic_poll(p);
      return old;
    }
  }
}

/* The body of a function that CUDA declares __device__ only (hsqrt and the
 * other math functions, the fused multiply-adds): in the host pass's lean
 * prelude a declaration that host code cannot call, as nvcc refuses it
 * (cuemu_host_decls.h); else the definition. */
#ifdef CUEMU_HOST_DECLS
#include "cuemu_host_decls.h"
#define CUEMU_NF_DEVICE_ONLY_BODY(...) CUEMU_DEVICE_ONLY;
#else
#define CUEMU_NF_DEVICE_ONLY_BODY(...) { __VA_ARGS__ }
#endif

/* ---- Overload sets --------------------------------------------------------
 *
 * H is the scalar type, H2 the pair type (members x and y), F the format,
 * MAKE a function building an H from unsigned bits. */

#define CUEMU_NF_DEFINE_SCALAR_API(H_, F_, MAKE)                              \
  inline H_ __habs(const H_ a) { return MAKE(cuemu_nf_abs(cuemu_nf_bits(a), F_)); } \
  inline H_ __hneg(const H_ a) { return MAKE(cuemu_nf_neg(cuemu_nf_bits(a), F_)); } \
  inline H_ __hadd(const H_ a, const H_ b) {                                   \
    return MAKE(cuemu_nf_add(cuemu_nf_bits(a), cuemu_nf_bits(b), F_));         \
  }                                                                            \
  inline H_ __hsub(const H_ a, const H_ b) {                                   \
    return MAKE(cuemu_nf_sub(cuemu_nf_bits(a), cuemu_nf_bits(b), F_));         \
  }                                                                            \
  inline H_ __hmul(const H_ a, const H_ b) {                                   \
    return MAKE(cuemu_nf_mul(cuemu_nf_bits(a), cuemu_nf_bits(b), F_));         \
  }                                                                            \
  inline H_ __hadd_rn(const H_ a, const H_ b) { return __hadd(a, b); }         \
  inline H_ __hsub_rn(const H_ a, const H_ b) { return __hsub(a, b); }         \
  inline H_ __hmul_rn(const H_ a, const H_ b) { return __hmul(a, b); }         \
  inline H_ __hdiv(const H_ a, const H_ b) {                                   \
    return MAKE(cuemu_nf_div(cuemu_nf_bits(a), cuemu_nf_bits(b), F_));         \
  }                                                                            \
  inline H_ __hadd_sat(const H_ a, const H_ b) {                               \
    return MAKE(cuemu_nf_sat(cuemu_nf_bits(__hadd(a, b)), F_));                \
  }                                                                            \
  inline H_ __hsub_sat(const H_ a, const H_ b) {                               \
    return MAKE(cuemu_nf_sat(cuemu_nf_bits(__hsub(a, b)), F_));                \
  }                                                                            \
  inline H_ __hmul_sat(const H_ a, const H_ b) {                               \
    return MAKE(cuemu_nf_sat(cuemu_nf_bits(__hmul(a, b)), F_));                \
  }                                                                            \
  inline H_ __hfma(const H_ a, const H_ b, const H_ c) CUEMU_NF_DEVICE_ONLY_BODY( \
    return MAKE(cuemu_nf_fma(cuemu_nf_bits(a), cuemu_nf_bits(b),               \
                             cuemu_nf_bits(c), F_));                           \
  )                                                                            \
  inline H_ __hfma_sat(const H_ a, const H_ b, const H_ c) CUEMU_NF_DEVICE_ONLY_BODY( \
    return MAKE(cuemu_nf_sat(cuemu_nf_bits(__hfma(a, b, c)), F_));             \
  )                                                                            \
  inline H_ __hfma_relu(const H_ a, const H_ b, const H_ c) CUEMU_NF_DEVICE_ONLY_BODY( \
    return MAKE(cuemu_nf_relu(cuemu_nf_bits(__hfma(a, b, c)), F_));            \
  )                                                                            \
  inline H_ __hmax(const H_ a, const H_ b) {                                   \
    return MAKE(cuemu_nf_max(cuemu_nf_bits(a), cuemu_nf_bits(b), F_));         \
  }                                                                            \
  inline H_ __hmin(const H_ a, const H_ b) {                                   \
    return MAKE(cuemu_nf_min(cuemu_nf_bits(a), cuemu_nf_bits(b), F_));         \
  }                                                                            \
  inline H_ __hmax_nan(const H_ a, const H_ b) {                               \
    return MAKE(cuemu_nf_max_nan(cuemu_nf_bits(a), cuemu_nf_bits(b), F_));     \
  }                                                                            \
  inline H_ __hmin_nan(const H_ a, const H_ b) {                               \
    return MAKE(cuemu_nf_min_nan(cuemu_nf_bits(a), cuemu_nf_bits(b), F_));     \
  }                                                                            \
  inline bool __heq(const H_ a, const H_ b) {                                  \
    return cuemu_nf_eq(cuemu_nf_bits(a), cuemu_nf_bits(b), F_);                \
  }                                                                            \
  inline bool __hne(const H_ a, const H_ b) {                                  \
    return !cuemu_nf_unordered(cuemu_nf_bits(a), cuemu_nf_bits(b), F_) &&      \
           !__heq(a, b);                                                       \
  }                                                                            \
  inline bool __hlt(const H_ a, const H_ b) {                                  \
    return cuemu_nf_lt(cuemu_nf_bits(a), cuemu_nf_bits(b), F_);                \
  }                                                                            \
  inline bool __hle(const H_ a, const H_ b) {                                  \
    return cuemu_nf_le(cuemu_nf_bits(a), cuemu_nf_bits(b), F_);                \
  }                                                                            \
  inline bool __hgt(const H_ a, const H_ b) { return __hlt(b, a); }            \
  inline bool __hge(const H_ a, const H_ b) { return __hle(b, a); }            \
  inline bool __hequ(const H_ a, const H_ b) {                                 \
    return cuemu_nf_unordered(cuemu_nf_bits(a), cuemu_nf_bits(b), F_) ||       \
           __heq(a, b);                                                        \
  }                                                                            \
  inline bool __hneu(const H_ a, const H_ b) { return !__heq(a, b); }          \
  inline bool __hltu(const H_ a, const H_ b) { return !__hge(a, b); }          \
  inline bool __hleu(const H_ a, const H_ b) { return !__hgt(a, b); }          \
  inline bool __hgtu(const H_ a, const H_ b) { return !__hle(a, b); }          \
  inline bool __hgeu(const H_ a, const H_ b) { return !__hlt(a, b); }          \
  inline bool __hisnan(const H_ a) { return cuemu_nf_isnan(cuemu_nf_bits(a), F_); } \
  inline int __hisinf(const H_ a) {                                            \
    if (!cuemu_nf_isinf(cuemu_nf_bits(a), F_))                                 \
      return 0;                                                                \
    return (cuemu_nf_bits(a) & 0x8000U) != 0U ? -1 : 1;                        \
  }                                                                            \
  inline H_ hsqrt(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return MAKE(cuemu_nf_math(cuemu_nf_bits(a), F_, CUEMU_NF_SQRT)); ) \
  inline H_ hrsqrt(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return MAKE(cuemu_nf_math(cuemu_nf_bits(a), F_, CUEMU_NF_RSQRT)); ) \
  inline H_ hrcp(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return MAKE(cuemu_nf_math(cuemu_nf_bits(a), F_, CUEMU_NF_RCP)); ) \
  inline H_ hlog(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return MAKE(cuemu_nf_math(cuemu_nf_bits(a), F_, CUEMU_NF_LOG)); ) \
  inline H_ hlog2(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return MAKE(cuemu_nf_math(cuemu_nf_bits(a), F_, CUEMU_NF_LOG2)); ) \
  inline H_ hlog10(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return MAKE(cuemu_nf_math(cuemu_nf_bits(a), F_, CUEMU_NF_LOG10)); ) \
  inline H_ hexp(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return MAKE(cuemu_nf_math(cuemu_nf_bits(a), F_, CUEMU_NF_EXP)); ) \
  inline H_ hexp2(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return MAKE(cuemu_nf_math(cuemu_nf_bits(a), F_, CUEMU_NF_EXP2)); ) \
  inline H_ hexp10(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return MAKE(cuemu_nf_math(cuemu_nf_bits(a), F_, CUEMU_NF_EXP10)); ) \
  inline H_ hcos(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return MAKE(cuemu_nf_math(cuemu_nf_bits(a), F_, CUEMU_NF_COS)); ) \
  inline H_ hsin(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return MAKE(cuemu_nf_math(cuemu_nf_bits(a), F_, CUEMU_NF_SIN)); ) \
  inline H_ htanh(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return MAKE(cuemu_nf_math(cuemu_nf_bits(a), F_, CUEMU_NF_TANH)); ) \
  inline H_ htanh_approx(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return htanh(a); ) \
  inline H_ htrunc(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return MAKE(cuemu_nf_math(cuemu_nf_bits(a), F_, CUEMU_NF_TRUNC)); ) \
  inline H_ hceil(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return MAKE(cuemu_nf_math(cuemu_nf_bits(a), F_, CUEMU_NF_CEIL)); ) \
  inline H_ hfloor(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return MAKE(cuemu_nf_math(cuemu_nf_bits(a), F_, CUEMU_NF_FLOOR)); ) \
  inline H_ hrint(const H_ a) CUEMU_NF_DEVICE_ONLY_BODY( return MAKE(cuemu_nf_math(cuemu_nf_bits(a), F_, CUEMU_NF_RINT)); ) \
  __attribute__((always_inline)) inline H_ atomicAdd(H_ *const address,       \
                                                     const H_ val) {           \
    const unsigned short v = cuemu_nf_bits(val);                               \
    if (__builtin_expect(cuemu_atomic_fadd_exact_on, 0) && (v & 0x7FFFU) != 0) \
      return MAKE(cuemu_nf_atomic_add_exact(                                   \
          reinterpret_cast<unsigned short *>(address), v, F_));                \
    return MAKE(cuemu_nf_atomic_update16(                                      \
        reinterpret_cast<unsigned short *>(address),                           \
        [v](unsigned short old) { return cuemu_nf_add(old, v, F_); },          \
        (v & 0x7FFFU) == 0));                                                  \
  }                                                                            \
  inline H_ __ldg(const H_ *const ptr) { return *ptr; }                        \
  inline H_ __ldcg(const H_ *const ptr) { return *ptr; }                       \
  inline H_ __ldca(const H_ *const ptr) { return *ptr; }                       \
  inline H_ __ldcs(const H_ *const ptr) { return *ptr; }                       \
  inline H_ __ldlu(const H_ *const ptr) { return *ptr; }                       \
  inline H_ __ldcv(const H_ *const ptr) {                                      \
    return MAKE(cuemu_nf_bits_volatile(*static_cast<const volatile H_ *>(ptr))); \
  }                                                                            \
  inline void __stwb(H_ *const ptr, const H_ value) { *ptr = value; }          \
  inline void __stcg(H_ *const ptr, const H_ value) { *ptr = value; }          \
  inline void __stcs(H_ *const ptr, const H_ value) { *ptr = value; }          \
  inline void __stwt(H_ *const ptr, const H_ value) { *ptr = value; }

/* The pair forms apply the scalar ones lane by lane. */
#define CUEMU_NF_LANES1(H2, FN, a) H2(FN((a).x), FN((a).y))
#define CUEMU_NF_LANES2(H2, FN, a, b) H2(FN((a).x, (b).x), FN((a).y, (b).y))
#define CUEMU_NF_LANES3(H2, FN, a, b, c)                                       \
  H2(FN((a).x, (b).x, (c).x), FN((a).y, (b).y, (c).y))

#define CUEMU_NF_DEFINE_PAIR_API(H_, H2, F_, MAKE)                            \
  inline H2 __habs2(const H2 a) { return CUEMU_NF_LANES1(H2, __habs, a); }     \
  inline H2 __hneg2(const H2 a) { return CUEMU_NF_LANES1(H2, __hneg, a); }     \
  inline H2 __hadd2(const H2 a, const H2 b) { return CUEMU_NF_LANES2(H2, __hadd, a, b); } \
  inline H2 __hsub2(const H2 a, const H2 b) { return CUEMU_NF_LANES2(H2, __hsub, a, b); } \
  inline H2 __hmul2(const H2 a, const H2 b) { return CUEMU_NF_LANES2(H2, __hmul, a, b); } \
  inline H2 __hadd2_rn(const H2 a, const H2 b) { return __hadd2(a, b); }       \
  inline H2 __hsub2_rn(const H2 a, const H2 b) { return __hsub2(a, b); }       \
  inline H2 __hmul2_rn(const H2 a, const H2 b) { return __hmul2(a, b); }       \
  inline H2 __h2div(const H2 a, const H2 b) { return CUEMU_NF_LANES2(H2, __hdiv, a, b); } \
  inline H2 __hadd2_sat(const H2 a, const H2 b) { return CUEMU_NF_LANES2(H2, __hadd_sat, a, b); } \
  inline H2 __hsub2_sat(const H2 a, const H2 b) { return CUEMU_NF_LANES2(H2, __hsub_sat, a, b); } \
  inline H2 __hmul2_sat(const H2 a, const H2 b) { return CUEMU_NF_LANES2(H2, __hmul_sat, a, b); } \
  inline H2 __hfma2(const H2 a, const H2 b, const H2 c) CUEMU_NF_DEVICE_ONLY_BODY( \
    return CUEMU_NF_LANES3(H2, __hfma, a, b, c);                               \
  )                                                                            \
  inline H2 __hfma2_sat(const H2 a, const H2 b, const H2 c) CUEMU_NF_DEVICE_ONLY_BODY( \
    return CUEMU_NF_LANES3(H2, __hfma_sat, a, b, c);                           \
  )                                                                            \
  inline H2 __hfma2_relu(const H2 a, const H2 b, const H2 c) CUEMU_NF_DEVICE_ONLY_BODY( \
    return CUEMU_NF_LANES3(H2, __hfma_relu, a, b, c);                          \
  )                                                                            \
  inline H2 __hmax2(const H2 a, const H2 b) { return CUEMU_NF_LANES2(H2, __hmax, a, b); } \
  inline H2 __hmin2(const H2 a, const H2 b) { return CUEMU_NF_LANES2(H2, __hmin, a, b); } \
  inline H2 __hmax2_nan(const H2 a, const H2 b) { return CUEMU_NF_LANES2(H2, __hmax_nan, a, b); } \
  inline H2 __hmin2_nan(const H2 a, const H2 b) { return CUEMU_NF_LANES2(H2, __hmin_nan, a, b); } \
  /* (a.x + i a.y) * (b.x + i b.y) + (c.x + i c.y), as four roundings of     \
   * fused multiply-adds in CUDA's order. */                                   \
  inline H2 __hcmadd(const H2 a, const H2 b, const H2 c) CUEMU_NF_DEVICE_ONLY_BODY( \
    const H_ re = __hfma(__hneg(a.y), b.y, __hfma(a.x, b.x, c.x));             \
    const H_ im = __hfma(a.y, b.x, __hfma(a.x, b.y, c.y));                     \
    return H2(re, im);                                                         \
  )                                                                            \
  inline H_ cuemu_nf_truth(bool t, H_) { return MAKE(t ? cuemu_nf_from_double(1.0, F_, CUEMU_ROUND_RN) : 0U); } \
  inline H2 cuemu_nf_truth2(bool __cuemu_tx, bool __cuemu_ty, H2) {                            \
    return H2(cuemu_nf_truth(__cuemu_tx, H_()), cuemu_nf_truth(__cuemu_ty, H_()));             \
  }                                                                            \
  inline unsigned cuemu_nf_mask2(bool __cuemu_tx, bool __cuemu_ty, H2) {                       \
    return (__cuemu_tx ? 0xFFFFU : 0U) | (__cuemu_ty ? 0xFFFF0000U : 0U);                      \
  }                                                                            \
  CUEMU_NF_DEFINE_PAIR_COMPARE(H2, eq)                                         \
  CUEMU_NF_DEFINE_PAIR_COMPARE(H2, ne)                                         \
  CUEMU_NF_DEFINE_PAIR_COMPARE(H2, le)                                         \
  CUEMU_NF_DEFINE_PAIR_COMPARE(H2, ge)                                         \
  CUEMU_NF_DEFINE_PAIR_COMPARE(H2, lt)                                         \
  CUEMU_NF_DEFINE_PAIR_COMPARE(H2, gt)                                         \
  CUEMU_NF_DEFINE_PAIR_COMPARE(H2, equ)                                        \
  CUEMU_NF_DEFINE_PAIR_COMPARE(H2, neu)                                        \
  CUEMU_NF_DEFINE_PAIR_COMPARE(H2, leu)                                        \
  CUEMU_NF_DEFINE_PAIR_COMPARE(H2, geu)                                        \
  CUEMU_NF_DEFINE_PAIR_COMPARE(H2, ltu)                                        \
  CUEMU_NF_DEFINE_PAIR_COMPARE(H2, gtu)                                        \
  inline H2 __hisnan2(const H2 a) {                                            \
    return cuemu_nf_truth2(__hisnan(a.x), __hisnan(a.y), a);                   \
  }                                                                            \
  inline H2 h2sqrt(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, hsqrt, a); ) \
  inline H2 h2rsqrt(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, hrsqrt, a); ) \
  inline H2 h2rcp(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, hrcp, a); ) \
  inline H2 h2log(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, hlog, a); ) \
  inline H2 h2log2(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, hlog2, a); ) \
  inline H2 h2log10(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, hlog10, a); ) \
  inline H2 h2exp(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, hexp, a); ) \
  inline H2 h2exp2(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, hexp2, a); ) \
  inline H2 h2exp10(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, hexp10, a); ) \
  inline H2 h2cos(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, hcos, a); ) \
  inline H2 h2sin(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, hsin, a); ) \
  inline H2 h2tanh(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, htanh, a); ) \
  inline H2 h2tanh_approx(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, htanh_approx, a); ) \
  inline H2 h2trunc(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, htrunc, a); ) \
  inline H2 h2ceil(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, hceil, a); ) \
  inline H2 h2floor(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, hfloor, a); ) \
  inline H2 h2rint(const H2 a) CUEMU_NF_DEVICE_ONLY_BODY( return CUEMU_NF_LANES1(H2, hrint, a); ) \
  inline H2 __lowhigh2highlow(const H2 a) { return H2(a.y, a.x); }             \
  inline float __low2float(const H2 a) { return static_cast<float>(cuemu_nf_to_float(cuemu_nf_bits(a.x), F_)); } \
  inline float __high2float(const H2 a) { return static_cast<float>(cuemu_nf_to_float(cuemu_nf_bits(a.y), F_)); } \
  /* Each lane is added atomically on its own, as CUDA guarantees; here the \
   * whole 32-bit pair is even updated at once. */                             \
  __attribute__((always_inline)) inline H2 atomicAdd(H2 *const address,       \
                                                     const H2 val) {           \
    const unsigned v = cuemu_nf_bits(val.x) | (static_cast<unsigned>(cuemu_nf_bits(val.y)) << 16); \
    const unsigned old = cuemu_nf_atomic_update32_add(                         \
        reinterpret_cast<unsigned *>(address), v, F_);                         \
    return H2(MAKE(old & 0xFFFFU), MAKE(old >> 16));                           \
  }                                                                            \
  inline H2 __ldg(const H2 *const ptr) { return *ptr; }                        \
  inline H2 __ldcg(const H2 *const ptr) { return *ptr; }                       \
  inline H2 __ldca(const H2 *const ptr) { return *ptr; }                       \
  inline H2 __ldcs(const H2 *const ptr) { return *ptr; }                       \
  inline H2 __ldlu(const H2 *const ptr) { return *ptr; }                       \
  inline H2 __ldcv(const H2 *const ptr) {                                      \
    const volatile H_ *p = reinterpret_cast<const volatile H_ *>(ptr);         \
    return H2(MAKE(cuemu_nf_bits_volatile(p[0])), MAKE(cuemu_nf_bits_volatile(p[1]))); \
  }                                                                            \
  inline void __stwb(H2 *const ptr, const H2 value) { *ptr = value; }          \
  inline void __stcg(H2 *const ptr, const H2 value) { *ptr = value; }          \
  inline void __stcs(H2 *const ptr, const H2 value) { *ptr = value; }          \
  inline void __stwt(H2 *const ptr, const H2 value) { *ptr = value; }

/* __hXX2 (lane-wise 1.0/0.0), __hXX2_mask (lane-wise 0xFFFF/0) and __hbXX2
 * (true when both lanes compare true) for one comparison XX. */
#define CUEMU_NF_DEFINE_PAIR_COMPARE(H2, XX)                                   \
  inline H2 __h##XX##2(const H2 a, const H2 b) {                               \
    return cuemu_nf_truth2(__h##XX(a.x, b.x), __h##XX(a.y, b.y), a);           \
  }                                                                            \
  inline unsigned __h##XX##2_mask(const H2 a, const H2 b) {                    \
    return cuemu_nf_mask2(__h##XX(a.x, b.x), __h##XX(a.y, b.y), a);            \
  }                                                                            \
  inline bool __hb##XX##2(const H2 a, const H2 b) {                            \
    return __h##XX(a.x, b.x) && __h##XX(a.y, b.y);                             \
  }

/* C++ operators, which CUDA lets a program switch off with
 * __CUDA_NO_HALF_OPERATORS__ and friends. */
#define CUEMU_NF_DEFINE_SCALAR_OPERATORS(H_, ONE_BITS, MAKE)                   \
  inline H_ operator+(const H_ &lh, const H_ &rh) { return __hadd(lh, rh); }   \
  inline H_ operator-(const H_ &lh, const H_ &rh) { return __hsub(lh, rh); }   \
  inline H_ operator*(const H_ &lh, const H_ &rh) { return __hmul(lh, rh); }   \
  inline H_ operator/(const H_ &lh, const H_ &rh) { return __hdiv(lh, rh); }   \
  inline H_ &operator+=(H_ &lh, const H_ &rh) { lh = __hadd(lh, rh); return lh; } \
  inline H_ &operator-=(H_ &lh, const H_ &rh) { lh = __hsub(lh, rh); return lh; } \
  inline H_ &operator*=(H_ &lh, const H_ &rh) { lh = __hmul(lh, rh); return lh; } \
  inline H_ &operator/=(H_ &lh, const H_ &rh) { lh = __hdiv(lh, rh); return lh; } \
  inline H_ &operator++(H_ &h) { h = __hadd(h, MAKE(ONE_BITS)); return h; }    \
  inline H_ &operator--(H_ &h) { h = __hsub(h, MAKE(ONE_BITS)); return h; }    \
  inline H_ operator++(H_ &h, const int) { H_ ret = h; ++h; return ret; }      \
  inline H_ operator--(H_ &h, const int) { H_ ret = h; --h; return ret; }      \
  inline H_ operator+(const H_ &h) { return h; }                               \
  inline H_ operator-(const H_ &h) { return __hneg(h); }                       \
  inline bool operator==(const H_ &lh, const H_ &rh) { return __heq(lh, rh); } \
  inline bool operator!=(const H_ &lh, const H_ &rh) { return __hneu(lh, rh); } \
  inline bool operator>(const H_ &lh, const H_ &rh) { return __hgt(lh, rh); }  \
  inline bool operator<(const H_ &lh, const H_ &rh) { return __hlt(lh, rh); }  \
  inline bool operator>=(const H_ &lh, const H_ &rh) { return __hge(lh, rh); } \
  inline bool operator<=(const H_ &lh, const H_ &rh) { return __hle(lh, rh); }

#define CUEMU_NF_DEFINE_PAIR_OPERATORS(H_, H2, ONE_BITS, MAKE)                 \
  inline H2 operator+(const H2 &lh, const H2 &rh) { return __hadd2(lh, rh); }  \
  inline H2 operator-(const H2 &lh, const H2 &rh) { return __hsub2(lh, rh); }  \
  inline H2 operator*(const H2 &lh, const H2 &rh) { return __hmul2(lh, rh); }  \
  inline H2 operator/(const H2 &lh, const H2 &rh) { return __h2div(lh, rh); }  \
  inline H2 &operator+=(H2 &lh, const H2 &rh) { lh = __hadd2(lh, rh); return lh; } \
  inline H2 &operator-=(H2 &lh, const H2 &rh) { lh = __hsub2(lh, rh); return lh; } \
  inline H2 &operator*=(H2 &lh, const H2 &rh) { lh = __hmul2(lh, rh); return lh; } \
  inline H2 &operator/=(H2 &lh, const H2 &rh) { lh = __h2div(lh, rh); return lh; } \
  inline H2 &operator++(H2 &h) {                                               \
    h = __hadd2(h, H2(MAKE(ONE_BITS), MAKE(ONE_BITS)));                        \
    return h;                                                                  \
  }                                                                            \
  inline H2 &operator--(H2 &h) {                                               \
    h = __hsub2(h, H2(MAKE(ONE_BITS), MAKE(ONE_BITS)));                        \
    return h;                                                                  \
  }                                                                            \
  inline H2 operator++(H2 &h, const int) { H2 ret = h; ++h; return ret; }      \
  inline H2 operator--(H2 &h, const int) { H2 ret = h; --h; return ret; }      \
  inline H2 operator+(const H2 &h) { return h; }                               \
  inline H2 operator-(const H2 &h) { return __hneg2(h); }                      \
  inline bool operator==(const H2 &lh, const H2 &rh) { return __hbeq2(lh, rh); } \
  inline bool operator!=(const H2 &lh, const H2 &rh) { return __hbneu2(lh, rh); } \
  inline bool operator>(const H2 &lh, const H2 &rh) { return __hbgt2(lh, rh); } \
  inline bool operator<(const H2 &lh, const H2 &rh) { return __hblt2(lh, rh); } \
  inline bool operator>=(const H2 &lh, const H2 &rh) { return __hbge2(lh, rh); } \
  inline bool operator<=(const H2 &lh, const H2 &rh) { return __hble2(lh, rh); }

/* ---- The types ------------------------------------------------------------
 *
 * __half and __nv_bfloat16 have the same members, and so do __half2 and
 * __nv_bfloat162: the macros below write them once. N is the stem of the
 * conversions' names ("half", "bfloat16"), H and H2 the types, RAW and RAW2
 * their raw types (members x, and x and y). A header defines its raw types
 * and declares its conversions first (the members call them), then writes
 *
 *   struct alignas(2) H {
 *     CUEMU_NF_RAW_MEMBERS(H, RAW)
 *   #if !defined(<CUDA's switch for the type's conversions>)
 *     CUEMU_NF_CONVERSION_MEMBERS(N, H)
 *   #endif
 *   };
 *   CUEMU_NF_DEFINE_PAIR_TYPE(H, H2, RAW, RAW2)
 *
 * and, after the types, CUEMU_NF_DEFINE_CONVERSIONS (below). */

/* CUEMU_NF_DEFINE_RAW_TYPES(RAW, RAW2) is cuemu_narrow_float_raw.h's. */

#define CUEMU_NF_DECLARE_CONVERSIONS(N, H_)                                    \
  struct H_;                                                                   \
  H_ __float2##N(const float a);                                               \
  H_ __double2##N(const double a);                                             \
  float __##N##2float(const H_ a);                                             \
  H_ __short2##N##_rn(const short int __cuemu_i);                                      \
  H_ __ushort2##N##_rn(const unsigned short int __cuemu_i);                            \
  H_ __int2##N##_rn(const int __cuemu_i);                                              \
  H_ __uint2##N##_rn(const unsigned int __cuemu_i);                                    \
  H_ __ll2##N##_rn(const long long int __cuemu_i);                                     \
  H_ __ull2##N##_rn(const unsigned long long int __cuemu_i);                           \
  signed char __##N##2char_rz(const H_ h);                                     \
  unsigned char __##N##2uchar_rz(const H_ h);                                  \
  short int __##N##2short_rz(const H_ h);                                      \
  unsigned short int __##N##2ushort_rz(const H_ h);                            \
  int __##N##2int_rz(const H_ h);                                              \
  unsigned int __##N##2uint_rz(const H_ h);                                    \
  long long int __##N##2ll_rz(const H_ h);                                     \
  unsigned long long int __##N##2ull_rz(const H_ h);

#define CUEMU_NF_RAW_MEMBERS(H_, RAW)                                          \
protected:                                                                     \
  unsigned short __x;                                                          \
                                                                               \
public:                                                                        \
  H_() = default;                                                              \
  constexpr H_(const RAW &hr) : __x(hr.x) {}                                   \
  H_ &operator=(const RAW &hr) {                                               \
    __x = hr.x;                                                                \
    return *this;                                                              \
  }                                                                            \
  volatile H_ &operator=(const RAW &hr) volatile {                             \
    __x = hr.x;                                                                \
    return *this;                                                              \
  }                                                                            \
  volatile H_ &operator=(const volatile RAW &hr) volatile {                    \
    __x = hr.x;                                                                \
    return *this;                                                              \
  }                                                                            \
  operator RAW() const {                                                       \
    RAW __cuemu_r;                                                                     \
    __cuemu_r.x = __x;                                                                 \
    return __cuemu_r;                                                                  \
  }                                                                            \
  operator RAW() const volatile {                                              \
    RAW __cuemu_r;                                                                     \
    __cuemu_r.x = __x;                                                                 \
    return __cuemu_r;                                                                  \
  }

/* char is signed on the hosts cuemu supports. */
#define CUEMU_NF_CONVERSION_MEMBERS(N, H_)                                     \
  H_(const float f) { *this = __float2##N(f); }                                \
  H_(const double f) { *this = __double2##N(f); }                              \
  operator float() const { return __##N##2float(*this); }                      \
  H_ &operator=(const float f) { return *this = __float2##N(f); }              \
  H_ &operator=(const double f) { return *this = __double2##N(f); }            \
                                                                               \
  H_(const short val) { *this = __short2##N##_rn(val); }                       \
  H_(const unsigned short val) { *this = __ushort2##N##_rn(val); }             \
  H_(const int val) { *this = __int2##N##_rn(val); }                           \
  H_(const unsigned int val) { *this = __uint2##N##_rn(val); }                 \
  H_(const long val) { *this = __ll2##N##_rn(static_cast<long long>(val)); }   \
  H_(const unsigned long val) {                                                \
    *this = __ull2##N##_rn(static_cast<unsigned long long>(val));              \
  }                                                                            \
  H_(const long long val) { *this = __ll2##N##_rn(val); }                      \
  H_(const unsigned long long val) { *this = __ull2##N##_rn(val); }            \
                                                                               \
  operator signed char() const { return __##N##2char_rz(*this); }              \
  operator unsigned char() const { return __##N##2uchar_rz(*this); }           \
  operator char() const { return static_cast<char>(__##N##2char_rz(*this)); } \
  operator short() const { return __##N##2short_rz(*this); }                   \
  operator unsigned short() const { return __##N##2ushort_rz(*this); }         \
  operator int() const { return __##N##2int_rz(*this); }                       \
  operator unsigned int() const { return __##N##2uint_rz(*this); }             \
  operator long() const { return static_cast<long>(__##N##2ll_rz(*this)); }    \
  operator unsigned long() const {                                             \
    return static_cast<unsigned long>(__##N##2ull_rz(*this));                  \
  }                                                                            \
  operator long long() const { return __##N##2ll_rz(*this); }                  \
  operator unsigned long long() const { return __##N##2ull_rz(*this); }        \
  H_ &operator=(const short val) { return *this = __short2##N##_rn(val); }     \
  H_ &operator=(const unsigned short val) {                                    \
    return *this = __ushort2##N##_rn(val);                                     \
  }                                                                            \
  H_ &operator=(const int val) { return *this = __int2##N##_rn(val); }         \
  H_ &operator=(const unsigned int val) { return *this = __uint2##N##_rn(val); } \
  H_ &operator=(const long long val) { return *this = __ll2##N##_rn(val); }    \
  H_ &operator=(const unsigned long long val) {                                \
    return *this = __ull2##N##_rn(val);                                        \
  }                                                                            \
  constexpr operator bool() const { return (__x & 0x7FFFU) != 0U; }

#define CUEMU_NF_DEFINE_PAIR_TYPE(H_, H2, RAW, RAW2)                           \
  struct alignas(4) H2 {                                                       \
    H_ x;                                                                      \
    H_ y;                                                                      \
                                                                               \
    H2() = default;                                                            \
    constexpr H2(const H_ &a, const H_ &b) : x(a), y(b) {}                     \
    H2(const RAW2 &h2r) {                                                      \
      RAW __cuemu_r;                                                                   \
      __cuemu_r.x = h2r.x;                                                             \
      x = __cuemu_r;                                                                   \
      __cuemu_r.x = h2r.y;                                                             \
      y = __cuemu_r;                                                                   \
    }                                                                          \
    H2 &operator=(const RAW2 &h2r) { return *this = H2(h2r); }                 \
    operator RAW2() const {                                                    \
      RAW2 __cuemu_r;                                                                  \
      __cuemu_r.x = static_cast<RAW>(x).x;                                             \
      __cuemu_r.y = static_cast<RAW>(y).x;                                             \
      return __cuemu_r;                                                                \
    }                                                                          \
  };

/* ---- Raw bits and conversions ---------------------------------------------
 *
 * CUDA names the conversions after the type: __half2float and
 * __bfloat162float, __short2half_rn and __short2bfloat16_rn, make_half2 and
 * make_bfloat162. N is the name's stem for the scalar ("half", "bfloat16"),
 * N2 for the pair ("half2", "bfloat162"); H and H2 are the types, RAW the
 * scalar's raw type (member x) and F the format; ROUNDED is the body of the
 * conversions from integers rounded other than to nearest
 * (CUEMU_NF_HOST_BODY for half, CUEMU_NF_DEVICE_ONLY_BODY for bfloat16,
 * as CUDA declares them). The expansion also defines
 * the raw-bit accessors that the overload sets above need, cuemu_nf_bits()
 * and cuemu_nf_bits_volatile(), and cuemu_<N>_from_bits(), their MAKE.
 *
 * To integer: NaN gives 0 (0x8000000000000000 for 64-bit results) and values
 * out of range saturate. From integer: rounded in the named mode. */

/* The integer conversions that CUDA declares __device__ only (those of
 * <cuda_fp16.h> and <cuda_bf16.h> to an integer rounded to nearest, down
 * or up; from an integer to bfloat16 rounded other than to nearest) take
 * CUEMU_NF_DEVICE_ONLY_BODY: host code that calls one is refused, as nvcc
 * refuses it. The others (to an integer toward zero, from an integer to
 * half in any mode) take CUEMU_NF_HOST_BODY. */
#define CUEMU_NF_HOST_BODY(...) { __VA_ARGS__ }
#define CUEMU_NF_TO_INT(NAME, BODY, H_, F_, T, MODE, LO, HI, NAN_VALUE)        \
  inline T NAME(const H_ h) BODY(                                              \
    return static_cast<T>(cuemu_nf_to_integer(cuemu_nf_bits(h), F_, MODE, LO,  \
                                              HI, NAN_VALUE)); )
#define CUEMU_NF_TO_INT4(STEM, H_, F_, T, LO, HI, NAN_VALUE)                   \
  CUEMU_NF_TO_INT(STEM##_rn, CUEMU_NF_DEVICE_ONLY_BODY, H_, F_, T,             \
                  CUEMU_ROUND_RN, LO, HI, NAN_VALUE)                           \
  CUEMU_NF_TO_INT(STEM##_rz, CUEMU_NF_HOST_BODY, H_, F_, T, CUEMU_ROUND_RZ,    \
                  LO, HI, NAN_VALUE)                                           \
  CUEMU_NF_TO_INT(STEM##_rd, CUEMU_NF_DEVICE_ONLY_BODY, H_, F_, T,             \
                  CUEMU_ROUND_RD, LO, HI, NAN_VALUE)                           \
  CUEMU_NF_TO_INT(STEM##_ru, CUEMU_NF_DEVICE_ONLY_BODY, H_, F_, T,             \
                  CUEMU_ROUND_RU, LO, HI, NAN_VALUE)
#define CUEMU_NF_TO_ULL(NAME, BODY, H_, F_, MODE)                              \
  inline unsigned long long int NAME(const H_ h) BODY(                         \
    return cuemu_nf_to_ull(cuemu_nf_bits(h), F_, MODE); )
#define CUEMU_NF_FROM_DOUBLE(NAME, H_, F_, MAKE, MODE)                         \
  inline H_ NAME(const float a) { return MAKE(cuemu_nf_from_double(a, F_, MODE)); }
#define CUEMU_NF_FROM_ULL(__cuemu_i, f, mode) cuemu_nf_from_ull((__cuemu_i), false, (f), (mode))
/* ROUNDED: the body of the _rz, _rd and _ru forms. */
#define CUEMU_NF_FROM_INT(STEM, ROUNDED, H_, F_, MAKE, T, CONV)                \
  inline H_ STEM##_rn(const T __cuemu_i) { return MAKE(CONV(__cuemu_i, F_, CUEMU_ROUND_RN)); } \
  inline H_ STEM##_rz(const T __cuemu_i) ROUNDED(return MAKE(CONV(__cuemu_i, F_, CUEMU_ROUND_RZ)); ) \
  inline H_ STEM##_rd(const T __cuemu_i) ROUNDED(return MAKE(CONV(__cuemu_i, F_, CUEMU_ROUND_RD)); ) \
  inline H_ STEM##_ru(const T __cuemu_i) ROUNDED(return MAKE(CONV(__cuemu_i, F_, CUEMU_ROUND_RU)); )

#define CUEMU_NF_DEFINE_CONVERSIONS(N, N2, H_, H2, RAW, F_, ROUNDED)           \
  inline unsigned short cuemu_nf_bits(const H_ h) {                            \
    return static_cast<RAW>(h).x;                                              \
  }                                                                            \
  inline unsigned short cuemu_nf_bits_volatile(const volatile H_ &h) {         \
    return static_cast<RAW>(h).x;                                              \
  }                                                                            \
  inline H_ cuemu_##N##_from_bits(unsigned __cuemu_bits) {                             \
    RAW __cuemu_r;                                                                     \
    __cuemu_r.x = static_cast<unsigned short>(__cuemu_bits);                                   \
    return H_(__cuemu_r);                                                              \
  }                                                                            \
  inline short int __##N##_as_short(const H_ h) {                              \
    return static_cast<short int>(cuemu_nf_bits(h));                           \
  }                                                                            \
  inline unsigned short int __##N##_as_ushort(const H_ h) {                    \
    return cuemu_nf_bits(h);                                                   \
  }                                                                            \
  inline H_ __short_as_##N(const short int __cuemu_i) {                                \
    return cuemu_##N##_from_bits(static_cast<unsigned short>(__cuemu_i));              \
  }                                                                            \
  inline H_ __ushort_as_##N(const unsigned short int __cuemu_i) {                      \
    return cuemu_##N##_from_bits(__cuemu_i);                                           \
  }                                                                            \
                                                                               \
  inline H_ __double2##N(const double a) {                                     \
    return cuemu_##N##_from_bits(cuemu_nf_from_double(a, F_, CUEMU_ROUND_RN)); \
  }                                                                            \
  inline H_ __float2##N(const float a) { return __double2##N(a); }             \
  CUEMU_NF_FROM_DOUBLE(__float2##N##_rn, H_, F_, cuemu_##N##_from_bits,        \
                       CUEMU_ROUND_RN)                                         \
  CUEMU_NF_FROM_DOUBLE(__float2##N##_rz, H_, F_, cuemu_##N##_from_bits,        \
                       CUEMU_ROUND_RZ)                                         \
  CUEMU_NF_FROM_DOUBLE(__float2##N##_rd, H_, F_, cuemu_##N##_from_bits,        \
                       CUEMU_ROUND_RD)                                         \
  CUEMU_NF_FROM_DOUBLE(__float2##N##_ru, H_, F_, cuemu_##N##_from_bits,        \
                       CUEMU_ROUND_RU)                                         \
  inline float __##N##2float(const H_ a) {                                     \
    return cuemu_nf_to_float(cuemu_nf_bits(a), F_);                            \
  }                                                                            \
  inline H2 __float2##N2##_rn(const float a) {                                 \
    return H2(__float2##N(a), __float2##N(a));                                 \
  }                                                                            \
  inline H2 __floats2##N2##_rn(const float a, const float b) {                 \
    return H2(__float2##N(a), __float2##N(b));                                 \
  }                                                                            \
  inline H2 __float22##N2##_rn(const float2 a) {                               \
    return H2(__float2##N(a.x), __float2##N(a.y));                             \
  }                                                                            \
  inline float2 __##N2##2float2(const H2 a) {                                  \
    float2 __cuemu_r;                                                                  \
    __cuemu_r.x = __##N##2float(a.x);                                                  \
    __cuemu_r.y = __##N##2float(a.y);                                                  \
    return __cuemu_r;                                                                  \
  }                                                                            \
                                                                               \
  CUEMU_NF_TO_INT(__##N##2char_rz, CUEMU_NF_HOST_BODY, H_, F_, signed char,   \
                  CUEMU_ROUND_RZ, -128.0, 127.0, 0)                            \
  CUEMU_NF_TO_INT(__##N##2uchar_rz, CUEMU_NF_HOST_BODY, H_, F_, unsigned char, \
                  CUEMU_ROUND_RZ, 0.0, 255.0, 0)                               \
  CUEMU_NF_TO_INT4(__##N##2short, H_, F_, short int, -32768.0, 32767.0, 0)     \
  CUEMU_NF_TO_INT4(__##N##2ushort, H_, F_, unsigned short int, 0.0, 65535.0, 0) \
  CUEMU_NF_TO_INT4(__##N##2int, H_, F_, int, -2147483648.0, 2147483647.0, 0)   \
  CUEMU_NF_TO_INT4(__##N##2uint, H_, F_, unsigned int, 0.0, 4294967295.0, 0)   \
  CUEMU_NF_TO_INT4(__##N##2ll, H_, F_, long long int, -9223372036854775808.0,  \
                   9223372036854775807.0, INT64_MIN)                           \
  CUEMU_NF_TO_ULL(__##N##2ull_rn, CUEMU_NF_DEVICE_ONLY_BODY, H_, F_, CUEMU_ROUND_RN) \
  CUEMU_NF_TO_ULL(__##N##2ull_rz, CUEMU_NF_HOST_BODY, H_, F_, CUEMU_ROUND_RZ) \
  CUEMU_NF_TO_ULL(__##N##2ull_rd, CUEMU_NF_DEVICE_ONLY_BODY, H_, F_, CUEMU_ROUND_RD) \
  CUEMU_NF_TO_ULL(__##N##2ull_ru, CUEMU_NF_DEVICE_ONLY_BODY, H_, F_, CUEMU_ROUND_RU) \
  CUEMU_NF_FROM_INT(__short2##N, ROUNDED, H_, F_, cuemu_##N##_from_bits, short int,     \
                    cuemu_nf_from_ll)                                          \
  CUEMU_NF_FROM_INT(__ushort2##N, ROUNDED, H_, F_, cuemu_##N##_from_bits,               \
                    unsigned short int, cuemu_nf_from_ll)                      \
  CUEMU_NF_FROM_INT(__int2##N, ROUNDED, H_, F_, cuemu_##N##_from_bits, int,             \
                    cuemu_nf_from_ll)                                          \
  CUEMU_NF_FROM_INT(__uint2##N, ROUNDED, H_, F_, cuemu_##N##_from_bits, unsigned int,   \
                    cuemu_nf_from_ll)                                          \
  CUEMU_NF_FROM_INT(__ll2##N, ROUNDED, H_, F_, cuemu_##N##_from_bits, long long int,    \
                    cuemu_nf_from_ll)                                          \
  CUEMU_NF_FROM_INT(__ull2##N, ROUNDED, H_, F_, cuemu_##N##_from_bits,                  \
                    unsigned long long int, CUEMU_NF_FROM_ULL)                 \
                                                                               \
  inline H2 make_##N2(const H_ x, const H_ y) { return H2(x, y); }             \
  inline H2 __##N##2##N2(const H_ a) { return H2(a, a); }                      \
  inline H2 __halves2##N2(const H_ a, const H_ b) { return H2(a, b); }         \
  inline H_ __low2##N(const H2 a) { return a.x; }                              \
  inline H_ __high2##N(const H2 a) { return a.y; }                             \
  inline H2 __low2##N2(const H2 a) { return H2(a.x, a.x); }                    \
  inline H2 __high2##N2(const H2 a) { return H2(a.y, a.y); }                   \
  inline H2 __lows2##N2(const H2 a, const H2 b) { return H2(a.x, b.x); }       \
  inline H2 __highs2##N2(const H2 a, const H2 b) { return H2(a.y, b.y); }


#endif /* CUEMU_NARROW_FLOAT_OPS_H */
