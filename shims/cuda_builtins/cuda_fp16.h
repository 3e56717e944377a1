/*
 * cuda_fp16.h: CUDA's half-precision types __half and __half2 and their
 * functions, in software.
 *
 * The layout is CUDA's: __half is 2 bytes (alignment 2), __half2 is two
 * __half (x low, y high; alignment 4). Conversions round in software
 * (cuemu_narrow_float.h), so results do not depend on the host compiler.
 * CUDA's switches __CUDA_NO_HALF_CONVERSIONS__, __CUDA_NO_HALF_OPERATORS__
 * and __CUDA_NO_HALF2_OPERATORS__ work as in CUDA.
 *
 * The __shfl*_sync overloads for __half and __half2 come last; they use the
 * warp intrinsics of cuemu_warp.h, which also rejects the deprecated __shfl
 * forms.
 */
#ifndef CUEMU_CUDA_FP16_H
#define CUEMU_CUDA_FP16_H

#include "cuemu_narrow_float_ops.h"
#include "vector_types.h"

/* CUDA's own guard and feature macros, which some programs test. */
#define __CUDA_FP16_H__
#define __CUDA_FP16_HPP__
#define __CUDA_FP16_TYPES_EXIST__

struct __nv_bfloat16;

typedef struct alignas(2) {
  unsigned short x;
} __half_raw;

typedef struct alignas(4) {
  unsigned short x;
  unsigned short y;
} __half2_raw;

struct __half;
__half __float2half(const float a);
__half __double2half(const double a);
float __half2float(const __half a);
__half __short2half_rn(const short int i);
__half __ushort2half_rn(const unsigned short int i);
__half __int2half_rn(const int i);
__half __uint2half_rn(const unsigned int i);
__half __ll2half_rn(const long long int i);
__half __ull2half_rn(const unsigned long long int i);
signed char __half2char_rz(const __half h);
unsigned char __half2uchar_rz(const __half h);
short int __half2short_rz(const __half h);
unsigned short int __half2ushort_rz(const __half h);
int __half2int_rz(const __half h);
unsigned int __half2uint_rz(const __half h);
long long int __half2ll_rz(const __half h);
unsigned long long int __half2ull_rz(const __half h);

struct alignas(2) __half {
protected:
  unsigned short __x;

public:
  __half() = default;
  constexpr __half(const __half_raw &hr) : __x(hr.x) {}
  __half &operator=(const __half_raw &hr) {
    __x = hr.x;
    return *this;
  }
  volatile __half &operator=(const __half_raw &hr) volatile {
    __x = hr.x;
    return *this;
  }
  volatile __half &operator=(const volatile __half_raw &hr) volatile {
    __x = hr.x;
    return *this;
  }
  operator __half_raw() const {
    __half_raw r;
    r.x = __x;
    return r;
  }
  operator __half_raw() const volatile {
    __half_raw r;
    r.x = __x;
    return r;
  }
#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
  /* Defined in cuda_bf16.h, as in CUDA. */
  explicit __half(const __nv_bfloat16 f);
  __half(const float f) { __x = static_cast<__half_raw>(__float2half(f)).x; }
  __half(const double f) { __x = static_cast<__half_raw>(__double2half(f)).x; }
  operator float() const { return __half2float(*this); }
  __half &operator=(const float f) { return *this = __float2half(f); }
  __half &operator=(const double f) { return *this = __double2half(f); }

  __half(const short val) { *this = __short2half_rn(val); }
  __half(const unsigned short val) { *this = __ushort2half_rn(val); }
  __half(const int val) { *this = __int2half_rn(val); }
  __half(const unsigned int val) { *this = __uint2half_rn(val); }
  __half(const long val) { *this = __ll2half_rn(static_cast<long long>(val)); }
  __half(const unsigned long val) {
    *this = __ull2half_rn(static_cast<unsigned long long>(val));
  }
  __half(const long long val) { *this = __ll2half_rn(val); }
  __half(const unsigned long long val) { *this = __ull2half_rn(val); }

  operator signed char() const { return __half2char_rz(*this); }
  operator unsigned char() const { return __half2uchar_rz(*this); }
  /* char is signed on the hosts cuemu supports. */
  operator char() const { return static_cast<char>(__half2char_rz(*this)); }
  operator short() const { return __half2short_rz(*this); }
  operator unsigned short() const { return __half2ushort_rz(*this); }
  operator int() const { return __half2int_rz(*this); }
  operator unsigned int() const { return __half2uint_rz(*this); }
  operator long() const { return static_cast<long>(__half2ll_rz(*this)); }
  operator unsigned long() const {
    return static_cast<unsigned long>(__half2ull_rz(*this));
  }
  operator long long() const { return __half2ll_rz(*this); }
  operator unsigned long long() const { return __half2ull_rz(*this); }
  __half &operator=(const short val) { return *this = __short2half_rn(val); }
  __half &operator=(const unsigned short val) { return *this = __ushort2half_rn(val); }
  __half &operator=(const int val) { return *this = __int2half_rn(val); }
  __half &operator=(const unsigned int val) { return *this = __uint2half_rn(val); }
  __half &operator=(const long long val) { return *this = __ll2half_rn(val); }
  __half &operator=(const unsigned long long val) { return *this = __ull2half_rn(val); }
  constexpr operator bool() const { return (__x & 0x7FFFU) != 0U; }
#endif
};

struct alignas(4) __half2 {
  __half x;
  __half y;

  __half2() = default;
  constexpr __half2(const __half &a, const __half &b) : x(a), y(b) {}
  __half2(const __half2_raw &h2r) {
    __half_raw r;
    r.x = h2r.x;
    x = r;
    r.x = h2r.y;
    y = r;
  }
  __half2 &operator=(const __half2_raw &h2r) { return *this = __half2(h2r); }
  operator __half2_raw() const {
    __half2_raw r;
    r.x = static_cast<__half_raw>(x).x;
    r.y = static_cast<__half_raw>(y).x;
    return r;
  }
};

typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;
typedef __half_raw __nv_half_raw;
typedef __half2_raw __nv_half2_raw;
typedef __half nv_half;
typedef __half2 nv_half2;

/* ---- Raw bits ------------------------------------------------------------ */

inline unsigned short cuemu_nf_bits(const __half h) {
  return static_cast<__half_raw>(h).x;
}

inline unsigned short cuemu_nf_bits_volatile(const volatile __half &h) {
  return static_cast<__half_raw>(h).x;
}

inline __half cuemu_half_from_bits(unsigned bits) {
  __half_raw r;
  r.x = static_cast<unsigned short>(bits);
  return __half(r);
}

inline short int __half_as_short(const __half h) {
  return static_cast<short int>(cuemu_nf_bits(h));
}
inline unsigned short int __half_as_ushort(const __half h) { return cuemu_nf_bits(h); }
inline __half __short_as_half(const short int i) {
  return cuemu_half_from_bits(static_cast<unsigned short>(i));
}
inline __half __ushort_as_half(const unsigned short int i) {
  return cuemu_half_from_bits(i);
}

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)

/* ---- Conversions to and from float --------------------------------------- */

inline __half __double2half(const double a) {
  return cuemu_half_from_bits(cuemu_nf_from_double(a, cuemu_nf_binary16, CUEMU_ROUND_RN));
}
inline __half __float2half(const float a) { return __double2half(a); }
inline __half __float2half_rn(const float a) { return __double2half(a); }
inline __half __float2half_rz(const float a) {
  return cuemu_half_from_bits(cuemu_nf_from_double(a, cuemu_nf_binary16, CUEMU_ROUND_RZ));
}
inline __half __float2half_rd(const float a) {
  return cuemu_half_from_bits(cuemu_nf_from_double(a, cuemu_nf_binary16, CUEMU_ROUND_RD));
}
inline __half __float2half_ru(const float a) {
  return cuemu_half_from_bits(cuemu_nf_from_double(a, cuemu_nf_binary16, CUEMU_ROUND_RU));
}
inline float __half2float(const __half a) {
  return cuemu_nf_to_float(cuemu_nf_bits(a), cuemu_nf_binary16);
}
inline __half2 __float2half2_rn(const float a) {
  return __half2(__float2half(a), __float2half(a));
}
inline __half2 __floats2half2_rn(const float a, const float b) {
  return __half2(__float2half(a), __float2half(b));
}
inline __half2 __float22half2_rn(const float2 a) {
  return __half2(__float2half(a.x), __float2half(a.y));
}
inline float2 __half22float2(const __half2 a) {
  float2 r;
  r.x = __half2float(a.x);
  r.y = __half2float(a.y);
  return r;
}

/* ---- Conversions to and from integers ------------------------------------
 *
 * Half to integer: NaN gives 0 (0x8000000000000000 for 64-bit results) and
 * values out of range saturate. Integer to half rounds in the named mode. */

#define CUEMU_HALF_TO_INT(NAME, T, MODE, LO, HI, NAN_VALUE)                    \
  inline T NAME(const __half h) {                                              \
    return static_cast<T>(cuemu_nf_to_integer(cuemu_nf_bits(h), cuemu_nf_binary16, \
                                              MODE, LO, HI, NAN_VALUE));       \
  }
#define CUEMU_HALF_TO_INT4(STEM, T, LO, HI, NAN_VALUE)                         \
  CUEMU_HALF_TO_INT(STEM##_rn, T, CUEMU_ROUND_RN, LO, HI, NAN_VALUE)           \
  CUEMU_HALF_TO_INT(STEM##_rz, T, CUEMU_ROUND_RZ, LO, HI, NAN_VALUE)           \
  CUEMU_HALF_TO_INT(STEM##_rd, T, CUEMU_ROUND_RD, LO, HI, NAN_VALUE)           \
  CUEMU_HALF_TO_INT(STEM##_ru, T, CUEMU_ROUND_RU, LO, HI, NAN_VALUE)

CUEMU_HALF_TO_INT(__half2char_rz, signed char, CUEMU_ROUND_RZ, -128.0, 127.0, 0)
CUEMU_HALF_TO_INT(__half2uchar_rz, unsigned char, CUEMU_ROUND_RZ, 0.0, 255.0, 0)
CUEMU_HALF_TO_INT4(__half2short, short int, -32768.0, 32767.0, 0)
CUEMU_HALF_TO_INT4(__half2ushort, unsigned short int, 0.0, 65535.0, 0)
CUEMU_HALF_TO_INT4(__half2int, int, -2147483648.0, 2147483647.0, 0)
CUEMU_HALF_TO_INT4(__half2uint, unsigned int, 0.0, 4294967295.0, 0)
CUEMU_HALF_TO_INT4(__half2ll, long long int, -9223372036854775808.0,
                   9223372036854775807.0, INT64_MIN)
#undef CUEMU_HALF_TO_INT4
#undef CUEMU_HALF_TO_INT

inline unsigned long long int __half2ull_rn(const __half h) {
  return cuemu_nf_to_ull(cuemu_nf_bits(h), cuemu_nf_binary16, CUEMU_ROUND_RN);
}
inline unsigned long long int __half2ull_rz(const __half h) {
  return cuemu_nf_to_ull(cuemu_nf_bits(h), cuemu_nf_binary16, CUEMU_ROUND_RZ);
}
inline unsigned long long int __half2ull_rd(const __half h) {
  return cuemu_nf_to_ull(cuemu_nf_bits(h), cuemu_nf_binary16, CUEMU_ROUND_RD);
}
inline unsigned long long int __half2ull_ru(const __half h) {
  return cuemu_nf_to_ull(cuemu_nf_bits(h), cuemu_nf_binary16, CUEMU_ROUND_RU);
}

#define CUEMU_INT_TO_HALF(STEM, T, CONV)                                       \
  inline __half STEM##_rn(const T i) {                                         \
    return cuemu_half_from_bits(CONV(i, cuemu_nf_binary16, CUEMU_ROUND_RN));   \
  }                                                                            \
  inline __half STEM##_rz(const T i) {                                         \
    return cuemu_half_from_bits(CONV(i, cuemu_nf_binary16, CUEMU_ROUND_RZ));   \
  }                                                                            \
  inline __half STEM##_rd(const T i) {                                         \
    return cuemu_half_from_bits(CONV(i, cuemu_nf_binary16, CUEMU_ROUND_RD));   \
  }                                                                            \
  inline __half STEM##_ru(const T i) {                                         \
    return cuemu_half_from_bits(CONV(i, cuemu_nf_binary16, CUEMU_ROUND_RU));   \
  }
#define CUEMU_FROM_ULL(i, f, mode) cuemu_nf_from_ull((i), false, (f), (mode))
CUEMU_INT_TO_HALF(__short2half, short int, cuemu_nf_from_ll)
CUEMU_INT_TO_HALF(__ushort2half, unsigned short int, cuemu_nf_from_ll)
CUEMU_INT_TO_HALF(__int2half, int, cuemu_nf_from_ll)
CUEMU_INT_TO_HALF(__uint2half, unsigned int, cuemu_nf_from_ll)
CUEMU_INT_TO_HALF(__ll2half, long long int, cuemu_nf_from_ll)
CUEMU_INT_TO_HALF(__ull2half, unsigned long long int, CUEMU_FROM_ULL)
#undef CUEMU_FROM_ULL
#undef CUEMU_INT_TO_HALF

/* ---- Building and taking apart __half2 ----------------------------------- */

inline __half2 make_half2(const __half x, const __half y) { return __half2(x, y); }
inline __half2 __half2half2(const __half a) { return __half2(a, a); }
inline __half2 __halves2half2(const __half a, const __half b) { return __half2(a, b); }
inline __half __low2half(const __half2 a) { return a.x; }
inline __half __high2half(const __half2 a) { return a.y; }
inline __half2 __low2half2(const __half2 a) { return __half2(a.x, a.x); }
inline __half2 __high2half2(const __half2 a) { return __half2(a.y, a.y); }
inline __half2 __lows2half2(const __half2 a, const __half2 b) { return __half2(a.x, b.x); }
inline __half2 __highs2half2(const __half2 a, const __half2 b) { return __half2(a.y, b.y); }

/* ---- Arithmetic, comparisons, math, atomicAdd, cache-hinted access ------- */

CUEMU_NF_DEFINE_SCALAR_API(__half, cuemu_nf_binary16, cuemu_half_from_bits)
CUEMU_NF_DEFINE_PAIR_API(__half, __half2, cuemu_nf_binary16, cuemu_half_from_bits)

#if !defined(__CUDA_NO_HALF_OPERATORS__)
CUEMU_NF_DEFINE_SCALAR_OPERATORS(__half, 0x3C00U, cuemu_half_from_bits)
#endif
#if !defined(__CUDA_NO_HALF2_OPERATORS__)
CUEMU_NF_DEFINE_PAIR_OPERATORS(__half, __half2, 0x3C00U, cuemu_half_from_bits)
#endif

/* ---- Warp shuffles ------------------------------------------------------
 *
 * __shfl_sync, __shfl_up_sync, __shfl_down_sync and __shfl_xor_sync for
 * __half and __half2, with CUDA's parameters; the value travels bit for
 * bit (see cuemu_warp.h). */

#include "cuemu_warp.h"

CUEMU_WARP_DEFINE_SHUFFLES(__half)
CUEMU_WARP_DEFINE_SHUFFLES(__half2)

#endif /* CUEMU_CUDA_FP16_H */
