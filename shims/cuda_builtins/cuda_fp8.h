/*
 * cuda_fp8.h: the FP8 floating-point types of NVIDIA's cuda_fp8.h are not
 * emulated by cuemu. This header stands in front of the toolkit's own
 * (which is not host C++ and would otherwise be found on the compiler's
 * include path): it declares the types without defining them, so that a
 * program using one stops at compile time with "incomplete type" naming
 * it. CCCL is configured not to use them (cuemu_cccl.h); see docs/cccl.md.
 */
#ifndef CUEMU_CUDA_FP8_H
#define CUEMU_CUDA_FP8_H

struct __nv_fp8_e4m3;
struct __nv_fp8_e5m2;
struct __nv_fp8_e8m0;
struct __nv_fp8x2_e4m3;
struct __nv_fp8x2_e5m2;
struct __nv_fp8x4_e4m3;
struct __nv_fp8x4_e5m2;

#endif
