/*
 * cuemu_surface.h: CUDA's surface reads and writes of surface objects
 * (surface_indirect_functions.h in CUDA 13): surf1D, surf2D, surf3D,
 * surf1DLayered, surf2DLayered, surfCubemap and surfCubemapLayered, each
 * with a read as a pointer-output template and a value template and a
 * write, for the element types CUDA allows (__nv_isurf_trait; another type
 * is a compile error, as in CUDA).
 *
 * As in CUDA, x is a byte offset, and the boundary mode (default
 * cudaBoundaryModeTrap) decides what an access out of range does; libcuemu's
 * cuemu_surface_access() (cuemu_rt_texture.h) does the access, and the
 * trailing defaulted parameters carry the caller's file and line for the
 * message of a trapping access. The accesses are not inlined, so that
 * their return address is in the caller: the checkers name the caller's
 * line for a race on a surface.
 */
#ifndef CUEMU_SURFACE_H
#define CUEMU_SURFACE_H

#include <cuemu/cuemu_rt_texture.h>

#include "surface_types.h"
#include "vector_types.h"

/* The element types a surface access may move: its bytes, unconverted. */
template <class T> struct __nv_isurf_trait {};
#define CUEMU_ISURF_(T)                                                        \
  template <> struct __nv_isurf_trait<T> {                                     \
    typedef void type;                                                         \
  };
CUEMU_ISURF_(char)
CUEMU_ISURF_(signed char)
CUEMU_ISURF_(char1)
CUEMU_ISURF_(unsigned char)
CUEMU_ISURF_(uchar1)
CUEMU_ISURF_(short)
CUEMU_ISURF_(short1)
CUEMU_ISURF_(unsigned short)
CUEMU_ISURF_(ushort1)
CUEMU_ISURF_(int)
CUEMU_ISURF_(int1)
CUEMU_ISURF_(unsigned int)
CUEMU_ISURF_(uint1)
CUEMU_ISURF_(long long)
CUEMU_ISURF_(longlong1)
CUEMU_ISURF_(unsigned long long)
CUEMU_ISURF_(ulonglong1)
CUEMU_ISURF_(float)
CUEMU_ISURF_(float1)
CUEMU_ISURF_(char2)
CUEMU_ISURF_(uchar2)
CUEMU_ISURF_(short2)
CUEMU_ISURF_(ushort2)
CUEMU_ISURF_(int2)
CUEMU_ISURF_(uint2)
CUEMU_ISURF_(longlong2)
CUEMU_ISURF_(ulonglong2)
CUEMU_ISURF_(float2)
CUEMU_ISURF_(char4)
CUEMU_ISURF_(uchar4)
CUEMU_ISURF_(short4)
CUEMU_ISURF_(ushort4)
CUEMU_ISURF_(int4)
CUEMU_ISURF_(uint4)
CUEMU_ISURF_(float4)
#undef CUEMU_ISURF_

#ifdef CUEMU_HOST_DECLS
/* The host pass's lean prelude: declarations only (cuemu_host_decls.h). */
#include "cuemu_surface_decls.h"
#else

/* ---- The accesses ------------------------------------------------------------ */

template <class T>
__attribute__((noinline)) static typename __nv_isurf_trait<T>::type
surf1Dread(T *ptr, cudaSurfaceObject_t obj, int x,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_surface_access(obj, CUEMU_SURF_1D, 0, x, 0, 0, ptr, sizeof(T), mode,
                       __builtin_return_address(0), "surf1Dread", cuemu_file, cuemu_line);
}

template <class T>
__attribute__((noinline)) static T surf1Dread(cudaSurfaceObject_t obj, int x,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  typename __nv_isurf_trait<T>::type *__cuemu_check = nullptr; /* CUDA's types only */
  (void)__cuemu_check;
  T ret;
  cuemu_surface_access(obj, CUEMU_SURF_1D, 0, x, 0, 0, &ret, sizeof(T), mode,
                       __builtin_return_address(0), "surf1Dread", cuemu_file,
                       cuemu_line);
  return ret;
}

template <class T>
__attribute__((noinline)) static typename __nv_isurf_trait<T>::type
surf1Dwrite(T val, cudaSurfaceObject_t obj, int x,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_surface_access(obj, CUEMU_SURF_1D, 1, x, 0, 0, &val, sizeof(T), mode,
                       __builtin_return_address(0), "surf1Dwrite", cuemu_file, cuemu_line);
}

template <class T>
__attribute__((noinline)) static typename __nv_isurf_trait<T>::type
surf2Dread(T *ptr, cudaSurfaceObject_t obj, int x, int y,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_surface_access(obj, CUEMU_SURF_2D, 0, x, y, 0, ptr, sizeof(T), mode,
                       __builtin_return_address(0), "surf2Dread", cuemu_file, cuemu_line);
}

template <class T>
__attribute__((noinline)) static T surf2Dread(cudaSurfaceObject_t obj, int x, int y,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  typename __nv_isurf_trait<T>::type *__cuemu_check = nullptr; /* CUDA's types only */
  (void)__cuemu_check;
  T ret;
  cuemu_surface_access(obj, CUEMU_SURF_2D, 0, x, y, 0, &ret, sizeof(T), mode,
                       __builtin_return_address(0), "surf2Dread", cuemu_file,
                       cuemu_line);
  return ret;
}

template <class T>
__attribute__((noinline)) static typename __nv_isurf_trait<T>::type
surf2Dwrite(T val, cudaSurfaceObject_t obj, int x, int y,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_surface_access(obj, CUEMU_SURF_2D, 1, x, y, 0, &val, sizeof(T), mode,
                       __builtin_return_address(0), "surf2Dwrite", cuemu_file, cuemu_line);
}

template <class T>
__attribute__((noinline)) static typename __nv_isurf_trait<T>::type
surf3Dread(T *ptr, cudaSurfaceObject_t obj, int x, int y, int z,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_surface_access(obj, CUEMU_SURF_3D, 0, x, y, z, ptr, sizeof(T), mode,
                       __builtin_return_address(0), "surf3Dread", cuemu_file, cuemu_line);
}

template <class T>
__attribute__((noinline)) static T surf3Dread(cudaSurfaceObject_t obj, int x, int y, int z,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  typename __nv_isurf_trait<T>::type *__cuemu_check = nullptr; /* CUDA's types only */
  (void)__cuemu_check;
  T ret;
  cuemu_surface_access(obj, CUEMU_SURF_3D, 0, x, y, z, &ret, sizeof(T), mode,
                       __builtin_return_address(0), "surf3Dread", cuemu_file,
                       cuemu_line);
  return ret;
}

template <class T>
__attribute__((noinline)) static typename __nv_isurf_trait<T>::type
surf3Dwrite(T val, cudaSurfaceObject_t obj, int x, int y, int z,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_surface_access(obj, CUEMU_SURF_3D, 1, x, y, z, &val, sizeof(T), mode,
                       __builtin_return_address(0), "surf3Dwrite", cuemu_file, cuemu_line);
}

template <class T>
__attribute__((noinline)) static typename __nv_isurf_trait<T>::type
surf1DLayeredread(T *ptr, cudaSurfaceObject_t obj, int x, int layer,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_surface_access(obj, CUEMU_SURF_1D_LAYERED, 0, x, 0, layer, ptr, sizeof(T), mode,
                       __builtin_return_address(0), "surf1DLayeredread", cuemu_file, cuemu_line);
}

template <class T>
__attribute__((noinline)) static T surf1DLayeredread(cudaSurfaceObject_t obj, int x, int layer,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  typename __nv_isurf_trait<T>::type *__cuemu_check = nullptr; /* CUDA's types only */
  (void)__cuemu_check;
  T ret;
  cuemu_surface_access(obj, CUEMU_SURF_1D_LAYERED, 0, x, 0, layer, &ret, sizeof(T), mode,
                       __builtin_return_address(0), "surf1DLayeredread", cuemu_file,
                       cuemu_line);
  return ret;
}

template <class T>
__attribute__((noinline)) static typename __nv_isurf_trait<T>::type
surf1DLayeredwrite(T val, cudaSurfaceObject_t obj, int x, int layer,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_surface_access(obj, CUEMU_SURF_1D_LAYERED, 1, x, 0, layer, &val, sizeof(T), mode,
                       __builtin_return_address(0), "surf1DLayeredwrite", cuemu_file, cuemu_line);
}

template <class T>
__attribute__((noinline)) static typename __nv_isurf_trait<T>::type
surf2DLayeredread(T *ptr, cudaSurfaceObject_t obj, int x, int y, int layer,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_surface_access(obj, CUEMU_SURF_2D_LAYERED, 0, x, y, layer, ptr, sizeof(T), mode,
                       __builtin_return_address(0), "surf2DLayeredread", cuemu_file, cuemu_line);
}

template <class T>
__attribute__((noinline)) static T surf2DLayeredread(cudaSurfaceObject_t obj, int x, int y, int layer,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  typename __nv_isurf_trait<T>::type *__cuemu_check = nullptr; /* CUDA's types only */
  (void)__cuemu_check;
  T ret;
  cuemu_surface_access(obj, CUEMU_SURF_2D_LAYERED, 0, x, y, layer, &ret, sizeof(T), mode,
                       __builtin_return_address(0), "surf2DLayeredread", cuemu_file,
                       cuemu_line);
  return ret;
}

template <class T>
__attribute__((noinline)) static typename __nv_isurf_trait<T>::type
surf2DLayeredwrite(T val, cudaSurfaceObject_t obj, int x, int y, int layer,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_surface_access(obj, CUEMU_SURF_2D_LAYERED, 1, x, y, layer, &val, sizeof(T), mode,
                       __builtin_return_address(0), "surf2DLayeredwrite", cuemu_file, cuemu_line);
}

template <class T>
__attribute__((noinline)) static typename __nv_isurf_trait<T>::type
surfCubemapread(T *ptr, cudaSurfaceObject_t obj, int x, int y, int face,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_surface_access(obj, CUEMU_SURF_CUBEMAP, 0, x, y, face, ptr, sizeof(T), mode,
                       __builtin_return_address(0), "surfCubemapread", cuemu_file, cuemu_line);
}

template <class T>
__attribute__((noinline)) static T surfCubemapread(cudaSurfaceObject_t obj, int x, int y, int face,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  typename __nv_isurf_trait<T>::type *__cuemu_check = nullptr; /* CUDA's types only */
  (void)__cuemu_check;
  T ret;
  cuemu_surface_access(obj, CUEMU_SURF_CUBEMAP, 0, x, y, face, &ret, sizeof(T), mode,
                       __builtin_return_address(0), "surfCubemapread", cuemu_file,
                       cuemu_line);
  return ret;
}

template <class T>
__attribute__((noinline)) static typename __nv_isurf_trait<T>::type
surfCubemapwrite(T val, cudaSurfaceObject_t obj, int x, int y, int face,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_surface_access(obj, CUEMU_SURF_CUBEMAP, 1, x, y, face, &val, sizeof(T), mode,
                       __builtin_return_address(0), "surfCubemapwrite", cuemu_file, cuemu_line);
}

template <class T>
__attribute__((noinline)) static typename __nv_isurf_trait<T>::type
surfCubemapLayeredread(T *ptr, cudaSurfaceObject_t obj, int x, int y, int layerface,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_surface_access(obj, CUEMU_SURF_CUBEMAP_LAYERED, 0, x, y, layerface, ptr, sizeof(T), mode,
                       __builtin_return_address(0), "surfCubemapLayeredread", cuemu_file, cuemu_line);
}

template <class T>
__attribute__((noinline)) static T surfCubemapLayeredread(cudaSurfaceObject_t obj, int x, int y, int layerface,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  typename __nv_isurf_trait<T>::type *__cuemu_check = nullptr; /* CUDA's types only */
  (void)__cuemu_check;
  T ret;
  cuemu_surface_access(obj, CUEMU_SURF_CUBEMAP_LAYERED, 0, x, y, layerface, &ret, sizeof(T), mode,
                       __builtin_return_address(0), "surfCubemapLayeredread", cuemu_file,
                       cuemu_line);
  return ret;
}

template <class T>
__attribute__((noinline)) static typename __nv_isurf_trait<T>::type
surfCubemapLayeredwrite(T val, cudaSurfaceObject_t obj, int x, int y, int layerface,
    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  cuemu_surface_access(obj, CUEMU_SURF_CUBEMAP_LAYERED, 1, x, y, layerface, &val, sizeof(T), mode,
                       __builtin_return_address(0), "surfCubemapLayeredwrite", cuemu_file, cuemu_line);
}

#endif /* CUEMU_HOST_DECLS */

#endif /* CUEMU_SURFACE_H */
