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

/* The address of element (x, y, z) of `a`. */
static inline unsigned char *cuemu__array_at(const struct cudaArray *a,
                                             size_t x, size_t y, size_t z) {
  return a->data + ((z * a->height + y) * a->width + x) * a->format.size;
}

#endif /* CUEMU_RT_ARRAY_H */
