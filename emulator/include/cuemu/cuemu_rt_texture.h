/*
 * cuemu_rt_texture.h: libcuemu's side of CUDA's arrays, texture objects and
 * surface objects. shims/cuda_builtins/cuemu_texture_api.h forwards the
 * host calls (cudaMallocArray, cudaCreateTextureObject, ...) here, and the
 * device functions of cuemu_texture.h and cuemu_surface.h (tex2D, surf2Dwrite,
 * ...) call cuemu_texture_fetch() and cuemu_surface_access(). The host calls
 * return CUDA's error codes (cudaError_t values) as int and record failures
 * as the calling thread's last error, like the rest of cuemu_runtime.h.
 *
 * Arrays live in host memory that libcuemu owns, packed: element (x, y, z)
 * of a level is at ((z * height + y) * width + x) * element size. A layered
 * array's layers, and a cubemap's six faces (times the layers of a layered
 * cubemap), are its z. Copies are synchronous, as all copies are.
 *
 * Texture and surface objects are handles into one table; a handle that was
 * never created or was destroyed is refused by the host calls
 * (cudaErrorInvalidValue) and faults a kernel that uses it. How a fetch
 * computes its result (address modes, the 9-bit filter weights, conversions,
 * cubemap faces, mipmap levels) is in docs/textures.md.
 */
#ifndef CUEMU_RT_TEXTURE_H
#define CUEMU_RT_TEXTURE_H

#include <stddef.h>

#include <cuemu/cuemu_rt_texture_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Arrays (emulator/runtime/cuemu_rt_array.c). Host code. */

int cuemu_rt_malloc_array(cudaArray_t *array,
                          const struct cudaChannelFormatDesc *desc,
                          size_t width, size_t height, unsigned flags);
int cuemu_rt_malloc_3d_array(cudaArray_t *array,
                             const struct cudaChannelFormatDesc *desc,
                             struct cudaExtent extent, unsigned flags);
int cuemu_rt_malloc_mipmapped_array(cudaMipmappedArray_t *mipmap,
                                    const struct cudaChannelFormatDesc *desc,
                                    struct cudaExtent extent,
                                    unsigned num_levels, unsigned flags);
/* The array of one level; it belongs to the mipmapped array (freeing it
 * alone is refused). */
int cuemu_rt_get_mipmapped_array_level(cudaArray_t *level_array,
                                       cudaMipmappedArray_const_t mipmap,
                                       unsigned level);
int cuemu_rt_free_array(cudaArray_t array);
int cuemu_rt_free_mipmapped_array(cudaMipmappedArray_t mipmap);
int cuemu_rt_array_get_info(struct cudaChannelFormatDesc *desc,
                            struct cudaExtent *extent, unsigned *flags,
                            cudaArray_t array);
int cuemu_rt_get_channel_desc(struct cudaChannelFormatDesc *desc,
                              cudaArray_const_t array);
/* cudaCreateChannelDesc: the descriptor, unchecked (as CUDA's). */
struct cudaChannelFormatDesc cuemu_rt_create_channel_desc(
    int x, int y, int z, int w, enum cudaChannelFormatKind f);

/* Copies between arrays and memory. Offsets and widths are in bytes, as in
 * CUDA; `depth` layers of a layered array are copied by cuemu_rt_memcpy_3d.
 * A range past the array's end is cudaErrorInvalidValue. */
int cuemu_rt_memcpy_2d_to_array(cudaArray_t dst, size_t w_offset,
                                size_t h_offset, const void *src,
                                size_t spitch, size_t width, size_t height,
                                int kind);
int cuemu_rt_memcpy_2d_from_array(void *dst, size_t dpitch,
                                  cudaArray_const_t src, size_t w_offset,
                                  size_t h_offset, size_t width,
                                  size_t height, int kind);
int cuemu_rt_memcpy_2d_array_to_array(cudaArray_t dst, size_t w_offset_dst,
                                      size_t h_offset_dst,
                                      cudaArray_const_t src,
                                      size_t w_offset_src, size_t h_offset_src,
                                      size_t width, size_t height, int kind);
/* The deprecated one-dimensional forms: `count` bytes from (w_offset,
 * h_offset) on, row after row. */
int cuemu_rt_memcpy_to_array(cudaArray_t dst, size_t w_offset,
                             size_t h_offset, const void *src, size_t count,
                             int kind);
int cuemu_rt_memcpy_from_array(void *dst, cudaArray_const_t src,
                               size_t w_offset, size_t h_offset, size_t count,
                               int kind);
int cuemu_rt_memcpy_array_to_array(cudaArray_t dst, size_t w_offset_dst,
                                   size_t h_offset_dst, cudaArray_const_t src,
                                   size_t w_offset_src, size_t h_offset_src,
                                   size_t count, int kind);
int cuemu_rt_memcpy_3d(const struct cudaMemcpy3DParms *p);
int cuemu_rt_malloc_3d(struct cudaPitchedPtr *pitched, struct cudaExtent extent);
int cuemu_rt_memset_3d(struct cudaPitchedPtr pitched, int value,
                       struct cudaExtent extent);

/* Refuses a channel or array format that CUDA has and cuemu does not
 * emulate (the driver's block-compressed and YUV formats): records "array
 * format NAME is not emulated by cuemu" for cuemu_last_message(), prints it
 * unless CUEMU_QUIET=1, and returns `code`. The last error is not changed
 * (the driver API's calls never change it). Host code
 * (emulator/runtime/cuemu_rt_texture_view.c). */
int cuemu_rt_texture_refuse(const char *name, int code);

/* Texture and surface objects (emulator/runtime/cuemu_rt_texture.c). Host
 * code. */

int cuemu_rt_create_texture_object(cudaTextureObject_t *tex,
                                   const struct cudaResourceDesc *res,
                                   const struct cudaTextureDesc *desc,
                                   const struct cudaResourceViewDesc *view);
int cuemu_rt_destroy_texture_object(cudaTextureObject_t tex);
int cuemu_rt_get_texture_object_resource_desc(struct cudaResourceDesc *res,
                                              cudaTextureObject_t tex);
int cuemu_rt_get_texture_object_texture_desc(struct cudaTextureDesc *desc,
                                             cudaTextureObject_t tex);
int cuemu_rt_get_texture_object_resource_view_desc(
    struct cudaResourceViewDesc *view, cudaTextureObject_t tex);
int cuemu_rt_create_surface_object(cudaSurfaceObject_t *surf,
                                   const struct cudaResourceDesc *res);
int cuemu_rt_destroy_surface_object(cudaSurfaceObject_t surf);
int cuemu_rt_get_surface_object_resource_desc(struct cudaResourceDesc *res,
                                              cudaSurfaceObject_t surf);

/* Device side (emulator/runtime/cuemu_rt_texture_fetch.c and
 * cuemu_rt_surface.c). Kernel code. */

/* The kinds of texture fetch: CUDA's device functions by name. */
enum cuemu_texture_op {
  CUEMU_TEX_FETCH_1D = 1, /* tex1Dfetch: linear memory, integer index */
  CUEMU_TEX_1D,
  CUEMU_TEX_2D,
  CUEMU_TEX_3D,
  CUEMU_TEX_1D_LAYERED,
  CUEMU_TEX_2D_LAYERED,
  CUEMU_TEX_CUBEMAP,
  CUEMU_TEX_CUBEMAP_LAYERED,
  CUEMU_TEX_2D_GATHER
};

/* How the level of detail is chosen. */
enum cuemu_texture_lod {
  CUEMU_TEX_LOD_NONE = 0, /* level 0 (plus the descriptor's bias) */
  CUEMU_TEX_LOD_LEVEL,    /* tex*Lod: the given level */
  CUEMU_TEX_LOD_GRAD      /* tex*Grad: from the gradients */
};

/* One fetch: coordinates, layer, level or gradients, the gather component,
 * and the call's source location (for the messages of a faulting fetch). */
typedef struct cuemu_texture_query {
  int op;  /* enum cuemu_texture_op */
  int lod; /* enum cuemu_texture_lod */
  float coord[3];
  int index; /* tex1Dfetch's index */
  int layer;
  int comp; /* tex2Dgather's component, 0 to 3 */
  float level;
  float ddx[3];
  float ddy[3];
  const char *file;
  int line;
  const char *function; /* CUDA's name of the call, e.g. "tex2D" */
} cuemu_texture_query;

/* The result: four 32-bit registers, as the hardware returns them: floats
 * where the texture returns floating-point data (float or half channels,
 * cudaReadModeNormalizedFloat), else the integers, sign- or zero-extended.
 * *resident is set to 1 (arrays are always resident). */
typedef struct cuemu_texel {
  union {
    float f[4];
    int i[4];
    unsigned u[4];
  } v;
} cuemu_texel;

/* Performs the fetch q on texture object `tex`. A handle that is not a live
 * texture object, or a fetch its resource cannot serve (tex2D on linear
 * memory, a layer of an array that is not layered, ...) stops the launch
 * with CUEMU_KERNEL_FAULT and a message naming the kernel, thread and q's
 * line. */
cuemu_texel cuemu_texture_fetch(cudaTextureObject_t tex,
                                const cuemu_texture_query *__cuemu_q);

/* The surface accesses. */
enum cuemu_surface_op {
  CUEMU_SURF_1D = 1,
  CUEMU_SURF_2D,
  CUEMU_SURF_3D,
  CUEMU_SURF_1D_LAYERED,
  CUEMU_SURF_2D_LAYERED,
  CUEMU_SURF_CUBEMAP,
  CUEMU_SURF_CUBEMAP_LAYERED
};

/* Reads (write == 0) or writes `size` bytes at `data` from or to surface
 * object `surf` at byte column x, row y and slice, layer or face z, with
 * CUDA's boundary mode `mode` (enum cudaSurfaceBoundaryMode): out of range,
 * cudaBoundaryModeZero reads zeros and drops writes, cudaBoundaryModeClamp
 * uses the nearest element, cudaBoundaryModeTrap stops the launch with
 * CUEMU_KERNEL_FAULT, naming the kernel, thread, coordinates and the line.
 * `pc` is a code address in the caller, for the checkers' reports. */
void cuemu_surface_access(cudaSurfaceObject_t surf, int op, int write, int x,
                          int y, int z, void *data, size_t size, int mode,
                          const void *pc, const char *function,
                          const char *file, int line);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_RT_TEXTURE_H */
