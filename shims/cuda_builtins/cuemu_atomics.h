/*
 * cuemu_atomics.h: CUDA's atomic functions as real atomic operations.
 *
 * Blocks run in parallel on several OS threads, so every atomic here is a
 * GCC/Clang __atomic builtin on plain memory (a compare-and-swap loop where
 * the CPU has no such instruction: floating-point adds, atomicInc/atomicDec).
 * CUDA's atomics are relaxed; these are sequentially consistent, which is
 * stronger and costs nothing extra on x86-64. The _block and _system forms
 * behave as the device-wide ones: one process is one "system" here.
 *
 * The overload sets are CUDA 13's, no more: for instance there is no
 * atomicSub for 64-bit integers and no atomicMin/atomicMax for floating
 * point, as in CUDA. The __half, __half2, __nv_bfloat16 and __nv_bfloat162
 * overloads of atomicAdd live in cuda_fp16.h and cuda_bf16.h, with their
 * types.
 */
#ifndef CUEMU_ATOMICS_H
#define CUEMU_ATOMICS_H

#ifndef __cplusplus
#error "the CUDA shims are C++ headers; compile .cu files with cuemu-cc"
#endif

#include <cstring>
#include <type_traits>

#include <cstdint>

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_warp_step.h>

#include "cuemu_bit_cast.h"
#include "cuemu_optimized.h"
#include "vector_types.h"

/* The atomics are inlined even without optimisation (-G, -g): a checker's
 * report then names the line of the user's call, which the inlined frames'
 * debugging information gives, and not a line of this header, which an
 * out-of-line copy shared by every caller would give. */
#define CUEMU_ATOMIC_INLINE __attribute__((always_inline)) inline

/* ---- Building blocks -----------------------------------------------------
 *
 * An atomic with constant operands that leaves memory as it was
 * (atomicAdd(p, 0), atomicOr(p, 0), atomicAnd(p, ~0), atomicCAS(p, 0, 0),
 * a lock's atomicCAS(p, 0, 1) that fails, a lock's atomicExch(p, 1) that
 * finds 1) tells libcuemu, which takes one repeated again and again at one
 * address for a spin on a flag or lock that another block or thread sets
 * (cuemu_atomic_poll, <cuemu/cuemu_warp_step.h>). Spins are written with
 * constants, and only those operations are tested: the test of a constant
 * operand folds away, and an atomic whose operands are computed (a
 * histogram's atomicAdd(&bin, n)) costs nothing more, and keeps being
 * inlined where it was. Without optimisation (-G) nothing is constant to
 * the compiler: every such atomic is tested. Two kinds are tested whatever
 * their operands, by a comparison of values the operation has at hand: a
 * compare-and-swap that fails or writes back what it compared (a spin lock
 * taken with a computed id, a CAS loop on a float through __float_as_int
 * whose update leaves the value as it was: atomicMax of a float flag with
 * 0); the one comparison costs the common swap nothing measurable. The
 * updates built from a compare-and-swap loop here (atomicMin, atomicMax,
 * atomicInc, atomicDec, floating-point and 16-bit adds) are tested as the
 * others are, for constant operands: atomicMax(p, 0), atomicAdd(p, 0.0f). */
/* An atomic at an address that is not a multiple of its size faults on a
 * GPU (cudaErrorMisalignedAddress); here it would be a split lock, or
 * wrong for a 16-byte compare-and-swap: the launch fails as on a GPU
 * (cuemu_kernel_misaligned, <cuemu/cuemu_device.h>). A test and a branch
 * that is never taken. */
template <size_t Bytes>
CUEMU_ATOMIC_INLINE void cuemu_atomic_aligned(const volatile void *p, const char *what) {
  if (__builtin_expect((reinterpret_cast<uintptr_t>(p) & (Bytes - 1)) != 0, 0))
    cuemu_kernel_misaligned(p, Bytes, what, nullptr, 0);
}
#define CUEMU_ATOMIC_ALIGNED(p, what) cuemu_atomic_aligned<sizeof(*(p))>(p, what)

#if CUEMU_OPTIMIZED
#define CUEMU_ATOMIC_CONSTANT(x) __builtin_constant_p(x)
#else
#define CUEMU_ATOMIC_CONSTANT(x) true
#endif

/* Under schedule perturbation, an add of a positive amount tells which
 * places of a counter this thread got (a work list's, perhaps). */
template <typename T> CUEMU_ATOMIC_INLINE T cuemu_atomic_fetch_add(T *p, T v) {
  CUEMU_ATOMIC_ALIGNED(p, "an atomic add");
  T old = __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
  if (CUEMU_ATOMIC_CONSTANT(v) && v == T(0))
    cuemu_atomic_poll(p);
  if (std::is_integral<T>::value &&
      __builtin_expect(cuemu_atomic_fadd_exact_on, 0) && v > T(0))
    cuemu_atomic_slot_note(p, static_cast<unsigned long long>(old),
                           static_cast<unsigned long long>(v));
  return old;
}
template <typename T> CUEMU_ATOMIC_INLINE T cuemu_atomic_fetch_sub(T *p, T v) {
  CUEMU_ATOMIC_ALIGNED(p, "an atomic subtraction");
  T old = __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST);
  if (CUEMU_ATOMIC_CONSTANT(v) && v == T(0))
    cuemu_atomic_poll(p);
  return old;
}
template <typename T> CUEMU_ATOMIC_INLINE T cuemu_atomic_fetch_and(T *p, T v) {
  CUEMU_ATOMIC_ALIGNED(p, "an atomic and");
  T old = __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);
  if (CUEMU_ATOMIC_CONSTANT(v) && v == T(~T(0)))
    cuemu_atomic_poll(p);
  return old;
}
template <typename T> CUEMU_ATOMIC_INLINE T cuemu_atomic_fetch_or(T *p, T v) {
  CUEMU_ATOMIC_ALIGNED(p, "an atomic or");
  T old = __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
  if (CUEMU_ATOMIC_CONSTANT(v) && v == T(0))
    cuemu_atomic_poll(p);
  return old;
}
template <typename T> CUEMU_ATOMIC_INLINE T cuemu_atomic_fetch_xor(T *p, T v) {
  CUEMU_ATOMIC_ALIGNED(p, "an atomic xor");
  T old = __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);
  if (CUEMU_ATOMIC_CONSTANT(v) && v == T(0))
    cuemu_atomic_poll(p);
  return old;
}
template <typename T> CUEMU_ATOMIC_INLINE T cuemu_atomic_exchange(T *p, T v) {
  CUEMU_ATOMIC_ALIGNED(p, "an atomic exchange");
  T old = __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
  if (CUEMU_ATOMIC_CONSTANT(v) && __builtin_expect(old == v, 0))
    cuemu_atomic_poll(p);
  return old;
}

/* Returns the old value whether or not the swap happened, as atomicCAS. */
template <typename T> CUEMU_ATOMIC_INLINE T cuemu_atomic_cas(T *p, T compare, T v) {
  CUEMU_ATOMIC_ALIGNED(p, "an atomic compare-and-swap");
  const T __cuemu_expected = compare;
  const bool swapped = __atomic_compare_exchange_n(
      p, &compare, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  if (__builtin_expect(!swapped || __cuemu_expected == v, 0))
    cuemu_atomic_poll(p);
  return compare;
}

/* Replaces *p by op(old) atomically and returns old. Used for the updates
 * that have no instruction of their own. `maybe_spin` (a constant operand,
 * so that it folds away otherwise): an update that left memory as it was
 * is then told to libcuemu, as a spin may repeat it (above). */
template <typename T, typename Op>
CUEMU_ATOMIC_INLINE T cuemu_atomic_update(T *p, Op op, bool __cuemu_maybe_spin = false) {
  CUEMU_ATOMIC_ALIGNED(p, "an atomic operation");
  T old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &old, op(old), false, __ATOMIC_SEQ_CST,
                                      __ATOMIC_RELAXED)) {
  }
  if (__cuemu_maybe_spin && __builtin_expect(op(old) == old, 0))
    cuemu_atomic_poll(p);
  return old;
}

template <typename T> CUEMU_ATOMIC_INLINE T cuemu_atomic_fetch_min(T *p, T v) {
  return cuemu_atomic_update(p, [v](T old) { return v < old ? v : old; },
                             CUEMU_ATOMIC_CONSTANT(v));
}
template <typename T> CUEMU_ATOMIC_INLINE T cuemu_atomic_fetch_max(T *p, T v) {
  return cuemu_atomic_update(p, [v](T old) { return v > old ? v : old; },
                             CUEMU_ATOMIC_CONSTANT(v));
}

/* atomicInc: ((old >= val) ? 0 : (old + 1)). */
CUEMU_ATOMIC_INLINE unsigned int cuemu_atomic_inc(unsigned int *p, unsigned int v) {
  return cuemu_atomic_update(
      p, [v](unsigned int old) { return old >= v ? 0U : old + 1U; },
      CUEMU_ATOMIC_CONSTANT(v));
}

/* atomicDec: (((old == 0) || (old > val)) ? val : (old - 1)). */
CUEMU_ATOMIC_INLINE unsigned int cuemu_atomic_dec(unsigned int *p, unsigned int v) {
  return cuemu_atomic_update(
      p, [v](unsigned int old) { return (old == 0U || old > v) ? v : old - 1U; },
      CUEMU_ATOMIC_CONSTANT(v));
}

/* Floating-point add on the bit pattern, with a compare-and-swap loop. */
template <typename F_, typename U> CUEMU_ATOMIC_INLINE F_ cuemu_atomic_fadd(F_ *p, F_ v) {
  static_assert(sizeof(F_) == sizeof(U), "bit pattern of the wrong size");
  /* Under schedule perturbation, a sum that is the same in every order
   * (an add of zero may be a spin on a flag, and stays here). */
  if (__builtin_expect(cuemu_atomic_fadd_exact_on, 0) && v != F_(0)) {
    cuemu_atomic_aligned<sizeof(F_)>(p, "an atomic add");
    F_ __cuemu_old;
    cuemu_atomic_fadd_exact(p, &v, sizeof(F_) == 4 ? 8 : 11,
                            sizeof(F_) == 4 ? 23 : 52, &__cuemu_old);
    return __cuemu_old;
  }
  U *const __cuemu_bits = reinterpret_cast<U *>(p);
  const U old = cuemu_atomic_update(
      __cuemu_bits,
      [v](U __cuemu_o) {
        return cuemu_bit_cast<U>(cuemu_bit_cast<F_>(__cuemu_o) + v);
      },
      CUEMU_ATOMIC_CONSTANT(v) && v == F_(0));
  return cuemu_bit_cast<F_>(old);
}

CUEMU_ATOMIC_INLINE float cuemu_atomic_add_float(float *p, float v) {
  return cuemu_atomic_fadd<float, unsigned int>(p, v);
}
CUEMU_ATOMIC_INLINE double cuemu_atomic_add_double(double *p, double v) {
  return cuemu_atomic_fadd<double, unsigned long long>(p, v);
}
CUEMU_ATOMIC_INLINE float cuemu_atomic_exchange_float(float *p, float v) {
  return cuemu_bit_cast<float>(cuemu_atomic_exchange(reinterpret_cast<unsigned int *>(p),
                                                     cuemu_bit_cast<unsigned int>(v)));
}

/* float2 and float4: each element is added atomically on its own, which is
 * all CUDA guarantees. */
CUEMU_ATOMIC_INLINE float2 cuemu_atomic_add_float2(float2 *p, float2 v) {
  cuemu_atomic_aligned<8>(p, "an atomic add of a float2");
  float2 __cuemu_r;
  __cuemu_r.x = cuemu_atomic_add_float(&p->x, v.x);
  __cuemu_r.y = cuemu_atomic_add_float(&p->y, v.y);
  return __cuemu_r;
}
CUEMU_ATOMIC_INLINE float4 cuemu_atomic_add_float4(float4 *p, float4 v) {
  cuemu_atomic_aligned<16>(p, "an atomic add of a float4");
  float4 __cuemu_r;
  __cuemu_r.x = cuemu_atomic_add_float(&p->x, v.x);
  __cuemu_r.y = cuemu_atomic_add_float(&p->y, v.y);
  __cuemu_r.z = cuemu_atomic_add_float(&p->z, v.z);
  __cuemu_r.w = cuemu_atomic_add_float(&p->w, v.w);
  return __cuemu_r;
}

/* 128-bit compare-and-swap of the sm_90 templates. On x86-64 it is the
 * cmpxchg16b instruction, which every x86-64 CPU of the last fifteen years
 * has; elsewhere the __atomic builtin (which may need libatomic). */
CUEMU_ATOMIC_INLINE void cuemu_atomic_cas128(void *address, const void *compare, const void *val,
                                void *old) {
  cuemu_atomic_aligned<16>(address, "a 16-byte atomic compare-and-swap");
#if defined(__x86_64__)
  unsigned long long cmp[2], nv[2];
  std::memcpy(cmp, compare, 16);
  std::memcpy(nv, val, 16);
  unsigned long long lo = cmp[0], hi = cmp[1];
  __asm__ __volatile__("lock cmpxchg16b %0"
                       : "+m"(*static_cast<volatile unsigned __int128 *>(address)),
                         "+a"(lo), "+d"(hi)
                       : "b"(nv[0]), "c"(nv[1])
                       : "memory", "cc");
  const unsigned long long __cuemu_out[2] = {lo, hi};
  std::memcpy(old, __cuemu_out, 16);
#else
  unsigned __int128 __cuemu_expected, desired;
  std::memcpy(&__cuemu_expected, compare, 16);
  std::memcpy(&desired, val, 16);
  __atomic_compare_exchange(static_cast<unsigned __int128 *>(address), &__cuemu_expected,
                            &desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  std::memcpy(old, &__cuemu_expected, 16);
#endif
}

CUEMU_ATOMIC_INLINE void cuemu_atomic_exch128(void *address, const void *val, void *old) {
  /* A first guess of zero; a failed CAS tells the current value. */
  unsigned char __cuemu_expected[16] = {0}, seen[16];
  for (;;) {
    cuemu_atomic_cas128(address, __cuemu_expected, val, seen);
    if (std::memcmp(seen, __cuemu_expected, 16) == 0)
      break;
    std::memcpy(__cuemu_expected, seen, 16);
  }
  std::memcpy(old, seen, 16);
}

template <typename T>
using cuemu_atomic128_t =
    typename std::enable_if<sizeof(T) == 16 && alignof(T) >= 16 &&
                                std::is_trivially_copyable<T>::value,
                            T>::type;

/* The result of a 16-byte compare-and-swap or exchange (below). */
template <typename T> union cuemu_atomic128_result {
  T value;
  unsigned char bytes[16];
  cuemu_atomic128_result() {}
};

#ifdef CUEMU_HOST_DECLS
/* The host pass's lean prelude: declarations only (cuemu_host_decls.h). */
#include "cuemu_atomics_decls.h"
#else

/* ---- CUDA's names ---------------------------------------------------------
 *
 * Each line defines NAME, NAME_block and NAME_system. */

#define CUEMU_ATOMIC2(NAME, T, IMPL)                                           \
  CUEMU_ATOMIC_INLINE T NAME(T *address, T val) { return IMPL(address, val); } \
  CUEMU_ATOMIC_INLINE T NAME##_block(T *address, T val) {                      \
    return IMPL(address, val);                                                 \
  }                                                                            \
  CUEMU_ATOMIC_INLINE T NAME##_system(T *address, T val) {                     \
    return IMPL(address, val);                                                 \
  }

CUEMU_ATOMIC2(atomicAdd, int, cuemu_atomic_fetch_add)
CUEMU_ATOMIC2(atomicAdd, unsigned int, cuemu_atomic_fetch_add)
CUEMU_ATOMIC2(atomicAdd, unsigned long long int, cuemu_atomic_fetch_add)
CUEMU_ATOMIC2(atomicAdd, float, cuemu_atomic_add_float)
CUEMU_ATOMIC2(atomicAdd, double, cuemu_atomic_add_double)
CUEMU_ATOMIC2(atomicAdd, float2, cuemu_atomic_add_float2)
CUEMU_ATOMIC2(atomicAdd, float4, cuemu_atomic_add_float4)

CUEMU_ATOMIC2(atomicSub, int, cuemu_atomic_fetch_sub)
CUEMU_ATOMIC2(atomicSub, unsigned int, cuemu_atomic_fetch_sub)

CUEMU_ATOMIC2(atomicExch, int, cuemu_atomic_exchange)
CUEMU_ATOMIC2(atomicExch, unsigned int, cuemu_atomic_exchange)
CUEMU_ATOMIC2(atomicExch, unsigned long long int, cuemu_atomic_exchange)
CUEMU_ATOMIC2(atomicExch, float, cuemu_atomic_exchange_float)

CUEMU_ATOMIC2(atomicMin, int, cuemu_atomic_fetch_min)
CUEMU_ATOMIC2(atomicMin, unsigned int, cuemu_atomic_fetch_min)
CUEMU_ATOMIC2(atomicMin, long long int, cuemu_atomic_fetch_min)
CUEMU_ATOMIC2(atomicMin, unsigned long long int, cuemu_atomic_fetch_min)
CUEMU_ATOMIC2(atomicMax, int, cuemu_atomic_fetch_max)
CUEMU_ATOMIC2(atomicMax, unsigned int, cuemu_atomic_fetch_max)
CUEMU_ATOMIC2(atomicMax, long long int, cuemu_atomic_fetch_max)
CUEMU_ATOMIC2(atomicMax, unsigned long long int, cuemu_atomic_fetch_max)

CUEMU_ATOMIC2(atomicInc, unsigned int, cuemu_atomic_inc)
CUEMU_ATOMIC2(atomicDec, unsigned int, cuemu_atomic_dec)

CUEMU_ATOMIC2(atomicAnd, int, cuemu_atomic_fetch_and)
CUEMU_ATOMIC2(atomicAnd, unsigned int, cuemu_atomic_fetch_and)
CUEMU_ATOMIC2(atomicAnd, long long int, cuemu_atomic_fetch_and)
CUEMU_ATOMIC2(atomicAnd, unsigned long long int, cuemu_atomic_fetch_and)
CUEMU_ATOMIC2(atomicOr, int, cuemu_atomic_fetch_or)
CUEMU_ATOMIC2(atomicOr, unsigned int, cuemu_atomic_fetch_or)
CUEMU_ATOMIC2(atomicOr, long long int, cuemu_atomic_fetch_or)
CUEMU_ATOMIC2(atomicOr, unsigned long long int, cuemu_atomic_fetch_or)
CUEMU_ATOMIC2(atomicXor, int, cuemu_atomic_fetch_xor)
CUEMU_ATOMIC2(atomicXor, unsigned int, cuemu_atomic_fetch_xor)
CUEMU_ATOMIC2(atomicXor, long long int, cuemu_atomic_fetch_xor)
CUEMU_ATOMIC2(atomicXor, unsigned long long int, cuemu_atomic_fetch_xor)

#undef CUEMU_ATOMIC2

#define CUEMU_ATOMIC_CAS(T)                                                    \
  CUEMU_ATOMIC_INLINE T atomicCAS(T *address, T compare, T val) {              \
    return cuemu_atomic_cas(address, compare, val);                            \
  }                                                                            \
  CUEMU_ATOMIC_INLINE T atomicCAS_block(T *address, T compare, T val) {        \
    return cuemu_atomic_cas(address, compare, val);                            \
  }                                                                            \
  CUEMU_ATOMIC_INLINE T atomicCAS_system(T *address, T compare, T val) {       \
    return cuemu_atomic_cas(address, compare, val);                            \
  }

CUEMU_ATOMIC_CAS(int)
CUEMU_ATOMIC_CAS(unsigned int)
CUEMU_ATOMIC_CAS(unsigned long long int)

#undef CUEMU_ATOMIC_CAS

/* CUDA has only the device-wide form of the 16-bit compare-and-swap. */
CUEMU_ATOMIC_INLINE unsigned short int atomicCAS(unsigned short int *address,
                                    unsigned short int compare,
                                    unsigned short int val) {
  return cuemu_atomic_cas(address, compare, val);
}

/* The sm_90 templates for any trivially copyable 16-byte type aligned to 16
 * bytes. */
template <typename T>
CUEMU_ATOMIC_INLINE cuemu_atomic128_t<T> atomicCAS(T *address, T compare, T val) {
  cuemu_atomic128_result<T> old;
  cuemu_atomic_cas128(address, &compare, &val, &old.value);
  return old.value;
}
template <typename T>
CUEMU_ATOMIC_INLINE cuemu_atomic128_t<T> atomicCAS_block(T *address, T compare, T val) {
  return atomicCAS(address, compare, val);
}
template <typename T>
CUEMU_ATOMIC_INLINE cuemu_atomic128_t<T> atomicCAS_system(T *address, T compare, T val) {
  return atomicCAS(address, compare, val);
}
template <typename T> CUEMU_ATOMIC_INLINE cuemu_atomic128_t<T> atomicExch(T *address, T val) {
  cuemu_atomic128_result<T> old;
  cuemu_atomic_exch128(address, &val, &old.value);
  return old.value;
}
template <typename T>
CUEMU_ATOMIC_INLINE cuemu_atomic128_t<T> atomicExch_block(T *address, T val) {
  return atomicExch(address, val);
}
template <typename T>
CUEMU_ATOMIC_INLINE cuemu_atomic128_t<T> atomicExch_system(T *address, T val) {
  return atomicExch(address, val);
}

#endif /* CUEMU_HOST_DECLS */

#endif /* CUEMU_ATOMICS_H */
