/*
 * texture_indirect_functions.h: CUDA's texture fetches of texture objects,
 * under CUDA's header name; they are in cuemu_texture.h.
 */
#ifndef __TEXTURE_INDIRECT_FUNCTIONS_H__
#define __TEXTURE_INDIRECT_FUNCTIONS_H__

#include "cuemu_texture.h"

#endif /* __TEXTURE_INDIRECT_FUNCTIONS_H__ */
