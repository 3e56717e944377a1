/*
 * selftest_fp16.cu: self-checking kernels for the 16-bit and complex number
 * types: __half/__half2 (cuda_fp16.h), __nv_bfloat16/__nv_bfloat162
 * (cuda_bf16.h) and cuFloatComplex/cuDoubleComplex (cuComplex.h).
 *
 * Expected values are bit patterns worked out by hand: ties that must round
 * to even, subnormals, overflow, infinities and NaN. Every thread runs the
 * same checks (one block of 32 threads).
 */
#include <cuComplex.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <string.h>

#include "selftest.cuh"

__device__ unsigned short hbits(__half h) { return __half_as_ushort(h); }
__device__ unsigned short bbits(__nv_bfloat16 b) { return __bfloat16_as_ushort(b); }
__device__ __half hb(unsigned short u) { return __ushort_as_half(u); }
__device__ __nv_bfloat16 bb(unsigned short u) { return __ushort_as_bfloat16(u); }
__device__ float fbits(unsigned u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
__device__ unsigned bitsf(float f) {
  unsigned u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* float -> half in every rounding direction. */
extern "C" __global__ void selftest_half_from_float(unsigned *failures) {
  /* Exact values. */
  SELFTEST_CHECK(failures, hbits(__float2half(1.0f)) == 0x3C00u);
  SELFTEST_CHECK(failures, hbits(__float2half(-2.0f)) == 0xC000u);
  SELFTEST_CHECK(failures, hbits(__float2half(0.0f)) == 0x0000u);
  SELFTEST_CHECK(failures, hbits(__float2half(-0.0f)) == 0x8000u);
  SELFTEST_CHECK(failures, hbits(__float2half(65504.0f)) == 0x7BFFu);
  SELFTEST_CHECK(failures, hbits(__float2half(0x1p-14f)) == 0x0400u); /* smallest normal */
  /* Ties round to even. 1 + 2^-11 lies halfway between 1 (even) and
   * 1 + 2^-10 (odd); 1 + 3*2^-11 between 1 + 2^-10 (odd) and 1 + 2^-9. */
  SELFTEST_CHECK(failures, hbits(__float2half(0x1.002p0f)) == 0x3C00u);
  SELFTEST_CHECK(failures, hbits(__float2half(0x1.006p0f)) == 0x3C02u);
  SELFTEST_CHECK(failures, hbits(__float2half(-0x1.002p0f)) == 0xBC00u);
  SELFTEST_CHECK(failures, hbits(__float2half_rn(0x1.00202p0f)) == 0x3C01u); /* just above */
  SELFTEST_CHECK(failures, hbits(__float2half(0x1.001ffep0f)) == 0x3C00u);   /* just below */
  /* Subnormals: 2^-24 is the smallest; 2^-25 is a tie with zero (even);
   * 3 * 2^-25 is a tie between 1 and 2 units (2 is even). */
  SELFTEST_CHECK(failures, hbits(__float2half(0x1p-24f)) == 0x0001u);
  SELFTEST_CHECK(failures, hbits(__float2half(0x1p-25f)) == 0x0000u);
  SELFTEST_CHECK(failures, hbits(__float2half(0x1.8p-25f)) == 0x0001u);
  SELFTEST_CHECK(failures, hbits(__float2half(0x1.8p-24f)) == 0x0002u);
  SELFTEST_CHECK(failures, hbits(__float2half(-0x1p-26f)) == 0x8000u);
  SELFTEST_CHECK(failures, hbits(__float2half(0x1.ff8p-15f)) == 0x03FFu); /* largest subnormal */
  SELFTEST_CHECK(failures, hbits(__float2half(0x1.ffcp-15f)) == 0x0400u); /* tie: up to normal */
  SELFTEST_CHECK(failures, hbits(__float2half(0x1p-140f)) == 0x0000u);    /* float subnormal */
  /* Overflow: 65520 is the tie between 65504 (odd) and 2^16 (infinity). */
  SELFTEST_CHECK(failures, hbits(__float2half(65519.0f)) == 0x7BFFu);
  SELFTEST_CHECK(failures, hbits(__float2half(65520.0f)) == 0x7C00u);
  SELFTEST_CHECK(failures, hbits(__float2half(-1e10f)) == 0xFC00u);
  /* Infinities and NaN. */
  const float inf = fbits(0x7F800000);
  SELFTEST_CHECK(failures, hbits(__float2half(inf)) == 0x7C00u);
  SELFTEST_CHECK(failures, hbits(__float2half(-inf)) == 0xFC00u);
  SELFTEST_CHECK(failures, __hisnan(__float2half(fbits(0x7FC00000))));
  SELFTEST_CHECK(failures, __hisnan(__float2half(fbits(0xFF800001))));
  /* Directed roundings. */
  SELFTEST_CHECK(failures, hbits(__float2half_rz(0x1.00202p0f)) == 0x3C00u);
  SELFTEST_CHECK(failures, hbits(__float2half_ru(0x1.00002p0f)) == 0x3C01u);
  SELFTEST_CHECK(failures, hbits(__float2half_rd(0x1.ffep0f)) == 0x3FFFu);
  SELFTEST_CHECK(failures, hbits(__float2half_rd(-0x1.002p0f)) == 0xBC01u);
  SELFTEST_CHECK(failures, hbits(__float2half_ru(-0x1.002p0f)) == 0xBC00u);
  SELFTEST_CHECK(failures, hbits(__float2half_rz(-0x1.002p0f)) == 0xBC00u);
  SELFTEST_CHECK(failures, hbits(__float2half_rz(1e6f)) == 0x7BFFu);
  SELFTEST_CHECK(failures, hbits(__float2half_ru(1e6f)) == 0x7C00u);
  SELFTEST_CHECK(failures, hbits(__float2half_rd(1e6f)) == 0x7BFFu);
  SELFTEST_CHECK(failures, hbits(__float2half_rd(-1e6f)) == 0xFC00u);
  SELFTEST_CHECK(failures, hbits(__float2half_ru(-1e6f)) == 0xFBFFu);
  SELFTEST_CHECK(failures, hbits(__float2half_ru(0x1p-30f)) == 0x0001u);
  SELFTEST_CHECK(failures, hbits(__float2half_rd(-0x1p-30f)) == 0x8001u);
  SELFTEST_CHECK(failures, hbits(__float2half_rz(-0x1p-30f)) == 0x8000u);
  /* double -> half rounds once: 1 + 2^-11 + 2^-32 is just above the tie,
   * although as a float it would be the tie itself. */
  SELFTEST_CHECK(failures, hbits(__double2half(0x1.00200001p0)) == 0x3C01u);
  SELFTEST_CHECK(failures, hbits(__double2half(0x1.002p0)) == 0x3C00u);
  SELFTEST_CHECK(failures, hbits(__double2half(1e-300)) == 0x0000u);
  SELFTEST_CHECK(failures, hbits(__double2half(-1e300)) == 0xFC00u);
}

/* half -> float is exact; the packing helpers of __half2. */
extern "C" __global__ void selftest_half_to_float(unsigned *failures) {
  SELFTEST_CHECK(failures, __half2float(hb(0x0001u)) == 0x1p-24f);
  SELFTEST_CHECK(failures, __half2float(hb(0x03FFu)) == 0x1.ff8p-15f);
  SELFTEST_CHECK(failures, __half2float(hb(0x7BFFu)) == 65504.0f);
  SELFTEST_CHECK(failures, __half2float(hb(0x3555u)) == 0x1.554p-2f);
  SELFTEST_CHECK(failures, bitsf(__half2float(hb(0x8000u))) == 0x80000000u);
  SELFTEST_CHECK(failures, bitsf(__half2float(hb(0xFC00u))) == 0xFF800000u);
  const float nan = __half2float(hb(0x7E00u));
  SELFTEST_CHECK(failures, nan != nan);

  const __half2 p = __floats2half2_rn(1.5f, -3.0f);
  SELFTEST_CHECK(failures, hbits(__low2half(p)) == 0x3E00u && hbits(__high2half(p)) == 0xC200u);
  SELFTEST_CHECK(failures, __low2float(p) == 1.5f && __high2float(p) == -3.0f);
  const float2 f = __half22float2(p);
  SELFTEST_CHECK(failures, f.x == 1.5f && f.y == -3.0f);
  const __half2 q = __float22half2_rn(make_float2(0.25f, 0x1.002p0f));
  SELFTEST_CHECK(failures, hbits(q.x) == 0x3400u && hbits(q.y) == 0x3C00u);
  const __half2 s = __lowhigh2highlow(p);
  SELFTEST_CHECK(failures, __low2float(s) == -3.0f && __high2float(s) == 1.5f);
  const __half2 h = __halves2half2(hb(0x3C00u), hb(0x4000u));
  SELFTEST_CHECK(failures, __low2float(__high2half2(h)) == 2.0f && __high2float(__low2half2(h)) == 1.0f);
  const __half2 lows = __lows2half2(p, h), highs = __highs2half2(p, h);
  SELFTEST_CHECK(failures, __low2float(lows) == 1.5f && __high2float(lows) == 1.0f);
  SELFTEST_CHECK(failures, __low2float(highs) == -3.0f && __high2float(highs) == 2.0f);
  const __half2 d = __half2half2(hb(0x3800u));
  SELFTEST_CHECK(failures, __low2float(d) == 0.5f && __high2float(d) == 0.5f);
  SELFTEST_CHECK(failures, __low2float(__float2half2_rn(3.0f)) == 3.0f);
  SELFTEST_CHECK(failures, __high2float(make_half2(hb(0x3C00u), hb(0xBC00u))) == -1.0f);
  SELFTEST_CHECK(failures, __half_as_short(hb(0x8001u)) == static_cast<short>(0x8001));
  SELFTEST_CHECK(failures, hbits(__short_as_half(static_cast<short>(0xBC00))) == 0xBC00u);
  SELFTEST_CHECK(failures, sizeof(__half) == 2 && sizeof(__half2) == 4);
  SELFTEST_CHECK(failures, alignof(__half) == 2 && alignof(__half2) == 4);
}

/* Conversions between half and the integer types. */
extern "C" __global__ void selftest_half_integers(unsigned *failures) {
  const __half inf = hb(0x7C00u), ninf = hb(0xFC00u), nan = hb(0x7E00u);
  SELFTEST_CHECK(failures, __half2int_rn(__float2half(2.5f)) == 2);
  SELFTEST_CHECK(failures, __half2int_rn(__float2half(3.5f)) == 4);
  SELFTEST_CHECK(failures, __half2int_rn(__float2half(-2.5f)) == -2);
  SELFTEST_CHECK(failures, __half2int_rz(__float2half(-2.75f)) == -2);
  SELFTEST_CHECK(failures, __half2int_rd(__float2half(-2.25f)) == -3);
  SELFTEST_CHECK(failures, __half2int_ru(__float2half(2.25f)) == 3);
  SELFTEST_CHECK(failures, __half2int_rz(inf) == 0x7FFFFFFF);
  SELFTEST_CHECK(failures, __half2int_rz(ninf) == static_cast<int>(0x80000000u));
  SELFTEST_CHECK(failures, __half2int_rz(nan) == 0);
  SELFTEST_CHECK(failures, __half2uint_rz(__float2half(-5.0f)) == 0u);
  SELFTEST_CHECK(failures, __half2uint_rn(__float2half(65504.0f)) == 65504u);
  SELFTEST_CHECK(failures, __half2uint_rz(inf) == 0xFFFFFFFFu);
  SELFTEST_CHECK(failures, __half2short_rz(__float2half(40000.0f)) == 32767);
  SELFTEST_CHECK(failures, __half2short_rz(__float2half(-40000.0f)) == -32768);
  SELFTEST_CHECK(failures, __half2ushort_rn(__float2half(1.5f)) == 2u);
  SELFTEST_CHECK(failures, __half2char_rz(__float2half(300.0f)) == 127);
  SELFTEST_CHECK(failures, __half2char_rz(__float2half(-300.0f)) == -128);
  SELFTEST_CHECK(failures, __half2uchar_rz(__float2half(-3.0f)) == 0u);
  SELFTEST_CHECK(failures, __half2uchar_rz(__float2half(255.9f)) == 255u);
  SELFTEST_CHECK(failures, __half2ll_rz(nan) == static_cast<long long>(0x8000000000000000ULL));
  SELFTEST_CHECK(failures, __half2ull_rz(nan) == 0x8000000000000000ULL);
  SELFTEST_CHECK(failures, __half2ll_rd(__float2half(-0.5f)) == -1LL);
  SELFTEST_CHECK(failures, __half2ull_ru(__float2half(0.25f)) == 1ULL);
  SELFTEST_CHECK(failures, __half2ull_rz(inf) == 0xFFFFFFFFFFFFFFFFULL);
  /* 2049 is a tie between 2048 (even) and 2050; 2051 between 2050 and 2052. */
  SELFTEST_CHECK(failures, __half2float(__int2half_rn(2049)) == 2048.0f);
  SELFTEST_CHECK(failures, __half2float(__int2half_rn(2051)) == 2052.0f);
  SELFTEST_CHECK(failures, __half2float(__int2half_rz(2051)) == 2050.0f);
  SELFTEST_CHECK(failures, __half2float(__int2half_ru(2049)) == 2050.0f);
  SELFTEST_CHECK(failures, __half2float(__int2half_rd(-2049)) == -2050.0f);
  SELFTEST_CHECK(failures, hbits(__int2half_rn(70000)) == 0x7C00u);
  SELFTEST_CHECK(failures, hbits(__int2half_rz(70000)) == 0x7BFFu);
  SELFTEST_CHECK(failures, __half2float(__uint2half_rn(4095u)) == 4096.0f);
  SELFTEST_CHECK(failures, __half2float(__short2half_rn(-7)) == -7.0f);
  SELFTEST_CHECK(failures, __half2float(__ushort2half_ru(2049)) == 2050.0f);
  SELFTEST_CHECK(failures, __half2float(__ll2half_rd(-2049LL)) == -2050.0f);
  SELFTEST_CHECK(failures, hbits(__ull2half_rn(0xFFFFFFFFFFFFFFFFULL)) == 0x7C00u);
  /* 2^53 + 1 needs more bits than a double: still rounded once. */
  SELFTEST_CHECK(failures, hbits(__ll2half_rn(9007199254740993LL)) == 0x7C00u);
  SELFTEST_CHECK(failures, __half2float(__ll2half_rn(-32784LL)) == -32768.0f);
  SELFTEST_CHECK(failures, __half2float(__ll2half_ru(-32783LL)) == -32768.0f);
}

/* Arithmetic: ties, the single rounding of fma, saturation, NaN. */
extern "C" __global__ void selftest_half_arithmetic(unsigned *failures) {
  const __half one = hb(0x3C00u), nan = hb(0x7E00u);
  SELFTEST_CHECK(failures, hbits(__hadd(one, hb(0x1000u))) == 0x3C00u);   /* 1 + 2^-11: tie */
  SELFTEST_CHECK(failures, hbits(__hadd(hb(0x3C01u), hb(0x1000u))) == 0x3C02u);
  SELFTEST_CHECK(failures, hbits(__hsub(one, one)) == 0x0000u);
  SELFTEST_CHECK(failures, hbits(__hsub(hb(0x0001u), hb(0x0002u))) == 0x8001u); /* subnormals */
  SELFTEST_CHECK(failures, hbits(__hmul(hb(0x3C01u), hb(0x3C01u))) == 0x3C02u);
  SELFTEST_CHECK(failures, hbits(__hmul(hb(0x0400u), hb(0x3800u))) == 0x0200u);
  SELFTEST_CHECK(failures, hbits(__hmul(hb(0x7BFFu), hb(0x4000u))) == 0x7C00u); /* overflow */
  SELFTEST_CHECK(failures, hbits(__hdiv(one, __float2half(3.0f))) == 0x3555u);
  SELFTEST_CHECK(failures, hbits(__hdiv(one, hb(0x0000u))) == 0x7C00u);
  SELFTEST_CHECK(failures, __hisnan(__hdiv(hb(0x0000u), hb(0x0000u))));
  SELFTEST_CHECK(failures, hbits(__hadd_rn(one, one)) == 0x4000u);
  SELFTEST_CHECK(failures, hbits(__hmul_rn(one, hb(0xC000u))) == 0xC000u);
  /* fma rounds once: (1 + 2^-10)^2 - (1 + 2^-9) is exactly 2^-20, whereas a
   * rounded product would give 0. */
  SELFTEST_CHECK(failures, hbits(__hfma(hb(0x3C01u), hb(0x3C01u), hb(0xBC02u))) == 0x0010u);
  /* 3 * (1 + 2^-10) is a tie; the addend breaks it either way. */
  const __half three = hb(0x4200u), a = hb(0x3C01u);
  SELFTEST_CHECK(failures, hbits(__hfma(three, a, hb(0x0000u))) == 0x4202u);
  SELFTEST_CHECK(failures, hbits(__hfma(three, a, hb(0x0001u))) == 0x4202u);
  SELFTEST_CHECK(failures, hbits(__hfma(three, a, hb(0x8001u))) == 0x4201u);
  SELFTEST_CHECK(failures, hbits(__hfma_sat(three, a, hb(0x0000u))) == 0x3C00u);
  SELFTEST_CHECK(failures, hbits(__hfma_relu(three, a, hb(0xC800u))) == 0x0000u);
  SELFTEST_CHECK(failures, __hisnan(__hfma_relu(nan, a, one)));
  SELFTEST_CHECK(failures, hbits(__hadd_sat(__float2half(0.75f), __float2half(0.5f))) == 0x3C00u);
  SELFTEST_CHECK(failures, hbits(__hsub_sat(__float2half(0.25f), __float2half(0.5f))) == 0x0000u);
  SELFTEST_CHECK(failures, hbits(__hmul_sat(nan, one)) == 0x0000u);
  SELFTEST_CHECK(failures, hbits(__hneg(one)) == 0xBC00u);
  SELFTEST_CHECK(failures, hbits(__hneg(hb(0x0000u))) == 0x8000u);
  SELFTEST_CHECK(failures, hbits(__habs(hb(0x8000u))) == 0x0000u);
  SELFTEST_CHECK(failures, hbits(__habs(hb(0xFC00u))) == 0x7C00u);
  SELFTEST_CHECK(failures, __hisnan(__habs(hb(0xFE00u))));
  SELFTEST_CHECK(failures, hbits(__hmax(nan, one)) == 0x3C00u);
  SELFTEST_CHECK(failures, hbits(__hmin(one, nan)) == 0x3C00u);
  SELFTEST_CHECK(failures, __hisnan(__hmax(nan, nan)));
  SELFTEST_CHECK(failures, __hisnan(__hmax_nan(nan, one)));
  SELFTEST_CHECK(failures, __hisnan(__hmin_nan(one, nan)));
  SELFTEST_CHECK(failures, hbits(__hmax_nan(one, hb(0x4000u))) == 0x4000u);
  SELFTEST_CHECK(failures, hbits(__hmin(hb(0xC000u), one)) == 0xC000u);

  const __half2 x = __floats2half2_rn(1.0f, -2.0f), y = __floats2half2_rn(0.5f, 4.0f);
  __half2 r = __hadd2(x, y);
  SELFTEST_CHECK(failures, __low2float(r) == 1.5f && __high2float(r) == 2.0f);
  r = __hsub2(x, y);
  SELFTEST_CHECK(failures, __low2float(r) == 0.5f && __high2float(r) == -6.0f);
  r = __hmul2(x, y);
  SELFTEST_CHECK(failures, __low2float(r) == 0.5f && __high2float(r) == -8.0f);
  r = __h2div(x, y);
  SELFTEST_CHECK(failures, __low2float(r) == 2.0f && __high2float(r) == -0.5f);
  r = __hfma2(x, y, x);
  SELFTEST_CHECK(failures, __low2float(r) == 1.5f && __high2float(r) == -10.0f);
  r = __hadd2_sat(x, y);
  SELFTEST_CHECK(failures, __low2float(r) == 1.0f && __high2float(r) == 1.0f);
  r = __hneg2(x);
  SELFTEST_CHECK(failures, __low2float(r) == -1.0f && __high2float(r) == 2.0f);
  r = __habs2(x);
  SELFTEST_CHECK(failures, __low2float(r) == 1.0f && __high2float(r) == 2.0f);
  r = __hmax2(x, y);
  SELFTEST_CHECK(failures, __low2float(r) == 1.0f && __high2float(r) == 4.0f);
  r = __hmin2(x, y);
  SELFTEST_CHECK(failures, __low2float(r) == 0.5f && __high2float(r) == -2.0f);
  /* (1 - 2i) * (0.5 + 4i) + (1 - 2i) = (8.5 + 3i) + (1 - 2i). */
  r = __hcmadd(x, y, x);
  SELFTEST_CHECK(failures, __low2float(r) == 9.5f && __high2float(r) == 1.0f);
}

/* Comparisons, NaN and infinity tests. */
extern "C" __global__ void selftest_half_compare(unsigned *failures) {
  const __half one = hb(0x3C00u), two = hb(0x4000u), nan = hb(0x7E00u);
  SELFTEST_CHECK(failures, __heq(one, one) && !__heq(one, two) && !__heq(nan, nan));
  SELFTEST_CHECK(failures, __hne(one, two) && !__hne(nan, one) && __hneu(nan, one));
  SELFTEST_CHECK(failures, __hlt(one, two) && !__hlt(two, one) && !__hlt(nan, one));
  SELFTEST_CHECK(failures, __hle(one, one) && __hgt(two, one) && __hge(two, two));
  SELFTEST_CHECK(failures, __hequ(nan, one) && !__hequ(one, two) && __hequ(one, one));
  SELFTEST_CHECK(failures, __hltu(nan, one) && __hleu(one, nan) && __hgtu(nan, nan) && __hgeu(nan, one));
  SELFTEST_CHECK(failures, !__hltu(two, one) && !__hgtu(one, two));
  SELFTEST_CHECK(failures, __heq(hb(0x0000u), hb(0x8000u))); /* +0 == -0 */
  SELFTEST_CHECK(failures, __hisnan(nan) && !__hisnan(one) && !__hisnan(hb(0x7C00u)));
  SELFTEST_CHECK(failures, __hisinf(hb(0x7C00u)) == 1 && __hisinf(hb(0xFC00u)) == -1);
  SELFTEST_CHECK(failures, __hisinf(nan) == 0 && __hisinf(hb(0x7BFFu)) == 0);

  const __half2 a = __halves2half2(one, nan), b = __halves2half2(one, two);
  __half2 r = __heq2(a, b);
  SELFTEST_CHECK(failures, __low2float(r) == 1.0f && __high2float(r) == 0.0f);
  r = __hequ2(a, b);
  SELFTEST_CHECK(failures, __low2float(r) == 1.0f && __high2float(r) == 1.0f);
  r = __hlt2(b, __halves2half2(two, one));
  SELFTEST_CHECK(failures, __low2float(r) == 1.0f && __high2float(r) == 0.0f);
  r = __hisnan2(a);
  SELFTEST_CHECK(failures, __low2float(r) == 0.0f && __high2float(r) == 1.0f);
  SELFTEST_CHECK(failures, __heq2_mask(a, b) == 0x0000FFFFu);
  SELFTEST_CHECK(failures, __hneu2_mask(a, b) == 0xFFFF0000u);
  SELFTEST_CHECK(failures, __hgt2_mask(b, a) == 0x00000000u);
  SELFTEST_CHECK(failures, __hge2_mask(b, b) == 0xFFFFFFFFu);
  SELFTEST_CHECK(failures, __hbeq2(b, b) && !__hbeq2(a, b) && !__hbeq2(a, a));
  SELFTEST_CHECK(failures, __hbequ2(a, b) && !__hbneu2(a, b) && !__hbne2(a, b));
  SELFTEST_CHECK(failures, __hbneu2(a, __halves2half2(two, one)));
  SELFTEST_CHECK(failures, __hble2(b, b) && __hbge2(b, b) && !__hblt2(b, b) && !__hbgt2(b, b));
  SELFTEST_CHECK(failures, __hbltu2(a, __halves2half2(two, two)) && __hbleu2(a, b));
  SELFTEST_CHECK(failures, !__hbgtu2(a, b) && __hbgeu2(a, b));
}

/* Math functions on exactly representable results. */
extern "C" __global__ void selftest_half_math(unsigned *failures) {
  const __half one = hb(0x3C00u);
  SELFTEST_CHECK(failures, __half2float(hsqrt(__float2half(4.0f))) == 2.0f);
  SELFTEST_CHECK(failures, hbits(hsqrt(__float2half(2.0f))) == 0x3DA8u);
  SELFTEST_CHECK(failures, __hisnan(hsqrt(__float2half(-1.0f))));
  SELFTEST_CHECK(failures, __half2float(hrsqrt(__float2half(4.0f))) == 0.5f);
  SELFTEST_CHECK(failures, hbits(hrsqrt(hb(0x0000u))) == 0x7C00u);
  SELFTEST_CHECK(failures, __half2float(hrcp(__float2half(4.0f))) == 0.25f);
  SELFTEST_CHECK(failures, __half2float(hexp(hb(0x0000u))) == 1.0f);
  SELFTEST_CHECK(failures, __half2float(hexp2(__float2half(3.0f))) == 8.0f);
  SELFTEST_CHECK(failures, __half2float(hexp10(__float2half(2.0f))) == 100.0f);
  SELFTEST_CHECK(failures, __half2float(hlog(one)) == 0.0f);
  SELFTEST_CHECK(failures, __half2float(hlog2(__float2half(8.0f))) == 3.0f);
  SELFTEST_CHECK(failures, __half2float(hlog10(__float2half(100.0f))) == 2.0f);
  SELFTEST_CHECK(failures, hbits(hlog(hb(0x0000u))) == 0xFC00u);
  SELFTEST_CHECK(failures, __half2float(hsin(hb(0x0000u))) == 0.0f);
  SELFTEST_CHECK(failures, __half2float(hcos(hb(0x0000u))) == 1.0f);
  SELFTEST_CHECK(failures, __half2float(htanh(hb(0x0000u))) == 0.0f);
  SELFTEST_CHECK(failures, __half2float(htanh(hb(0x7C00u))) == 1.0f);
  SELFTEST_CHECK(failures, __half2float(hfloor(__float2half(-1.5f))) == -2.0f);
  SELFTEST_CHECK(failures, __half2float(hceil(__float2half(-1.5f))) == -1.0f);
  SELFTEST_CHECK(failures, __half2float(htrunc(__float2half(-1.5f))) == -1.0f);
  SELFTEST_CHECK(failures, __half2float(hrint(__float2half(2.5f))) == 2.0f);
  SELFTEST_CHECK(failures, __half2float(hrint(__float2half(3.5f))) == 4.0f);
  SELFTEST_CHECK(failures, hbits(hceil(__float2half(-0.5f))) == 0x8000u);
  const __half2 v = __floats2half2_rn(9.0f, 0.25f);
  __half2 r = h2sqrt(v);
  SELFTEST_CHECK(failures, __low2float(r) == 3.0f && __high2float(r) == 0.5f);
  r = h2rcp(v);
  SELFTEST_CHECK(failures, __high2float(r) == 4.0f);
  r = h2floor(__floats2half2_rn(1.75f, -1.25f));
  SELFTEST_CHECK(failures, __low2float(r) == 1.0f && __high2float(r) == -2.0f);
  r = h2exp2(__floats2half2_rn(-1.0f, 4.0f));
  SELFTEST_CHECK(failures, __low2float(r) == 0.5f && __high2float(r) == 16.0f);
  r = h2log2(__floats2half2_rn(0.5f, 1024.0f));
  SELFTEST_CHECK(failures, __low2float(r) == -1.0f && __high2float(r) == 10.0f);
}

/* C++ operators and constructors of __half and __half2. */
extern "C" __global__ void selftest_half_operators(unsigned *failures) {
  __half a = __float2half(1.5f);
  const __half b(2.0f);
  SELFTEST_CHECK(failures, static_cast<float>(a + b) == 3.5f);
  SELFTEST_CHECK(failures, static_cast<float>(a - b) == -0.5f);
  SELFTEST_CHECK(failures, static_cast<float>(a * b) == 3.0f);
  SELFTEST_CHECK(failures, static_cast<float>(b / a) == __half2float(__hdiv(b, a)));
  SELFTEST_CHECK(failures, static_cast<float>(-a) == -1.5f && static_cast<float>(+a) == 1.5f);
  a += b;
  SELFTEST_CHECK(failures, static_cast<float>(a) == 3.5f);
  a -= b;
  a *= b;
  SELFTEST_CHECK(failures, static_cast<float>(a) == 3.0f);
  a /= b;
  SELFTEST_CHECK(failures, static_cast<float>(a) == 1.5f);
  __half c = a++;
  SELFTEST_CHECK(failures, static_cast<float>(c) == 1.5f && static_cast<float>(a) == 2.5f);
  c = --a;
  SELFTEST_CHECK(failures, static_cast<float>(c) == 1.5f);
  SELFTEST_CHECK(failures, a < b && b > a && a <= a && b >= a && a == c && a != b);
  const __half nan = hb(0x7E00u);
  SELFTEST_CHECK(failures, !(nan == nan) && (nan != nan) && !(nan < b));
  /* Conversions to integers truncate; from integers they round. */
  const __half d(-2.75f);
  SELFTEST_CHECK(failures, static_cast<int>(d) == -2);
  SELFTEST_CHECK(failures, static_cast<unsigned>(__half(7.9f)) == 7u);
  SELFTEST_CHECK(failures, static_cast<float>(__half(2049)) == 2048.0f);
  SELFTEST_CHECK(failures, static_cast<float>(__half(3.0)) == 3.0f);
  __half e;
  e = 5;
  SELFTEST_CHECK(failures, static_cast<float>(e) == 5.0f);
  e = 0.25;
  SELFTEST_CHECK(failures, static_cast<float>(e) == 0.25f);
  SELFTEST_CHECK(failures, static_cast<bool>(e) && !static_cast<bool>(hb(0x8000u)));
  __half_raw raw;
  raw.x = 0x3C00u;
  const __half f(raw);
  SELFTEST_CHECK(failures, static_cast<float>(f) == 1.0f);
  SELFTEST_CHECK(failures, static_cast<__half_raw>(b).x == 0x4000u);

  __half2 p = __floats2half2_rn(1.0f, 2.0f);
  const __half2 q = __floats2half2_rn(3.0f, 4.0f);
  __half2 r = p + q;
  SELFTEST_CHECK(failures, __low2float(r) == 4.0f && __high2float(r) == 6.0f);
  r = q - p;
  SELFTEST_CHECK(failures, __low2float(r) == 2.0f && __high2float(r) == 2.0f);
  r = p * q;
  SELFTEST_CHECK(failures, __low2float(r) == 3.0f && __high2float(r) == 8.0f);
  r = q / p;
  SELFTEST_CHECK(failures, __low2float(r) == 3.0f && __high2float(r) == 2.0f);
  p += q;
  ++p;
  SELFTEST_CHECK(failures, __low2float(p) == 5.0f && __high2float(p) == 7.0f);
  r = -p;
  SELFTEST_CHECK(failures, __low2float(r) == -5.0f && __high2float(r) == -7.0f);
  SELFTEST_CHECK(failures, q < p && p > q && p == p && p != q && q <= q && p >= q);
  __half2_raw r2;
  r2.x = 0x3C00u;
  r2.y = 0xC000u;
  const __half2 s(r2);
  SELFTEST_CHECK(failures, __low2float(s) == 1.0f && __high2float(s) == -2.0f);
  const __half2_raw back = s;
  SELFTEST_CHECK(failures, back.x == 0x3C00u && back.y == 0xC000u);
}

/* __nv_bfloat16: conversions, arithmetic, comparisons and operators. */
extern "C" __global__ void selftest_bfloat16(unsigned *failures) {
  /* 1 + 2^-8 is the tie between 1 (even) and 1 + 2^-7; 1 + 3*2^-8 the tie
   * between 1 + 2^-7 (odd) and 1 + 2^-6. */
  SELFTEST_CHECK(failures, bbits(__float2bfloat16(1.0f)) == 0x3F80u);
  SELFTEST_CHECK(failures, bbits(__float2bfloat16(0x1.02p0f)) == 0x3F81u); /* exact */
  SELFTEST_CHECK(failures, bbits(__float2bfloat16(0x1.01p0f)) == 0x3F80u);
  SELFTEST_CHECK(failures, bbits(__float2bfloat16(0x1.03p0f)) == 0x3F82u);
  SELFTEST_CHECK(failures, bbits(__float2bfloat16(0x1.010002p0f)) == 0x3F81u);
  SELFTEST_CHECK(failures, bbits(__float2bfloat16_rn(-0x1.01p0f)) == 0xBF80u);
  SELFTEST_CHECK(failures, bbits(__float2bfloat16_rz(0x1.03p0f)) == 0x3F81u);
  SELFTEST_CHECK(failures, bbits(__float2bfloat16_ru(0x1.000002p0f)) == 0x3F81u);
  SELFTEST_CHECK(failures, bbits(__float2bfloat16_rd(-0x1.000002p0f)) == 0xBF81u);
  /* Subnormals: 2^-133 is the smallest; 2^-134 is a tie with zero. */
  SELFTEST_CHECK(failures, bbits(__float2bfloat16(0x1p-133f)) == 0x0001u);
  SELFTEST_CHECK(failures, bbits(__float2bfloat16(0x1p-134f)) == 0x0000u);
  SELFTEST_CHECK(failures, bbits(__float2bfloat16(0x1.8p-133f)) == 0x0002u);
  /* The largest float rounds up to infinity, except towards zero. */
  const float fmax = fbits(0x7F7FFFFF);
  SELFTEST_CHECK(failures, bbits(__float2bfloat16(fmax)) == 0x7F80u);
  SELFTEST_CHECK(failures, bbits(__float2bfloat16_rz(fmax)) == 0x7F7Fu);
  SELFTEST_CHECK(failures, bbits(__float2bfloat16(fbits(0xFF800000))) == 0xFF80u);
  SELFTEST_CHECK(failures, __hisnan(__float2bfloat16(fbits(0x7FC00001))));
  SELFTEST_CHECK(failures, bbits(__double2bfloat16(0x1.0100000001p0)) == 0x3F81u);
  SELFTEST_CHECK(failures, __bfloat162float(bb(0x4049u)) == 3.140625f);
  SELFTEST_CHECK(failures, __bfloat162float(bb(0x0001u)) == 0x1p-133f);
  SELFTEST_CHECK(failures, sizeof(__nv_bfloat16) == 2 && sizeof(__nv_bfloat162) == 4);

  const __nv_bfloat16 one = bb(0x3F80u), tiny = bb(0x3B80u); /* 2^-8 */
  SELFTEST_CHECK(failures, bbits(__hadd(one, tiny)) == 0x3F80u);
  SELFTEST_CHECK(failures, bbits(__hadd(bb(0x3F81u), tiny)) == 0x3F82u);
  SELFTEST_CHECK(failures, bbits(__hmul(bb(0x3F81u), bb(0x3F81u))) == 0x3F82u);
  SELFTEST_CHECK(failures, bbits(__hsub(one, one)) == 0x0000u);
  SELFTEST_CHECK(failures, __bfloat162float(__hdiv(one, __float2bfloat16(4.0f))) == 0.25f);
  /* (1 + 2^-7)^2 - (1 + 2^-6) = 2^-14 exactly, with a single rounding. */
  SELFTEST_CHECK(failures, bbits(__hfma(bb(0x3F81u), bb(0x3F81u), bb(0xBF82u))) == 0x3880u);
  SELFTEST_CHECK(failures, bbits(__hneg(one)) == 0xBF80u && bbits(__habs(bb(0xBF80u))) == 0x3F80u);
  SELFTEST_CHECK(failures, __heq(one, one) && __hlt(tiny, one) && !__heq(bb(0x7FC0u), bb(0x7FC0u)));
  SELFTEST_CHECK(failures, __hneu(bb(0x7FC0u), one) && __hisnan(bb(0x7FC0u)));
  SELFTEST_CHECK(failures, __hisinf(bb(0xFF80u)) == -1);
  SELFTEST_CHECK(failures, bbits(__hmax(bb(0x7FC0u), one)) == 0x3F80u);
  SELFTEST_CHECK(failures, __bfloat162int_rn(__float2bfloat16(2.5f)) == 2);
  SELFTEST_CHECK(failures, __bfloat162int_rz(bb(0x7F80u)) == 0x7FFFFFFF);
  SELFTEST_CHECK(failures, __bfloat162uint_rz(bb(0x7FC0u)) == 0u);
  SELFTEST_CHECK(failures, __bfloat162float(__int2bfloat16_rn(257)) == 256.0f); /* tie */
  SELFTEST_CHECK(failures, __bfloat162float(__int2bfloat16_rn(259)) == 260.0f);
  SELFTEST_CHECK(failures, __bfloat162float(__int2bfloat16_ru(257)) == 258.0f);
  SELFTEST_CHECK(failures, __bfloat162float(hsqrt(__float2bfloat16(16.0f))) == 4.0f);
  SELFTEST_CHECK(failures, __bfloat162float(hfloor(__float2bfloat16(-0.5f))) == -1.0f);

  const __nv_bfloat162 p = __floats2bfloat162_rn(1.0f, -2.0f);
  const __nv_bfloat162 q = __floats2bfloat162_rn(0.5f, 4.0f);
  __nv_bfloat162 r = __hadd2(p, q);
  SELFTEST_CHECK(failures, __low2float(r) == 1.5f && __high2float(r) == 2.0f);
  r = __hmul2(p, q);
  SELFTEST_CHECK(failures, __low2float(r) == 0.5f && __high2float(r) == -8.0f);
  SELFTEST_CHECK(failures, __heq2_mask(p, p) == 0xFFFFFFFFu && __hblt2(q, __floats2bfloat162_rn(1.0f, 5.0f)));
  const float2 f = __bfloat1622float2(p);
  SELFTEST_CHECK(failures, f.x == 1.0f && f.y == -2.0f);
  SELFTEST_CHECK(failures, __bfloat162float(__low2bfloat16(p)) == 1.0f);
  SELFTEST_CHECK(failures, __bfloat162float(__high2bfloat16(p)) == -2.0f);

  __nv_bfloat16 a = __float2bfloat16(1.5f);
  const __nv_bfloat16 b(2.0f);
  SELFTEST_CHECK(failures, static_cast<float>(a + b) == 3.5f && static_cast<float>(a * b) == 3.0f);
  a += b;
  ++a;
  SELFTEST_CHECK(failures, static_cast<float>(a) == 4.5f && a > b && b < a && a != b);
  r = p + q;
  r *= q;
  SELFTEST_CHECK(failures, __low2float(r) == 0.75f && __high2float(r) == 8.0f && r != p);
  /* Between the two 16-bit formats. */
  const __half h(__float2bfloat16(3.0f));
  SELFTEST_CHECK(failures, __half2float(h) == 3.0f);
  const __nv_bfloat16 g(__float2half(0.5f));
  SELFTEST_CHECK(failures, __bfloat162float(g) == 0.5f);
}

/* cuComplex: arithmetic, CUDA's scaled division and hypotenuse. */
extern "C" __global__ void selftest_complex(unsigned *failures) {
  const cuFloatComplex a = make_cuFloatComplex(1.0f, 2.0f);
  const cuFloatComplex b = make_cuFloatComplex(3.0f, -4.0f);
  SELFTEST_CHECK(failures, cuCrealf(a) == 1.0f && cuCimagf(a) == 2.0f);
  cuFloatComplex r = cuCaddf(a, b);
  SELFTEST_CHECK(failures, cuCrealf(r) == 4.0f && cuCimagf(r) == -2.0f);
  r = cuCsubf(a, b);
  SELFTEST_CHECK(failures, cuCrealf(r) == -2.0f && cuCimagf(r) == 6.0f);
  r = cuCmulf(a, b); /* (1 + 2i)(3 - 4i) = 11 + 2i */
  SELFTEST_CHECK(failures, cuCrealf(r) == 11.0f && cuCimagf(r) == 2.0f);
  r = cuConjf(a);
  SELFTEST_CHECK(failures, cuCrealf(r) == 1.0f && cuCimagf(r) == -2.0f);
  /* (11 + 2i) / (3 - 4i) = 1 + 2i: the scaling by 1/7 is inexact, yet the
   * result is exact within 2 ulps. */
  r = cuCdivf(make_cuFloatComplex(11.0f, 2.0f), b);
  SELFTEST_CHECK(failures, fabsf(cuCrealf(r) - 1.0f) <= 2.5e-7f && fabsf(cuCimagf(r) - 2.0f) <= 5e-7f);
  /* Dividing by a power of two scales exactly. */
  r = cuCdivf(make_cuFloatComplex(6.0f, -8.0f), make_cuFloatComplex(2.0f, 0.0f));
  SELFTEST_CHECK(failures, cuCrealf(r) == 3.0f && cuCimagf(r) == -4.0f);
  r = cuCdivf(make_cuFloatComplex(2.0f, 2.0f), make_cuFloatComplex(0.0f, 2.0f));
  SELFTEST_CHECK(failures, cuCrealf(r) == 1.0f && cuCimagf(r) == -1.0f);
  /* The scaling avoids overflow where the naive formula overflows. */
  r = cuCdivf(make_cuFloatComplex(0x1p100f, 0x1p100f), make_cuFloatComplex(0x1p100f, 0x1p100f));
  SELFTEST_CHECK(failures, cuCrealf(r) == 1.0f && cuCimagf(r) == 0.0f);
  SELFTEST_CHECK(failures, cuCabsf(b) == 5.0f);
  SELFTEST_CHECK(failures, cuCabsf(make_cuFloatComplex(0.0f, 0.0f)) == 0.0f);
  SELFTEST_CHECK(failures, cuCabsf(make_cuFloatComplex(3e38f, 3e38f)) > 3.4e38f); /* infinite */
  SELFTEST_CHECK(failures, cuCabsf(make_cuFloatComplex(-0x1.8p101f, 0x1p102f)) == 0x1.4p102f);
  r = cuCfmaf(a, b, make_cuFloatComplex(1.0f, 1.0f));
  SELFTEST_CHECK(failures, cuCrealf(r) == 12.0f && cuCimagf(r) == 3.0f);
  const cuComplex c = make_cuComplex(0.5f, 0.25f);
  SELFTEST_CHECK(failures, cuCrealf(c) == 0.5f && sizeof(cuComplex) == 8);

  const cuDoubleComplex x = make_cuDoubleComplex(1.0, 2.0);
  const cuDoubleComplex y = make_cuDoubleComplex(3.0, -4.0);
  cuDoubleComplex z = cuCmul(x, y);
  SELFTEST_CHECK(failures, cuCreal(z) == 11.0 && cuCimag(z) == 2.0);
  z = cuCdiv(z, y);
  SELFTEST_CHECK(failures, fabs(cuCreal(z) - 1.0) <= 5e-16 && fabs(cuCimag(z) - 2.0) <= 1e-15);
  z = cuCdiv(make_cuDoubleComplex(1.0, 0.0), make_cuDoubleComplex(0.0, 4.0));
  SELFTEST_CHECK(failures, cuCreal(z) == 0.0 && cuCimag(z) == -0.25);
  z = cuCdiv(make_cuDoubleComplex(0x1p1000, 0x1p1000), make_cuDoubleComplex(0x1p1000, -0x1p1000));
  SELFTEST_CHECK(failures, cuCreal(z) == 0.0 && cuCimag(z) == 1.0);
  SELFTEST_CHECK(failures, cuCabs(y) == 5.0 && cuCabs(make_cuDoubleComplex(0.0, -7.0)) == 7.0);
  z = cuCadd(x, cuConj(y));
  SELFTEST_CHECK(failures, cuCreal(z) == 4.0 && cuCimag(z) == 6.0);
  z = cuCsub(x, y);
  SELFTEST_CHECK(failures, cuCreal(z) == -2.0 && cuCimag(z) == 6.0);
  z = cuCfma(x, y, make_cuDoubleComplex(-11.0, -2.0));
  SELFTEST_CHECK(failures, cuCreal(z) == 0.0 && cuCimag(z) == 0.0);
  z = cuComplexFloatToDouble(make_cuFloatComplex(0.1f, -0.5f));
  SELFTEST_CHECK(failures, cuCreal(z) == static_cast<double>(0.1f) && cuCimag(z) == -0.5);
  r = cuComplexDoubleToFloat(make_cuDoubleComplex(0.1, 1e300));
  SELFTEST_CHECK(failures, cuCrealf(r) == 0.1f && cuCimagf(r) > 3.4e38f);
  SELFTEST_CHECK(failures, sizeof(cuDoubleComplex) == 16 && alignof(cuDoubleComplex) == 16);
}
