/*
 * cuda_fp6.h: the FP6 floating-point types of NVIDIA's cuda_fp6.h are not
 * emulated by cuemu. This header stands in front of the toolkit's own
 * (which is not host C++ and would otherwise be found on the compiler's
 * include path): it declares the types without defining them, so that a
 * program using one stops at compile time with "incomplete type" naming
 * it. CCCL is configured not to use them (cuemu_cccl.h); see docs/cccl.md.
 */
#ifndef CUEMU_CUDA_FP6_H
#define CUEMU_CUDA_FP6_H

struct __nv_fp6_e2m3;
struct __nv_fp6_e3m2;
struct __nv_fp6x2_e2m3;
struct __nv_fp6x2_e3m2;
struct __nv_fp6x4_e2m3;
struct __nv_fp6x4_e3m2;

#endif
