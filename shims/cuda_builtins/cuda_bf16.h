/*
 * cuda_bf16.h: CUDA's bfloat16 types __nv_bfloat16 and __nv_bfloat162 and
 * their functions, in software.
 *
 * The layout is CUDA's: __nv_bfloat16 is 2 bytes (alignment 2; the upper
 * half of a float's bits), __nv_bfloat162 is two of them (x low, y high;
 * alignment 4). As in CUDA this header includes cuda_fp16.h, and the
 * arithmetic functions (__hadd, __heq, hsqrt, ...) are overloads of the same
 * names. CUDA's switches __CUDA_NO_BFLOAT16_CONVERSIONS__,
 * __CUDA_NO_BFLOAT16_OPERATORS__ and __CUDA_NO_BFLOAT162_OPERATORS__ work as
 * in CUDA.
 *
 * The __shfl*_sync overloads come last; they use the warp intrinsics of
 * cuemu_warp.h.
 */
#ifndef CUEMU_CUDA_BF16_H
#define CUEMU_CUDA_BF16_H

#include "cuda_fp16.h"
#include "cuemu_narrow_float_ops.h"
#include "vector_types.h"

/* CUDA's own guard and feature macros, which some programs test. */
#define __CUDA_BF16_H__
#define __CUDA_BF16_HPP__
#define __CUDA_BF16_TYPES_EXIST__

typedef struct alignas(2) {
  unsigned short x;
} __nv_bfloat16_raw;

typedef struct alignas(4) {
  unsigned short x;
  unsigned short y;
} __nv_bfloat162_raw;

struct __nv_bfloat16;
__nv_bfloat16 __float2bfloat16(const float a);
__nv_bfloat16 __double2bfloat16(const double a);
float __bfloat162float(const __nv_bfloat16 a);
__nv_bfloat16 __short2bfloat16_rn(const short int i);
__nv_bfloat16 __ushort2bfloat16_rn(const unsigned short int i);
__nv_bfloat16 __int2bfloat16_rn(const int i);
__nv_bfloat16 __uint2bfloat16_rn(const unsigned int i);
__nv_bfloat16 __ll2bfloat16_rn(const long long int i);
__nv_bfloat16 __ull2bfloat16_rn(const unsigned long long int i);
signed char __bfloat162char_rz(const __nv_bfloat16 h);
unsigned char __bfloat162uchar_rz(const __nv_bfloat16 h);
short int __bfloat162short_rz(const __nv_bfloat16 h);
unsigned short int __bfloat162ushort_rz(const __nv_bfloat16 h);
int __bfloat162int_rz(const __nv_bfloat16 h);
unsigned int __bfloat162uint_rz(const __nv_bfloat16 h);
long long int __bfloat162ll_rz(const __nv_bfloat16 h);
unsigned long long int __bfloat162ull_rz(const __nv_bfloat16 h);

struct alignas(2) __nv_bfloat16 {
protected:
  unsigned short __x;

public:
  __nv_bfloat16() = default;
  constexpr __nv_bfloat16(const __nv_bfloat16_raw &hr) : __x(hr.x) {}
  __nv_bfloat16 &operator=(const __nv_bfloat16_raw &hr) {
    __x = hr.x;
    return *this;
  }
  volatile __nv_bfloat16 &operator=(const __nv_bfloat16_raw &hr) volatile {
    __x = hr.x;
    return *this;
  }
  volatile __nv_bfloat16 &operator=(const volatile __nv_bfloat16_raw &hr) volatile {
    __x = hr.x;
    return *this;
  }
  operator __nv_bfloat16_raw() const {
    __nv_bfloat16_raw r;
    r.x = __x;
    return r;
  }
  operator __nv_bfloat16_raw() const volatile {
    __nv_bfloat16_raw r;
    r.x = __x;
    return r;
  }
#if !defined(__CUDA_NO_BFLOAT16_CONVERSIONS__)
  explicit __nv_bfloat16(const __half f) { *this = __float2bfloat16(__half2float(f)); }
  __nv_bfloat16(const float f) { *this = __float2bfloat16(f); }
  __nv_bfloat16(const double f) { *this = __double2bfloat16(f); }
  operator float() const { return __bfloat162float(*this); }
  __nv_bfloat16 &operator=(const float f) { return *this = __float2bfloat16(f); }
  __nv_bfloat16 &operator=(const double f) { return *this = __double2bfloat16(f); }

  __nv_bfloat16(short val) { *this = __short2bfloat16_rn(val); }
  __nv_bfloat16(unsigned short val) { *this = __ushort2bfloat16_rn(val); }
  __nv_bfloat16(int val) { *this = __int2bfloat16_rn(val); }
  __nv_bfloat16(unsigned int val) { *this = __uint2bfloat16_rn(val); }
  __nv_bfloat16(const long val) { *this = __ll2bfloat16_rn(static_cast<long long>(val)); }
  __nv_bfloat16(const unsigned long val) {
    *this = __ull2bfloat16_rn(static_cast<unsigned long long>(val));
  }
  __nv_bfloat16(long long val) { *this = __ll2bfloat16_rn(val); }
  __nv_bfloat16(unsigned long long val) { *this = __ull2bfloat16_rn(val); }

  operator signed char() const { return __bfloat162char_rz(*this); }
  operator unsigned char() const { return __bfloat162uchar_rz(*this); }
  /* char is signed on the hosts cuemu supports. */
  operator char() const { return static_cast<char>(__bfloat162char_rz(*this)); }
  operator short() const { return __bfloat162short_rz(*this); }
  operator unsigned short() const { return __bfloat162ushort_rz(*this); }
  operator int() const { return __bfloat162int_rz(*this); }
  operator unsigned int() const { return __bfloat162uint_rz(*this); }
  operator long() const { return static_cast<long>(__bfloat162ll_rz(*this)); }
  operator unsigned long() const {
    return static_cast<unsigned long>(__bfloat162ull_rz(*this));
  }
  operator long long() const { return __bfloat162ll_rz(*this); }
  operator unsigned long long() const { return __bfloat162ull_rz(*this); }
  __nv_bfloat16 &operator=(short val) { return *this = __short2bfloat16_rn(val); }
  __nv_bfloat16 &operator=(unsigned short val) { return *this = __ushort2bfloat16_rn(val); }
  __nv_bfloat16 &operator=(int val) { return *this = __int2bfloat16_rn(val); }
  __nv_bfloat16 &operator=(unsigned int val) { return *this = __uint2bfloat16_rn(val); }
  __nv_bfloat16 &operator=(long long val) { return *this = __ll2bfloat16_rn(val); }
  __nv_bfloat16 &operator=(unsigned long long val) { return *this = __ull2bfloat16_rn(val); }
  constexpr operator bool() const { return (__x & 0x7FFFU) != 0U; }
#endif
};

struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x;
  __nv_bfloat16 y;

  __nv_bfloat162() = default;
  constexpr __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
  __nv_bfloat162(const __nv_bfloat162_raw &h2r) {
    __nv_bfloat16_raw r;
    r.x = h2r.x;
    x = r;
    r.x = h2r.y;
    y = r;
  }
  __nv_bfloat162 &operator=(const __nv_bfloat162_raw &h2r) {
    return *this = __nv_bfloat162(h2r);
  }
  operator __nv_bfloat162_raw() const {
    __nv_bfloat162_raw r;
    r.x = static_cast<__nv_bfloat16_raw>(x).x;
    r.y = static_cast<__nv_bfloat16_raw>(y).x;
    return r;
  }
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

/* ---- Raw bits, conversions, building and taking apart pairs ------------ */

CUEMU_NF_DEFINE_CONVERSIONS(bfloat16, bfloat162, __nv_bfloat16, __nv_bfloat162,
                            __nv_bfloat16_raw, cuemu_nf_bfloat16)

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)

/* ---- Arithmetic, comparisons, math, atomicAdd, cache-hinted access ------- */

CUEMU_NF_DEFINE_SCALAR_API(__nv_bfloat16, cuemu_nf_bfloat16, cuemu_bfloat16_from_bits)
CUEMU_NF_DEFINE_PAIR_API(__nv_bfloat16, __nv_bfloat162, cuemu_nf_bfloat16,
                         cuemu_bfloat16_from_bits)

#if !defined(__CUDA_NO_BFLOAT16_OPERATORS__)
CUEMU_NF_DEFINE_SCALAR_OPERATORS(__nv_bfloat16, 0x3F80U, cuemu_bfloat16_from_bits)
#endif
#if !defined(__CUDA_NO_BFLOAT162_OPERATORS__)
CUEMU_NF_DEFINE_PAIR_OPERATORS(__nv_bfloat16, __nv_bfloat162, 0x3F80U,
                               cuemu_bfloat16_from_bits)
#endif

/* The conversion from bfloat16 that cuda_fp16.h declares. */
#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
inline __half::__half(const __nv_bfloat16 f) {
  __x = cuemu_nf_from_double(cuemu_nf_to_double(cuemu_nf_bits(f), cuemu_nf_bfloat16),
                             cuemu_nf_binary16, CUEMU_ROUND_RN);
}
#endif

/* ---- Warp shuffles ------------------------------------------------------
 *
 * __shfl_sync, __shfl_up_sync, __shfl_down_sync and __shfl_xor_sync for
 * __nv_bfloat16 and __nv_bfloat162, with CUDA's parameters; the value
 * travels bit for bit (see cuemu_warp.h). */

#include "cuemu_warp.h"

CUEMU_WARP_DEFINE_SHUFFLES(__nv_bfloat16)
CUEMU_WARP_DEFINE_SHUFFLES(__nv_bfloat162)

#endif /* CUEMU_CUDA_BF16_H */
