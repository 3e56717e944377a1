/*
 * surface_indirect_functions.h: CUDA's surface reads and writes of surface
 * objects, under CUDA's header name; they are in cuemu_surface.h.
 */
#ifndef __SURFACE_INDIRECT_FUNCTIONS_H__
#define __SURFACE_INDIRECT_FUNCTIONS_H__

#include "cuemu_surface.h"

#endif /* __SURFACE_INDIRECT_FUNCTIONS_H__ */
