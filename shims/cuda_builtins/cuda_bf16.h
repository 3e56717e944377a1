/*
 * cuda_bf16.h: CUDA's bfloat16 types __nv_bfloat16 and __nv_bfloat162 and
 * their functions, in software.
 *
 * The layout is CUDA's: __nv_bfloat16 is 2 bytes (alignment 2; the upper
 * half of a float's bits), __nv_bfloat162 is two of them (x low, y high;
 * alignment 4). As in CUDA this header includes cuda_fp16.h, and the
 * arithmetic functions (__hadd, __heq, hsqrt, ...) are overloads of the same
 * names. CUDA's switches __CUDA_NO_BFLOAT16_CONVERSIONS__,
 * __CUDA_NO_BFLOAT16_OPERATORS__ and __CUDA_NO_BFLOAT162_OPERATORS__ work as
 * in CUDA.
 *
 * The __shfl*_sync overloads come last; they use the warp intrinsics of
 * cuemu_warp.h.
 */
#ifndef CUEMU_CUDA_BF16_H
#define CUEMU_CUDA_BF16_H

/* A C program gets the raw types only, as from NVIDIA's header (through
 * <cublas_v2.h> in a .c file): the types with their operators and
 * functions are C++. */
#ifndef __cplusplus
#include "cuemu_narrow_float_raw.h"
#define __CUDA_BF16_H__
#define __CUDA_BF16_HPP__
CUEMU_NF_DEFINE_RAW_TYPES(__nv_bfloat16_raw, __nv_bfloat162_raw)
#else

#include "cuda_fp16.h"
#include "cuemu_narrow_float_ops.h"
#include "vector_types.h"

/* CUDA's own guard and feature macros, which some programs test. */
#define __CUDA_BF16_H__
#define __CUDA_BF16_HPP__
#define __CUDA_BF16_TYPES_EXIST__

CUEMU_NF_DEFINE_RAW_TYPES(__nv_bfloat16_raw, __nv_bfloat162_raw)
CUEMU_NF_DECLARE_CONVERSIONS(bfloat16, __nv_bfloat16)

struct alignas(2) __nv_bfloat16 {
  CUEMU_NF_RAW_MEMBERS(__nv_bfloat16, __nv_bfloat16_raw)
#if !defined(__CUDA_NO_BFLOAT16_CONVERSIONS__)
  explicit __nv_bfloat16(const __half f) {
    *this = __float2bfloat16(__half2float(f));
  }
  CUEMU_NF_CONVERSION_MEMBERS(bfloat16, __nv_bfloat16)
#endif
};

CUEMU_NF_DEFINE_PAIR_TYPE(__nv_bfloat16, __nv_bfloat162, __nv_bfloat16_raw,
                          __nv_bfloat162_raw)

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

/* ---- Raw bits, conversions, building and taking apart pairs ------------ */

CUEMU_NF_DEFINE_CONVERSIONS(bfloat16, bfloat162, __nv_bfloat16, __nv_bfloat162,
                            __nv_bfloat16_raw, cuemu_nf_bfloat16,
                            CUEMU_NF_DEVICE_ONLY_BODY)

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)

/* ---- Arithmetic, comparisons, math, atomicAdd, cache-hinted access ------- */

CUEMU_NF_DEFINE_SCALAR_API(__nv_bfloat16, cuemu_nf_bfloat16, cuemu_bfloat16_from_bits)
CUEMU_NF_DEFINE_PAIR_API(__nv_bfloat16, __nv_bfloat162, cuemu_nf_bfloat16,
                         cuemu_bfloat16_from_bits)

#if !defined(__CUDA_NO_BFLOAT16_OPERATORS__)
CUEMU_NF_DEFINE_SCALAR_OPERATORS(__nv_bfloat16, 0x3F80U, cuemu_bfloat16_from_bits)
#endif
#if !defined(__CUDA_NO_BFLOAT162_OPERATORS__)
CUEMU_NF_DEFINE_PAIR_OPERATORS(__nv_bfloat16, __nv_bfloat162, 0x3F80U,
                               cuemu_bfloat16_from_bits)
#endif

/* The conversion from bfloat16 that cuda_fp16.h declares. */
#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
inline __half::__half(const __nv_bfloat16 f) {
  __x = cuemu_nf_from_double(cuemu_nf_to_double(cuemu_nf_bits(f), cuemu_nf_bfloat16),
                             cuemu_nf_binary16, CUEMU_ROUND_RN);
}
#endif

/* ---- Warp shuffles ------------------------------------------------------
 *
 * __shfl_sync, __shfl_up_sync, __shfl_down_sync and __shfl_xor_sync for
 * __nv_bfloat16 and __nv_bfloat162, with CUDA's parameters; the value
 * travels bit for bit (see cuemu_warp.h). */

#include "cuemu_warp.h"

CUEMU_WARP_DEFINE_SHUFFLES(__nv_bfloat16)
CUEMU_WARP_DEFINE_SHUFFLES(__nv_bfloat162)

#endif /* __cplusplus */

#endif /* CUEMU_CUDA_BF16_H */
