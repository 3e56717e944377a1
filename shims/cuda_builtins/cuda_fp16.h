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

/* ---- Raw bits, conversions, building and taking apart pairs ------------ */

CUEMU_NF_DEFINE_CONVERSIONS(half, half2, __half, __half2, __half_raw,
                            cuemu_nf_binary16)

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)

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
