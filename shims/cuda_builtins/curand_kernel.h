/*
 * curand_kernel.h: cuRAND's device API (curand_init, curand, curand_uniform,
 * curand_normal, the XORWOW, Philox, MRG32k3a, Sobol and MTGP32 states...)
 * is the CUDA toolkit's own header, compiled as device code like the rest
 * of a .cu file, so that every sequence is the one a GPU draws. This shim
 * only goes on to that header (it must be on the include path after the
 * shims: the toolkit's include folder, which cuemu-nvcc searches as nvcc
 * does, or a copy of it given with -I or -isystem). In the host pass, the toolkit's header
 * declares `extern const dim3 blockDim` and `extern const uint3 threadIdx`
 * for its MTGP32 host helpers, which would clash with cuemu's thread-local
 * built-in variables; there they are renamed to two names of the header's
 * own (the host pass runs no kernel code).
 */
/* The cuemu toolkit's include folder (CMake's CUDA::toolkit include
 * directory, emulator/export/toolkit.am) links this very file: reached
 * again through the #include_next below, it passes on to the next folder,
 * the CUDA toolkit's, instead of stopping at its own include guard. */
#ifdef CUEMU_CURAND_KERNEL_PASSING
#include_next <curand_kernel.h>
#elif !defined(CUEMU_CURAND_KERNEL_H)
#define CUEMU_CURAND_KERNEL_H

#include "cuda_runtime.h"

#if !__has_include_next(<curand_kernel.h>)
#error "cuemu: <curand_kernel.h> is the CUDA toolkit's header: no CUDA toolkit's include folder was found (--cuda-path, $CUDA_HOME, $CUDA_PATH, the nvcc on $PATH, /usr/local/cuda), or put it on the include path (e.g. -isystem /usr/local/cuda/include)"
#endif

#ifndef __CUDA_ARCH__
#define blockDim cuemu_curand_host_blockDim
#define threadIdx cuemu_curand_host_threadIdx
#endif
#define CUEMU_CURAND_KERNEL_PASSING
#include_next <curand_kernel.h>
#undef CUEMU_CURAND_KERNEL_PASSING
#ifndef __CUDA_ARCH__
#undef blockDim
#undef threadIdx
#endif

#endif /* CUEMU_CURAND_KERNEL_PASSING, CUEMU_CURAND_KERNEL_H */
