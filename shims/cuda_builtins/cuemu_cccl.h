/*
 * cuemu_cccl.h: what the toolkit's CCCL (CUB, Thrust, libcu++; see
 * docs/cccl.md) expects of a CUDA compilation beyond the runtime API and
 * the built-ins, as host C++:
 *   - the SIMD intrinsics (cuemu_simd.h);
 *   - the address-space predicates (cuemu_address_space.h);
 *   - the address-space conversions (__cvta_generic_to_shared(), a 32-bit
 *     shared-memory address as on a GPU, and its kin: cuemu_address_space.h)
 *     and NVVM's __nvvm_get_smem_pointer() (the same, for the toolkit's
 *     pipeline and awbarrier headers);
 *   - the macros the toolkit's headers use (__NV_SILENCE_DEPRECATION_*)
 *     (cudaSharedMemConfig, which CUB's radix sort takes as a template
 *     argument, is the host API's: cuemu_rt_host_types.h);
 *   - CCCL's configuration: the 6- and 4-bit floating-point types of
 *     cuda_fp6.h and cuda_fp4.h are not emulated, so CCCL is told not to
 *     use them (else it would include NVIDIA's real headers, which are not
 *     host C++); a program that includes one of them gets the shims'
 *     refusal. CCCL uses the shims' cuda_fp8.h (its numeric_limits, bit
 *     casts and conversions of __nv_fp8_e4m3, __nv_fp8_e5m2 and
 *     __nv_fp8_e8m0).
 * Kernel and host code.
 */
#ifndef CUEMU_CCCL_H
#define CUEMU_CCCL_H

#include <cstddef>

#include <cuemu/cuemu_device.h>

#include "cuemu_simd.h"

#ifndef CCCL_DISABLE_NVFP6_SUPPORT
#define CCCL_DISABLE_NVFP6_SUPPORT
#endif
#ifndef CCCL_DISABLE_NVFP4_SUPPORT
#define CCCL_DISABLE_NVFP4_SUPPORT
#endif

#ifndef __NV_SILENCE_DEPRECATION_BEGIN
#define __NV_SILENCE_DEPRECATION_BEGIN                                         \
  _Pragma("GCC diagnostic push")                                               \
      _Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"")
#define __NV_SILENCE_DEPRECATION_END _Pragma("GCC diagnostic pop")
#endif

/* NVVM's built-in for __cvta_generic_to_shared()'s conversion (a 32-bit
 * shared-memory address: cuemu_device.h's shared window), which the toolkit's
 * cuda_pipeline_helpers.h and cuda_awbarrier_helpers.h (the pipeline
 * primitives __pipeline_memcpy_async and nvcuda::experimental::awbarrier)
 * declare extern "C" and call for the shared operands of their cp.async
 * and mbarrier PTX. `used` makes g++ emit the (weak) definition: it does not
 * for a call through the helpers' redeclaration inside their namespace.
 * Only in CUDA code: host code (no __CUDACC__, where those headers have no
 * device code) gets the definition only if it calls it, so that a unit
 * that includes <cuda_runtime.h> for the vector types alone links without
 * libcuemu, as it does without libcudart. */
#ifdef __CUDACC__
#define CUEMU_SMEM_POINTER_USED __attribute__((used))
#else
#define CUEMU_SMEM_POINTER_USED
#endif
extern "C" inline CUEMU_SMEM_POINTER_USED unsigned __nvvm_get_smem_pointer(void *p) {
  return cuemu_shared_address(p);
}
#undef CUEMU_SMEM_POINTER_USED

/* The address-space predicates (__isShared, __isGlobal, ...), which
 * libcu++ uses to pick its barrier and copy paths, and the conversions
 * (__cvta_generic_to_shared() and its kin). */
#include "cuemu_address_space.h"

#endif /* CUEMU_CCCL_H */
