/*
 * cuemu_rt_texture.c: texture and surface objects of the runtime API
 * (cudaCreateTextureObject, cudaCreateSurfaceObject, their getters and
 * destroy calls). Creating one checks the descriptors against CUDA's rules,
 * resolves its resource into levels the device samples
 * (device/cuemu_texture.h), and registers it in the device's table.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_report.h"
#include "device/cuemu_texture.h"
#include "runtime/cuemu_rt_array.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_stream_queue.h"
#include "runtime/cuemu_rt_texture_view.h"

/* cudaDeviceProp's textureAlignment and texturePitchAlignment. */
#define TEXTURE_ALIGNMENT 512u
#define TEXTURE_PITCH_ALIGNMENT 32u

static void copy_format(cuemu__texel_format *out, const cuemu__format *f) {
  out->channels = f->channels;
  out->bits = f->bits;
  out->kind = f->kind;
  out->normalized = f->normalized;
  out->packed = f->packed;
  out->size = f->size;
}

static void level_of_array(cuemu__tex_level *lv, const struct cudaArray *a) {
  lv->data = a->data;
  lv->width = a->width;
  lv->height = a->height;
  lv->depth = a->depth;
  lv->pitch = a->width * a->format.size;
  lv->slice = lv->pitch * a->height;
}

/* The shape of an array of `extent` and `flags`. */
static int shape_of_array(struct cudaExtent e, unsigned flags) {
  if (flags & cudaArrayCubemap)
    return flags & cudaArrayLayered ? CUEMU_SHAPE_CUBEMAP_LAYERED
                                    : CUEMU_SHAPE_CUBEMAP;
  if (flags & cudaArrayLayered)
    return e.height ? CUEMU_SHAPE_2D_LAYERED : CUEMU_SHAPE_1D_LAYERED;
  if (e.depth)
    return CUEMU_SHAPE_3D;
  return e.height ? CUEMU_SHAPE_2D : CUEMU_SHAPE_1D;
}

/* Refuses a descriptor with cudaErrorInvalidValue, saying which of CUDA's
 * rules it breaks (cuemu_last_message()): CUDA's bare "invalid argument"
 * leaves a program's author guessing among a dozen fields. */
static int refuse(const char *why) {
  cuemu__report(CUEMU_INVALID_VALUE, "%s", why);
  return cudaErrorInvalidValue;
}

/* Resolves `res` into t's shape, format and levels; returns 0 or a CUDA
 * code. */
static int resolve_resource(cuemu__texture *t,
                            const struct cudaResourceDesc *res) {
  cuemu__format f;
  int code;
  if (res->flags != 0)
    return cudaErrorInvalidValue;
  switch (res->resType) {
  case cudaResourceTypeArray: {
    const struct cudaArray *a = res->res.array.array;
    if (!cuemu__array_valid(a))
      return cudaErrorInvalidResourceHandle;
    copy_format(&t->format, &a->format);
    t->shape = shape_of_array(a->extent, a->flags);
    t->gather = (a->flags & cudaArrayTextureGather) != 0;
    t->load_store = (a->flags & cudaArraySurfaceLoadStore) != 0;
    t->levels = 1;
    level_of_array(&t->level[0], a);
    return 0;
  }
  case cudaResourceTypeMipmappedArray: {
    const struct cudaMipmappedArray *m = res->res.mipmap.mipmap;
    if (!cuemu__mipmapped_array_valid(m))
      return cudaErrorInvalidResourceHandle;
    copy_format(&t->format, &m->level[0]->format);
    t->shape = shape_of_array(m->extent, m->flags);
    t->levels = m->levels;
    for (unsigned l = 0; l < m->levels; ++l)
      level_of_array(&t->level[l], m->level[l]);
    return 0;
  }
  case cudaResourceTypeLinear:
    code = cuemu__format_decode(&res->res.linear.desc, &f);
    if (code)
      return code;
    if (!res->res.linear.devPtr)
      return refuse("cudaCreateTextureObject: cudaResourceTypeLinear with a "
                    "null devPtr");
    if ((uintptr_t)res->res.linear.devPtr % TEXTURE_ALIGNMENT != 0)
      return refuse("cudaCreateTextureObject: cudaResourceTypeLinear's "
                    "devPtr is not aligned to textureAlignment (512 bytes)");
    if (res->res.linear.sizeInBytes < f.size)
      return refuse("cudaCreateTextureObject: cudaResourceTypeLinear's "
                    "sizeInBytes holds no element");
    copy_format(&t->format, &f);
    t->shape = CUEMU_SHAPE_LINEAR;
    t->levels = 1;
    t->level[0].data = res->res.linear.devPtr;
    t->level[0].width = res->res.linear.sizeInBytes / f.size;
    t->level[0].height = t->level[0].depth = 1;
    t->level[0].pitch = t->level[0].slice = res->res.linear.sizeInBytes;
    return 0;
  case cudaResourceTypePitch2D:
    code = cuemu__format_decode(&res->res.pitch2D.desc, &f);
    if (code)
      return code;
    if (!res->res.pitch2D.devPtr)
      return refuse("cudaCreateTextureObject: cudaResourceTypePitch2D with "
                    "a null devPtr");
    if ((uintptr_t)res->res.pitch2D.devPtr % TEXTURE_ALIGNMENT != 0)
      return refuse("cudaCreateTextureObject: cudaResourceTypePitch2D's "
                    "devPtr is not aligned to textureAlignment (512 bytes)");
    if (res->res.pitch2D.width == 0 || res->res.pitch2D.height == 0)
      return refuse("cudaCreateTextureObject: cudaResourceTypePitch2D with "
                    "a zero width or height");
    if (res->res.pitch2D.pitchInBytes % TEXTURE_PITCH_ALIGNMENT != 0)
      return refuse("cudaCreateTextureObject: cudaResourceTypePitch2D's "
                    "pitchInBytes is not a multiple of texturePitchAlignment "
                    "(32 bytes; cudaMallocPitch gives such pitches)");
    if (res->res.pitch2D.pitchInBytes < res->res.pitch2D.width * f.size)
      return refuse("cudaCreateTextureObject: cudaResourceTypePitch2D's "
                    "pitchInBytes is less than width times the element size");
    copy_format(&t->format, &f);
    t->shape = CUEMU_SHAPE_2D;
    t->levels = 1;
    t->level[0].data = res->res.pitch2D.devPtr;
    t->level[0].width = res->res.pitch2D.width;
    t->level[0].height = res->res.pitch2D.height;
    t->level[0].depth = 1;
    t->level[0].pitch = res->res.pitch2D.pitchInBytes;
    t->level[0].slice = res->res.pitch2D.pitchInBytes * res->res.pitch2D.height;
    return 0;
  default:
    return cudaErrorInvalidValue;
  }
}

/* Checks the texture descriptor against the resource; returns 0 or a CUDA
 * code. Sets t->returns_float. */
static int check_texture_desc(cuemu__texture *t,
                              const struct cudaTextureDesc *d) {
  for (int i = 0; i < 3; ++i)
    if ((unsigned)d->addressMode[i] > cudaAddressModeBorder)
      return cudaErrorInvalidValue;
  if ((unsigned)d->filterMode > cudaFilterModeLinear ||
      (unsigned)d->mipmapFilterMode > cudaFilterModeLinear ||
      (unsigned)d->readMode > cudaReadModeNormalizedFloat)
    return cudaErrorInvalidValue;
  const cuemu__texel_format *f = &t->format;
  int is_int = f->kind != cudaChannelFormatKindFloat;
  if (is_int && !f->normalized && d->readMode == cudaReadModeNormalizedFloat &&
      f->bits == 32)
    return refuse("cudaCreateTextureObject: cudaReadModeNormalizedFloat "
                  "needs 8- or 16-bit integers, not 32-bit ones");
  t->returns_float = !is_int || f->normalized ||
                     d->readMode == cudaReadModeNormalizedFloat;
  /* Linear filtering needs floating-point results (Programming Guide). */
  if (!t->returns_float && (d->filterMode == cudaFilterModeLinear ||
                            (t->levels > 1 &&
                             d->mipmapFilterMode == cudaFilterModeLinear)))
    return refuse("cudaCreateTextureObject: linear filtering needs "
                  "floating-point results: an integer texture needs "
                  "cudaReadModeNormalizedFloat or cudaFilterModePoint");
  /* Seamless cubemaps: with point filtering CUDA clamps every dimension,
   * which is how cuemu always samples a face; filtering across faces
   * (linear) is not emulated: refused rather than approximated. */
  if (d->seamlessCubemap && d->filterMode == cudaFilterModeLinear &&
      (t->shape == CUEMU_SHAPE_CUBEMAP || t->shape == CUEMU_SHAPE_CUBEMAP_LAYERED))
    return cudaErrorNotSupported;
  return 0;
}

/* Registers `t` (freeing it on failure) and gives its handle; returns a
 * CUDA code. */
static int register_object(cuemu__texture *t, unsigned long long *handle) {
  unsigned long long h = cuemu__texture_register(t);
  if (!h) {
    free(t);
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  *handle = h;
  return cudaSuccess;
}

int cuemu_rt_create_texture_object(cudaTextureObject_t *tex,
                                   const struct cudaResourceDesc *res,
                                   const struct cudaTextureDesc *desc,
                                   const struct cudaResourceViewDesc *view) {
  if (!tex || !res || !desc)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  /* A view of all zeros is no view, as a null one. */
  static const struct cudaResourceViewDesc none;
  if (view && memcmp(view, &none, sizeof none) == 0)
    view = NULL;
  cuemu__texture *t = calloc(1, sizeof *t);
  if (!t)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  t->res = *res;
  t->desc = *desc;
  int code = resolve_resource(t, res);
  if (!code && view)
    code = cuemu__texture_apply_view(t, res, view);
  if (!code)
    code = check_texture_desc(t, desc);
  if (code) {
    free(t);
    return cuemu_rt_error(code);
  }
  if (view) {
    t->view = *view;
    t->has_view = 1;
  }
  cuemu__texture_direct_fill(t);
  return register_object(t, tex);
}

/* A launch queued before the destroy call may still sample the object: an
 * image pipeline commonly creates an object, launches with it and destroys
 * it at once, and on a GPU the queued kernel still sees it. As cudaFreeArray
 * does, the devices' queued work is waited for before the object goes. */
static void wait_for_users(void) { cuemu__stream_wait_every_device(); }

int cuemu_rt_destroy_texture_object(cudaTextureObject_t tex) {
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  if (tex == 0)
    return cudaSuccess;
  wait_for_users();
  return cuemu__texture_unregister(tex, 0)
             ? cuemu_rt_error(cudaErrorInvalidValue)
             : cudaSuccess;
}

int cuemu_rt_get_texture_object_resource_desc(struct cudaResourceDesc *res,
                                              cudaTextureObject_t tex) {
  const cuemu__texture *t = cuemu__texture_lookup(tex, 0);
  if (!res || !t)
    return cuemu_rt_error(cudaErrorInvalidValue);
  *res = t->res;
  return cudaSuccess;
}

int cuemu_rt_get_texture_object_texture_desc(struct cudaTextureDesc *desc,
                                             cudaTextureObject_t tex) {
  const cuemu__texture *t = cuemu__texture_lookup(tex, 0);
  if (!desc || !t)
    return cuemu_rt_error(cudaErrorInvalidValue);
  *desc = t->desc;
  return cudaSuccess;
}

int cuemu_rt_get_texture_object_resource_view_desc(
    struct cudaResourceViewDesc *view, cudaTextureObject_t tex) {
  const cuemu__texture *t = cuemu__texture_lookup(tex, 0);
  if (!view || !t)
    return cuemu_rt_error(cudaErrorInvalidValue);
  memset(view, 0, sizeof *view);
  if (t->has_view)
    *view = t->view;
  return cudaSuccess;
}

int cuemu_rt_create_surface_object(cudaSurfaceObject_t *surf,
                                   const struct cudaResourceDesc *res) {
  if (!surf || !res)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  /* Surfaces take an array allocated with cudaArraySurfaceLoadStore. */
  if (res->resType != cudaResourceTypeArray)
    return cuemu_rt_error(refuse("cudaCreateSurfaceObject: a surface needs "
                                 "a resource of cudaResourceTypeArray"));
  cuemu__texture *t = calloc(1, sizeof *t);
  if (!t)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  t->is_surface = 1;
  t->res = *res;
  int code = resolve_resource(t, res);
  if (!code && !t->load_store)
    code = refuse("cudaCreateSurfaceObject: the array was not allocated "
                  "with cudaArraySurfaceLoadStore");
  if (code) {
    free(t);
    return cuemu_rt_error(code);
  }
  return register_object(t, surf);
}

int cuemu_rt_destroy_surface_object(cudaSurfaceObject_t surf) {
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  if (surf == 0)
    return cudaSuccess;
  wait_for_users();
  return cuemu__texture_unregister(surf, 1)
             ? cuemu_rt_error(cudaErrorInvalidValue)
             : cudaSuccess;
}

int cuemu_rt_get_surface_object_resource_desc(struct cudaResourceDesc *res,
                                              cudaSurfaceObject_t surf) {
  const cuemu__texture *t = cuemu__texture_lookup(surf, 1);
  if (!res || !t)
    return cuemu_rt_error(cudaErrorInvalidValue);
  *res = t->res;
  return cudaSuccess;
}

void cuemu__rt_texture_reset(void) {
  cuemu__texture_reset();
  cuemu__rt_array_reset();
}
