/*
 * texture_types.h: CUDA's texture types (cudaTextureDesc, the address,
 * filter and read modes, cudaTextureObject_t). They are libcuemu's, in
 * <cuemu/cuemu_rt_texture_types.h>; this header forwards to it.
 */
#ifndef __TEXTURE_TYPES_H__
#define __TEXTURE_TYPES_H__

#include "driver_types.h"
#include <cuemu/cuemu_rt_texture_types.h>

#endif /* __TEXTURE_TYPES_H__ */
