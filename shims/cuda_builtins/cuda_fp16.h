/*
 * cuda_fp16.h: CUDA's half-precision types __half and __half2 and their
 * functions, in software.
 *
 * The layout is CUDA's: __half is 2 bytes (alignment 2), __half2 is two
 * __half (x low, y high; alignment 4). Conversions round in software
 * (cuemu_narrow_float.h), so results do not depend on the host compiler.
 * CUDA's switches __CUDA_NO_HALF_CONVERSIONS__, __CUDA_NO_HALF_OPERATORS__
 * and __CUDA_NO_HALF2_OPERATORS__ work as in CUDA.
 *
 * The __shfl*_sync overloads for __half and __half2 come last; they use the
 * warp intrinsics of cuemu_warp.h, which also rejects the deprecated __shfl
 * forms.
 */
#ifndef CUEMU_CUDA_FP16_H
#define CUEMU_CUDA_FP16_H

/* A C program gets the raw types only, as from NVIDIA's header (through
 * <cublas_v2.h> in a .c file): the types with their operators and
 * functions are C++. */
#ifndef __cplusplus
#include "cuemu_narrow_float_raw.h"
#define __CUDA_FP16_H__
#define __CUDA_FP16_HPP__
CUEMU_NF_DEFINE_RAW_TYPES(__half_raw, __half2_raw)
#else

#include "cuemu_narrow_float_ops.h"
#include "vector_types.h"

/* CUDA's own guard and feature macros, which some programs test. */
#define __CUDA_FP16_H__
#define __CUDA_FP16_HPP__
#define __CUDA_FP16_TYPES_EXIST__

struct __nv_bfloat16;

CUEMU_NF_DEFINE_RAW_TYPES(__half_raw, __half2_raw)
CUEMU_NF_DECLARE_CONVERSIONS(half, __half)

struct alignas(2) __half {
  CUEMU_NF_RAW_MEMBERS(__half, __half_raw)
#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
  /* Defined in cuda_bf16.h, as in CUDA. */
  explicit __half(const __nv_bfloat16 f);
  CUEMU_NF_CONVERSION_MEMBERS(half, __half)
#endif
};

CUEMU_NF_DEFINE_PAIR_TYPE(__half, __half2, __half_raw, __half2_raw)

typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;
typedef __half_raw __nv_half_raw;
typedef __half2_raw __nv_half2_raw;
typedef __half nv_half;
typedef __half2 nv_half2;

/* ---- Raw bits, conversions, building and taking apart pairs ------------ */

CUEMU_NF_DEFINE_CONVERSIONS(half, half2, __half, __half2, __half_raw,
                            cuemu_nf_binary16,
                            CUEMU_NF_HOST_BODY)

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)

/* ---- Arithmetic, comparisons, math, atomicAdd, cache-hinted access ------- */

CUEMU_NF_DEFINE_SCALAR_API(__half, cuemu_nf_binary16, cuemu_half_from_bits)
CUEMU_NF_DEFINE_PAIR_API(__half, __half2, cuemu_nf_binary16, cuemu_half_from_bits)

#if !defined(__CUDA_NO_HALF_OPERATORS__)
CUEMU_NF_DEFINE_SCALAR_OPERATORS(__half, 0x3C00U, cuemu_half_from_bits)
#endif
#if !defined(__CUDA_NO_HALF2_OPERATORS__)
CUEMU_NF_DEFINE_PAIR_OPERATORS(__half, __half2, 0x3C00U, cuemu_half_from_bits)
#endif

/* ---- Warp shuffles ------------------------------------------------------
 *
 * __shfl_sync, __shfl_up_sync, __shfl_down_sync and __shfl_xor_sync for
 * __half and __half2, with CUDA's parameters; the value travels bit for
 * bit (see cuemu_warp.h). */

#include "cuemu_warp.h"

CUEMU_WARP_DEFINE_SHUFFLES(__half)
CUEMU_WARP_DEFINE_SHUFFLES(__half2)

#endif /* __cplusplus */

#endif /* CUEMU_CUDA_FP16_H */
