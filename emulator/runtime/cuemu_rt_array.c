/*
 * cuemu_rt_array.c: CUDA arrays (cudaMallocArray, cudaMalloc3DArray,
 * mipmapped arrays), the copies to, from and between them, cudaMalloc3D,
 * cudaMemcpy3D and cudaMemset3D.
 *
 * An array's elements are packed in memory libcuemu owns, tracked in the
 * table of allocations as device memory, so that every copy goes through
 * the checked 2D copy of cuemu_rt_memory.c (kinds, ranges, the sticky
 * error) and initcheck sees arrays written. Live arrays are kept in a list,
 * so that a handle that is not one is refused.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>

#include "core/cuemu_allocations.h"
#include "runtime/cuemu_rt_array.h"
#include "runtime/cuemu_rt_stream_queue.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_texture_view.h"

#define ARRAY_MAGIC 0x41525241u   /* "ARRA" */
#define MIPMAP_MAGIC 0x50494d4du  /* "MMIP" */
#define FREED_MAGIC 0xdeadbeefu

/* CUDA's largest array sides on sm_90 (cudaDeviceProp's maxTexture*). */
#define MAX_1D 131072u
#define MAX_2D_W 131072u
#define MAX_2D_H 65536u
#define MAX_3D 16384u
#define MAX_LAYERS 2048u
#define MAX_CUBE 32768u

/* The live arrays and mipmapped arrays. */
typedef struct live_entry {
  void *handle;
  struct live_entry *next;
} live_entry;

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static live_entry *live_list;

/* Adds `h` to the live list; returns 0, or -1 when memory ran out. */
static int live_add(void *h) {
  live_entry *e = malloc(sizeof *e);
  if (!e)
    return -1;
  e->handle = h;
  pthread_mutex_lock(&live_lock);
  e->next = live_list;
  live_list = e;
  pthread_mutex_unlock(&live_lock);
  return 0;
}

/* Removes `h`; returns its entry, or NULL when it is not live. */
static live_entry *live_remove(const void *h) {
  pthread_mutex_lock(&live_lock);
  live_entry **p = &live_list;
  while (*p && (*p)->handle != h)
    p = &(*p)->next;
  live_entry *e = *p;
  if (e)
    *p = e->next;
  pthread_mutex_unlock(&live_lock);
  return e;
}

static int live_has(const void *h) {
  pthread_mutex_lock(&live_lock);
  live_entry *e = live_list;
  while (e && e->handle != h)
    e = e->next;
  pthread_mutex_unlock(&live_lock);
  return e != NULL;
}

int cuemu__array_valid(const struct cudaArray *a) {
  if (!a)
    return 0;
  if (live_has(a))
    return 1;
  /* A level of a live mipmapped array. */
  pthread_mutex_lock(&live_lock);
  int found = 0;
  for (live_entry *e = live_list; e && !found; e = e->next) {
    const struct cudaMipmappedArray *m = e->handle;
    if (m->magic != MIPMAP_MAGIC)
      continue;
    for (unsigned l = 0; l < m->levels; ++l)
      found |= m->level[l] == a;
  }
  pthread_mutex_unlock(&live_lock);
  return found;
}

int cuemu__mipmapped_array_valid(const struct cudaMipmappedArray *m) {
  return m && live_has(m) && m->magic == MIPMAP_MAGIC;
}

struct cudaChannelFormatDesc cuemu_rt_create_channel_desc(
    int x, int y, int z, int w, enum cudaChannelFormatKind f) {
  struct cudaChannelFormatDesc d = {x, y, z, w, f};
  return d;
}

int cuemu__format_decode(const struct cudaChannelFormatDesc *desc,
                         cuemu__format *out) {
  if (!desc)
    return cudaErrorInvalidValue;
  memset(out, 0, sizeof *out);
  int f = desc->f;
  if (f >= cudaChannelFormatKindUnsignedNormalized8X1 &&
      f <= cudaChannelFormatKindSignedNormalized16X4) {
    /* Each normalized kind names its size and count: 8X1, 8X2, 8X4, 16X1,
     * ... for unsigned (5-10) then signed (11-16). */
    int k = (f - cudaChannelFormatKindUnsignedNormalized8X1) % 6;
    static const int counts[3] = {1, 2, 4};
    out->channels = counts[k % 3];
    out->bits = k < 3 ? 8 : 16;
    out->kind = f < cudaChannelFormatKindSignedNormalized8X1
                    ? cudaChannelFormatKindUnsigned
                    : cudaChannelFormatKindSigned;
    out->normalized = 1;
  } else if (f == cudaChannelFormatKindUnsignedNormalized1010102) {
    /* Four unsigned normalized channels of 10, 10, 10 and 2 bits in one
     * 32-bit word; `bits` is the word's. */
    out->channels = 4;
    out->bits = 32;
    out->kind = cudaChannelFormatKindUnsigned;
    out->normalized = 1;
    out->packed = 1;
    out->size = 4;
    return 0;
  } else if (f == cudaChannelFormatKindSigned ||
             f == cudaChannelFormatKindUnsigned ||
             f == cudaChannelFormatKindFloat) {
    int bits[4] = {desc->x, desc->y, desc->z, desc->w};
    int n = 0;
    while (n < 4 && bits[n] != 0)
      ++n;
    for (int i = n; i < 4; ++i)
      if (bits[i] != 0)
        return cudaErrorInvalidChannelDescriptor;
    for (int i = 1; i < n; ++i)
      if (bits[i] != bits[0])
        return cudaErrorInvalidChannelDescriptor;
    if (n == 0 || n == 3)
      return cudaErrorInvalidChannelDescriptor;
    if (f == cudaChannelFormatKindFloat ? bits[0] != 16 && bits[0] != 32
                                        : bits[0] != 8 && bits[0] != 16 &&
                                              bits[0] != 32)
      return cudaErrorInvalidChannelDescriptor;
    out->channels = n;
    out->bits = bits[0];
    out->kind = f;
  } else {
    cuemu__format_refused(f); /* names a kind CUDA has */
    return cudaErrorInvalidChannelDescriptor;
  }
  out->size = (size_t)out->channels * (size_t)out->bits / 8;
  return 0;
}

/* Makes an array of `desc` with the packed size w x h x d, allocated at
 * `site` (the caller's return address, or NULL), level `level` of a
 * mipmapped array or -1; returns a CUDA code. */
static int array_new(struct cudaArray **out,
                     const struct cudaChannelFormatDesc *desc,
                     const cuemu__format *fmt, struct cudaExtent extent,
                     size_t w, size_t h, size_t d, unsigned flags,
                     const void *site, int level) {
  /* An array takes the device's memory, as cudaMalloc does: one larger
   * than what the device has left is refused (tests/programs/trial/
   * array_capacity.cu). The sides are within the limits, so the product
   * does not overflow. */
  size_t bytes = w * h * d * fmt->size;
  unsigned device = cuemu__rt_current_device_flags();
  if (!cuemu__rt_memory_fits(CUEMU_RT_MEMORY_DEVICE, device, bytes))
    return cudaErrorMemoryAllocation;
  struct cudaArray *a = calloc(1, sizeof *a);
  if (!a)
    return cudaErrorMemoryAllocation;
  /* A mapping of its own, zeroed, as cudaMalloc's: freed, it stays
   * inaccessible for a while, so that a texture left over it faults. */
  a->data = cuemu__allocation_memory_new(bytes ? bytes : 1);
  if (!a->data) {
    free(a);
    return cudaErrorMemoryAllocation;
  }
  a->magic = ARRAY_MAGIC;
  a->desc = *desc;
  a->format = *fmt;
  a->extent = extent;
  a->flags = flags;
  a->width = w;
  a->height = h;
  a->depth = d;
  int code = cuemu__allocation_insert(a->data, bytes ? bytes : 1,
                                     CUEMU_RT_MEMORY_DEVICE, device);
  if (code) {
    cuemu__allocation_memory_free(a->data, bytes ? bytes : 1);
    free(a);
    return cudaErrorMemoryAllocation;
  }
  /* initcheck: its elements start unwritten, as cudaMalloc's bytes do; the
   * copies (through cuemu_rt_memcpy_2d) and surface writes mark them. The
   * reports name an element by its coordinates: x, y and z of a 3D array;
   * x (and y) and the layer or face of a layered or cubemap array. */
  int slices = (flags & (cudaArrayLayered | cudaArrayCubemap)) != 0;
  cuemu__array_shape shape = {fmt->size,
                              w,
                              h,
                              d,
                              extent.height == 0            ? 1
                              : extent.depth == 0 || slices ? 2
                                                            : 3,
                              (flags & cudaArrayLayered) != 0,
                              (flags & cudaArrayCubemap) != 0,
                              level};
  cuemu__allocation_note_array(a->data, bytes ? bytes : 1, site, &shape);
  *out = a;
  return 0;
}

static void array_delete(struct cudaArray *a) {
  size_t bytes = a->width * a->height * a->depth * a->format.size;
  cuemu__allocation_freed(a->data);
  cuemu_rt_memory_untrack(a->data);
  cuemu__allocation_memory_free(a->data, bytes ? bytes : 1);
  a->magic = FREED_MAGIC;
  free(a);
}

/* Frees a mipmapped array and its levels. */
static void mipmap_delete(struct cudaMipmappedArray *m) {
  for (unsigned l = 0; l < m->levels; ++l)
    array_delete(m->level[l]);
  m->magic = FREED_MAGIC;
  free(m);
}

/* Checks `extent` and `flags` against CUDA's rules for cudaMalloc3DArray
 * and gives the packed size. Returns 0 or a CUDA code. */
static int array_shape(struct cudaExtent e, unsigned flags, size_t *w,
                       size_t *h, size_t *d) {
  unsigned known = cudaArrayLayered | cudaArraySurfaceLoadStore |
                   cudaArrayCubemap | cudaArrayTextureGather;
  if (flags & ~known)
    return cudaErrorInvalidValue;
  if (e.width == 0 || (e.height == 0 && e.depth != 0 &&
                       !(flags & cudaArrayLayered)))
    return cudaErrorInvalidValue;
  if (flags & cudaArrayCubemap) {
    size_t faces = flags & cudaArrayLayered ? e.depth : 6;
    if (e.width != e.height || e.width > MAX_CUBE || e.depth == 0 ||
        e.depth % 6 != 0 || faces / 6 > MAX_LAYERS ||
        (!(flags & cudaArrayLayered) && e.depth != 6))
      return cudaErrorInvalidValue;
  } else if (flags & cudaArrayLayered) {
    if (e.depth == 0 || e.depth > MAX_LAYERS ||
        e.width > (e.height ? MAX_2D_H : MAX_1D) || e.height > MAX_2D_H)
      return cudaErrorInvalidValue;
  } else if (e.depth) {
    if (e.width > MAX_3D || e.height > MAX_3D || e.depth > MAX_3D)
      return cudaErrorInvalidValue;
  } else if (e.width > (e.height ? MAX_2D_W : MAX_1D) || e.height > MAX_2D_H) {
    return cudaErrorInvalidValue;
  }
  if ((flags & cudaArrayTextureGather) && (e.height == 0 || e.depth != 0))
    return cudaErrorInvalidValue;
  *w = e.width;
  *h = e.height ? e.height : 1;
  *d = e.depth ? e.depth : 1;
  return 0;
}

/* cudaMalloc3DArray, called at `site`. */
static int malloc_3d_array(cudaArray_t *array,
                           const struct cudaChannelFormatDesc *desc,
                           struct cudaExtent extent, unsigned flags,
                           const void *site) {
  if (!array || !desc)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  cuemu__format fmt;
  int code = cuemu__format_decode(desc, &fmt);
  size_t w, h, d;
  if (!code)
    code = array_shape(extent, flags, &w, &h, &d);
  struct cudaArray *a = NULL;
  if (!code)
    code = array_new(&a, desc, &fmt, extent, w, h, d, flags, site, -1);
  if (!code && live_add(a) != 0) {
    array_delete(a);
    code = cudaErrorMemoryAllocation;
  }
  if (code)
    return cuemu_rt_error(code);
  *array = a;
  return cudaSuccess;
}

int cuemu_rt_malloc_3d_array(cudaArray_t *array,
                             const struct cudaChannelFormatDesc *desc,
                             struct cudaExtent extent, unsigned flags) {
  return malloc_3d_array(array, desc, extent, flags,
                         __builtin_return_address(0));
}

int cuemu_rt_malloc_array(cudaArray_t *array,
                          const struct cudaChannelFormatDesc *desc,
                          size_t width, size_t height, unsigned flags) {
  if (flags & (cudaArrayLayered | cudaArrayCubemap))
    return cuemu_rt_error(cudaErrorInvalidValue);
  struct cudaExtent e = {width, height, 0};
  return malloc_3d_array(array, desc, e, flags, __builtin_return_address(0));
}

int cuemu_rt_malloc_mipmapped_array(cudaMipmappedArray_t *mipmap,
                                    const struct cudaChannelFormatDesc *desc,
                                    struct cudaExtent extent,
                                    unsigned num_levels, unsigned flags) {
  if (!mipmap || !desc)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  cuemu__format fmt;
  size_t w, h, d;
  int code = cuemu__format_decode(desc, &fmt);
  if (!code)
    code = array_shape(extent, flags, &w, &h, &d);
  if (code)
    return cuemu_rt_error(code);
  /* CUDA clamps the level count to [1, 1 + floor(log2(largest side))],
   * the sides that shrink: width, height, and depth of a 3D array. */
  size_t largest = extent.width;
  if (extent.height > largest)
    largest = extent.height;
  if (!(flags & (cudaArrayLayered | cudaArrayCubemap)) && extent.depth > largest)
    largest = extent.depth;
  unsigned most = 1;
  while (most < CUEMU_RT_MAX_LEVELS && (largest >> most) != 0)
    ++most;
  unsigned levels = num_levels < 1 ? 1 : num_levels > most ? most : num_levels;
  struct cudaMipmappedArray *m = calloc(1, sizeof *m);
  if (!m)
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  m->magic = MIPMAP_MAGIC;
  m->desc = *desc;
  m->extent = extent;
  m->flags = flags;
  for (unsigned l = 0; l < levels; ++l) {
    struct cudaExtent le = extent;
    le.width = extent.width >> l ? extent.width >> l : 1;
    if (extent.height)
      le.height = extent.height >> l ? extent.height >> l : 1;
    if (extent.depth && !(flags & (cudaArrayLayered | cudaArrayCubemap)))
      le.depth = extent.depth >> l ? extent.depth >> l : 1;
    code = array_shape(le, flags, &w, &h, &d);
    if (!code)
      code = array_new(&m->level[l], desc, &fmt, le, w, h, d, flags,
                       __builtin_return_address(0), (int)l);
    if (code) {
      mipmap_delete(m); /* the levels made so far */
      return cuemu_rt_error(code);
    }
    m->level[l]->owner = m;
    m->levels = l + 1;
  }
  if (live_add(m) != 0) {
    mipmap_delete(m);
    return cuemu_rt_error(cudaErrorMemoryAllocation);
  }
  *mipmap = m;
  return cudaSuccess;
}

int cuemu_rt_get_mipmapped_array_level(cudaArray_t *level_array,
                                       cudaMipmappedArray_const_t mipmap,
                                       unsigned level) {
  if (!level_array)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (!cuemu__mipmapped_array_valid(mipmap))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  if (level >= mipmap->levels)
    return cuemu_rt_error(cudaErrorInvalidValue);
  *level_array = mipmap->level[level];
  return cudaSuccess;
}

int cuemu_rt_free_array(cudaArray_t array) {
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  if (!array)
    return cudaSuccess;
  /* Only a live array of its own: not a mipmapped array's level. */
  live_entry *e = live_remove(array);
  if (!e)
    return cuemu_rt_error(cudaErrorInvalidValue);
  free(e);
  /* A queued copy may still use it (as cudaFree, the devices' work is
   * waited for first: the stream may be another device's). */
  cuemu__stream_wait_every_device();
  array_delete(array);
  return cudaSuccess;
}

int cuemu_rt_free_mipmapped_array(cudaMipmappedArray_t mipmap) {
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  if (!mipmap)
    return cudaSuccess;
  live_entry *e = cuemu__mipmapped_array_valid(mipmap) ? live_remove(mipmap)
                                                      : NULL;
  if (!e)
    return cuemu_rt_error(cudaErrorInvalidValue);
  free(e);
  /* As cudaFreeArray: a queued copy may still use one of its levels. */
  cuemu__stream_wait_every_device();
  mipmap_delete(mipmap);
  return cudaSuccess;
}

int cuemu_rt_array_get_info(struct cudaChannelFormatDesc *desc,
                            struct cudaExtent *extent, unsigned *flags,
                            cudaArray_t array) {
  if (!cuemu__array_valid(array))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  if (desc)
    *desc = array->desc;
  if (extent)
    *extent = array->extent;
  if (flags)
    *flags = array->flags;
  return cudaSuccess;
}

int cuemu_rt_get_channel_desc(struct cudaChannelFormatDesc *desc,
                              cudaArray_const_t array) {
  if (!desc)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (!cuemu__array_valid(array))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  *desc = array->desc;
  return cudaSuccess;
}

/* ---- Copies ---------------------------------------------------------------- */

/* Checks a box of `width` bytes x `height` rows x `depth` slices at byte
 * column x, row y, slice z of `a`; returns 0 or a CUDA code. */
int cuemu__array_box(const struct cudaArray *a, size_t x, size_t y, size_t z,
                     size_t width, size_t height, size_t depth) {
  if (!cuemu__array_valid(a))
    return cudaErrorInvalidResourceHandle;
  size_t row = a->width * a->format.size;
  if (x > row || width > row - x || y > a->height ||
      height > a->height - y || z > a->depth || depth > a->depth - z)
    return cudaErrorInvalidValue;
  return 0;
}

static unsigned char *array_byte(const struct cudaArray *a, size_t x, size_t y,
                                 size_t z) {
  return cuemu__array_at(a, 0, y, z) + x;
}

/* The direction of the memory side of a copy to (to_array) or from an
 * array, which is device memory: cudaMemcpyHostToDevice becomes the
 * checked copy's own kind. */
int cuemu_rt_memcpy_2d_to_array(cudaArray_t dst, size_t w_offset,
                                size_t h_offset, const void *src,
                                size_t spitch, size_t width, size_t height,
                                int kind) {
  int code = cuemu__array_box(dst, w_offset, h_offset, 0, width, height, 1);
  if (code)
    return cuemu_rt_error(code);
  return cuemu_rt_memcpy_2d(array_byte(dst, w_offset, h_offset, 0),
                            dst->width * dst->format.size, src, spitch, width,
                            height, kind);
}

int cuemu_rt_memcpy_2d_from_array(void *dst, size_t dpitch,
                                  cudaArray_const_t src, size_t w_offset,
                                  size_t h_offset, size_t width,
                                  size_t height, int kind) {
  int code = cuemu__array_box(src, w_offset, h_offset, 0, width, height, 1);
  if (code)
    return cuemu_rt_error(code);
  return cuemu_rt_memcpy_2d(dst, dpitch, array_byte(src, w_offset, h_offset, 0),
                            src->width * src->format.size, width, height,
                            kind);
}

int cuemu_rt_memcpy_2d_array_to_array(cudaArray_t dst, size_t w_offset_dst,
                                      size_t h_offset_dst,
                                      cudaArray_const_t src,
                                      size_t w_offset_src, size_t h_offset_src,
                                      size_t width, size_t height, int kind) {
  if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return cuemu_rt_error(cudaErrorInvalidMemcpyDirection);
  int code =
      cuemu__array_box(dst, w_offset_dst, h_offset_dst, 0, width, height, 1);
  if (!code)
    code =
        cuemu__array_box(src, w_offset_src, h_offset_src, 0, width, height, 1);
  if (code)
    return cuemu_rt_error(code);
  return cuemu_rt_memcpy_2d(array_byte(dst, w_offset_dst, h_offset_dst, 0),
                            dst->width * dst->format.size,
                            array_byte(src, w_offset_src, h_offset_src, 0),
                            src->width * src->format.size, width, height,
                            kind);
}

/* The packed byte offset of (w_offset, h_offset) in `a` if `count` bytes
 * from there fit; else (size_t)-1. */
size_t cuemu__array_linear(const struct cudaArray *a, size_t w_offset,
                           size_t h_offset, size_t count) {
  size_t row = a->width * a->format.size;
  size_t total = row * a->height * a->depth;
  if (w_offset >= row || h_offset >= a->height * a->depth)
    return (size_t)-1;
  size_t start = h_offset * row + w_offset;
  return count > total - start ? (size_t)-1 : start;
}

int cuemu_rt_memcpy_to_array(cudaArray_t dst, size_t w_offset,
                             size_t h_offset, const void *src, size_t count,
                             int kind) {
  if (!cuemu__array_valid(dst))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  size_t at = cuemu__array_linear(dst, w_offset, h_offset, count);
  if (at == (size_t)-1)
    return cuemu_rt_error(cudaErrorInvalidValue);
  return cuemu_rt_memcpy(dst->data + at, src, count, kind);
}

int cuemu_rt_memcpy_from_array(void *dst, cudaArray_const_t src,
                               size_t w_offset, size_t h_offset, size_t count,
                               int kind) {
  if (!cuemu__array_valid(src))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  size_t at = cuemu__array_linear(src, w_offset, h_offset, count);
  if (at == (size_t)-1)
    return cuemu_rt_error(cudaErrorInvalidValue);
  return cuemu_rt_memcpy(dst, src->data + at, count, kind);
}

int cuemu_rt_memcpy_array_to_array(cudaArray_t dst, size_t w_offset_dst,
                                   size_t h_offset_dst, cudaArray_const_t src,
                                   size_t w_offset_src, size_t h_offset_src,
                                   size_t count, int kind) {
  if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return cuemu_rt_error(cudaErrorInvalidMemcpyDirection);
  if (!cuemu__array_valid(dst) || !cuemu__array_valid(src))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  size_t d = cuemu__array_linear(dst, w_offset_dst, h_offset_dst, count);
  size_t s = cuemu__array_linear(src, w_offset_src, h_offset_src, count);
  if (d == (size_t)-1 || s == (size_t)-1)
    return cuemu_rt_error(cudaErrorInvalidValue);
  return cuemu_rt_memcpy(dst->data + d, src->data + s, count, kind);
}

/* One side of a 3D copy: the address of its first byte, its row pitch and
 * its slice pitch. Array extents and positions are in elements, memory's in
 * bytes (x) and rows. */
typedef struct side3d {
  unsigned char *at;
  size_t pitch;
  size_t slice;
} side3d;

static int side_of(cudaArray_t array, struct cudaPos pos,
                   struct cudaPitchedPtr ptr, struct cudaExtent bytes,
                   side3d *out) {
  if (array) {
    size_t es = cuemu__array_valid(array) ? array->format.size : 1;
    int code = cuemu__array_box(array, pos.x * es, pos.y, pos.z, bytes.width,
                         bytes.height, bytes.depth);
    if (code)
      return code;
    out->at = array_byte(array, pos.x * es, pos.y, pos.z);
    out->pitch = array->width * es;
    out->slice = out->pitch * array->height;
    return 0;
  }
  if (!ptr.ptr || ptr.pitch < pos.x + bytes.width)
    return ptr.ptr ? cudaErrorInvalidPitchValue : cudaErrorInvalidValue;
  size_t rows = ptr.ysize ? ptr.ysize : bytes.height + pos.y;
  out->at = (unsigned char *)ptr.ptr + (pos.z * rows + pos.y) * ptr.pitch +
            pos.x;
  out->pitch = ptr.pitch;
  out->slice = ptr.pitch * rows;
  return 0;
}

/* The checks of a 3D copy and its two sides: returns 0 (with *bytes the
 * extent in bytes, zero in some dimension for a copy of nothing) or a CUDA
 * code, not recorded. */
static int plan_3d(const struct cudaMemcpy3DParms *p, side3d *s, side3d *d,
                   struct cudaExtent *bytes) {
  /* Exactly one of array and pointer on each side. */
  if (!!p->srcArray == !!p->srcPtr.ptr || !!p->dstArray == !!p->dstPtr.ptr)
    return cudaErrorInvalidValue;
  /* The extent is in elements when an array is involved, else in bytes. */
  cudaArray_t array = p->srcArray ? p->srcArray : p->dstArray;
  if (array && !cuemu__array_valid(array))
    return cudaErrorInvalidResourceHandle;
  size_t es = array ? array->format.size : 1;
  if (p->srcArray && p->dstArray && cuemu__array_valid(p->dstArray) &&
      p->dstArray->format.size != es)
    return cudaErrorInvalidValue;
  struct cudaExtent b = {p->extent.width * es, p->extent.height,
                         p->extent.depth};
  *bytes = b;
  if (b.width == 0 || b.height == 0 || b.depth == 0)
    return 0;
  /* A memory side's x position is in bytes, an array side's in elements. */
  int code = side_of(p->srcArray, p->srcPos, p->srcPtr, b, s);
  if (!code)
    code = side_of(p->dstArray, p->dstPos, p->dstPtr, b, d);
  return code;
}

int cuemu__rt_memcpy_3d_check(const struct cudaMemcpy3DParms *p) {
  side3d s, d;
  struct cudaExtent b;
  int code = plan_3d(p, &s, &d, &b);
  if (code || b.width == 0 || b.height == 0 || b.depth == 0)
    return code;
  /* The bytes each memory side spans, first row to last. */
  size_t s_span = (b.depth - 1) * s.slice + (b.height - 1) * s.pitch + b.width;
  size_t d_span = (b.depth - 1) * d.slice + (b.height - 1) * d.pitch + b.width;
  return cuemu__rt_check_copy(d.at, d_span, s.at, s_span, p->kind);
}

int cuemu_rt_memcpy_3d(const struct cudaMemcpy3DParms *p) {
  if (!p)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int sticky = cuemu__rt_check_sticky();
  if (sticky)
    return sticky;
  side3d s, d;
  struct cudaExtent bytes;
  int code = plan_3d(p, &s, &d, &bytes);
  if (code)
    return cuemu_rt_error(code);
  if (bytes.width == 0 || bytes.height == 0 || bytes.depth == 0)
    return cudaSuccess;
  return cuemu__rt_memcpy_slices(d.at, d.pitch, d.slice, s.at, s.pitch,
                                 s.slice, bytes.width, bytes.height,
                                 bytes.depth, p->kind);
}

int cuemu_rt_malloc_3d(struct cudaPitchedPtr *pitched,
                       struct cudaExtent extent) {
  if (!pitched)
    return cuemu_rt_error(cudaErrorInvalidValue);
  size_t pitch = 0;
  void *p = NULL;
  size_t rows = extent.height * extent.depth;
  int code = cuemu__rt_malloc_pitch_at(&p, &pitch, extent.width, rows,
                                       __builtin_return_address(0));
  if (code)
    return code;
  pitched->ptr = p;
  pitched->pitch = pitch;
  pitched->xsize = extent.width;
  pitched->ysize = extent.height;
  return cudaSuccess;
}

int cuemu_rt_memset_3d(struct cudaPitchedPtr pitched, int value,
                       struct cudaExtent extent) {
  if (extent.width == 0 || extent.height == 0 || extent.depth == 0)
    return cudaSuccess;
  size_t rows = pitched.ysize ? pitched.ysize : extent.height;
  if (extent.height > rows)
    return cuemu_rt_error(cudaErrorInvalidValue);
  for (size_t z = 0; z < extent.depth; ++z) {
    int code = cuemu_rt_memset_2d((char *)pitched.ptr + z * rows * pitched.pitch,
                                  pitched.pitch, value, extent.width,
                                  extent.height);
    if (code)
      return code;
  }
  return cudaSuccess;
}

void cuemu__rt_array_reset(void) {
  pthread_mutex_lock(&live_lock);
  live_entry *e = live_list;
  live_list = NULL;
  pthread_mutex_unlock(&live_lock);
  while (e) {
    live_entry *next = e->next;
    struct cudaMipmappedArray *m = e->handle;
    if (m->magic == MIPMAP_MAGIC) {
      mipmap_delete(m);
    } else {
      array_delete(e->handle);
    }
    free(e);
    e = next;
  }
}
