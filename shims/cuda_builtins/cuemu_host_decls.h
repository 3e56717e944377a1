/*
 * cuemu_host_decls.h: the host pass's lean prelude.
 *
 * nvcc's host compile never sees the body of a device-only function, and
 * neither does cuemu's host pass of the user's code: kernels lose their
 * bodies, __device__ functions become stubs (emulator/compile/
 * cuemu_host_stubs.c). The shims' device-only functions are then only
 * named, never called, by what the host compile emits, so cuemu-cc's host
 * pass reads their declarations instead of their definitions (it defines
 * CUEMU_HOST_DECLS), which makes every host pass cheaper to parse:
 *   - inline PTX's emulation (cuemu_ptx.h), which only translated asm
 *     statements call, is left out (cuda_runtime.h);
 *   - the SIMD intrinsics (cuemu_simd.h), warp functions (cuemu_warp.h),
 *     atomics (cuemu_atomics.h, cuemu_nv_atomics.h), memory hints and
 *     fences (cuemu_memory.h), integer and float intrinsics
 *     (cuemu_intrinsics.h) and texture and surface fetches
 *     (cuemu_texture.h, cuemu_surface.h) are declared by cuemu_*_decls.h, which
 *     scripts/host_decls.py makes from each header itself (`make
 *     host-decls`; tests/host_decls.sh checks them): each header holds
 *     its definitions of CUDA's functions in `#ifdef CUEMU_HOST_DECLS`'s
 *     `#else` branch, after its helpers, classes and macros, which both
 *     passes read.
 * A unit whose host pass keeps device code (a kernel's body that cannot be
 * forwarded, a kernel with internal linkage or a __device__ function of a
 * system header, inline PTX, a __device__ function whose body cannot be a
 * stub) or that includes CCCL is preprocessed again with the whole prelude
 * (emulator/compile/cuemu_compile.c's build()).
 *
 * A declared function that a host function calls anyway is nvcc's error,
 * at the user's line (GCC's and clang's `error` attribute).
 */
#ifndef CUEMU_HOST_DECLS_H
#define CUEMU_HOST_DECLS_H

#ifndef CUEMU_DEVICE_ONLY
#define CUEMU_DEVICE_ONLY                                                      \
  __attribute__((error("calling a __device__ function from a __host__ "       \
                       "function is not allowed (nvcc refuses it too)")))
#endif

/* A device-only function whose name glibc's <math.h> declares too (__expf,
 * __sinf, ...: scripts/host_decls.py's LIBM_NAMES). clang refuses the
 * `error` attribute on a declaration after glibc's, so under clang the
 * declaration has none, and a host call is refused when the program links
 * (glibc exports no such function), not when it compiles. */
#ifndef CUEMU_DEVICE_ONLY_LIBM
#if defined(__clang__)
#define CUEMU_DEVICE_ONLY_LIBM
#else
#define CUEMU_DEVICE_ONLY_LIBM CUEMU_DEVICE_ONLY
#endif
#endif

#endif /* CUEMU_HOST_DECLS_H */
