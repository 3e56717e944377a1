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
 *
 * In C, as with CUDA's header, each type is also a typedef of its struct,
 * and dim3 is a plain struct of three unsigned ints (no constructors: a C
 * file writes dim3 g = {4, 1, 1}).
 */
#ifndef CUEMU_VECTOR_TYPES_H
#define CUEMU_VECTOR_TYPES_H

/* In C, CUDA's qualifiers are empty, as NVIDIA's host_defines.h (which its
 * vector_types.h includes) makes them for a host compiler: NVIDIA's C
 * headers that come after this one use them (its cuComplex.h, which a C
 * file that includes <cufftXt.h> first reaches through NVIDIA's cufft.h).
 * In C++ they are cuemu_qualifiers.h's. */
#ifndef __cplusplus
#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif
#ifndef __align__
#define __align__(n) __attribute__((aligned(n)))
#endif
#endif

/* Real code tests this guard to learn that the vector types are declared. */
#ifndef __VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__
#endif

#if defined(__NV_NO_VECTOR_DEPRECATION_DIAG)
#define CUEMU_VECTOR_DEPRECATED(msg)
#elif defined(__cplusplus)
#define CUEMU_VECTOR_DEPRECATED(msg) [[deprecated(msg)]]
#else
#define CUEMU_VECTOR_DEPRECATED(msg) __attribute__((deprecated(msg)))
#endif

/* A struct's alignment: C++11's alignas, GCC's attribute in C (C99 has no
 * _Alignas). In C, the struct's name is also its typedef. */
#ifdef __cplusplus
#define CUEMU_VECTOR_ALIGN_(n) alignas(n)
#define CUEMU_VECTOR_TYPEDEF_(name)
#else
#define CUEMU_VECTOR_ALIGN_(n) __attribute__((aligned(n)))
#define CUEMU_VECTOR_TYPEDEF_(name) typedef struct name name;
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
  struct CUEMU_VECTOR_ALIGN_(align2) stem##2 {                                 \
    T x, y;                                                                    \
  };                                                                           \
  struct stem##3 {                                                             \
    T x, y, z;                                                                 \
  };                                                                           \
  CUEMU_VECTOR_TYPEDEF_(stem##1)                                               \
  CUEMU_VECTOR_TYPEDEF_(stem##2)                                               \
  CUEMU_VECTOR_TYPEDEF_(stem##3)
#define CUEMU_VECTOR_NARROW_(stem, T, align2, align4)                          \
  CUEMU_VECTOR_1_TO_3_(stem, T, align2)                                        \
  struct CUEMU_VECTOR_ALIGN_(align4) stem##4 {                                 \
    T x, y, z, w;                                                              \
  };                                                                           \
  CUEMU_VECTOR_TYPEDEF_(stem##4)
/* The deprecated stem4 is declared apart, by CUEMU_VECTOR_WIDE_4_ on a
 * line of its own below: a translation unit is compiled preprocessed, where
 * a macro's expansion is one line, so g++'s "declared here" under a
 * warning about a use of double4 pointed at column 2923 of the line of
 * CUEMU_VECTOR_TYPES and printed a caret line as wide (trialshoc). */
#define CUEMU_VECTOR_WIDE_4_(stem, T)                                          \
  struct CUEMU_VECTOR_DEPRECATED("use " #stem "4_16a or " #stem "4_32a")       \
      CUEMU_VECTOR_ALIGN_(16) stem##4 {                                        \
    T x, y, z, w;                                                              \
  };                                                                           \
  CUEMU_VECTOR_WIDE_TYPEDEF_(stem)
#define CUEMU_VECTOR_WIDE_(stem, T)                                            \
  CUEMU_VECTOR_1_TO_3_(stem, T, 16)                                            \
  struct CUEMU_VECTOR_ALIGN_(16) stem##4_16a {                                 \
    T x, y, z, w;                                                              \
  };                                                                           \
  struct CUEMU_VECTOR_ALIGN_(32) stem##4_32a {                                 \
    T x, y, z, w;                                                              \
  };                                                                           \
  CUEMU_VECTOR_WIDE_TYPEDEFS_(stem)

/* In C, the deprecated stem4's typedef must not warn, only a use of it: the
 * typedef is deprecated too. */
#ifdef __cplusplus
#define CUEMU_VECTOR_WIDE_TYPEDEF_(stem)
#define CUEMU_VECTOR_WIDE_TYPEDEFS_(stem)
#else
#define CUEMU_VECTOR_WIDE_TYPEDEF_(stem)                                       \
  _Pragma("GCC diagnostic push")                                               \
  _Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"")              \
  typedef struct stem##4 stem##4 CUEMU_VECTOR_DEPRECATED(                     \
      "use " #stem "4_16a or " #stem "4_32a");                                 \
  _Pragma("GCC diagnostic pop")
#define CUEMU_VECTOR_WIDE_TYPEDEFS_(stem)                                      \
  CUEMU_VECTOR_TYPEDEF_(stem##4_16a)                                           \
  CUEMU_VECTOR_TYPEDEF_(stem##4_32a)
#endif

CUEMU_VECTOR_TYPES(CUEMU_VECTOR_NARROW_, CUEMU_VECTOR_WIDE_)
CUEMU_VECTOR_WIDE_4_(long, long int)
CUEMU_VECTOR_WIDE_4_(ulong, unsigned long int)
CUEMU_VECTOR_WIDE_4_(longlong, long long int)
CUEMU_VECTOR_WIDE_4_(ulonglong, unsigned long long int)
CUEMU_VECTOR_WIDE_4_(double, double)

#undef CUEMU_VECTOR_WIDE_TYPEDEFS_
#undef CUEMU_VECTOR_WIDE_TYPEDEF_
#undef CUEMU_VECTOR_WIDE_4_
#undef CUEMU_VECTOR_TYPEDEF_
#undef CUEMU_VECTOR_ALIGN_
#undef CUEMU_VECTOR_WIDE_
#undef CUEMU_VECTOR_NARROW_
#undef CUEMU_VECTOR_1_TO_3_
#undef CUEMU_VECTOR_DEPRECATED

/*
 * dim3 holds launch dimensions. Unspecified dimensions default to 1, and it
 * converts to and from uint3, as in CUDA. In C it is the plain struct.
 */
#ifndef __cplusplus
struct dim3 {
  unsigned int x, y, z;
};
typedef struct dim3 dim3;
#else
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
#endif

#endif /* CUEMU_VECTOR_TYPES_H */
