/*
 * cuemu_texture_direct.c: the direct record of a texture object
 * (cuemu_texture_direct.h): which fetch the shims may sample inline, and
 * everything that sampling needs, settled when the object is created.
 */
#include "device/cuemu_texture.h"

/* The direct format of t's elements as its read mode returns them, or
 * CUEMU_TEXD_NONE (half and packed elements, sRGB). */
static int direct_format(const cuemu__texture *t) {
  const cuemu__texel_format *f = &t->format;
  if (f->packed || (f->channels != 1 && f->channels != 2 && f->channels != 4))
    return CUEMU_TEXD_NONE;
  int is_signed = f->kind == cudaChannelFormatKindSigned;
  if (f->kind == cudaChannelFormatKindFloat)
    return f->bits == 32 ? CUEMU_TEXD_FLOAT : CUEMU_TEXD_NONE;
  if (f->bits == 32)
    return t->returns_float ? CUEMU_TEXD_NONE : CUEMU_TEXD_INT32;
  if (f->bits != 8 && f->bits != 16)
    return CUEMU_TEXD_NONE;
  if (!t->returns_float)
    return f->bits == 8 ? (is_signed ? CUEMU_TEXD_SINT8 : CUEMU_TEXD_UINT8)
                        : (is_signed ? CUEMU_TEXD_SINT16 : CUEMU_TEXD_UINT16);
  /* sRGB converts the colour channels of 8-bit unsigned ones. */
  if (t->desc.sRGB && !is_signed && f->bits == 8)
    return CUEMU_TEXD_NONE;
  return f->bits == 8 ? (is_signed ? CUEMU_TEXD_SNORM8 : CUEMU_TEXD_UNORM8)
                      : (is_signed ? CUEMU_TEXD_SNORM16 : CUEMU_TEXD_UNORM16);
}

void cuemu__texture_direct_fill(cuemu__texture *t) {
  cuemu_texture_direct *d = &t->direct;
  static const int ops[] = {[CUEMU_SHAPE_LINEAR] = CUEMU_TEX_FETCH_1D,
                            [CUEMU_SHAPE_1D] = CUEMU_TEX_1D,
                            [CUEMU_SHAPE_2D] = CUEMU_TEX_2D,
                            [CUEMU_SHAPE_3D] = CUEMU_TEX_3D};
  d->cuemu_op = 0;
  /* The conversion serves every fetch of the object (cuemu__texture_texel);
   * the inline sampling only fetches of one level of the shapes in ops. */
  d->cuemu_format = t->is_surface ? CUEMU_TEXD_NONE : direct_format(t);
  d->cuemu_channels = t->format.channels;
  if (d->cuemu_format == CUEMU_TEXD_NONE || t->levels != 1 || t->shape < 0 ||
      (size_t)t->shape >= sizeof ops / sizeof ops[0] || !ops[t->shape])
    return;
  const cuemu__tex_level *lv = &t->level[0];
  d->cuemu_normalized = t->desc.normalizedCoords != 0;
  d->cuemu_linear = t->desc.filterMode == cudaFilterModeLinear;
  for (int k = 0; k < 3; ++k) {
    int m = t->desc.addressMode[k];
    /* Wrap and mirror need normalized coordinates; otherwise, clamp. */
    if (!d->cuemu_normalized &&
        (m == cudaAddressModeWrap || m == cudaAddressModeMirror))
      m = cudaAddressModeClamp;
    d->cuemu_mode[k] = m;
  }
  d->cuemu_data = lv->data;
  d->cuemu_size = t->format.size;
  d->cuemu_n[0] = lv->width;
  d->cuemu_n[1] = lv->height;
  d->cuemu_n[2] = lv->depth;
  d->cuemu_pitch = lv->pitch;
  d->cuemu_slice = lv->slice;
  d->cuemu_border = cuemu__texture_border(t);
  d->cuemu_op = ops[t->shape];
}
