/*
 * cuemu_warp.h: the warp intrinsics: shuffles (__shfl_sync, __shfl_up_sync,
 * __shfl_down_sync, __shfl_xor_sync), votes (__ballot_sync, __all_sync,
 * __any_sync, __uni_sync, __activemask), matching (__match_any_sync,
 * __match_all_sync), reductions (__reduce_*_sync) and __syncwarp, with
 * CUDA's signatures and overload sets.
 *
 * Each intrinsic is a rendezvous of the lanes named in its mask, done by
 * libcuemu's cuemu_warp_collective() (see cuemu_device.h; called through
 * cuemu_warp_call(), cuemu_warp_call.h), which computes the
 * result as PTX's shfl.sync, vote.sync, match.sync and redux.sync do and
 * reports misuse (a caller outside its mask, a mask naming an exited, absent
 * or elsewhere waiting lane) as a launch error. Each call passes its CUDA
 * name and its call site, taken with __builtin_FILE/__builtin_LINE in
 * default arguments after CUDA's own parameters, so that reports can name
 * them.
 *
 * Operands travel as 64-bit unsigned values: a value is copied bit for bit
 * into the low bytes of a zeroed 64-bit word and back, so that 32-bit types
 * fill its low 32 bits and 64-bit types all of it. The runtime never
 * interprets a shuffle's payload; matching compares bits, as the GPU does
 * (so 0.0f and -0.0f differ and a NaN matches the same NaN).
 *
 * The pre-CUDA 9 forms without a mask (__shfl, __shfl_up, __shfl_down,
 * __shfl_xor, __ballot, __all, __any) are rejected at compile time, with a
 * message naming the _sync form, whatever their arguments. nvcc 13 does the
 * same for -arch=sm_90 in its own way: __shfl, __shfl_up, __shfl_down and
 * __shfl_xor are undefined identifiers there ("error: identifier "__shfl"
 * is undefined"), and __ballot, __all and __any give warning #1444-D
 * ("__ballot() is not valid on compute_70 and above, and should be replaced
 * with __ballot_sync()...") before ptxas fails with "Instruction 'vote'
 * without '.sync' is not supported on .target sm_70 and higher".
 *
 * cuda_fp16.h and cuda_bf16.h add the __half, __half2, __nv_bfloat16 and
 * __nv_bfloat162 shuffles with CUEMU_WARP_DEFINE_SHUFFLES below.
 */
#ifndef CUEMU_WARP_H
#define CUEMU_WARP_H

#include <cstring>
#include <type_traits>

#include <cuemu/cuemu_device.h>

#include "cuemu_bit_cast.h"
#include "cuemu_builtin_vars.h"
#include "cuemu_warp_call.h"

/* ---- Operands as 64-bit words -------------------------------------------- */

/* The bits of `value` in the low bytes of a zeroed 64-bit word. */
template <typename T>
inline unsigned long long cuemu_warp_bits(const T &value) {
  static_assert(std::is_trivially_copyable<T>::value &&
                    sizeof(T) <= sizeof(unsigned long long),
                "a warp operand is a trivially copyable type of up to 8 bytes");
  return cuemu_bits_word(value);
}

/* The value of type T held in the low bytes of `bits` (cuemu_bit_cast.h:
 * no memory access that a checked build would see). */
template <typename T> inline T cuemu_warp_value(unsigned long long __cuemu_bits) {
  return cuemu_word_value<T>(__cuemu_bits);
}

/* A shuffle (op is one of CUEMU_WARP_SHFL_*) of a value of any type up to
 * 64 bits. */
template <typename T>
inline T cuemu_warp_shuffle(int op, unsigned mask, const T &var, int arg,
                            int width, const char *name, const char *file,
                            int line) {
  return cuemu_warp_value<T>(cuemu_warp_call(
      op, mask, cuemu_warp_bits(var), arg, width, name, file, line));
}

/* ---- Shuffles ------------------------------------------------------------ */

/* Defines the four shuffles of type T with CUDA's parameters: srcLane and
 * laneMask are int, delta is unsigned int, width defaults to warpSize. The
 * shuffles of CUDA's 16-bit floating-point types use it too. */
#define CUEMU_WARP_DEFINE_SHUFFLES(T)                                          \
  inline T __shfl_sync(unsigned mask, T var, int srcLane,                      \
                       int width = warpSize,                                   \
                       const char *cuemu_file = __builtin_FILE(),              \
                       int cuemu_line = __builtin_LINE()) {                    \
    return cuemu_warp_shuffle<T>(CUEMU_WARP_SHFL_IDX, mask, var, srcLane,      \
                                 width, "__shfl_sync", cuemu_file,             \
                                 cuemu_line);                                  \
  }                                                                            \
  inline T __shfl_up_sync(unsigned mask, T var, unsigned int delta,            \
                          int width = warpSize,                                \
                          const char *cuemu_file = __builtin_FILE(),           \
                          int cuemu_line = __builtin_LINE()) {                 \
    return cuemu_warp_shuffle<T>(CUEMU_WARP_SHFL_UP, mask, var,                \
                                 static_cast<int>(delta), width,               \
                                 "__shfl_up_sync", cuemu_file, cuemu_line);    \
  }                                                                            \
  inline T __shfl_down_sync(unsigned mask, T var, unsigned int delta,          \
                            int width = warpSize,                              \
                            const char *cuemu_file = __builtin_FILE(),         \
                            int cuemu_line = __builtin_LINE()) {               \
    return cuemu_warp_shuffle<T>(CUEMU_WARP_SHFL_DOWN, mask, var,              \
                                 static_cast<int>(delta), width,               \
                                 "__shfl_down_sync", cuemu_file, cuemu_line);  \
  }                                                                            \
  inline T __shfl_xor_sync(unsigned mask, T var, int laneMask,                 \
                           int width = warpSize,                               \
                           const char *cuemu_file = __builtin_FILE(),          \
                           int cuemu_line = __builtin_LINE()) {                \
    return cuemu_warp_shuffle<T>(CUEMU_WARP_SHFL_XOR, mask, var, laneMask,     \
                                 width, "__shfl_xor_sync", cuemu_file,         \
                                 cuemu_line);                                  \
  }

/* What a call of a pre-Volta warp function asserts (below). */
template <typename... A_> struct cuemu_warp_legacy_call {
  static constexpr bool allowed = false;
};

#ifdef CUEMU_HOST_DECLS
/* The host pass's lean prelude: declarations only (cuemu_host_decls.h). */
#include "cuemu_warp_decls.h"
#else

CUEMU_WARP_DEFINE_SHUFFLES(int)
CUEMU_WARP_DEFINE_SHUFFLES(unsigned int)
CUEMU_WARP_DEFINE_SHUFFLES(long)
CUEMU_WARP_DEFINE_SHUFFLES(unsigned long)
CUEMU_WARP_DEFINE_SHUFFLES(long long)
CUEMU_WARP_DEFINE_SHUFFLES(unsigned long long)
CUEMU_WARP_DEFINE_SHUFFLES(float)
CUEMU_WARP_DEFINE_SHUFFLES(double)

/* ---- Votes and masks ----------------------------------------------------- */

inline unsigned __ballot_sync(unsigned mask, int pred,
                              const char *cuemu_file = __builtin_FILE(),
                              int cuemu_line = __builtin_LINE()) {
  return static_cast<unsigned>(
      cuemu_warp_call(CUEMU_WARP_BALLOT, mask, pred != 0, 0, 32,
                            "__ballot_sync", cuemu_file, cuemu_line));
}

inline int __all_sync(unsigned mask, int pred,
                      const char *cuemu_file = __builtin_FILE(),
                      int cuemu_line = __builtin_LINE()) {
  return static_cast<int>(cuemu_warp_call(CUEMU_WARP_ALL, mask, pred != 0,
                                                0, 32, "__all_sync", cuemu_file,
                                                cuemu_line));
}

inline int __any_sync(unsigned mask, int pred,
                      const char *cuemu_file = __builtin_FILE(),
                      int cuemu_line = __builtin_LINE()) {
  return static_cast<int>(cuemu_warp_call(CUEMU_WARP_ANY, mask, pred != 0,
                                                0, 32, "__any_sync", cuemu_file,
                                                cuemu_line));
}

inline int __uni_sync(unsigned mask, int pred,
                      const char *cuemu_file = __builtin_FILE(),
                      int cuemu_line = __builtin_LINE()) {
  return static_cast<int>(cuemu_warp_call(CUEMU_WARP_UNI, mask, pred != 0,
                                                0, 32, "__uni_sync", cuemu_file,
                                                cuemu_line));
}

/* The lanes of the warp that reach this call together (see
 * cuemu_warp_active_mask()). */
inline unsigned __activemask(const char *cuemu_file = __builtin_FILE(),
                             int cuemu_line = __builtin_LINE()) {
  return cuemu_warp_active_mask(cuemu_file, cuemu_line);
}

/* ---- Matching --------------------------------------------------------------
 *
 * __match_all_sync returns the mask when every lane of it holds the same
 * value, else 0, and sets *pred to whether they do. */

#define CUEMU_WARP_DEFINE_MATCH(T)                                             \
  inline unsigned int __match_any_sync(                                        \
      unsigned mask, T value, const char *cuemu_file = __builtin_FILE(),       \
      int cuemu_line = __builtin_LINE()) {                                     \
    return static_cast<unsigned int>(cuemu_warp_call(                          \
        CUEMU_WARP_MATCH_ANY, mask, cuemu_warp_bits(value), 0, 32,             \
        "__match_any_sync", cuemu_file, cuemu_line));                          \
  }                                                                            \
  inline unsigned int __match_all_sync(unsigned mask, T value, int *pred,      \
                                       const char *cuemu_file =                \
                                           __builtin_FILE(),                   \
                                       int cuemu_line = __builtin_LINE()) {    \
    unsigned int __cuemu_r = static_cast<unsigned int>(cuemu_warp_call(                \
        CUEMU_WARP_MATCH_ALL, mask, cuemu_warp_bits(value), 0, 32,             \
        "__match_all_sync", cuemu_file, cuemu_line));                          \
    *pred = __cuemu_r != 0;                                                            \
    return __cuemu_r;                                                                  \
  }

CUEMU_WARP_DEFINE_MATCH(unsigned int)
CUEMU_WARP_DEFINE_MATCH(int)
CUEMU_WARP_DEFINE_MATCH(unsigned long)
CUEMU_WARP_DEFINE_MATCH(long)
CUEMU_WARP_DEFINE_MATCH(unsigned long long)
CUEMU_WARP_DEFINE_MATCH(long long)
CUEMU_WARP_DEFINE_MATCH(float)
CUEMU_WARP_DEFINE_MATCH(double)
#undef CUEMU_WARP_DEFINE_MATCH

/* ---- Reductions ------------------------------------------------------------
 *
 * add, min and max for unsigned and int (min and max compare as the
 * operand's type); and, or and xor for unsigned only, as in CUDA. */

#define CUEMU_WARP_DEFINE_REDUCE(NAME, T, OP)                                  \
  inline T NAME(unsigned mask, T value,                                        \
                const char *cuemu_file = __builtin_FILE(),                     \
                int cuemu_line = __builtin_LINE()) {                           \
    return cuemu_warp_value<T>(                                                \
        cuemu_warp_call(OP, mask, cuemu_warp_bits(value), 0, 32, #NAME,        \
                              cuemu_file, cuemu_line));                        \
  }

CUEMU_WARP_DEFINE_REDUCE(__reduce_add_sync, unsigned, CUEMU_WARP_REDUCE_ADD)
CUEMU_WARP_DEFINE_REDUCE(__reduce_min_sync, unsigned, CUEMU_WARP_REDUCE_MIN_U)
CUEMU_WARP_DEFINE_REDUCE(__reduce_max_sync, unsigned, CUEMU_WARP_REDUCE_MAX_U)
CUEMU_WARP_DEFINE_REDUCE(__reduce_add_sync, int, CUEMU_WARP_REDUCE_ADD)
CUEMU_WARP_DEFINE_REDUCE(__reduce_min_sync, int, CUEMU_WARP_REDUCE_MIN_S)
CUEMU_WARP_DEFINE_REDUCE(__reduce_max_sync, int, CUEMU_WARP_REDUCE_MAX_S)
CUEMU_WARP_DEFINE_REDUCE(__reduce_and_sync, unsigned, CUEMU_WARP_REDUCE_AND)
CUEMU_WARP_DEFINE_REDUCE(__reduce_or_sync, unsigned, CUEMU_WARP_REDUCE_OR)
CUEMU_WARP_DEFINE_REDUCE(__reduce_xor_sync, unsigned, CUEMU_WARP_REDUCE_XOR)
#undef CUEMU_WARP_DEFINE_REDUCE

/* ---- __syncwarp ---------------------------------------------------------- */

inline void __syncwarp(unsigned mask = 0xffffffff,
                       const char *cuemu_file = __builtin_FILE(),
                       int cuemu_line = __builtin_LINE()) {
  cuemu_warp_call(CUEMU_WARP_SYNC, mask, 0, 0, 32, "__syncwarp",
                        cuemu_file, cuemu_line);
}

/* ---- The legacy forms without a mask -------------------------------------
 *
 * Each is a function template taking any arguments whose body fails a
 * static_assert that depends on them, so that only a call is an error, and
 * its message names the replacement. The result has the type of the first
 * argument, so that the assertion is the only error a call gives. */

#define CUEMU_WARP_DEFINE_LEGACY(NAME, MESSAGE)                                \
  template <typename T, typename... A_>                                        \
  inline T NAME(const T &var, const A_ &...) {                                 \
    static_assert(cuemu_warp_legacy_call<T, A_...>::allowed, MESSAGE);         \
    return var;                                                                \
  }                                                                            \
  template <typename... A_> inline int NAME() {                                \
    static_assert(cuemu_warp_legacy_call<A_...>::allowed, MESSAGE);            \
    return 0;                                                                  \
  }

CUEMU_WARP_DEFINE_LEGACY(__shfl,
                         "__shfl() is not valid on compute_70 and above; use "
                         "__shfl_sync(mask, var, srcLane, width)")
CUEMU_WARP_DEFINE_LEGACY(__shfl_up,
                         "__shfl_up() is not valid on compute_70 and above; "
                         "use __shfl_up_sync(mask, var, delta, width)")
CUEMU_WARP_DEFINE_LEGACY(__shfl_down,
                         "__shfl_down() is not valid on compute_70 and "
                         "above; use __shfl_down_sync(mask, var, delta, "
                         "width)")
CUEMU_WARP_DEFINE_LEGACY(__shfl_xor,
                         "__shfl_xor() is not valid on compute_70 and above; "
                         "use __shfl_xor_sync(mask, var, laneMask, width)")
CUEMU_WARP_DEFINE_LEGACY(__ballot,
                         "__ballot() is not valid on compute_70 and above; "
                         "use __ballot_sync(mask, predicate)")
CUEMU_WARP_DEFINE_LEGACY(__all, "__all() is not valid on compute_70 and "
                                "above; use __all_sync(mask, predicate)")
CUEMU_WARP_DEFINE_LEGACY(__any, "__any() is not valid on compute_70 and "
                                "above; use __any_sync(mask, predicate)")
#undef CUEMU_WARP_DEFINE_LEGACY

#endif /* CUEMU_HOST_DECLS */

#endif /* CUEMU_WARP_H */
