/*
 * surface_types.h: CUDA's surface types (the boundary and format modes,
 * cudaSurfaceObject_t). They are libcuemu's, in
 * <cuemu/cuemu_rt_texture_types.h>; this header forwards to it.
 */
#ifndef __SURFACE_TYPES_H__
#define __SURFACE_TYPES_H__

#include "driver_types.h"
#include <cuemu/cuemu_rt_texture_types.h>

#endif /* __SURFACE_TYPES_H__ */
