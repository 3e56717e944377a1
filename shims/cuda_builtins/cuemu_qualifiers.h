/*
 * cuemu_qualifiers.h: CUDA's function and variable qualifiers as host C++.
 *
 * Kernels and device functions become ordinary functions; __shared__
 * variables become per-OS-thread storage, which is per worker and so per
 * running block. `extern __shared__` arrays and `__noinline__` in the user's
 * .cu are rewritten by cuemu-cc before these macros apply.
 */
#ifndef CUEMU_QUALIFIERS_H
#define CUEMU_QUALIFIERS_H

#ifndef __cplusplus
#error "the CUDA shims are C++ headers; compile .cu files with cuemu-cc"
#endif

#define __global__
#define __device__
#define __host__
#define __forceinline__ __attribute__((always_inline)) inline
#define __launch_bounds__(...)
#define __constant__
#define __managed__
#define __shared__ static thread_local
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__
/* g++ and clang++ already know __restrict__. */

/* Code may test for the emulator. __CUDACC__ and __CUDA_ARCH__ are not
 * defined: headers then take their portable host paths, which is what runs
 * here. */
#define __CUEMU__ 1

#endif /* CUEMU_QUALIFIERS_H */
