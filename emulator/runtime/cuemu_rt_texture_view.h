/*
 * cuemu_rt_texture_view.h: resource views of texture objects (the
 * cudaResourceViewDesc of cudaCreateTextureObject) and the refusal of
 * channel formats cuemu does not emulate. Internal to emulator/runtime/.
 */
#ifndef CUEMU_RT_TEXTURE_VIEW_H
#define CUEMU_RT_TEXTURE_VIEW_H

#include "device/cuemu_texture.h"

/* Restricts texture `t`, already resolved from `res`, to the view `v` as
 * CUDA documents it: the elements reinterpreted in the view's format (of
 * the same size), levels firstMipmapLevel to lastMipmapLevel (the first
 * becomes level 0), layers firstLayer to lastLayer (the first becomes layer
 * 0); width, height and depth equal to the resource's. Returns 0 or a CUDA
 * code; a block-compressed view format is cudaErrorNotSupported with a
 * message naming it (cuemu_last_message(), and on stderr). */
int cuemu__texture_apply_view(cuemu__texture *t,
                              const struct cudaResourceDesc *res,
                              const struct cudaResourceViewDesc *v);

/* Whether channel kind `kind` is one that CUDA has but cuemu does not
 * emulate (block-compressed, NV12); if so, records and prints
 * a message naming it and returns 1. */
int cuemu__format_refused(int kind);

#endif /* CUEMU_RT_TEXTURE_VIEW_H */
