/*
 * cuemu_narrow_float_raw.h: the raw types of CUDA's 16-bit floating-point
 * formats (__half_raw and __half2_raw, __nv_bfloat16_raw and
 * __nv_bfloat162_raw): the bits of one value or of a pair, as CUDA lays
 * them out. Valid C and C++: NVIDIA's cuda_fp16.h and cuda_bf16.h give a C
 * program these types only (a .c file reaches them through <cublas_v2.h>
 * or <cusolverDn.h>), and C++ code the types built on them
 * (cuemu_narrow_float_ops.h).
 */
#ifndef CUEMU_NARROW_FLOAT_RAW_H
#define CUEMU_NARROW_FLOAT_RAW_H

#ifdef __cplusplus
#define CUEMU_NF_ALIGN_(n) alignas(n)
#else
#define CUEMU_NF_ALIGN_(n) __attribute__((aligned(n)))
#endif

/* RAW holds one value's bits in x, RAW2 a pair's in x (low) and y. */
#define CUEMU_NF_DEFINE_RAW_TYPES(RAW, RAW2)                                   \
  typedef struct CUEMU_NF_ALIGN_(2) {                                          \
    unsigned short x;                                                          \
  } RAW;                                                                       \
  typedef struct CUEMU_NF_ALIGN_(4) {                                          \
    unsigned short x;                                                          \
    unsigned short y;                                                          \
  } RAW2;

#endif /* CUEMU_NARROW_FLOAT_RAW_H */
