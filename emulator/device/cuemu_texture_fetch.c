/*
 * cuemu_texture_fetch.c: cuemu_texture_fetch(), the one entry point of the
 * device's texture fetches (tex1Dfetch, tex1D/2D/3D, the layered and
 * cubemap forms, tex2Dgather, tex*Lod and tex*Grad): it checks that the
 * object and its resource can serve the fetch, chooses the mipmap level(s)
 * and samples them with the arithmetic of cuemu_texture_sample.c.
 */
#include <math.h>
#include <string.h>

#include "check/cuemu_check.h"
#include "device/cuemu_texture.h"

/* What one level is sampled with. */
typedef struct sampling {
  const cuemu__texture *t;
  int dims;       /* 1, 2 or 3 sampled dimensions */
  int normalized; /* normalized coordinates */
  int mode[3];    /* the address mode of each dimension */
  int linear;     /* linear filtering */
} sampling;

static const char *const shape_names[] = {
    "?",          "linear memory", "a 1D array",         "a 2D resource",
    "a 3D array", "a 1D layered array", "a 2D layered array",
    "a cubemap array", "a layered cubemap array"};

/* A level as cuemu_texture_sample_with samples it: the record's sizes, modes
 * and filter, and the level and object whose texels level_texel reads
 * (every format, with the checker's view of each read). */
typedef struct level_record {
  cuemu_texture_direct d; /* first: the sampler's pointer is the record's */
  const cuemu__texture *t;
  const cuemu__tex_level *lv;
} level_record;

/* The checkers' hook of every texel a fetch reads (cuemu_texture_seen_fn):
 * racecheck's and initcheck's view of the read, at the fetch's line. */
static void seen_texel(const void *p, size_t size) {
  const cuemu_texture_query *q = cuemu__texture_current;
  if (q)
    cuemu__check_texture_read(p, size, q->function, q->file, q->line);
}

static cuemu_texel level_texel(const cuemu_texture_direct *d, size_t x,
                               size_t y, size_t z, int seen) {
  const level_record *r = (const level_record *)d;
  return cuemu__texture_texel(r->t, r->lv, x, y, z, seen ? seen_texel : NULL);
}

/* Samples level `lv` at coordinates c (in the texture's coordinate units)
 * and slice z (layer or face): nearest point or linear, with the shims'
 * arithmetic (cuemu_texture_direct.h). */
static cuemu_texel sample_level(const sampling *s, const cuemu__tex_level *lv,
                                const float *c, size_t z) {
  level_record r;
  memset(&r, 0, sizeof r);
  r.d.cuemu_normalized = s->normalized;
  r.d.cuemu_linear = s->linear;
  for (int d = 0; d < 3; ++d)
    r.d.cuemu_mode[d] = s->mode[d];
  r.d.cuemu_n[0] = lv->width;
  r.d.cuemu_n[1] = lv->height;
  r.d.cuemu_n[2] = lv->depth;
  r.d.cuemu_border = cuemu__texture_border(s->t);
  r.t = s->t;
  r.lv = lv;
  return cuemu_texture_sample_with(&r.d, s->dims, c, z, seen_texel,
                                   level_texel);
}

/* tex2Dgather: component `comp` of the four texels of the bilinear
 * footprint, counter-clockwise from the lower left: (i, j+1), (i+1, j+1),
 * (i+1, j), (i, j). */
static cuemu_texel gather(const sampling *s, const cuemu__tex_level *lv,
                          const float *c, int comp) {
  size_t n[2] = {lv->width, lv->height};
  long lo[2];
  for (int d = 0; d < 2; ++d) {
    float u = cuemu__texture_coordinate(c[d], n[d], s->mode[d], s->normalized);
    if (u > 1e9f)
      u = 1e9f;
    if (u < -1e9f)
      u = -1e9f;
    lo[d] = (long)floorf(u - 0.5f);
  }
  static const int dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
  cuemu_texel r;
  for (int k = 0; k < 4; ++k) {
    long x = cuemu__texture_address(lo[0] + dx[k], n[0], s->mode[0]);
    long y = cuemu__texture_address(lo[1] + dy[k], n[1], s->mode[1]);
    cuemu_texel v = x < 0 || y < 0
                        ? cuemu__texture_border(s->t)
                        : cuemu__texture_texel(s->t, lv, (size_t)x, (size_t)y,
                                               0, seen_texel);
    r.v.u[k] = v.v.u[comp];
  }
  return r;
}

/* The level of detail of the fetch, before clamping. */
static float level_of_detail(const cuemu__texture *t, const sampling *s,
                             const cuemu_texture_query *q, int dims,
                             int cube_major_scale, float major) {
  if (q->lod == CUEMU_TEX_LOD_LEVEL)
    return q->level;
  if (q->lod != CUEMU_TEX_LOD_GRAD)
    return 0.0f;
  if (t->desc.maxAnisotropy > 1)
    cuemu__texture_fault(q->file, q->line,
                         "%s on a texture with maxAnisotropy %u: anisotropic "
                         "filtering is not supported by cuemu",
                         q->function, t->desc.maxAnisotropy);
  const cuemu__tex_level *base = &t->level[0];
  size_t n[3] = {base->width, base->height, base->depth};
  double rx = 0, ry = 0;
  for (int d = 0; d < dims; ++d) {
    double k = cube_major_scale ? (double)n[0] / (2.0 * major)
               : s->normalized ? (double)n[d]
                               : 1.0;
    rx += (q->ddx[d] * k) * (q->ddx[d] * k);
    ry += (q->ddy[d] * k) * (q->ddy[d] * k);
  }
  double rho = sqrt(rx > ry ? rx : ry);
  return rho > 0 ? (float)log2(rho) : -INFINITY;
}

/* Samples the fetch's level(s): mipmap selection, then sample_level or
 * gather on each and, for linear mipmap filtering, their blend. */
static cuemu_texel sample(const sampling *s, const cuemu_texture_query *q,
                          const float *c, size_t z, int cube, float major) {
  const cuemu__texture *t = s->t;
  if (t->levels <= 1) {
    if (q->op == CUEMU_TEX_2D_GATHER)
      return gather(s, &t->level[0], c, q->comp);
    return sample_level(s, &t->level[0], c, z);
  }
  float lambda = level_of_detail(t, s, q, cube ? 3 : s->dims, cube, major) +
                 t->desc.mipmapLevelBias;
  if (lambda < t->desc.minMipmapLevelClamp)
    lambda = t->desc.minMipmapLevelClamp;
  if (lambda > t->desc.maxMipmapLevelClamp)
    lambda = t->desc.maxMipmapLevelClamp;
  float top = (float)(t->levels - 1);
  if (!(lambda > 0.0f))
    lambda = 0.0f;
  if (lambda > top)
    lambda = top;
  if (t->desc.mipmapFilterMode != cudaFilterModeLinear)
    return sample_level(s, &t->level[(unsigned)floorf(lambda + 0.5f)], c, z);
  unsigned l0 = (unsigned)floorf(lambda);
  int a = cuemu__texture_weight(lambda - (float)l0);
  if (a == 0 || l0 + 1 >= t->levels)
    return sample_level(s, &t->level[a == 256 ? l0 + 1 : l0], c, z);
  cuemu_texel v0 = sample_level(s, &t->level[l0], c, z);
  cuemu_texel v1 = sample_level(s, &t->level[l0 + 1], c, z);
  cuemu_texel r;
  for (int ch = 0; ch < 4; ++ch)
    r.v.f[ch] = (float)(256 - a) * (1.0f / 256.0f) * v0.v.f[ch] +
                (float)a * (1.0f / 256.0f) * v1.v.f[ch];
  return r;
}

/* The layer index a fetch uses: clamped into the resource's layers. */
static size_t layer_of(int layer, size_t layers) {
  if (layer < 0)
    return 0;
  return (size_t)layer >= layers ? layers - 1 : (size_t)layer;
}

static cuemu_texel fetch(cudaTextureObject_t tex,
                         const cuemu_texture_query *q);

cuemu_texel cuemu_texture_fetch(cudaTextureObject_t tex,
                                const cuemu_texture_query *q) {
  cuemu__texture_current = q;
  cuemu_texel r = fetch(tex, q);
  cuemu__texture_current = NULL;
  return r;
}

static cuemu_texel fetch(cudaTextureObject_t tex,
                         const cuemu_texture_query *q) {
  const cuemu__texture *t = cuemu__texture_lookup(tex, 0);
  if (!t)
    cuemu__texture_fault(q->file, q->line,
                         "%s on texture object %#llx, which is not a live "
                         "texture object",
                         q->function, (unsigned long long)tex);
  if (cuemu__texture_shape_of_op(q->op, 0) != t->shape)
    cuemu__texture_fault(q->file, q->line,
                         "%s on a texture object over %s (CUDA leaves the "
                         "result undefined)",
                         q->function, shape_names[t->shape]);
  /* An object with a direct record: the shims' sampling, at whatever level
   * of detail (the object has one level). */
  if (t->direct.cuemu_op == q->op) {
    if (q->op == CUEMU_TEX_FETCH_1D)
      return cuemu_texture_direct_fetch(&t->direct, q->index, seen_texel);
    return cuemu_texture_direct_sample(&t->direct,
                                       q->op == CUEMU_TEX_1D   ? 1
                                       : q->op == CUEMU_TEX_2D ? 2
                                                               : 3,
                                       q->coord, seen_texel);
  }
  if (q->op == CUEMU_TEX_FETCH_1D) {
    /* Linear memory: no filtering or addressing; out of range reads 0. */
    const cuemu__tex_level *lv = &t->level[0];
    if (q->index < 0 || (size_t)q->index >= lv->width) {
      cuemu_texel zero = {{{0, 0, 0, 0}}};
      return zero;
    }
    return cuemu__texture_texel(t, lv, (size_t)q->index, 0, 0, seen_texel);
  }
  if (q->op == CUEMU_TEX_2D_GATHER && !t->gather)
    cuemu__texture_fault(q->file, q->line,
                         "tex2Dgather on an array allocated without "
                         "cudaArrayTextureGather (CUDA leaves the result "
                         "undefined)");
  if (q->op == CUEMU_TEX_2D_GATHER && (q->comp < 0 || q->comp > 3))
    cuemu__texture_fault(q->file, q->line,
                         "tex2Dgather with component %d (0 to 3 are valid)",
                         q->comp);
  sampling s;
  s.t = t;
  s.normalized = t->desc.normalizedCoords != 0;
  s.linear = t->desc.filterMode == cudaFilterModeLinear;
  for (int d = 0; d < 3; ++d) {
    int m = t->desc.addressMode[d];
    /* Wrap and mirror need normalized coordinates; otherwise, clamp. */
    if (!s.normalized &&
        (m == cudaAddressModeWrap || m == cudaAddressModeMirror))
      m = cudaAddressModeClamp;
    s.mode[d] = m;
  }
  float c[3] = {q->coord[0], q->coord[1], q->coord[2]};
  size_t layers = t->level[0].depth;
  switch (q->op) {
  case CUEMU_TEX_1D:
    s.dims = 1;
    return sample(&s, q, c, 0, 0, 0);
  case CUEMU_TEX_2D:
  case CUEMU_TEX_2D_GATHER:
    s.dims = 2;
    return sample(&s, q, c, 0, 0, 0);
  case CUEMU_TEX_3D:
    s.dims = 3;
    return sample(&s, q, c, 0, 0, 0);
  case CUEMU_TEX_1D_LAYERED:
    s.dims = 1;
    return sample(&s, q, c, layer_of(q->layer, layers), 0, 0);
  case CUEMU_TEX_2D_LAYERED:
    s.dims = 2;
    return sample(&s, q, c, layer_of(q->layer, layers), 0, 0);
  default: {
    /* Cubemaps: the face the direction selects, sampled in 2D with
     * normalized coordinates clamped to the face's edges. */
    float st[2];
    int face = cuemu__texture_cube_face(c[0], c[1], c[2], &st[0], &st[1]);
    float ax = fabsf(c[0]), ay = fabsf(c[1]), az = fabsf(c[2]);
    float major = ax > ay ? (ax > az ? ax : az) : (ay > az ? ay : az);
    size_t z = (size_t)face;
    if (q->op == CUEMU_TEX_CUBEMAP_LAYERED)
      z += 6 * layer_of(q->layer, layers / 6);
    s.dims = 2;
    s.normalized = 1;
    s.mode[0] = s.mode[1] = cudaAddressModeClamp;
    return sample(&s, q, st, z, 1, major);
  }
  }
}
