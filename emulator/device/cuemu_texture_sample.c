/*
 * cuemu_texture_sample.c: the arithmetic of a texture fetch, as CUDA's
 * Programming Guide documents it (appendix "Texture Fetching"):
 *
 * - address modes: clamp, border, and, for normalized coordinates only,
 *   wrap (x becomes frac(x)) and mirror (frac(x) when floor(x) is even,
 *   1 - frac(x) when it is odd); with unnormalized coordinates wrap and
 *   mirror act as clamp;
 * - nearest-point sampling reads T[floor(x)];
 * - linear filtering reads T[i] and T[i+1] with i = floor(x - 0.5) and
 *   weights 1 - a and a, where a = frac(x - 0.5) is held in 9-bit fixed
 *   point with 8 fractional bits (rounded to the nearest 1/256);
 * - 8- and 16-bit integers read as normalized floats map 0..2^n-1 to
 *   0.0..1.0 (unsigned) and -(2^(n-1)-1)..2^(n-1)-1 to -1.0..1.0 (signed,
 *   the most negative value clamped to -1.0).
 *
 * The weighted sum is computed in single precision from the exact weight
 * products, texel by texel in the Guide's order (see docs/textures.md).
 */
#include <math.h>
#include <string.h>

#include "device/cuemu_texture.h"

__thread const cuemu_texture_query *cuemu__texture_current;

int cuemu__texture_weight(float frac) { return cuemu_texture_weight_of(frac); }

long cuemu__texture_address(long i, size_t n, int mode) {
  return cuemu_texture_address_of(i, n, mode);
}

float cuemu__texture_coordinate(float x, size_t n, int mode, int normalized) {
  return cuemu_texture_coordinate_of(x, n, mode, normalized);
}

/* IEEE binary16 bits to float. */
static float half_to_float(uint16_t h) {
  unsigned sign = (h >> 15) & 1u, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  float v;
  if (exp == 0)
    v = ldexpf((float)man, -24);
  else if (exp == 31)
    v = man ? NAN : INFINITY;
  else
    v = ldexpf((float)(man | 0x400u), (int)exp - 25);
  return sign ? -v : v;
}

/* sRGB to linear, for 8-bit unsigned channels read as normalized floats. */
static float srgb_to_linear(float c) {
  double d = c;
  return (float)(d <= 0.04045 ? d / 12.92 : pow((d + 0.055) / 1.055, 2.4));
}

cuemu_texel cuemu__texture_texel(const cuemu__texture *t,
                                 const cuemu__tex_level *lv, size_t x, size_t y,
                                 size_t z, cuemu_texture_seen_fn seen) {
  const cuemu__texel_format *f = &t->format;
  const unsigned char *p = lv->data + z * lv->slice + y * lv->pitch +
                           x * f->size;
  if (seen)
    seen(p, f->size);
  cuemu_texel r;
  if (t->direct.cuemu_format != CUEMU_TEXD_NONE) {
    /* The conversion the shims' direct path does (cuemu_texture_direct.h). */
    for (int c = 0; c < 4; ++c)
      cuemu_texture_direct_channel(&t->direct, p, c, &r);
    return r;
  }
  if (f->packed) {
    /* 10-10-10-2: always normalized floats (see cuemu__format). */
    uint32_t u;
    memcpy(&u, p, 4);
    r.v.f[0] = (float)(u & 0x3ffu) / 1023.0f;
    r.v.f[1] = (float)((u >> 10) & 0x3ffu) / 1023.0f;
    r.v.f[2] = (float)((u >> 20) & 0x3ffu) / 1023.0f;
    r.v.f[3] = (float)(u >> 30) / 3.0f;
    return r;
  }
  int is_signed = f->kind == cudaChannelFormatKindSigned;
  for (int c = 0; c < 4; ++c) {
    if (c >= f->channels) {
      /* Missing channels read as 0, and alpha as 1, as in the graphics
       * APIs. */
      if (t->returns_float)
        r.v.f[c] = c == 3 ? 1.0f : 0.0f;
      else
        r.v.i[c] = c == 3 ? 1 : 0;
      continue;
    }
    const unsigned char *q = p + (size_t)c * (size_t)f->bits / 8;
    if (f->kind == cudaChannelFormatKindFloat) {
      if (f->bits == 16) {
        uint16_t h;
        memcpy(&h, q, 2);
        r.v.f[c] = half_to_float(h);
      } else {
        memcpy(&r.v.f[c], q, 4);
      }
      continue;
    }
    long v;
    if (f->bits == 8)
      v = is_signed ? (long)*(const signed char *)q : (long)*q;
    else if (f->bits == 16) {
      uint16_t u;
      memcpy(&u, q, 2);
      v = is_signed ? (long)(int16_t)u : (long)u;
    } else {
      uint32_t u;
      memcpy(&u, q, 4);
      v = is_signed ? (long)(int32_t)u : (long)u;
    }
    if (!t->returns_float) {
      r.v.u[c] = (unsigned)v;
      continue;
    }
    /* Normalized float: only 8- and 16-bit channels get here. */
    float scale = is_signed ? (float)((1L << (f->bits - 1)) - 1)
                            : (float)((1L << f->bits) - 1);
    float n = (float)v / scale;
    if (n < -1.0f)
      n = -1.0f;
    if (t->desc.sRGB && !is_signed && f->bits == 8 && c < 3)
      n = srgb_to_linear(n);
    r.v.f[c] = n;
  }
  return r;
}

cuemu_texel cuemu__texture_border(const cuemu__texture *t) {
  cuemu_texel r;
  for (int c = 0; c < 4; ++c) {
    if (t->returns_float)
      r.v.f[c] = t->desc.borderColor[c];
    else
      r.v.i[c] = (int)t->desc.borderColor[c];
  }
  return r;
}

int cuemu__texture_cube_face(float x, float y, float z, float *s, float *t) {
  float ax = fabsf(x), ay = fabsf(y), az = fabsf(z);
  float m, sc, tc;
  int face;
  if (ax >= ay && ax >= az) {
    face = x >= 0.0f ? 0 : 1;
    m = ax;
    sc = x >= 0.0f ? -z : z;
    tc = -y;
  } else if (ay >= az) {
    face = y >= 0.0f ? 2 : 3;
    m = ay;
    sc = x;
    tc = y >= 0.0f ? z : -z;
  } else {
    face = z >= 0.0f ? 4 : 5;
    m = az;
    sc = z >= 0.0f ? x : -x;
    tc = -y;
  }
  if (m == 0.0f) {
    *s = *t = 0.5f;
    return face;
  }
  *s = (sc / m + 1.0f) * 0.5f;
  *t = (tc / m + 1.0f) * 0.5f;
  return face;
}
