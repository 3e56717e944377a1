/*
 * cuemu_rt_texture_view.c: resource views of texture objects, as
 * cudaCreateTextureObject documents them (CUDA runtime API, "Texture Object
 * Management"): a view reinterprets the elements of a CUDA array or
 * mipmapped array in another format, and restricts the texture to a range
 * of mipmap levels and of layers. Also the message of a channel format that
 * CUDA has and cuemu does not emulate.
 */
#include <stdio.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_report.h"
#include "runtime/cuemu_rt_array.h"
#include "runtime/cuemu_rt_texture_view.h"

/* Records `message` for cuemu_last_message() and prints it (unless
 * CUEMU_QUIET), as the reason of a refusal. */
static void refusal(const char *message) {
  cuemu__report(CUEMU_NOT_SUPPORTED, "%s", message);
  cuemu__report_print(message);
}

/* CUDA's names of the kinds cuemu refuses, with what they are. */
static const char *refused_kind_name(int kind) {
  switch (kind) {
  case cudaChannelFormatKindNV12:
    return "cudaChannelFormatKindNV12 (8-bit YUV 4:2:0, two planes)";
  case cudaChannelFormatKindUnsignedBlockCompressed1:
    return "cudaChannelFormatKindUnsignedBlockCompressed1 (BC1)";
  case cudaChannelFormatKindUnsignedBlockCompressed1SRGB:
    return "cudaChannelFormatKindUnsignedBlockCompressed1SRGB (BC1, sRGB)";
  case cudaChannelFormatKindUnsignedBlockCompressed2:
    return "cudaChannelFormatKindUnsignedBlockCompressed2 (BC2)";
  case cudaChannelFormatKindUnsignedBlockCompressed2SRGB:
    return "cudaChannelFormatKindUnsignedBlockCompressed2SRGB (BC2, sRGB)";
  case cudaChannelFormatKindUnsignedBlockCompressed3:
    return "cudaChannelFormatKindUnsignedBlockCompressed3 (BC3)";
  case cudaChannelFormatKindUnsignedBlockCompressed3SRGB:
    return "cudaChannelFormatKindUnsignedBlockCompressed3SRGB (BC3, sRGB)";
  case cudaChannelFormatKindUnsignedBlockCompressed4:
    return "cudaChannelFormatKindUnsignedBlockCompressed4 (BC4)";
  case cudaChannelFormatKindSignedBlockCompressed4:
    return "cudaChannelFormatKindSignedBlockCompressed4 (BC4, signed)";
  case cudaChannelFormatKindUnsignedBlockCompressed5:
    return "cudaChannelFormatKindUnsignedBlockCompressed5 (BC5)";
  case cudaChannelFormatKindSignedBlockCompressed5:
    return "cudaChannelFormatKindSignedBlockCompressed5 (BC5, signed)";
  case cudaChannelFormatKindUnsignedBlockCompressed6H:
    return "cudaChannelFormatKindUnsignedBlockCompressed6H (BC6H)";
  case cudaChannelFormatKindSignedBlockCompressed6H:
    return "cudaChannelFormatKindSignedBlockCompressed6H (BC6H, signed)";
  case cudaChannelFormatKindUnsignedBlockCompressed7:
    return "cudaChannelFormatKindUnsignedBlockCompressed7 (BC7)";
  case cudaChannelFormatKindUnsignedBlockCompressed7SRGB:
    return "cudaChannelFormatKindUnsignedBlockCompressed7SRGB (BC7, sRGB)";
  default:
    return NULL;
  }
}

int cuemu__format_refused(int kind) {
  const char *name = refused_kind_name(kind);
  if (!name)
    return 0;
  char message[256];
  snprintf(message, sizeof message,
           "channel format %s is not emulated by cuemu: arrays and textures "
           "of it are refused (cudaErrorInvalidChannelDescriptor)",
           name);
  refusal(message);
  return 1;
}

int cuemu_rt_texture_refuse(const char *name, int code) {
  char message[256];
  snprintf(message, sizeof message,
           "array format %s is not emulated by cuemu (block-compressed and "
           "YUV formats are refused)",
           name ? name : "(null)");
  refusal(message);
  return code;
}

/* The view formats of one to four channels (cudaResViewFormatUnsignedChar1
 * to cudaResViewFormatFloat4) as a decoded format; 0, or -1 for any other
 * value. They come in threes (1, 2 and 4 channels) of unsigned char, signed
 * char, unsigned short, signed short, unsigned int, signed int, half and
 * float. */
static int view_format(int v, cuemu__texel_format *f) {
  if (v < cudaResViewFormatUnsignedChar1 || v > cudaResViewFormatFloat4)
    return -1;
  static const int bits[8] = {8, 8, 16, 16, 32, 32, 16, 32};
  static const int kinds[8] = {
      cudaChannelFormatKindUnsigned, cudaChannelFormatKindSigned,
      cudaChannelFormatKindUnsigned, cudaChannelFormatKindSigned,
      cudaChannelFormatKindUnsigned, cudaChannelFormatKindSigned,
      cudaChannelFormatKindFloat,    cudaChannelFormatKindFloat};
  static const int counts[3] = {1, 2, 4};
  int group = (v - 1) / 3;
  f->channels = counts[(v - 1) % 3];
  f->bits = bits[group];
  f->kind = kinds[group];
  f->normalized = 0;
  f->packed = 0;
  f->size = (size_t)f->channels * (size_t)f->bits / 8;
  return 0;
}

/* The refusal of a block-compressed view format: CUDA's rule on the
 * resource's format is checked first (BC1 and BC4 views need 32-bit
 * unsigned integers of 2 channels, the others of 4). */
static int block_compressed_view(const cuemu__texture *t, int v) {
  static const char *const names[] = {
      "cudaResViewFormatUnsignedBlockCompressed1",
      "cudaResViewFormatUnsignedBlockCompressed2",
      "cudaResViewFormatUnsignedBlockCompressed3",
      "cudaResViewFormatUnsignedBlockCompressed4",
      "cudaResViewFormatSignedBlockCompressed4",
      "cudaResViewFormatUnsignedBlockCompressed5",
      "cudaResViewFormatSignedBlockCompressed5",
      "cudaResViewFormatUnsignedBlockCompressed6H",
      "cudaResViewFormatSignedBlockCompressed6H",
      "cudaResViewFormatUnsignedBlockCompressed7"};
  int two = v == cudaResViewFormatUnsignedBlockCompressed1 ||
            v == cudaResViewFormatUnsignedBlockCompressed4 ||
            v == cudaResViewFormatSignedBlockCompressed4;
  const cuemu__texel_format *f = &t->format;
  const char *name = names[v - cudaResViewFormatUnsignedBlockCompressed1];
  char message[256];
  if (f->kind != cudaChannelFormatKindUnsigned || f->normalized ||
      f->bits != 32 || f->channels != (two ? 2 : 4)) {
    snprintf(message, sizeof message,
             "cudaCreateTextureObject: view format %s needs an array of "
             "32-bit unsigned integers with %d channels",
             name, two ? 2 : 4);
    cuemu__report(CUEMU_INVALID_VALUE, "%s", message);
    return cudaErrorInvalidValue;
  }
  snprintf(message, sizeof message,
           "cudaCreateTextureObject: view format %s: block-compressed "
           "textures are not emulated by cuemu",
           name);
  refusal(message);
  return cudaErrorNotSupported;
}

int cuemu__texture_apply_view(cuemu__texture *t,
                              const struct cudaResourceDesc *res,
                              const struct cudaResourceViewDesc *v) {
  /* Views are of arrays and mipmapped arrays only. */
  struct cudaExtent extent;
  if (res->resType == cudaResourceTypeArray)
    extent = res->res.array.array->extent;
  else if (res->resType == cudaResourceTypeMipmappedArray)
    extent = res->res.mipmap.mipmap->extent;
  else
    return cudaErrorInvalidValue;
  for (size_t i = 0; i < sizeof v->reserved / sizeof v->reserved[0]; ++i)
    if (v->reserved[i] != 0)
      return cudaErrorInvalidValue;
  if (v->format >= cudaResViewFormatUnsignedBlockCompressed1 &&
      v->format <= cudaResViewFormatUnsignedBlockCompressed7)
    return block_compressed_view(t, v->format);
  if (v->format != cudaResViewFormatNone) {
    cuemu__texel_format f;
    if (view_format(v->format, &f) != 0 || f.size != t->format.size)
      return cudaErrorInvalidValue;
    t->format = f;
  }
  if (v->width != extent.width || v->height != extent.height ||
      v->depth != extent.depth)
    return cudaErrorInvalidValue;
  /* Levels: the first becomes level 0, so the clamps of the texture
   * descriptor are relative to it. */
  if (v->firstMipmapLevel > v->lastMipmapLevel ||
      v->lastMipmapLevel >= t->levels)
    return cudaErrorInvalidValue;
  if (res->resType == cudaResourceTypeArray &&
      (v->firstMipmapLevel != 0 || v->lastMipmapLevel != 0))
    return cudaErrorInvalidValue;
  unsigned levels = v->lastMipmapLevel - v->firstMipmapLevel + 1;
  memmove(&t->level[0], &t->level[v->firstMipmapLevel],
          levels * sizeof t->level[0]);
  t->levels = levels;
  /* Layers: the first becomes layer 0. A layered cubemap's layers are
   * cubemaps of six faces each. */
  int layered = t->shape == CUEMU_SHAPE_1D_LAYERED ||
                t->shape == CUEMU_SHAPE_2D_LAYERED ||
                t->shape == CUEMU_SHAPE_CUBEMAP_LAYERED;
  if (!layered)
    return v->firstLayer == 0 && v->lastLayer == 0 ? 0 : cudaErrorInvalidValue;
  size_t per_layer = t->shape == CUEMU_SHAPE_CUBEMAP_LAYERED ? 6 : 1;
  size_t layers = t->level[0].depth / per_layer;
  if (v->firstLayer > v->lastLayer || v->lastLayer >= layers)
    return cudaErrorInvalidValue;
  for (unsigned l = 0; l < t->levels; ++l) {
    cuemu__tex_level *lv = &t->level[l];
    lv->data += (size_t)v->firstLayer * per_layer * lv->slice;
    lv->depth = (size_t)(v->lastLayer - v->firstLayer + 1) * per_layer;
  }
  return 0;
}
