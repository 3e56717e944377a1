/*
 * cuemu_nv_atomics.h: CUDA 12.8's built-in atomic functions
 * (__nv_atomic_fetch_add, __nv_atomic_load_n, __nv_atomic_compare_exchange,
 * __nv_atomic_thread_fence, ...) with their memory orders and thread scopes,
 * and the forms without a result (__nv_atomic_add, __nv_atomic_or, ...).
 *
 * nvcc knows these names itself (only the order and scope enumerators are
 * in crt/device_functions.h), and code chooses them with
 * `#if CUDA_VERSION >= 12080`, which cuemu's CUDA 13 headers satisfy. As the
 * atomics of cuemu_atomics.h, every operation here is a real atomic
 * operation, sequentially consistent whatever order is asked for (stronger
 * than any order, and free on x86-64); the scope is accepted and not needed,
 * since one process is one "system".
 *
 * The types are nvcc's: the _n forms of load, store, exchange and
 * compare-and-swap take integral types only, the generic forms any type of
 * 1, 2, 4, 8 or 16 bytes; add and sub take 4- and 8-byte integers (not
 * signed 8-byte ones), float and double; and, or, xor, min and max take
 * 4- and 8-byte integers only.
 * A type nvcc refuses is a compile error here too (a static_assert that
 * says which rule), and a value argument converts to the pointed-to type
 * as in nvcc (`__nv_atomic_fetch_add(unsigned_ptr, 1, ...)`).
 */
#ifndef CUEMU_NV_ATOMICS_H
#define CUEMU_NV_ATOMICS_H
/* A system header: its C++17 forms that C++14 accepts (if constexpr, inline
 * variables, fold expressions) give no warning in a C++14 build of a .cpp
 * file (docs/dialects.md). */
#pragma GCC system_header

#include <cstring>
#include <type_traits>

#include "cuemu_atomics.h"

enum {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};

enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};

namespace cuemu {
namespace nv_atomic {

/* The argument type that does not take part in deduction. */
template <typename T> struct same {
  using type = T;
};
template <typename T> using same_t = typename same<T>::type;

/* Integral in nvcc's sense, including the 128-bit integers that strict
 * -std=c++17 does not count as integral. */
template <typename T>
constexpr bool integral = std::is_integral<T>::value ||
                          std::is_same<T, __int128>::value ||
                          std::is_same<T, unsigned __int128>::value;

template <typename T>
constexpr bool arithmetic_size = sizeof(T) == 4 || sizeof(T) == 8;

template <typename T>
constexpr bool generic_size = sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 ||
                              sizeof(T) == 8 || sizeof(T) == 16;

template <typename T> inline void check_add() {
  static_assert((integral<T> || std::is_same<T, float>::value ||
                 std::is_same<T, double>::value) &&
                    arithmetic_size<T>,
                "__nv_atomic_fetch_add/sub: valid only on 4- and 8-byte integers, "
                "float and double (as in nvcc)");
  static_assert(!(integral<T> && std::is_signed<T>::value && sizeof(T) == 8),
                "__nv_atomic_fetch_add/sub: atomic operations add and sub are not "
                "valid on signed integer of size 8 (as in nvcc)");
}

template <typename T> inline void check_bits() {
  static_assert(integral<T> && arithmetic_size<T>,
                "__nv_atomic_fetch_and/or/xor/min/max: valid only on 4- and "
                "8-byte integers; min and max are not supported on floating-point "
                "types (as in nvcc)");
}

template <typename T> inline void check_integral() {
  static_assert(integral<T> && generic_size<T>,
                "non-generic nv atomic load, store, cas and exchange are valid "
                "only on integral types (as in nvcc): use the generic form");
}

template <typename T> inline void check_generic() {
  static_assert(std::is_trivially_copyable<T>::value && generic_size<T>,
                "generic nv atomic load, store, cas and exchange take a trivially "
                "copyable type of 1, 2, 4, 8 or 16 bytes");
}

/* nvcc refuses, when it compiles, a memory order or a thread scope that is
 * none of the enumerators' values, a load's release or acq_rel order and a
 * store's consume, acquire or acq_rel order. An optimised build (cuemu's
 * default) refuses them too where they are constants, as in all code that
 * nvcc compiles: each test below leaves a call of a function with the
 * `error` attribute only for a wrong constant, and the compiler names the
 * user's line it was inlined from. (nvcc also wants integer literals, which
 * C++ cannot ask of a parameter: the translation refuses the others at the
 * call, cuemu_nv_atomic_args.c.) */
void __cuemu_refused_order() __attribute__((error(
    "invalid memory order value for atomic operations (nvcc refuses it)")));
void __cuemu_refused_scope() __attribute__((error(
    "invalid thread scope value for atomic operations (nvcc refuses it)")));
void __cuemu_refused_load_order() __attribute__((error(
    "atomic load's memory order cannot be release or acq_rel (nvcc refuses it)")));
void __cuemu_refused_store_order() __attribute__((error(
    "atomic store's memory order cannot be consume, acquire or acq_rel (nvcc "
    "refuses it)")));

enum __cuemu_access_kind { __cuemu_any_access, __cuemu_load_access, __cuemu_store_access };

/* Checks the order and the scope of an operation of kind `kind`, and puts
 * the release half of its order before it. */
inline void __cuemu_check_order(int __cuemu_order, int scope, __cuemu_access_kind kind = __cuemu_any_access) {
#if CUEMU_OPTIMIZED
  if (__builtin_constant_p(__cuemu_order) &&
      (__cuemu_order < __NV_ATOMIC_RELAXED || __cuemu_order > __NV_ATOMIC_SEQ_CST))
    __cuemu_refused_order();
  if (__builtin_constant_p(scope) &&
      (scope < __NV_THREAD_SCOPE_THREAD || scope > __NV_THREAD_SCOPE_SYSTEM))
    __cuemu_refused_scope();
  if (kind == __cuemu_load_access && __builtin_constant_p(__cuemu_order) &&
      (__cuemu_order == __NV_ATOMIC_RELEASE || __cuemu_order == __NV_ATOMIC_ACQ_REL))
    __cuemu_refused_load_order();
  if (kind == __cuemu_store_access && __builtin_constant_p(__cuemu_order) &&
      (__cuemu_order == __NV_ATOMIC_CONSUME || __cuemu_order == __NV_ATOMIC_ACQUIRE ||
       __cuemu_order == __NV_ATOMIC_ACQ_REL))
    __cuemu_refused_store_order();
#endif
  /* A release, acq_rel or seq_cst store or read-modify-write publishes the
   * thread's earlier accesses, as on a GPU (st.release; fence.sc, then the
   * operation). The operations here are sequentially consistent, but a
   * release fence before them, free on x86-64, is what tells the race
   * checker (docs/checkers.md). */
  if (kind != __cuemu_load_access && __cuemu_order >= __NV_ATOMIC_RELEASE)
    __atomic_thread_fence(__ATOMIC_RELEASE);
  (void)scope;
}

/* The unsigned integer of a size, for the generic forms. */
template <unsigned N_> struct __cuemu_bits;
template <> struct __cuemu_bits<1> { using type = unsigned char; };
template <> struct __cuemu_bits<2> { using type = unsigned short; };
template <> struct __cuemu_bits<4> { using type = unsigned int; };
template <> struct __cuemu_bits<8> { using type = unsigned long long; };

/* Compare-and-swap of the bytes of *ptr: true when *ptr held *expected and
 * now holds *desired; false with the current value in *expected. */
template <typename T> CUEMU_ATOMIC_INLINE bool cas(T *ptr, T *__cuemu_expected, const T *desired) {
  if constexpr (sizeof(T) == 16) {
    unsigned char seen[16];
    cuemu_atomic_cas128(ptr, __cuemu_expected, desired, seen);
    const bool swapped = std::memcmp(seen, __cuemu_expected, 16) == 0;
    std::memcpy(__cuemu_expected, seen, 16);
    return swapped;
  } else {
    using U = typename __cuemu_bits<sizeof(T)>::type;
    U e, d;
    std::memcpy(&e, __cuemu_expected, sizeof e);
    std::memcpy(&d, desired, sizeof d);
    const bool swapped = __atomic_compare_exchange_n(
        reinterpret_cast<U *>(ptr), &e, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    std::memcpy(__cuemu_expected, &e, sizeof e);
    return swapped;
  }
}

template <typename T> CUEMU_ATOMIC_INLINE void load(T *ptr, T *ret) {
  if constexpr (sizeof(T) == 16) {
    /* A compare-and-swap of zero with zero reads the 16 bytes atomically and
     * writes back only the zero that is there. */
    unsigned char zero[16] = {0};
    cuemu_atomic_cas128(ptr, zero, zero, ret);
  } else {
    using U = typename __cuemu_bits<sizeof(T)>::type;
    const U v = __atomic_load_n(reinterpret_cast<U *>(ptr), __ATOMIC_SEQ_CST);
    std::memcpy(ret, &v, sizeof v);
    cuemu_atomic_poll(ptr);
  }
}

/* A store writes without reading (initcheck must not see a read of memory
 * that the store initialises); 16 bytes are an exchange of cmpxchg16b. */
template <typename T> CUEMU_ATOMIC_INLINE void store(T *ptr, const T *val) {
  if constexpr (sizeof(T) == 16) {
    unsigned char old[16];
    cuemu_atomic_exch128(ptr, val, old);
  } else {
    using U = typename __cuemu_bits<sizeof(T)>::type;
    U v;
    std::memcpy(&v, val, sizeof v);
    __atomic_store_n(reinterpret_cast<U *>(ptr), v, __ATOMIC_SEQ_CST);
  }
}

template <typename T> CUEMU_ATOMIC_INLINE void exchange(T *ptr, const T *val, T *ret) {
  if constexpr (sizeof(T) == 16) {
    cuemu_atomic_exch128(ptr, val, ret);
  } else {
    using U = typename __cuemu_bits<sizeof(T)>::type;
    U v;
    std::memcpy(&v, val, sizeof v);
    const U old = __atomic_exchange_n(reinterpret_cast<U *>(ptr), v, __ATOMIC_SEQ_CST);
    std::memcpy(ret, &old, sizeof old);
  }
}

} // namespace nv_atomic
} // namespace cuemu

#ifdef CUEMU_HOST_DECLS
/* The host pass's lean prelude: declarations only (cuemu_host_decls.h). */
#include "cuemu_nv_atomics_decls.h"
#else

/* ---- Arithmetic and bitwise read-modify-write ----------------------------- */

template <typename T>
CUEMU_ATOMIC_INLINE T __nv_atomic_fetch_add(T *ptr, cuemu::nv_atomic::same_t<T> val, int __cuemu_order,
                               int scope = __NV_THREAD_SCOPE_SYSTEM) {
  cuemu::nv_atomic::check_add<T>();
  cuemu::nv_atomic::__cuemu_check_order(__cuemu_order, scope);
  if constexpr (std::is_same<T, float>::value)
    return cuemu_atomic_add_float(ptr, val);
  else if constexpr (std::is_same<T, double>::value)
    return cuemu_atomic_add_double(ptr, val);
  else
    return cuemu_atomic_fetch_add(ptr, val);
}

template <typename T>
CUEMU_ATOMIC_INLINE T __nv_atomic_fetch_sub(T *ptr, cuemu::nv_atomic::same_t<T> val, int __cuemu_order,
                               int scope = __NV_THREAD_SCOPE_SYSTEM) {
  cuemu::nv_atomic::check_add<T>();
  cuemu::nv_atomic::__cuemu_check_order(__cuemu_order, scope);
  if constexpr (std::is_floating_point<T>::value)
    return __nv_atomic_fetch_add(ptr, -val, __cuemu_order, scope);
  else
    return cuemu_atomic_fetch_sub(ptr, val);
}

#define CUEMU_NV_ATOMIC_BITS(NAME, IMPL)                                       \
  template <typename T>                                                        \
  CUEMU_ATOMIC_INLINE T NAME(T *ptr, cuemu::nv_atomic::same_t<T> val, int __cuemu_order, \
                int scope = __NV_THREAD_SCOPE_SYSTEM) {                        \
    cuemu::nv_atomic::check_bits<T>();                                         \
    cuemu::nv_atomic::__cuemu_check_order(__cuemu_order, scope);                      \
    return IMPL(ptr, val);                                                     \
  }

CUEMU_NV_ATOMIC_BITS(__nv_atomic_fetch_and, cuemu_atomic_fetch_and)
CUEMU_NV_ATOMIC_BITS(__nv_atomic_fetch_or, cuemu_atomic_fetch_or)
CUEMU_NV_ATOMIC_BITS(__nv_atomic_fetch_xor, cuemu_atomic_fetch_xor)
CUEMU_NV_ATOMIC_BITS(__nv_atomic_fetch_min, cuemu_atomic_fetch_min)
CUEMU_NV_ATOMIC_BITS(__nv_atomic_fetch_max, cuemu_atomic_fetch_max)

#undef CUEMU_NV_ATOMIC_BITS

/* The forms without a result (__nv_atomic_add, ..._max): the same
 * operation, its old value dropped. */
#define CUEMU_NV_ATOMIC_VOID(NAME, FETCH)                                      \
  template <typename T>                                                        \
  CUEMU_ATOMIC_INLINE void NAME(T *ptr, cuemu::nv_atomic::same_t<T> val, int __cuemu_order, \
                   int scope = __NV_THREAD_SCOPE_SYSTEM) {                     \
    (void)FETCH(ptr, val, __cuemu_order, scope);                               \
  }

CUEMU_NV_ATOMIC_VOID(__nv_atomic_add, __nv_atomic_fetch_add)
CUEMU_NV_ATOMIC_VOID(__nv_atomic_sub, __nv_atomic_fetch_sub)
CUEMU_NV_ATOMIC_VOID(__nv_atomic_and, __nv_atomic_fetch_and)
CUEMU_NV_ATOMIC_VOID(__nv_atomic_or, __nv_atomic_fetch_or)
CUEMU_NV_ATOMIC_VOID(__nv_atomic_xor, __nv_atomic_fetch_xor)
CUEMU_NV_ATOMIC_VOID(__nv_atomic_min, __nv_atomic_fetch_min)
CUEMU_NV_ATOMIC_VOID(__nv_atomic_max, __nv_atomic_fetch_max)

#undef CUEMU_NV_ATOMIC_VOID

/* ---- Load, store, exchange, compare-and-swap: the _n (value) forms --------- */

template <typename T>
CUEMU_ATOMIC_INLINE T __nv_atomic_load_n(T *ptr, int __cuemu_order, int scope = __NV_THREAD_SCOPE_SYSTEM) {
  cuemu::nv_atomic::check_integral<T>();
  cuemu::nv_atomic::__cuemu_check_order(__cuemu_order, scope, cuemu::nv_atomic::__cuemu_load_access);
  T v;
  cuemu::nv_atomic::load(ptr, &v);
  return v;
}

template <typename T>
CUEMU_ATOMIC_INLINE void __nv_atomic_store_n(T *ptr, cuemu::nv_atomic::same_t<T> val, int __cuemu_order,
                                int scope = __NV_THREAD_SCOPE_SYSTEM) {
  cuemu::nv_atomic::check_integral<T>();
  cuemu::nv_atomic::__cuemu_check_order(__cuemu_order, scope, cuemu::nv_atomic::__cuemu_store_access);
  cuemu::nv_atomic::store(ptr, &val);
}

template <typename T>
CUEMU_ATOMIC_INLINE T __nv_atomic_exchange_n(T *ptr, cuemu::nv_atomic::same_t<T> val, int __cuemu_order,
                                int scope = __NV_THREAD_SCOPE_SYSTEM) {
  cuemu::nv_atomic::check_integral<T>();
  cuemu::nv_atomic::__cuemu_check_order(__cuemu_order, scope);
  T old;
  cuemu::nv_atomic::exchange(ptr, &val, &old);
  return old;
}

template <typename T>
CUEMU_ATOMIC_INLINE bool __nv_atomic_compare_exchange_n(T *ptr, T *__cuemu_expected,
                                           cuemu::nv_atomic::same_t<T> desired, bool weak,
                                           int success_order, int failure_order,
                                           int scope = __NV_THREAD_SCOPE_SYSTEM) {
  cuemu::nv_atomic::check_integral<T>();
  /* A weak compare-and-swap may fail spuriously; this one never does. */
  (void)weak;
  cuemu::nv_atomic::__cuemu_check_order(success_order, scope);
  cuemu::nv_atomic::__cuemu_check_order(failure_order, scope);
  return cuemu::nv_atomic::cas(ptr, __cuemu_expected, &desired);
}

/* ---- The generic (pointer) forms, for any type of a supported size ------- */

template <typename T>
CUEMU_ATOMIC_INLINE void __nv_atomic_load(T *ptr, T *ret, int __cuemu_order,
                             int scope = __NV_THREAD_SCOPE_SYSTEM) {
  cuemu::nv_atomic::check_generic<T>();
  cuemu::nv_atomic::__cuemu_check_order(__cuemu_order, scope, cuemu::nv_atomic::__cuemu_load_access);
  cuemu::nv_atomic::load(ptr, ret);
}

template <typename T>
CUEMU_ATOMIC_INLINE void __nv_atomic_store(T *ptr, T *val, int __cuemu_order,
                              int scope = __NV_THREAD_SCOPE_SYSTEM) {
  cuemu::nv_atomic::check_generic<T>();
  cuemu::nv_atomic::__cuemu_check_order(__cuemu_order, scope, cuemu::nv_atomic::__cuemu_store_access);
  cuemu::nv_atomic::store(ptr, val);
}

template <typename T>
CUEMU_ATOMIC_INLINE void __nv_atomic_exchange(T *ptr, T *val, T *ret, int __cuemu_order,
                                 int scope = __NV_THREAD_SCOPE_SYSTEM) {
  cuemu::nv_atomic::check_generic<T>();
  cuemu::nv_atomic::__cuemu_check_order(__cuemu_order, scope);
  cuemu::nv_atomic::exchange(ptr, val, ret);
}

template <typename T>
CUEMU_ATOMIC_INLINE bool __nv_atomic_compare_exchange(T *ptr, T *__cuemu_expected, T *desired, bool weak,
                                         int success_order, int failure_order,
                                         int scope = __NV_THREAD_SCOPE_SYSTEM) {
  cuemu::nv_atomic::check_generic<T>();
  (void)weak;
  cuemu::nv_atomic::__cuemu_check_order(success_order, scope);
  cuemu::nv_atomic::__cuemu_check_order(failure_order, scope);
  return cuemu::nv_atomic::cas(ptr, __cuemu_expected, desired);
}

/* ---- Fence ----------------------------------------------------------------- */

CUEMU_ATOMIC_INLINE void __nv_atomic_thread_fence(int __cuemu_order, int scope = __NV_THREAD_SCOPE_SYSTEM) {
  cuemu::nv_atomic::__cuemu_check_order(__cuemu_order, scope);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

#endif /* CUEMU_HOST_DECLS */

#endif /* CUEMU_NV_ATOMICS_H */
