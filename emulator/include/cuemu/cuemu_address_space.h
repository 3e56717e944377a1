/*
 * cuemu_address_space.h: which of CUDA's state spaces a generic address
 * belongs to, for __isShared, __isLocal, __isGlobal and their kin
 * (shims/cuda_builtins/cuemu_address_space.h). The emulated device has one
 * flat address space; the spaces are told apart by where an address lies.
 */
#ifndef CUEMU_ADDRESS_SPACE_H
#define CUEMU_ADDRESS_SPACE_H

#ifdef __cplusplus
extern "C" {
#endif

/* The spaces cuemu_address_space() tells apart. */
enum cuemu_space {
  CUEMU_SPACE_NONE = 0,   /* a null pointer */
  CUEMU_SPACE_GLOBAL = 1, /* anything else: device, managed, pinned and
                             mapped memory, __device__ and __constant__
                             variables, __grid_constant__ parameters' copies
                             are not, see LOCAL */
  CUEMU_SPACE_SHARED = 2, /* the running block's dynamic shared buffer and
                             its static __shared__ variables */
  CUEMU_SPACE_LOCAL = 3   /* the calling thread's stack: its local variables
                             and parameters */
};

/* The space of `p` for the calling kernel thread. Outside a kernel, every
 * non-null address is CUEMU_SPACE_GLOBAL. Kernel or host code. */
int cuemu_address_space(const void *p);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_ADDRESS_SPACE_H */
