/*
 * device_types.h: CUDA's device_types.h, the rounding modes of the
 * conversions that take one (cudaRoundMode: cuda_fp8.h's E8M0 scale
 * conversions). Kernel and host code.
 */
#ifndef CUEMU_DEVICE_TYPES_H
#define CUEMU_DEVICE_TYPES_H

enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };

#endif /* CUEMU_DEVICE_TYPES_H */
