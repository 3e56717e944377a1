/*
 * cuda_fp4.h: the FP4 floating-point types of NVIDIA's cuda_fp4.h are not
 * emulated by cuemu. This header stands in front of the toolkit's own
 * (which is not host C++ and would otherwise be found on the compiler's
 * include path): it declares the types without defining them, so that a
 * program using one stops at compile time with "incomplete type" naming
 * it. CCCL is configured not to use them (cuemu_cccl.h); see docs/cccl.md.
 */
#ifndef CUEMU_CUDA_FP4_H
#define CUEMU_CUDA_FP4_H

struct __nv_fp4_e2m1;
struct __nv_fp4x2_e2m1;
struct __nv_fp4x4_e2m1;

#endif
