/*
 * cuemu_address_space.h: which of CUDA's state spaces a generic address
 * belongs to, for __isShared, __isLocal, __isGlobal and their kin
 * (shims/cuda_builtins/cuemu_address_space.h). The emulated device has one
 * flat address space; the spaces are told apart by where an address lies.
 */
#ifndef CUEMU_ADDRESS_SPACE_H
#define CUEMU_ADDRESS_SPACE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The spaces cuemu_address_space() tells apart. */
enum cuemu_space {
  CUEMU_SPACE_NONE = 0,   /* a null pointer */
  CUEMU_SPACE_GLOBAL = 1, /* anything else: device, managed, pinned and
                             mapped memory, __device__ variables */
  CUEMU_SPACE_SHARED = 2, /* the running block's dynamic shared buffer and
                             its static __shared__ variables */
  CUEMU_SPACE_LOCAL = 3,  /* the calling thread's stack: its local variables
                             and parameters */
  CUEMU_SPACE_CONSTANT = 4, /* a __constant__ variable */
  CUEMU_SPACE_GRID_CONSTANT = 5 /* the calling thread's copy of a
                                   __grid_constant__ kernel parameter */
};

/* The space of `p` for the calling kernel thread. Outside a kernel, every
 * non-null address is CUEMU_SPACE_GLOBAL or CUEMU_SPACE_CONSTANT. Kernel or
 * host code. */
int cuemu_address_space(const void *p);

/* What cuemu-cc's generated code calls (cuemu_space_notes.c): registers
 * the `size` bytes at `p` as a __constant__ variable (at load; returns 1,
 * or 0 when memory runs out), and, in kernel code, tells where the calling
 * thread's copy of a __grid_constant__ parameter lies. */
int cuemu_constant_register(const void *p, size_t size);
void cuemu_grid_constant_note(const void *p, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_ADDRESS_SPACE_H */
