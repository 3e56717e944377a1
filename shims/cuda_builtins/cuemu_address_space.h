/*
 * cuemu_address_space.h: CUDA's address-space predicates and the rest of
 * the address intrinsics: __isGlobal, __isShared, __isCtaShared,
 * __isClusterShared, __isLocal, __isConstant, __isGridConstant, the
 * conversions between the generic space and the global, shared, constant,
 * local and grid-constant ones (__cvta_generic_to_shared() and its kin),
 * __nv_associate_access_property and __prof_trigger.
 *
 * CUDA declares the predicates and the conversions __device__ only, and
 * nvcc refuses a host function's call of one ("calling a __device__
 * function("__isGlobal") from a __host__ function("main") is not
 * allowed"): the host pass's lean prelude declares them with
 * CUEMU_DEVICE_ONLY (cuemu_address_space_decls.h, which
 * scripts/host_decls.py makes from this header; cuemu_host_decls.h).
 *
 * The emulated device has one flat address space: libcuemu's
 * cuemu_address_space() (<cuemu/cuemu_address_space.h>) tells the spaces
 * apart by where an address lies; cuemu-cc registers __constant__
 * variables and the copies of __grid_constant__ parameters with it. A
 * cluster's shared memory is reached through map_shared_rank, which gives
 * the other block's own addresses, so cluster-shared memory is tested as
 * shared memory.
 *
 * __prof_trigger(n) counts into libcuemu's profiler counters (0 to 7), as
 * the hardware's per-multiprocessor counters count for a profiler; nothing
 * else observes them.
 */
#ifndef CUEMU_ADDRESS_SPACE_SHIM_H
#define CUEMU_ADDRESS_SPACE_SHIM_H

#include <cstddef>

#include <cuemu/cuemu_address_space.h>
#include <cuemu/cuemu_device.h>

#ifdef CUEMU_HOST_DECLS
/* The host pass's lean prelude: declarations only (cuemu_host_decls.h). */
#include "cuemu_address_space_decls.h"
#else

inline unsigned int __isGlobal(const void *ptr) {
  return cuemu_address_space(ptr) == CUEMU_SPACE_GLOBAL;
}
inline unsigned int __isShared(const void *ptr) {
  return cuemu_address_space(ptr) == CUEMU_SPACE_SHARED;
}
inline unsigned int __isCtaShared(const void *ptr) { return __isShared(ptr); }
inline unsigned int __isClusterShared(const void *ptr) {
  return __isShared(ptr);
}
inline unsigned int __isLocal(const void *ptr) {
  return cuemu_address_space(ptr) == CUEMU_SPACE_LOCAL;
}
inline unsigned int __isConstant(const void *ptr) {
  return cuemu_address_space(ptr) == CUEMU_SPACE_CONSTANT;
}
inline unsigned int __isGridConstant(const void *ptr) {
  return cuemu_address_space(ptr) == CUEMU_SPACE_GRID_CONSTANT;
}

/* The grid-constant space is the generic one here. */
inline size_t __cvta_generic_to_grid_constant(const void *p) {
  return reinterpret_cast<size_t>(p);
}
inline void *__cvta_grid_constant_to_generic(size_t a) {
  return reinterpret_cast<void *>(a);
}

/* A shared-memory address of the shared state space: 32 bits, never 0
 * (cuemu_device.h's shared window). The global, constant and local spaces
 * are the one flat memory, so their conversions are identities. */
inline size_t __cvta_generic_to_shared(const void *p) {
  return cuemu_shared_address(p);
}
inline void *__cvta_shared_to_generic(size_t a) {
  return cuemu_shared_generic(a);
}
inline size_t __cvta_generic_to_global(const void *p) {
  return reinterpret_cast<size_t>(p);
}
inline void *__cvta_global_to_generic(size_t a) {
  return reinterpret_cast<void *>(a);
}
inline size_t __cvta_generic_to_constant(const void *p) {
  return reinterpret_cast<size_t>(p);
}
inline void *__cvta_constant_to_generic(size_t a) {
  return reinterpret_cast<void *>(a);
}
inline size_t __cvta_generic_to_local(const void *p) {
  return reinterpret_cast<size_t>(p);
}
inline void *__cvta_local_to_generic(size_t a) {
  return reinterpret_cast<void *>(a);
}

#endif /* CUEMU_HOST_DECLS */

/* nvcc's built-in behind cuda::annotated_ptr and cuda::associate_access_property
 * (an L2 cache policy attached to a pointer): the policy is a hint with no
 * effect on values, so the pointer comes back unchanged. */
inline void *__nv_associate_access_property(const void *ptr, unsigned long long property) {
  (void)property;
  return const_cast<void *>(ptr);
}

/* The profiler counters __prof_trigger increments. */
inline unsigned long long *cuemu_prof_counters_() {
  static unsigned long long counters[8];
  return counters;
}
inline void __prof_trigger(int counter) {
  if (counter >= 0 && counter < 8)
    __atomic_fetch_add(&cuemu_prof_counters_()[counter], 1ull,
                       __ATOMIC_RELAXED);
}

#endif /* CUEMU_ADDRESS_SPACE_SHIM_H */
