/*
 * cuemu_rt_array.h: what libcuemu's array handles point at, and the
 * layout of a channel format. Internal to emulator/runtime/.
 */
#ifndef CUEMU_RT_ARRAY_H
#define CUEMU_RT_ARRAY_H

#include <stddef.h>
#include <stdint.h>

#include <cuemu/cuemu_rt_texture.h>

/* The most mipmap levels an array may have (a 2^15 texel side). */
#define CUEMU_RT_MAX_LEVELS 16

/* A channel format, decoded: channel count, bits of each channel, whether
 * the channels are signed integers, unsigned integers or floats, and
 * whether they always read as normalized floats (the Normalized kinds). */
typedef struct cuemu__format {
  int channels;
  int bits;       /* of every channel: 8, 16 or 32 */
  int kind;       /* cudaChannelFormatKindSigned, Unsigned or Float */
  int normalized; /* a cudaChannelFormatKind*Normalized* kind */
  int packed;     /* cudaChannelFormatKindUnsignedNormalized1010102: one
                     32-bit word, x in bits 0-9, y 10-19, z 20-29, w 30-31 */
  size_t size;    /* bytes per element */
} cuemu__format;

/* Decodes `desc`: returns 0, or cudaErrorInvalidChannelDescriptor for a
 * format CUDA's arrays and textures do not take (three channels, unequal
 * channel sizes, a block-compressed kind, ...). */
int cuemu__format_decode(const struct cudaChannelFormatDesc *desc,
                         cuemu__format *out);

struct cudaArray {
  uint32_t magic;
  struct cudaChannelFormatDesc desc;
  cuemu__format format;
  struct cudaExtent extent; /* as given: 0 for an absent dimension */
  unsigned flags;
  /* The packed layout: width x height x depth elements (each at least 1;
   * depth counts the layers and faces). */
  size_t width, height, depth;
  unsigned char *data;
  struct cudaMipmappedArray *owner; /* the mipmapped array of a level */
};

struct cudaMipmappedArray {
  uint32_t magic;
  struct cudaChannelFormatDesc desc;
  struct cudaExtent extent;
  unsigned flags;
  unsigned levels;
  struct cudaArray *level[CUEMU_RT_MAX_LEVELS];
};

/* Whether `a` is a live array (a mipmapped array's level included). */
int cuemu__array_valid(const struct cudaArray *a);
int cuemu__mipmapped_array_valid(const struct cudaMipmappedArray *m);

/* Frees every array and mipmapped array (cudaDeviceReset). */
void cuemu__rt_array_reset(void);

/* Destroys every texture and surface object and frees every array
 * (cudaDeviceReset, before the table of allocations is emptied). */
void cuemu__rt_texture_reset(void);

/* Checks a box of `width` bytes x `height` rows x `depth` slices at byte
 * column x, row y, slice z of `a`; returns 0 or a CUDA code, not recorded
 * (cudaErrorInvalidResourceHandle for a dead array). */
int cuemu__array_box(const struct cudaArray *a, size_t x, size_t y, size_t z,
                     size_t width, size_t height, size_t depth);

/* The packed byte offset of (w_offset, h_offset) in `a` if `count` bytes
 * from there fit (the rows of cudaMemcpyToArray); else (size_t)-1. */
size_t cuemu__array_linear(const struct cudaArray *a, size_t w_offset,
                           size_t h_offset, size_t count);

/* A 2D copy with an array on one side or both outside a capture
 * (cudaMemcpy2DToArrayAsync, cudaMemcpy2DFromArrayAsync): checked now,
 * then the stream copy of the array's rows (cuemu_rt_array_async.c); a
 * CUDA code. */
int cuemu__rt_array_copy_2d_async(struct cudaArray *dst_array, size_t dst_x,
                                  size_t dst_y, void *dst, size_t dpitch,
                                  const struct cudaArray *src_array,
                                  size_t src_x, size_t src_y, const void *src,
                                  size_t spitch, size_t width, size_t height,
                                  int kind, void *stream);

/* The address of element (x, y, z) of `a`. */
static inline unsigned char *cuemu__array_at(const struct cudaArray *a,
                                             size_t x, size_t y, size_t z) {
  return a->data + ((z * a->height + y) * a->width + x) * a->format.size;
}

#endif /* CUEMU_RT_ARRAY_H */
