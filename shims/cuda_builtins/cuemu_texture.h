/*
 * cuemu_texture.h: CUDA's texture fetches of texture objects
 * (texture_indirect_functions.h in CUDA 13): tex1Dfetch, tex1D, tex2D,
 * tex3D, tex1DLayered, tex2DLayered, texCubemap, texCubemapLayered,
 * tex2Dgather, the tex*Lod and tex*Grad forms and the sparse forms with an
 * isResident output, each as CUDA declares it: a pointer-output template
 * `tex2D(T *ptr, obj, x, y)` and a value template `tex2D<T>(obj, x, y)`,
 * for the element types CUDA allows (__nv_itex_trait; another type is a
 * compile error, as in CUDA).
 *
 * tex1Dfetch, tex1D, tex2D and tex3D of the common objects are sampled
 * inline, from the object's direct record (cuemu_texture_direct.h), with
 * the functions libcuemu uses for them. Every other fetch builds a
 * cuemu_texture_query and calls libcuemu's cuemu_texture_fetch()
 * (cuemu_rt_texture.h), which does the addressing, filtering and
 * conversion in one place (docs/textures.md). The trailing
 * defaulted parameters carry the caller's file and line for the message of
 * a faulting fetch; programs never pass them.
 */
#ifndef CUEMU_TEXTURE_H
#define CUEMU_TEXTURE_H

#include <cuemu/cuemu_rt_texture.h>
#include <cuemu/cuemu_texture_direct.h>

#include "texture_types.h"
#include "vector_types.h"

/* A query of `op` with everything else zero. */
static inline cuemu_texture_query cuemu_tex_query_(int op, int lod,
                                                   const char *function,
                                                   const char *file,
                                                   int line) {
  cuemu_texture_query __cuemu_q = {};
  __cuemu_q.op = op;
  __cuemu_q.lod = lod;
  __cuemu_q.function = function;
  __cuemu_q.file = file;
  __cuemu_q.line = line;
  return __cuemu_q;
}

#define CUEMU_TEX_GRAD2_(__cuemu_q, dx, dy)                                            \
  ((__cuemu_q).ddx[0] = (dx).x, (__cuemu_q).ddx[1] = (dx).y, (__cuemu_q).ddy[0] = (dy).x,             \
   (__cuemu_q).ddy[1] = (dy).y)
#define CUEMU_TEX_GRAD3_(__cuemu_q, dx, dy)                                            \
  ((__cuemu_q).ddx[0] = (dx).x, (__cuemu_q).ddx[1] = (dx).y, (__cuemu_q).ddx[2] = (dx).z,             \
   (__cuemu_q).ddy[0] = (dy).x, (__cuemu_q).ddy[1] = (dy).y, (__cuemu_q).ddy[2] = (dy).z)

/* Component c of a fetch's result as S: the float register for float, the
 * integer register (narrowed as CUDA's conversion does) otherwise. */
template <class S_> inline S_ cuemu_tex_component_(const cuemu_texel &__cuemu_r, int c) {
  return static_cast<S_>(__cuemu_r.v.i[c]);
}
template <> inline float cuemu_tex_component_<float>(const cuemu_texel &__cuemu_r,
                                                     int c) {
  return __cuemu_r.v.f[c];
}

/* The element types a fetch may return, and how a result becomes one. */
template <class T> struct __nv_itex_trait {};

#define CUEMU_ITEX_SCALAR_(T)                                                  \
  template <> struct __nv_itex_trait<T> {                                      \
    typedef void type;                                                         \
    static void put(T *p, const cuemu_texel &__cuemu_r) {                              \
      *p = cuemu_tex_component_<T>(__cuemu_r, 0);                                      \
    }                                                                          \
  };
#define CUEMU_ITEX_VEC1_(V_, S_)                                               \
  template <> struct __nv_itex_trait<V_> {                                     \
    typedef void type;                                                         \
    static void put(V_ *p, const cuemu_texel &__cuemu_r) {                             \
      p->x = cuemu_tex_component_<S_>(__cuemu_r, 0);                                   \
    }                                                                          \
  };
#define CUEMU_ITEX_VEC2_(V_, S_)                                               \
  template <> struct __nv_itex_trait<V_> {                                     \
    typedef void type;                                                         \
    static void put(V_ *p, const cuemu_texel &__cuemu_r) {                             \
      p->x = cuemu_tex_component_<S_>(__cuemu_r, 0);                                   \
      p->y = cuemu_tex_component_<S_>(__cuemu_r, 1);                                   \
    }                                                                          \
  };
#define CUEMU_ITEX_VEC4_(V_, S_)                                               \
  template <> struct __nv_itex_trait<V_> {                                     \
    typedef void type;                                                         \
    static void put(V_ *p, const cuemu_texel &__cuemu_r) {                             \
      p->x = cuemu_tex_component_<S_>(__cuemu_r, 0);                                   \
      p->y = cuemu_tex_component_<S_>(__cuemu_r, 1);                                   \
      p->z = cuemu_tex_component_<S_>(__cuemu_r, 2);                                   \
      p->w = cuemu_tex_component_<S_>(__cuemu_r, 3);                                   \
    }                                                                          \
  };
#define CUEMU_ITEX_FAMILY_(stem, S_)                                           \
  CUEMU_ITEX_VEC1_(stem##1, S_)                                                \
  CUEMU_ITEX_VEC2_(stem##2, S_)                                                \
  CUEMU_ITEX_VEC4_(stem##4, S_)

CUEMU_ITEX_SCALAR_(char)
CUEMU_ITEX_SCALAR_(signed char)
CUEMU_ITEX_SCALAR_(unsigned char)
CUEMU_ITEX_SCALAR_(short)
CUEMU_ITEX_SCALAR_(unsigned short)
CUEMU_ITEX_SCALAR_(int)
CUEMU_ITEX_SCALAR_(unsigned int)
CUEMU_ITEX_SCALAR_(float)
CUEMU_ITEX_FAMILY_(char, signed char)
CUEMU_ITEX_FAMILY_(uchar, unsigned char)
CUEMU_ITEX_FAMILY_(short, short)
CUEMU_ITEX_FAMILY_(ushort, unsigned short)
CUEMU_ITEX_FAMILY_(int, int)
CUEMU_ITEX_FAMILY_(uint, unsigned int)
CUEMU_ITEX_FAMILY_(float, float)

#undef CUEMU_ITEX_FAMILY_
#undef CUEMU_ITEX_VEC4_
#undef CUEMU_ITEX_VEC2_
#undef CUEMU_ITEX_VEC1_
#undef CUEMU_ITEX_SCALAR_

/* The direct record for a fetch of `op` on obj, or null. A checked build
 * (cuemu-cc --check=...) always calls libcuemu: its instrumentation would
 * take the inline sampling's reads for the kernel's own accesses, which the
 * checkers see otherwise (docs/textures.md). So does a unit compiled with
 * the host compiler's -ffast-math, which would change the sampling's
 * arithmetic (a division by 255 becomes a multiplication, sums reorder). */
static inline const cuemu_texture_direct *cuemu_tex_direct_(cudaTextureObject_t __cuemu_obj,
                                                            int __cuemu_op) {
#if defined(CUEMU_CHECKED_BUILD) || defined(__FAST_MATH__)
  (void)__cuemu_obj;
  (void)__cuemu_op;
  return nullptr;
#else
  return cuemu_texture_direct_of(__cuemu_obj, __cuemu_op);
#endif
}

/* The direct sampling of a fetch of `dims` coordinates, into *ptr; false
 * when the fetch must go to libcuemu. */
template <class T>
static inline __attribute__((always_inline)) bool cuemu_tex_direct_sample_(T *__cuemu_ptr, cudaTextureObject_t __cuemu_obj, int __cuemu_op,
                                            int __cuemu_dims, float __cuemu_x, float __cuemu_y, float __cuemu_z) {
  const cuemu_texture_direct *__cuemu_d = cuemu_tex_direct_(__cuemu_obj, __cuemu_op);
  if (!__cuemu_d)
    return false;
  const float __cuemu_c[3] = {__cuemu_x, __cuemu_y, __cuemu_z};
  __nv_itex_trait<T>::put(__cuemu_ptr, cuemu_texture_direct_sample(__cuemu_d, __cuemu_dims, __cuemu_c, nullptr));
  return true;
}

#ifdef CUEMU_HOST_DECLS
/* The host pass's lean prelude: declarations only (cuemu_host_decls.h). */
#include "cuemu_texture_decls.h"
#else

/* ---- The fetches ----------------------------------------------------------- */


template <class T>
static inline typename __nv_itex_trait<T>::type
tex1Dfetch(T *ptr, cudaTextureObject_t obj, int x,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  if (const cuemu_texture_direct *__cuemu_d = cuemu_tex_direct_(obj, CUEMU_TEX_FETCH_1D)) {
    __nv_itex_trait<T>::put(ptr, cuemu_texture_direct_fetch(__cuemu_d, x, nullptr));
    return;
  }
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_FETCH_1D, CUEMU_TEX_LOD_NONE, "tex1Dfetch",
                                           cuemu_file, cuemu_line);
  __cuemu_q.index = x;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex1Dfetch(cudaTextureObject_t obj, int x,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex1Dfetch(&ret, obj, x, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex1D(T *ptr, cudaTextureObject_t obj, float x,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  if (cuemu_tex_direct_sample_(ptr, obj, CUEMU_TEX_1D, 1, x, 0.0f, 0.0f))
    return;
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_1D, CUEMU_TEX_LOD_NONE, "tex1D",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex1D(cudaTextureObject_t obj, float x,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex1D(&ret, obj, x, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex2D(T *ptr, cudaTextureObject_t obj, float x, float y,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  if (cuemu_tex_direct_sample_(ptr, obj, CUEMU_TEX_2D, 2, x, y, 0.0f))
    return;
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_2D, CUEMU_TEX_LOD_NONE, "tex2D",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex2D(cudaTextureObject_t obj, float x, float y,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex2D(&ret, obj, x, y, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex2D(T *ptr, cudaTextureObject_t obj, float x, float y, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  if (cuemu_tex_direct_sample_(ptr, obj, CUEMU_TEX_2D, 2, x, y, 0.0f)) {
    *isResident = true;
    return;
  }
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_2D, CUEMU_TEX_LOD_NONE, "tex2D",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
  *isResident = true; /* arrays are always resident */
}

template <class T>
static inline T tex2D(cudaTextureObject_t obj, float x, float y, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex2D(&ret, obj, x, y, isResident, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex3D(T *ptr, cudaTextureObject_t obj, float x, float y, float z,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  if (cuemu_tex_direct_sample_(ptr, obj, CUEMU_TEX_3D, 3, x, y, z))
    return;
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_3D, CUEMU_TEX_LOD_NONE, "tex3D",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.coord[2] = z;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex3D(cudaTextureObject_t obj, float x, float y, float z,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex3D(&ret, obj, x, y, z, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex3D(T *ptr, cudaTextureObject_t obj, float x, float y, float z, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  if (cuemu_tex_direct_sample_(ptr, obj, CUEMU_TEX_3D, 3, x, y, z)) {
    *isResident = true;
    return;
  }
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_3D, CUEMU_TEX_LOD_NONE, "tex3D",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.coord[2] = z;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
  *isResident = true; /* arrays are always resident */
}

template <class T>
static inline T tex3D(cudaTextureObject_t obj, float x, float y, float z, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex3D(&ret, obj, x, y, z, isResident, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex1DLayered(T *ptr, cudaTextureObject_t obj, float x, int layer,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_1D_LAYERED, CUEMU_TEX_LOD_NONE, "tex1DLayered",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.layer = layer;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex1DLayered(cudaTextureObject_t obj, float x, int layer,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex1DLayered(&ret, obj, x, layer, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex2DLayered(T *ptr, cudaTextureObject_t obj, float x, float y, int layer,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_2D_LAYERED, CUEMU_TEX_LOD_NONE, "tex2DLayered",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.layer = layer;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex2DLayered(cudaTextureObject_t obj, float x, float y, int layer,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex2DLayered(&ret, obj, x, y, layer, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex2DLayered(T *ptr, cudaTextureObject_t obj, float x, float y, int layer, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_2D_LAYERED, CUEMU_TEX_LOD_NONE, "tex2DLayered",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.layer = layer;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
  *isResident = true; /* arrays are always resident */
}

template <class T>
static inline T tex2DLayered(cudaTextureObject_t obj, float x, float y, int layer, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex2DLayered(&ret, obj, x, y, layer, isResident, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
texCubemap(T *ptr, cudaTextureObject_t obj, float x, float y, float z,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_CUBEMAP, CUEMU_TEX_LOD_NONE, "texCubemap",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.coord[2] = z;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T texCubemap(cudaTextureObject_t obj, float x, float y, float z,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  texCubemap(&ret, obj, x, y, z, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
texCubemapLayered(T *ptr, cudaTextureObject_t obj, float x, float y, float z, int layer,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_CUBEMAP_LAYERED, CUEMU_TEX_LOD_NONE, "texCubemapLayered",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.coord[2] = z;
  __cuemu_q.layer = layer;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T texCubemapLayered(cudaTextureObject_t obj, float x, float y, float z, int layer,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  texCubemapLayered(&ret, obj, x, y, z, layer, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex2Dgather(T *ptr, cudaTextureObject_t obj, float x, float y, int comp = 0,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_2D_GATHER, CUEMU_TEX_LOD_NONE, "tex2Dgather",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.comp = comp;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex2Dgather(cudaTextureObject_t obj, float x, float y, int comp = 0,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex2Dgather(&ret, obj, x, y, comp, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex2Dgather(T *ptr, cudaTextureObject_t obj, float x, float y, bool * isResident, int comp = 0,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_2D_GATHER, CUEMU_TEX_LOD_NONE, "tex2Dgather",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.comp = comp;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
  *isResident = true; /* arrays are always resident */
}

template <class T>
static inline T tex2Dgather(cudaTextureObject_t obj, float x, float y, bool * isResident, int comp = 0,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex2Dgather(&ret, obj, x, y, isResident, comp, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex1DLod(T *ptr, cudaTextureObject_t obj, float x, float level,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_1D, CUEMU_TEX_LOD_LEVEL, "tex1DLod",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.level = level;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex1DLod(cudaTextureObject_t obj, float x, float level,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex1DLod(&ret, obj, x, level, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex2DLod(T *ptr, cudaTextureObject_t obj, float x, float y, float level,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_2D, CUEMU_TEX_LOD_LEVEL, "tex2DLod",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.level = level;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex2DLod(cudaTextureObject_t obj, float x, float y, float level,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex2DLod(&ret, obj, x, y, level, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex2DLod(T *ptr, cudaTextureObject_t obj, float x, float y, float level, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_2D, CUEMU_TEX_LOD_LEVEL, "tex2DLod",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.level = level;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
  *isResident = true; /* arrays are always resident */
}

template <class T>
static inline T tex2DLod(cudaTextureObject_t obj, float x, float y, float level, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex2DLod(&ret, obj, x, y, level, isResident, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex3DLod(T *ptr, cudaTextureObject_t obj, float x, float y, float z, float level,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_3D, CUEMU_TEX_LOD_LEVEL, "tex3DLod",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.coord[2] = z;
  __cuemu_q.level = level;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex3DLod(cudaTextureObject_t obj, float x, float y, float z, float level,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex3DLod(&ret, obj, x, y, z, level, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex3DLod(T *ptr, cudaTextureObject_t obj, float x, float y, float z, float level, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_3D, CUEMU_TEX_LOD_LEVEL, "tex3DLod",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.coord[2] = z;
  __cuemu_q.level = level;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
  *isResident = true; /* arrays are always resident */
}

template <class T>
static inline T tex3DLod(cudaTextureObject_t obj, float x, float y, float z, float level, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex3DLod(&ret, obj, x, y, z, level, isResident, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex1DLayeredLod(T *ptr, cudaTextureObject_t obj, float x, int layer, float level,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_1D_LAYERED, CUEMU_TEX_LOD_LEVEL, "tex1DLayeredLod",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.layer = layer;
  __cuemu_q.level = level;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex1DLayeredLod(cudaTextureObject_t obj, float x, int layer, float level,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex1DLayeredLod(&ret, obj, x, layer, level, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex2DLayeredLod(T *ptr, cudaTextureObject_t obj, float x, float y, int layer, float level,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_2D_LAYERED, CUEMU_TEX_LOD_LEVEL, "tex2DLayeredLod",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.layer = layer;
  __cuemu_q.level = level;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex2DLayeredLod(cudaTextureObject_t obj, float x, float y, int layer, float level,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex2DLayeredLod(&ret, obj, x, y, layer, level, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex2DLayeredLod(T *ptr, cudaTextureObject_t obj, float x, float y, int layer, float level, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_2D_LAYERED, CUEMU_TEX_LOD_LEVEL, "tex2DLayeredLod",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.layer = layer;
  __cuemu_q.level = level;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
  *isResident = true; /* arrays are always resident */
}

template <class T>
static inline T tex2DLayeredLod(cudaTextureObject_t obj, float x, float y, int layer, float level, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex2DLayeredLod(&ret, obj, x, y, layer, level, isResident, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
texCubemapLod(T *ptr, cudaTextureObject_t obj, float x, float y, float z, float level,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_CUBEMAP, CUEMU_TEX_LOD_LEVEL, "texCubemapLod",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.coord[2] = z;
  __cuemu_q.level = level;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T texCubemapLod(cudaTextureObject_t obj, float x, float y, float z, float level,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  texCubemapLod(&ret, obj, x, y, z, level, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
texCubemapGrad(T *ptr, cudaTextureObject_t obj, float x, float y, float z, float4 dPdx, float4 dPdy,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_CUBEMAP, CUEMU_TEX_LOD_GRAD, "texCubemapGrad",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.coord[2] = z;
  CUEMU_TEX_GRAD3_(__cuemu_q, dPdx, dPdy);
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T texCubemapGrad(cudaTextureObject_t obj, float x, float y, float z, float4 dPdx, float4 dPdy,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  texCubemapGrad(&ret, obj, x, y, z, dPdx, dPdy, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
texCubemapLayeredLod(T *ptr, cudaTextureObject_t obj, float x, float y, float z, int layer, float level,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_CUBEMAP_LAYERED, CUEMU_TEX_LOD_LEVEL, "texCubemapLayeredLod",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.coord[2] = z;
  __cuemu_q.layer = layer;
  __cuemu_q.level = level;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T texCubemapLayeredLod(cudaTextureObject_t obj, float x, float y, float z, int layer, float level,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  texCubemapLayeredLod(&ret, obj, x, y, z, layer, level, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex1DGrad(T *ptr, cudaTextureObject_t obj, float x, float dPdx, float dPdy,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_1D, CUEMU_TEX_LOD_GRAD, "tex1DGrad",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.ddx[0] = dPdx;
  __cuemu_q.ddy[0] = dPdy;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex1DGrad(cudaTextureObject_t obj, float x, float dPdx, float dPdy,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex1DGrad(&ret, obj, x, dPdx, dPdy, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex2DGrad(T *ptr, cudaTextureObject_t obj, float x, float y, float2 dPdx, float2 dPdy,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_2D, CUEMU_TEX_LOD_GRAD, "tex2DGrad",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  CUEMU_TEX_GRAD2_(__cuemu_q, dPdx, dPdy);
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex2DGrad(cudaTextureObject_t obj, float x, float y, float2 dPdx, float2 dPdy,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex2DGrad(&ret, obj, x, y, dPdx, dPdy, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex2DGrad(T *ptr, cudaTextureObject_t obj, float x, float y, float2 dPdx, float2 dPdy, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_2D, CUEMU_TEX_LOD_GRAD, "tex2DGrad",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  CUEMU_TEX_GRAD2_(__cuemu_q, dPdx, dPdy);
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
  *isResident = true; /* arrays are always resident */
}

template <class T>
static inline T tex2DGrad(cudaTextureObject_t obj, float x, float y, float2 dPdx, float2 dPdy, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex2DGrad(&ret, obj, x, y, dPdx, dPdy, isResident, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex3DGrad(T *ptr, cudaTextureObject_t obj, float x, float y, float z, float4 dPdx, float4 dPdy,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_3D, CUEMU_TEX_LOD_GRAD, "tex3DGrad",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.coord[2] = z;
  CUEMU_TEX_GRAD3_(__cuemu_q, dPdx, dPdy);
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex3DGrad(cudaTextureObject_t obj, float x, float y, float z, float4 dPdx, float4 dPdy,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex3DGrad(&ret, obj, x, y, z, dPdx, dPdy, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex3DGrad(T *ptr, cudaTextureObject_t obj, float x, float y, float z, float4 dPdx, float4 dPdy, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_3D, CUEMU_TEX_LOD_GRAD, "tex3DGrad",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.coord[2] = z;
  CUEMU_TEX_GRAD3_(__cuemu_q, dPdx, dPdy);
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
  *isResident = true; /* arrays are always resident */
}

template <class T>
static inline T tex3DGrad(cudaTextureObject_t obj, float x, float y, float z, float4 dPdx, float4 dPdy, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex3DGrad(&ret, obj, x, y, z, dPdx, dPdy, isResident, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex1DLayeredGrad(T *ptr, cudaTextureObject_t obj, float x, int layer, float dPdx, float dPdy,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_1D_LAYERED, CUEMU_TEX_LOD_GRAD, "tex1DLayeredGrad",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.layer = layer;
  __cuemu_q.ddx[0] = dPdx;
  __cuemu_q.ddy[0] = dPdy;
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex1DLayeredGrad(cudaTextureObject_t obj, float x, int layer, float dPdx, float dPdy,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex1DLayeredGrad(&ret, obj, x, layer, dPdx, dPdy, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex2DLayeredGrad(T *ptr, cudaTextureObject_t obj, float x, float y, int layer, float2 dPdx, float2 dPdy,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_2D_LAYERED, CUEMU_TEX_LOD_GRAD, "tex2DLayeredGrad",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.layer = layer;
  CUEMU_TEX_GRAD2_(__cuemu_q, dPdx, dPdy);
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T tex2DLayeredGrad(cudaTextureObject_t obj, float x, float y, int layer, float2 dPdx, float2 dPdy,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex2DLayeredGrad(&ret, obj, x, y, layer, dPdx, dPdy, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
tex2DLayeredGrad(T *ptr, cudaTextureObject_t obj, float x, float y, int layer, float2 dPdx, float2 dPdy, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_2D_LAYERED, CUEMU_TEX_LOD_GRAD, "tex2DLayeredGrad",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.layer = layer;
  CUEMU_TEX_GRAD2_(__cuemu_q, dPdx, dPdy);
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
  *isResident = true; /* arrays are always resident */
}

template <class T>
static inline T tex2DLayeredGrad(cudaTextureObject_t obj, float x, float y, int layer, float2 dPdx, float2 dPdy, bool * isResident,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  tex2DLayeredGrad(&ret, obj, x, y, layer, dPdx, dPdy, isResident, cuemu_file, cuemu_line);
  return ret;
}

template <class T>
static inline typename __nv_itex_trait<T>::type
texCubemapLayeredGrad(T *ptr, cudaTextureObject_t obj, float x, float y, float z, int layer, float4 dPdx, float4 dPdy,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_texture_query __cuemu_q = cuemu_tex_query_(CUEMU_TEX_CUBEMAP_LAYERED, CUEMU_TEX_LOD_GRAD, "texCubemapLayeredGrad",
                                           cuemu_file, cuemu_line);
  __cuemu_q.coord[0] = x;
  __cuemu_q.coord[1] = y;
  __cuemu_q.coord[2] = z;
  __cuemu_q.layer = layer;
  CUEMU_TEX_GRAD3_(__cuemu_q, dPdx, dPdy);
  __nv_itex_trait<T>::put(ptr, cuemu_texture_fetch(obj, &__cuemu_q));
}

template <class T>
static inline T texCubemapLayeredGrad(cudaTextureObject_t obj, float x, float y, float z, int layer, float4 dPdx, float4 dPdy,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  T ret;
  texCubemapLayeredGrad(&ret, obj, x, y, z, layer, dPdx, dPdy, cuemu_file, cuemu_line);
  return ret;
}

#endif /* CUEMU_HOST_DECLS */

#endif /* CUEMU_TEXTURE_H */
