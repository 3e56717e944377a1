/*
 * selftest_ptx_float.cu: self-checking kernels for inline PTX's
 * floating-point instructions and conversions: rounding modes of add, mul,
 * fma, div, rcp, sqrt and cvt, .ftz and .sat, min/max with NaN and signed
 * zeros, ordered and unordered setp, cvt's float-to-integer rounding and
 * clamping, f16/bf16 conversions. Expected bit patterns are worked out by
 * hand from IEEE 754 and the PTX ISA.
 */
#include "selftest.cuh"

template <typename T>
__device__ static T opaque(T x) {
  volatile T v = x;
  return v;
}

__device__ static float f(unsigned bits) { return __uint_as_float(opaque(bits)); }

extern "C" __global__ void selftest_ptx_float_round(unsigned *failures) {
  unsigned r;
  const float one = f(0x3f800000u), tiny24 = f(0x33800000u) /* 2^-24 */,
              tiny30 = f(0x30800000u) /* 2^-30 */, three = f(0x40400000u);
  asm("add.rz.f32 %0, %1, %2;" : "=r"(r) : "f"(one), "f"(tiny24));
  SELFTEST_CHECK(failures, r == 0x3f800000u);
  asm("add.rn.f32 %0, %1, %2;" : "=r"(r) : "f"(one), "f"(tiny24));
  SELFTEST_CHECK(failures, r == 0x3f800000u); /* a tie, to even */
  asm("add.rp.f32 %0, %1, %2;" : "=r"(r) : "f"(one), "f"(tiny30));
  SELFTEST_CHECK(failures, r == 0x3f800001u);
  asm("add.rm.f32 %0, %1, %2;" : "=r"(r) : "f"(-one), "f"(-tiny30));
  SELFTEST_CHECK(failures, r == 0xbf800001u);
  asm("sub.rz.f32 %0, %1, %2;" : "=r"(r) : "f"(one), "f"(tiny30));
  SELFTEST_CHECK(failures, r == 0x3f7fffffu);
  /* (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46. */
  const float a = f(0x3f800001u);
  asm("mul.rn.f32 %0, %1, %1;" : "=r"(r) : "f"(a));
  SELFTEST_CHECK(failures, r == 0x3f800002u);
  asm("mul.rz.f32 %0, %1, %1;" : "=r"(r) : "f"(a));
  SELFTEST_CHECK(failures, r == 0x3f800002u);
  asm("mul.rp.f32 %0, %1, %1;" : "=r"(r) : "f"(a));
  SELFTEST_CHECK(failures, r == 0x3f800003u);
  /* (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly with fma; 2^-11 with a
   * rounded product. */
  const float b = f(0x39800000u) + one; /* 1 + 2^-12 */
  asm("fma.rn.f32 %0, %1, %1, %2;" : "=r"(r) : "f"(b), "f"(-one));
  SELFTEST_CHECK(failures, r == 0x3a000400u);
  asm("{ .reg .f32 t; mul.rn.f32 t, %1, %1; add.rn.f32 %0, t, %2; }" : "=r"(r) : "f"(b), "f"(-one));
  SELFTEST_CHECK(failures, r == 0x3a000000u);
  asm("mad.rn.f32 %0, %1, %1, %2;" : "=r"(r) : "f"(b), "f"(-one));
  SELFTEST_CHECK(failures, r == 0x3a000400u);
  /* 1/3 */
  asm("div.rn.f32 %0, %1, %2;" : "=r"(r) : "f"(one), "f"(three));
  SELFTEST_CHECK(failures, r == 0x3eaaaaabu);
  asm("div.rz.f32 %0, %1, %2;" : "=r"(r) : "f"(one), "f"(three));
  SELFTEST_CHECK(failures, r == 0x3eaaaaaau);
  asm("div.rm.f32 %0, %1, %2;" : "=r"(r) : "f"(one), "f"(three));
  SELFTEST_CHECK(failures, r == 0x3eaaaaaau);
  asm("div.rp.f32 %0, %1, %2;" : "=r"(r) : "f"(one), "f"(three));
  SELFTEST_CHECK(failures, r == 0x3eaaaaabu);
  asm("rcp.rn.f32 %0, %1;" : "=r"(r) : "f"(three));
  SELFTEST_CHECK(failures, r == 0x3eaaaaabu);
  asm("rcp.rz.f32 %0, %1;" : "=r"(r) : "f"(three));
  SELFTEST_CHECK(failures, r == 0x3eaaaaaau);
  /* sqrt(2) = 1.41421356...: 0x3fb504f3 is below it, 0x3fb504f4 above. */
  asm("sqrt.rn.f32 %0, %1;" : "=r"(r) : "f"(f(0x40000000u)));
  SELFTEST_CHECK(failures, r == 0x3fb504f3u);
  asm("sqrt.rp.f32 %0, %1;" : "=r"(r) : "f"(f(0x40000000u)));
  SELFTEST_CHECK(failures, r == 0x3fb504f4u);
  unsigned long long d;
  asm("div.rn.f64 %0, %1, %2;" : "=l"(d) : "d"(opaque(1.0)), "d"(3.0));
  SELFTEST_CHECK(failures, d == 0x3fd5555555555555ULL);
  asm("sqrt.rn.f64 %0, %1;" : "=l"(d) : "d"(opaque(2.0)));
  SELFTEST_CHECK(failures, d == 0x3ff6a09e667f3bcdULL);
  asm("fma.rn.f64 %0, %1, %2, %3;" : "=l"(d) : "d"(opaque(2.0)), "d"(3.0), "d"(1.0));
  SELFTEST_CHECK(failures, d == 0x401c000000000000ULL); /* 7.0 */
  /* A decimal literal takes the instruction's type. */
  float x;
  asm("add.f32 %0, %1, 0f3F800000;" : "=f"(x) : "f"(opaque(2.0f)));
  SELFTEST_CHECK(failures, x == 3.0f);
  asm("mul.f32 %0, %1, 0.5;" : "=f"(x) : "f"(opaque(3.0f)));
  SELFTEST_CHECK(failures, x == 1.5f);
}

extern "C" __global__ void selftest_ptx_float_special(unsigned *failures) {
  unsigned r;
  const float nan = f(0x7fc00000u), one = f(0x3f800000u);
  const float sub = f(0x00000010u), nsub = f(0x80000010u);
  /* .ftz: subnormal inputs and results become zeros of their sign. */
  asm("add.ftz.f32 %0, %1, %2;" : "=r"(r) : "f"(sub), "f"(opaque(0.0f)));
  SELFTEST_CHECK(failures, r == 0u);
  asm("add.ftz.f32 %0, %1, %2;" : "=r"(r) : "f"(nsub), "f"(opaque(-0.0f)));
  SELFTEST_CHECK(failures, r == 0x80000000u);
  asm("add.f32 %0, %1, %2;" : "=r"(r) : "f"(sub), "f"(opaque(0.0f)));
  SELFTEST_CHECK(failures, r == 0x10u);
  asm("mul.ftz.f32 %0, %1, %2;" : "=r"(r) : "f"(opaque(1e-20f)), "f"(opaque(1e-20f)));
  SELFTEST_CHECK(failures, r == 0u);
  /* .sat clamps to [0, 1]; NaN gives 0. */
  float x;
  asm("add.sat.f32 %0, %1, %2;" : "=f"(x) : "f"(opaque(0.75f)), "f"(0.5f));
  SELFTEST_CHECK(failures, x == 1.0f);
  asm("add.sat.f32 %0, %1, %2;" : "=f"(x) : "f"(opaque(-1.0f)), "f"(0.5f));
  SELFTEST_CHECK(failures, x == 0.0f);
  asm("mul.sat.f32 %0, %1, %2;" : "=r"(r) : "f"(nan), "f"(one));
  SELFTEST_CHECK(failures, r == 0u);
  /* min/max: NaN gives the other operand; -0 < +0; .NaN propagates. */
  asm("min.f32 %0, %1, %2;" : "=f"(x) : "f"(nan), "f"(one));
  SELFTEST_CHECK(failures, x == 1.0f);
  asm("max.f32 %0, %1, %2;" : "=f"(x) : "f"(one), "f"(nan));
  SELFTEST_CHECK(failures, x == 1.0f);
  asm("min.f32 %0, %1, %2;" : "=r"(r) : "f"(opaque(0.0f)), "f"(opaque(-0.0f)));
  SELFTEST_CHECK(failures, r == 0x80000000u);
  asm("max.f32 %0, %1, %2;" : "=r"(r) : "f"(opaque(-0.0f)), "f"(opaque(0.0f)));
  SELFTEST_CHECK(failures, r == 0u);
  asm("min.NaN.f32 %0, %1, %2;" : "=r"(r) : "f"(nan), "f"(one));
  SELFTEST_CHECK(failures, r == 0x7fffffffu);
  asm("abs.f32 %0, %1;" : "=f"(x) : "f"(opaque(-2.0f)));
  SELFTEST_CHECK(failures, x == 2.0f);
  asm("neg.f32 %0, %1;" : "=r"(r) : "f"(opaque(0.0f)));
  SELFTEST_CHECK(failures, r == 0x80000000u);
  asm("copysign.f32 %0, %1, %2;" : "=f"(x) : "f"(opaque(-1.0f)), "f"(2.0f));
  SELFTEST_CHECK(failures, x == -2.0f);
  unsigned p;
  asm("{ .reg .pred t; testp.finite.f32 t, %1; selp.u32 %0, 1, 0, t; }" : "=r"(p) : "f"(f(0x7f800000u)));
  SELFTEST_CHECK(failures, p == 0);
  asm("{ .reg .pred t; testp.subnormal.f32 t, %1; selp.u32 %0, 1, 0, t; }" : "=r"(p) : "f"(sub));
  SELFTEST_CHECK(failures, p == 1);
  asm("{ .reg .pred t; testp.notanumber.f32 t, %1; selp.u32 %0, 1, 0, t; }" : "=r"(p) : "f"(nan));
  SELFTEST_CHECK(failures, p == 1);
  /* .approx: within a few ulps of the exact value. */
  asm("ex2.approx.f32 %0, %1;" : "=f"(x) : "f"(opaque(3.0f)));
  SELFTEST_CHECK(failures, fabsf(x - 8.0f) < 1e-5f);
  asm("lg2.approx.f32 %0, %1;" : "=f"(x) : "f"(opaque(8.0f)));
  SELFTEST_CHECK(failures, fabsf(x - 3.0f) < 1e-5f);
  asm("sin.approx.f32 %0, %1;" : "=f"(x) : "f"(opaque(0.5f)));
  SELFTEST_CHECK(failures, fabsf(x - 0.47942554f) < 1e-5f);
  asm("cos.approx.ftz.f32 %0, %1;" : "=f"(x) : "f"(opaque(0.5f)));
  SELFTEST_CHECK(failures, fabsf(x - 0.87758256f) < 1e-5f);
  asm("tanh.approx.f32 %0, %1;" : "=f"(x) : "f"(opaque(0.5f)));
  SELFTEST_CHECK(failures, fabsf(x - 0.46211716f) < 1e-3f);
  asm("rsqrt.approx.f32 %0, %1;" : "=f"(x) : "f"(opaque(4.0f)));
  SELFTEST_CHECK(failures, fabsf(x - 0.5f) < 1e-6f);
  asm("sqrt.approx.f32 %0, %1;" : "=f"(x) : "f"(opaque(4.0f)));
  SELFTEST_CHECK(failures, fabsf(x - 2.0f) < 1e-6f);
  asm("rcp.approx.f32 %0, %1;" : "=f"(x) : "f"(opaque(4.0f)));
  SELFTEST_CHECK(failures, fabsf(x - 0.25f) < 1e-6f);
  asm("div.full.f32 %0, %1, %2;" : "=f"(x) : "f"(opaque(1.0f)), "f"(4.0f));
  SELFTEST_CHECK(failures, x == 0.25f);
}

/* setp.CmpOp.f32 as 0 or 1. */
__device__ static unsigned fcmp(int op, float a, float b) {
  unsigned p;
  switch (op) {
  case 0: asm("{ .reg .pred t; setp.lt.f32 t, %1, %2; selp.u32 %0, 1, 0, t; }" : "=r"(p) : "f"(a), "f"(b)); break;
  case 1: asm("{ .reg .pred t; setp.ltu.f32 t, %1, %2; selp.u32 %0, 1, 0, t; }" : "=r"(p) : "f"(a), "f"(b)); break;
  case 2: asm("{ .reg .pred t; setp.ne.f32 t, %1, %2; selp.u32 %0, 1, 0, t; }" : "=r"(p) : "f"(a), "f"(b)); break;
  case 3: asm("{ .reg .pred t; setp.neu.f32 t, %1, %2; selp.u32 %0, 1, 0, t; }" : "=r"(p) : "f"(a), "f"(b)); break;
  case 4: asm("{ .reg .pred t; setp.equ.f32 t, %1, %2; selp.u32 %0, 1, 0, t; }" : "=r"(p) : "f"(a), "f"(b)); break;
  case 5: asm("{ .reg .pred t; setp.num.f32 t, %1, %2; selp.u32 %0, 1, 0, t; }" : "=r"(p) : "f"(a), "f"(b)); break;
  case 6: asm("{ .reg .pred t; setp.nan.f32 t, %1, %2; selp.u32 %0, 1, 0, t; }" : "=r"(p) : "f"(a), "f"(b)); break;
  case 7: asm("{ .reg .pred t; setp.geu.f32 t, %1, %2; selp.u32 %0, 1, 0, t; }" : "=r"(p) : "f"(a), "f"(b)); break;
  default: asm("{ .reg .pred t; setp.eq.f32 t, %1, %2; selp.u32 %0, 1, 0, t; }" : "=r"(p) : "f"(a), "f"(b)); break;
  }
  return p;
}

extern "C" __global__ void selftest_ptx_float_compare(unsigned *failures) {
  const float nan = f(0x7fc00000u), one = opaque(1.0f), two = opaque(2.0f);
  /* Ordered comparisons are false with a NaN; unordered ones true. */
  SELFTEST_CHECK(failures, fcmp(0, nan, one) == 0 && fcmp(0, one, two) == 1);
  SELFTEST_CHECK(failures, fcmp(1, nan, one) == 1 && fcmp(1, two, one) == 0);
  SELFTEST_CHECK(failures, fcmp(2, nan, nan) == 0 && fcmp(2, one, two) == 1);
  SELFTEST_CHECK(failures, fcmp(3, nan, nan) == 1 && fcmp(3, one, one) == 0);
  SELFTEST_CHECK(failures, fcmp(4, nan, one) == 1 && fcmp(4, one, two) == 0);
  SELFTEST_CHECK(failures, fcmp(5, one, two) == 1 && fcmp(5, one, nan) == 0);
  SELFTEST_CHECK(failures, fcmp(6, one, nan) == 1 && fcmp(6, one, two) == 0);
  SELFTEST_CHECK(failures, fcmp(7, nan, two) == 1 && fcmp(7, one, two) == 0);
  SELFTEST_CHECK(failures, fcmp(8, opaque(-0.0f), opaque(0.0f)) == 1);
  unsigned r;
  asm("set.gtu.u32.f32 %0, %1, %2;" : "=r"(r) : "f"(nan), "f"(one));
  SELFTEST_CHECK(failures, r == 0xffffffffu);
  asm("set.gt.u32.f32 %0, %1, %2;" : "=r"(r) : "f"(nan), "f"(one));
  SELFTEST_CHECK(failures, r == 0u);
}

extern "C" __global__ void selftest_ptx_float_convert(unsigned *failures) {
  int s;
  unsigned u, r;
  long long sl;
  /* Float to integer: rounded as asked, clamped, NaN to 0 for 32 bits. */
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(s) : "f"(opaque(2.5f)));
  SELFTEST_CHECK(failures, s == 2);
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(s) : "f"(opaque(3.5f)));
  SELFTEST_CHECK(failures, s == 4);
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(s) : "f"(opaque(-2.5f)));
  SELFTEST_CHECK(failures, s == -2);
  asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(s) : "f"(opaque(-2.7f)));
  SELFTEST_CHECK(failures, s == -2);
  asm("cvt.rmi.s32.f32 %0, %1;" : "=r"(s) : "f"(opaque(-2.1f)));
  SELFTEST_CHECK(failures, s == -3);
  asm("cvt.rpi.s32.f32 %0, %1;" : "=r"(s) : "f"(opaque(2.1f)));
  SELFTEST_CHECK(failures, s == 3);
  asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(s) : "f"(opaque(3e10f)));
  SELFTEST_CHECK(failures, s == 0x7fffffff);
  asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(s) : "f"(opaque(-3e10f)));
  SELFTEST_CHECK(failures, s == (int)0x80000000u);
  asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(s) : "f"(f(0x7fc00000u)));
  SELFTEST_CHECK(failures, s == 0);
  asm("cvt.rzi.u32.f32 %0, %1;" : "=r"(u) : "f"(opaque(-1.0f)));
  SELFTEST_CHECK(failures, u == 0u);
  asm("cvt.rzi.u8.f32 %0, %1;" : "=r"(u) : "f"(opaque(300.0f)));
  SELFTEST_CHECK(failures, u == 255u);
  asm("cvt.rni.s64.f64 %0, %1;" : "=l"(sl) : "d"(opaque(1e30)));
  SELFTEST_CHECK(failures, sl == 0x7fffffffffffffffLL);
  /* Integer to float, rounded as asked. */
  asm("cvt.rn.f32.u32 %0, %1;" : "=r"(r) : "r"(opaque(0xffffffffu)));
  SELFTEST_CHECK(failures, r == 0x4f800000u);
  asm("cvt.rz.f32.u32 %0, %1;" : "=r"(r) : "r"(opaque(0xffffffffu)));
  SELFTEST_CHECK(failures, r == 0x4f7fffffu);
  asm("cvt.rn.f32.s32 %0, %1;" : "=r"(r) : "r"(opaque(16777217)));
  SELFTEST_CHECK(failures, r == 0x4b800000u);
  asm("cvt.rp.f32.s32 %0, %1;" : "=r"(r) : "r"(opaque(16777217)));
  SELFTEST_CHECK(failures, r == 0x4b800001u);
  asm("cvt.rm.f32.s32 %0, %1;" : "=r"(r) : "r"(opaque(-16777217)));
  SELFTEST_CHECK(failures, r == 0xcb800001u);
  /* f64 to f32: 1 + 2^-30 rounds down, up or to 1. */
  const double x = opaque(1.0 + 1.0 / 1073741824.0);
  asm("cvt.rn.f32.f64 %0, %1;" : "=r"(r) : "d"(x));
  SELFTEST_CHECK(failures, r == 0x3f800000u);
  asm("cvt.rp.f32.f64 %0, %1;" : "=r"(r) : "d"(x));
  SELFTEST_CHECK(failures, r == 0x3f800001u);
  asm("cvt.rz.f32.f64 %0, %1;" : "=r"(r) : "d"(-x));
  SELFTEST_CHECK(failures, r == 0xbf800000u);
  asm("cvt.rm.f32.f64 %0, %1;" : "=r"(r) : "d"(-x));
  SELFTEST_CHECK(failures, r == 0xbf800001u);
  double dd;
  asm("cvt.f64.f32 %0, %1;" : "=d"(dd) : "f"(opaque(0.1f)));
  SELFTEST_CHECK(failures, dd == (double)0.1f);
  /* Rounding to an integral value in the same type. */
  asm("cvt.rni.f32.f32 %0, %1;" : "=r"(r) : "f"(opaque(2.5f)));
  SELFTEST_CHECK(failures, r == 0x40000000u);
  asm("cvt.rmi.f32.f32 %0, %1;" : "=r"(r) : "f"(opaque(-0.5f)));
  SELFTEST_CHECK(failures, r == 0xbf800000u);
  asm("cvt.rzi.f32.f32 %0, %1;" : "=r"(r) : "f"(opaque(-0.5f)));
  SELFTEST_CHECK(failures, r == 0x80000000u);
  /* f16 and bf16. */
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(opaque(1.0f)));
  SELFTEST_CHECK(failures, h == 0x3c00);
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(opaque(65520.0f)));
  SELFTEST_CHECK(failures, h == 0x7c00);
  asm("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "f"(opaque(65520.0f)));
  SELFTEST_CHECK(failures, h == 0x7bff);
  float fx;
  asm("cvt.f32.f16 %0, %1;" : "=f"(fx) : "h"(opaque((unsigned short)0xc000)));
  SELFTEST_CHECK(failures, fx == -2.0f);
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f(0x3f808000u))); /* 1 + 2^-8: a tie */
  SELFTEST_CHECK(failures, h == 0x3f80);
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f(0x3f818000u))); /* 1 + 3 * 2^-8 */
  SELFTEST_CHECK(failures, h == 0x3f82);
  asm("cvt.f32.bf16 %0, %1;" : "=f"(fx) : "h"(opaque((unsigned short)0x4040)));
  SELFTEST_CHECK(failures, fx == 3.0f);
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(opaque(1.0f)), "f"(2.0f));
  SELFTEST_CHECK(failures, r == 0x3c004000u);
  asm("cvt.rn.relu.f16.f32 %0, %1;" : "=h"(h) : "f"(opaque(-3.0f)));
  SELFTEST_CHECK(failures, h == 0);
  asm("cvt.rn.f16.s32 %0, %1;" : "=h"(h) : "r"(opaque(-2)));
  SELFTEST_CHECK(failures, h == 0xc000);
}

__device__ static unsigned short h(unsigned short bits) { return opaque(bits); }

extern "C" __global__ void selftest_ptx_half(unsigned *failures) {
  unsigned short r;
  unsigned r2;
  asm("add.f16 %0, %1, %2;" : "=h"(r) : "h"(h(0x3c00)), "h"(h(0x4000)));
  SELFTEST_CHECK(failures, r == 0x4200); /* 1 + 2 = 3 */
  /* 2048 + 1 and 2048 + 3 are ties (the ulp is 2): to even. */
  asm("add.rn.f16 %0, %1, %2;" : "=h"(r) : "h"(h(0x6800)), "h"(h(0x3c00)));
  SELFTEST_CHECK(failures, r == 0x6800);
  asm("add.rn.f16 %0, %1, %2;" : "=h"(r) : "h"(h(0x6800)), "h"(h(0x4200)));
  SELFTEST_CHECK(failures, r == 0x6802);
  asm("sub.f16 %0, %1, %2;" : "=h"(r) : "h"(h(0x3c00)), "h"(h(0x4000)));
  SELFTEST_CHECK(failures, r == 0xbc00); /* 1 - 2 = -1 */
  /* {3, 2} * {-1, 0.5} = {-3, 1}. */
  asm("mul.f16x2 %0, %1, %2;" : "=r"(r2) : "r"(opaque(0x42004000u)), "r"(0xbc003800u));
  SELFTEST_CHECK(failures, r2 == 0xc2003c00u);
  /* (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20, a subnormal, exactly with fma. */
  asm("fma.rn.f16 %0, %1, %1, %2;" : "=h"(r) : "h"(h(0x3c01)), "h"(h(0xbc02)));
  SELFTEST_CHECK(failures, r == 0x0010);
  asm("fma.rn.ftz.f16 %0, %1, %1, %2;" : "=h"(r) : "h"(h(0x3c01)), "h"(h(0xbc02)));
  SELFTEST_CHECK(failures, r == 0x0000);
  asm("fma.rn.sat.f16 %0, %1, %1, %2;" : "=h"(r) : "h"(h(0x4000)), "h"(h(0x0000)));
  SELFTEST_CHECK(failures, r == 0x3c00); /* 4 saturates to 1 */
  asm("add.bf16 %0, %1, %2;" : "=h"(r) : "h"(h(0x3fc0)), "h"(h(0x3e80)));
  SELFTEST_CHECK(failures, r == 0x3fe0); /* 1.5 + 0.25 = 1.75 */
  asm("fma.rn.relu.bf16 %0, %1, %2, %3;" : "=h"(r) : "h"(h(0xbf80)), "h"(h(0x4000)), "h"(h(0x3f00)));
  SELFTEST_CHECK(failures, r == 0x0000); /* -1 * 2 + 0.5 < 0 */
  asm("max.bf16x2 %0, %1, %2;" : "=r"(r2) : "r"(opaque(0x3f80c000u)), "r"(0x40003f80u));
  SELFTEST_CHECK(failures, r2 == 0x40003f80u);
  asm("min.NaN.f16 %0, %1, %2;" : "=h"(r) : "h"(h(0x7e00)), "h"(h(0x3c00)));
  SELFTEST_CHECK(failures, r == 0x7fff);
  asm("min.f16 %0, %1, %2;" : "=h"(r) : "h"(h(0x7e00)), "h"(h(0x3c00)));
  SELFTEST_CHECK(failures, r == 0x3c00);
  asm("min.f16 %0, %1, %2;" : "=h"(r) : "h"(h(0x0000)), "h"(h(0x8000)));
  SELFTEST_CHECK(failures, r == 0x8000);
  asm("neg.f16 %0, %1;" : "=h"(r) : "h"(h(0x3c00)));
  SELFTEST_CHECK(failures, r == 0xbc00);
  asm("abs.bf16 %0, %1;" : "=h"(r) : "h"(h(0xbf80)));
  SELFTEST_CHECK(failures, r == 0x3f80);
  int s;
  asm("max.relu.s32 %0, %1, %2;" : "=r"(s) : "r"(opaque(-5)), "r"(-3));
  SELFTEST_CHECK(failures, s == 0);
  asm("max.relu.s32 %0, %1, %2;" : "=r"(s) : "r"(opaque(-5)), "r"(3));
  SELFTEST_CHECK(failures, s == 3);
}
