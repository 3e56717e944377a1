/*
 * vector_types.h: CUDA's built-in vector types (char1 ... double4_32a),
 * uint3 and dim3, as plain host C++ structs.
 *
 * Each type has CUDA's members (x, y, z, w) and CUDA's alignment, so that a
 * struct of vectors has the same layout on the host as on the GPU. The
 * four-element 64-bit types long4, ulong4, longlong4, ulonglong4 and double4
 * are deprecated in CUDA 13 in favour of their _16a and _32a variants; using
 * them warns here too, unless __NV_NO_VECTOR_DEPRECATION_DIAG is defined, as
 * with CUDA's header.
 */
#ifndef CUEMU_VECTOR_TYPES_H
#define CUEMU_VECTOR_TYPES_H

#ifndef __cplusplus
#error "the CUDA shims are C++ headers; compile .cu files with cuemu-cc"
#endif

/* Real code tests this guard to learn that the vector types are declared. */
#ifndef __VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__
#endif

#if defined(__NV_NO_VECTOR_DEPRECATION_DIAG)
#define CUEMU_VECTOR_DEPRECATED(msg)
#else
#define CUEMU_VECTOR_DEPRECATED(msg) [[deprecated(msg)]]
#endif

struct char1 {
  signed char x;
};
struct alignas(2) char2 {
  signed char x, y;
};
struct char3 {
  signed char x, y, z;
};
struct alignas(4) char4 {
  signed char x, y, z, w;
};

struct uchar1 {
  unsigned char x;
};
struct alignas(2) uchar2 {
  unsigned char x, y;
};
struct uchar3 {
  unsigned char x, y, z;
};
struct alignas(4) uchar4 {
  unsigned char x, y, z, w;
};

struct short1 {
  short x;
};
struct alignas(4) short2 {
  short x, y;
};
struct short3 {
  short x, y, z;
};
struct alignas(8) short4 {
  short x, y, z, w;
};

struct ushort1 {
  unsigned short x;
};
struct alignas(4) ushort2 {
  unsigned short x, y;
};
struct ushort3 {
  unsigned short x, y, z;
};
struct alignas(8) ushort4 {
  unsigned short x, y, z, w;
};

struct int1 {
  int x;
};
struct alignas(8) int2 {
  int x, y;
};
struct int3 {
  int x, y, z;
};
struct alignas(16) int4 {
  int x, y, z, w;
};

struct uint1 {
  unsigned int x;
};
struct alignas(8) uint2 {
  unsigned int x, y;
};
struct uint3 {
  unsigned int x, y, z;
};
struct alignas(16) uint4 {
  unsigned int x, y, z, w;
};

struct long1 {
  long int x;
};
struct alignas(16) long2 {
  long int x, y;
};
struct long3 {
  long int x, y, z;
};
struct CUEMU_VECTOR_DEPRECATED("use long4_16a or long4_32a") alignas(16) long4 {
  long int x, y, z, w;
};
struct alignas(16) long4_16a {
  long int x, y, z, w;
};
struct alignas(32) long4_32a {
  long int x, y, z, w;
};

struct ulong1 {
  unsigned long int x;
};
struct alignas(16) ulong2 {
  unsigned long int x, y;
};
struct ulong3 {
  unsigned long int x, y, z;
};
struct CUEMU_VECTOR_DEPRECATED("use ulong4_16a or ulong4_32a") alignas(16) ulong4 {
  unsigned long int x, y, z, w;
};
struct alignas(16) ulong4_16a {
  unsigned long int x, y, z, w;
};
struct alignas(32) ulong4_32a {
  unsigned long int x, y, z, w;
};

struct longlong1 {
  long long int x;
};
struct alignas(16) longlong2 {
  long long int x, y;
};
struct longlong3 {
  long long int x, y, z;
};
struct CUEMU_VECTOR_DEPRECATED("use longlong4_16a or longlong4_32a") alignas(16) longlong4 {
  long long int x, y, z, w;
};
struct alignas(16) longlong4_16a {
  long long int x, y, z, w;
};
struct alignas(32) longlong4_32a {
  long long int x, y, z, w;
};

struct ulonglong1 {
  unsigned long long int x;
};
struct alignas(16) ulonglong2 {
  unsigned long long int x, y;
};
struct ulonglong3 {
  unsigned long long int x, y, z;
};
struct CUEMU_VECTOR_DEPRECATED("use ulonglong4_16a or ulonglong4_32a") alignas(16) ulonglong4 {
  unsigned long long int x, y, z, w;
};
struct alignas(16) ulonglong4_16a {
  unsigned long long int x, y, z, w;
};
struct alignas(32) ulonglong4_32a {
  unsigned long long int x, y, z, w;
};

struct float1 {
  float x;
};
struct alignas(8) float2 {
  float x, y;
};
struct float3 {
  float x, y, z;
};
struct alignas(16) float4 {
  float x, y, z, w;
};

struct double1 {
  double x;
};
struct alignas(16) double2 {
  double x, y;
};
struct double3 {
  double x, y, z;
};
struct CUEMU_VECTOR_DEPRECATED("use double4_16a or double4_32a") alignas(16) double4 {
  double x, y, z, w;
};
struct alignas(16) double4_16a {
  double x, y, z, w;
};
struct alignas(32) double4_32a {
  double x, y, z, w;
};
#undef CUEMU_VECTOR_DEPRECATED

/*
 * dim3 holds launch dimensions. Unspecified dimensions default to 1, and it
 * converts to and from uint3, as in CUDA.
 */
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

#endif /* CUEMU_VECTOR_TYPES_H */
