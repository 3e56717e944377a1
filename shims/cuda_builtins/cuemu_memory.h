/*
 * cuemu_memory.h: CUDA's cache-hinted loads and stores and memory fences.
 *
 * On a CPU the cache hints mean nothing, so __ldg, __ldcg, __ldca, __ldcs,
 * __ldlu and __stwb, __stcg, __stcs, __stwt are plain loads and stores, with
 * CUDA's overload sets (the scalar types and the vector types of
 * vector_types.h; the __half and __nv_bfloat16 overloads are in cuda_fp16.h
 * and cuda_bf16.h). __ldcv ("fetch again") reloads from memory on every call,
 * so a loop polling a flag with it terminates.
 *
 * The fences are sequentially consistent fences, which is at least as strong
 * as each of CUDA's scopes.
 *
 * The address-space predicates (__isGlobal, __isShared, ...) are in
 * cuemu_address_space.h. Not provided: __prefetch_global_L1/L2, which CUDA
 * has as PTX only, not as C++ functions.
 */
#ifndef CUEMU_MEMORY_H
#define CUEMU_MEMORY_H

#ifndef __cplusplus
#error "the CUDA shims are C++ headers; compile .cu files with cuemu-cc"
#endif

#include "vector_types.h"

/* Keeps the compiler from reusing a value loaded before this point. */
#define CUEMU_COMPILER_BARRIER() __asm__ __volatile__("" ::: "memory")

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <cuemu/cuemu_device.h>

/* A vector type aligned to 8 or 16 bytes (float2, int4, double2...) is
 * loaded and stored with one vector instruction on a GPU, which faults at
 * an address that is not a multiple of its alignment
 * (cudaErrorMisalignedAddress). The GCC plugin's alignment pass tests
 * such accesses in the user's code, not in the shims, so the hinted loads
 * and stores test their address themselves (with clang++ too): an AND and
 * a branch that is never taken; nothing for the scalar overloads. */
/* `align` is alignof(T) for a class type T (0 for a scalar): a plain
 * function, not a template, so that the hinted loads and stores (plain
 * inline functions) instantiate nothing at the end of every unit; the
 * constant `align` folds away as the template's test did. */
inline void cuemu_hint_aligned(const volatile void *ptr, std::size_t align,
                               std::size_t size, const char *what) {
  if (align >= 8) { /* constant */
    if (__builtin_expect(
            (reinterpret_cast<std::uintptr_t>(ptr) & (align - 1)) != 0, 0))
      cuemu_kernel_misaligned_object(ptr, size, align, what, nullptr, 0);
  }
}
#define CUEMU_HINT_ALIGN(T) (std::is_class<T>::value ? alignof(T) : 0)
#define CUEMU_HINT_LOAD(T, ptr)                                                \
  (cuemu_hint_aligned(ptr, CUEMU_HINT_ALIGN(T), sizeof(T),                     \
                      "a cache-hinted " #T " load"),                           \
   *(ptr))
#define CUEMU_HINT_STORE(T, ptr, value)                                        \
  (cuemu_hint_aligned(ptr, CUEMU_HINT_ALIGN(T), sizeof(T),                     \
                      "a cache-hinted " #T " store"),                          \
   (void)(*(ptr) = (value)))

#ifdef CUEMU_HOST_DECLS
/* The host pass's lean prelude: declarations only (cuemu_host_decls.h). */
#include "cuemu_memory_decls.h"
#else

#define CUEMU_CACHE_HINTS(T)                                                   \
  inline T __ldg(const T *ptr) { return CUEMU_HINT_LOAD(T, ptr); }             \
  inline T __ldcg(const T *ptr) { return CUEMU_HINT_LOAD(T, ptr); }            \
  inline T __ldca(const T *ptr) { return CUEMU_HINT_LOAD(T, ptr); }            \
  inline T __ldcs(const T *ptr) { return CUEMU_HINT_LOAD(T, ptr); }            \
  inline T __ldlu(const T *ptr) { return CUEMU_HINT_LOAD(T, ptr); }            \
  inline T __ldcv(const T *ptr) {                                              \
    CUEMU_COMPILER_BARRIER();                                                  \
    return CUEMU_HINT_LOAD(T, ptr);                                            \
  }                                                                            \
  inline void __stwb(T *ptr, T value) { CUEMU_HINT_STORE(T, ptr, value); }     \
  inline void __stcg(T *ptr, T value) { CUEMU_HINT_STORE(T, ptr, value); }     \
  inline void __stcs(T *ptr, T value) { CUEMU_HINT_STORE(T, ptr, value); }     \
  inline void __stwt(T *ptr, T value) {                                        \
    CUEMU_HINT_STORE(T, ptr, value);                                           \
    CUEMU_COMPILER_BARRIER();                                                  \
  }

CUEMU_CACHE_HINTS(char)
CUEMU_CACHE_HINTS(signed char)
CUEMU_CACHE_HINTS(unsigned char)
CUEMU_CACHE_HINTS(short)
CUEMU_CACHE_HINTS(unsigned short)
CUEMU_CACHE_HINTS(int)
CUEMU_CACHE_HINTS(unsigned int)
CUEMU_CACHE_HINTS(long)
CUEMU_CACHE_HINTS(unsigned long)
CUEMU_CACHE_HINTS(long long)
CUEMU_CACHE_HINTS(unsigned long long)
CUEMU_CACHE_HINTS(float)
CUEMU_CACHE_HINTS(double)
CUEMU_CACHE_HINTS(char2)
CUEMU_CACHE_HINTS(char4)
CUEMU_CACHE_HINTS(uchar2)
CUEMU_CACHE_HINTS(uchar4)
CUEMU_CACHE_HINTS(short2)
CUEMU_CACHE_HINTS(short4)
CUEMU_CACHE_HINTS(ushort2)
CUEMU_CACHE_HINTS(ushort4)
CUEMU_CACHE_HINTS(int2)
CUEMU_CACHE_HINTS(int4)
CUEMU_CACHE_HINTS(uint2)
CUEMU_CACHE_HINTS(uint4)
CUEMU_CACHE_HINTS(float2)
CUEMU_CACHE_HINTS(float4)
CUEMU_CACHE_HINTS(double2)
CUEMU_CACHE_HINTS(longlong2)
CUEMU_CACHE_HINTS(ulonglong2)

#undef CUEMU_CACHE_HINTS

/* ---- Fences -------------------------------------------------------------- */

inline void __threadfence_block(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
/* sm_90: a fence for the thread block cluster. */
inline void __threadfence_cluster(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

#endif /* CUEMU_HOST_DECLS */
#undef CUEMU_HINT_LOAD
#undef CUEMU_HINT_STORE

#endif /* CUEMU_MEMORY_H */
