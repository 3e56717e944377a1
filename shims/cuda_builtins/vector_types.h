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

/* The element types of CUDA's vector types, one row each, in one list that
 * also gives vector_functions.h its make_<type>() constructors.
 * NARROW(stem, T, align2, align4) stands for stem1 ... stem4, whose
 * two- and four-element types have the alignments given; WIDE(stem, T), for
 * a 64-bit T, stands for stem1 ... stem4 (deprecated, aligned to 16 bytes),
 * stem4_16a and stem4_32a. */
#define CUEMU_VECTOR_TYPES(NARROW, WIDE)                                       \
  NARROW(char, signed char, 2, 4)                                              \
  NARROW(uchar, unsigned char, 2, 4)                                           \
  NARROW(short, short, 4, 8)                                                   \
  NARROW(ushort, unsigned short, 4, 8)                                         \
  NARROW(int, int, 8, 16)                                                      \
  NARROW(uint, unsigned int, 8, 16)                                            \
  WIDE(long, long int)                                                         \
  WIDE(ulong, unsigned long int)                                               \
  WIDE(longlong, long long int)                                                \
  WIDE(ulonglong, unsigned long long int)                                      \
  NARROW(float, float, 8, 16)                                                  \
  WIDE(double, double)

#define CUEMU_VECTOR_1_TO_3_(stem, T, align2)                                  \
  struct stem##1 {                                                             \
    T x;                                                                       \
  };                                                                           \
  struct alignas(align2) stem##2 {                                             \
    T x, y;                                                                    \
  };                                                                           \
  struct stem##3 {                                                             \
    T x, y, z;                                                                 \
  };
#define CUEMU_VECTOR_NARROW_(stem, T, align2, align4)                          \
  CUEMU_VECTOR_1_TO_3_(stem, T, align2)                                        \
  struct alignas(align4) stem##4 {                                             \
    T x, y, z, w;                                                              \
  };
#define CUEMU_VECTOR_WIDE_(stem, T)                                            \
  CUEMU_VECTOR_1_TO_3_(stem, T, 16)                                            \
  struct CUEMU_VECTOR_DEPRECATED("use " #stem "4_16a or " #stem "4_32a")       \
      alignas(16) stem##4 {                                                    \
    T x, y, z, w;                                                              \
  };                                                                           \
  struct alignas(16) stem##4_16a {                                             \
    T x, y, z, w;                                                              \
  };                                                                           \
  struct alignas(32) stem##4_32a {                                             \
    T x, y, z, w;                                                              \
  };

CUEMU_VECTOR_TYPES(CUEMU_VECTOR_NARROW_, CUEMU_VECTOR_WIDE_)

#undef CUEMU_VECTOR_WIDE_
#undef CUEMU_VECTOR_NARROW_
#undef CUEMU_VECTOR_1_TO_3_
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
