/*
 * driver_types.h: the types of CUDA's runtime API (cudaError_t with every
 * code of CUDA 13 and CUDA's values, cudaMemcpyKind, cudaMemoryType,
 * cudaDeviceAttr, struct cudaDeviceProp, struct cudaPointerAttributes, the
 * flags, the stream handle). They are libcuemu's, in
 * <cuemu/cuemu_rt_types.h>; this header forwards to it.
 *
 * helper_cuda.h-style helpers compile their error checks only when
 * __DRIVER_TYPES_H__ is defined, so this header defines it as CUDA's does.
 */
#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__

#include <cuemu/cuemu_rt_types.h>
#include <cuemu/cuemu_rt_host_types.h>

/* The error table, by its former name: XX(name, value, description). */
#define CUEMU_CUDA_ERROR_MAP(XX) CUEMU_RT_ERROR_MAP(XX)

#endif /* __DRIVER_TYPES_H__ */
