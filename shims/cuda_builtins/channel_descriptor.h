/*
 * channel_descriptor.h: CUDA's channel descriptors: the template
 * cudaCreateChannelDesc<T>() for every element type CUDA's header has (the
 * C form cudaCreateChannelDesc(x, y, z, w, f) is in cuemu_texture_api.h),
 * the normalized kinds as template arguments, and
 * cudaCreateChannelDescHalf*(). A type CUDA does not describe gives
 * cudaChannelFormatKindNone, as in CUDA.
 *
 * long and unsigned long are 64-bit on this host, so, as in CUDA's header
 * for LP64 systems, they have no descriptor of their own.
 */
#ifndef __CHANNEL_DESCRIPTOR_H__
#define __CHANNEL_DESCRIPTOR_H__

#include <climits>

#include <cuemu/cuemu_rt_texture.h>

#include "vector_types.h"

static inline cudaChannelFormatDesc cudaCreateChannelDesc(
    int x, int y, int z, int w, enum cudaChannelFormatKind f) {
  return cuemu_rt_create_channel_desc(x, y, z, w, f);
}

template <class T> inline cudaChannelFormatDesc cudaCreateChannelDesc(void) {
  return cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
}

static inline cudaChannelFormatDesc cudaCreateChannelDescHalf(void) {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
}
static inline cudaChannelFormatDesc cudaCreateChannelDescHalf1(void) {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
}
static inline cudaChannelFormatDesc cudaCreateChannelDescHalf2(void) {
  return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindFloat);
}
static inline cudaChannelFormatDesc cudaCreateChannelDescHalf4(void) {
  return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindFloat);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<char>(void) {
  return cudaCreateChannelDesc(8, 0, 0, 0, (CHAR_MIN < 0 ? cudaChannelFormatKindSigned : cudaChannelFormatKindUnsigned));
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<signed char>(void) {
  return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<unsigned char>(void) {
  return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<char1>(void) {
  return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<char2>(void) {
  return cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindSigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<char4>(void) {
  return cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindSigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<uchar1>(void) {
  return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<uchar2>(void) {
  return cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindUnsigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<uchar4>(void) {
  return cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<short1>(void) {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindSigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<short2>(void) {
  return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindSigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<short4>(void) {
  return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindSigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<ushort1>(void) {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<ushort2>(void) {
  return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindUnsigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<ushort4>(void) {
  return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindUnsigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<int1>(void) {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindSigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<int2>(void) {
  return cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindSigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<int4>(void) {
  return cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindSigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<uint1>(void) {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindUnsigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<uint2>(void) {
  return cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindUnsigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<uint4>(void) {
  return cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindUnsigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<float1>(void) {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<float2>(void) {
  return cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindFloat);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<float4>(void) {
  return cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindFloat);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<short>(void) {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindSigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<unsigned short>(void) {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<int>(void) {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindSigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<unsigned int>(void) {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindUnsigned);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<float>(void) {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
}

/* The normalized and other kinds, as template arguments. */
template <cudaChannelFormatKind>
inline cudaChannelFormatDesc cudaCreateChannelDesc(void) {
  return cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized8X1>(void) {
  return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsignedNormalized8X1);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized8X2>(void) {
  return cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindUnsignedNormalized8X2);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized8X4>(void) {
  return cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsignedNormalized8X4);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized16X1>(void) {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsignedNormalized16X1);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized16X2>(void) {
  return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindUnsignedNormalized16X2);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized16X4>(void) {
  return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindUnsignedNormalized16X4);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<cudaChannelFormatKindSignedNormalized8X1>(void) {
  return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSignedNormalized8X1);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<cudaChannelFormatKindSignedNormalized8X2>(void) {
  return cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindSignedNormalized8X2);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<cudaChannelFormatKindSignedNormalized8X4>(void) {
  return cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindSignedNormalized8X4);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<cudaChannelFormatKindSignedNormalized16X1>(void) {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindSignedNormalized16X1);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<cudaChannelFormatKindSignedNormalized16X2>(void) {
  return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindSignedNormalized16X2);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<cudaChannelFormatKindSignedNormalized16X4>(void) {
  return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindSignedNormalized16X4);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized1010102>(void) {
  return cudaCreateChannelDesc(10, 10, 10, 2, cudaChannelFormatKindUnsignedNormalized1010102);
}

template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<cudaChannelFormatKindNV12>(void) {
  return cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindNV12);
}

#endif /* __CHANNEL_DESCRIPTOR_H__ */
