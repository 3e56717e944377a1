/*
 * selftest_math.cu: self-checking kernels for the vector types, the CUDA
 * math API and the floating-point intrinsics (fast, rounded and conversion).
 *
 * Expected values are exact where CUDA specifies the result exactly (special
 * values, correctly rounded intrinsics, conversions) and otherwise carry a
 * tolerance wider than CUDA's documented error bounds. Inputs that the GPU
 * compiler could fold at compile time go through opaque() so that the
 * hardware instruction is tested.
 */
#include "selftest.cuh"

#include <climits>

template <typename T>
__device__ static T opaque(T x) {
  volatile T v = x;
  return v;
}

__device__ static float inf_f() { return __int_as_float(0x7f800000); }
__device__ static double inf_d() { return __longlong_as_double(0x7ff0000000000000LL); }
__device__ static float nan_f() { return __int_as_float(0x7fc00000); }
__device__ static double nan_d() { return __longlong_as_double(0x7ff8000000000000LL); }

/* got is within rel * |want| of want (or abs of it, for wants near 0). */
__device__ static bool near_d(double got, double want, double rel, double abs_tol = 0.0) {
  return fabs(got - want) <= rel * fabs(want) + abs_tol;
}

__device__ static bool near_f(float got, float want, float rel, float abs_tol = 0.0f) {
  return fabsf(got - want) <= rel * fabsf(want) + abs_tol;
}

__device__ static bool is_neg_zero_f(float x) { return x == 0.0f && signbit(x); }
__device__ static bool is_pos_zero_f(float x) { return x == 0.0f && !signbit(x); }
__device__ static bool is_neg_zero_d(double x) { return x == 0.0 && signbit(x); }
__device__ static bool is_pos_zero_d(double x) { return x == 0.0 && !signbit(x); }

/* ------------------------------------------------------------------------ */

extern "C" __global__ void selftest_vector_types(unsigned *failures) {
  SELFTEST_CHECK(failures, sizeof(char1) == 1 && alignof(char1) == 1);
  SELFTEST_CHECK(failures, sizeof(char2) == 2 && alignof(char2) == 2);
  SELFTEST_CHECK(failures, sizeof(char3) == 3 && alignof(char3) == 1);
  SELFTEST_CHECK(failures, sizeof(uchar4) == 4 && alignof(uchar4) == 4);
  SELFTEST_CHECK(failures, sizeof(short2) == 4 && alignof(short2) == 4);
  SELFTEST_CHECK(failures, sizeof(ushort3) == 6 && alignof(ushort3) == 2);
  SELFTEST_CHECK(failures, sizeof(short4) == 8 && alignof(short4) == 8);
  SELFTEST_CHECK(failures, sizeof(int1) == 4 && alignof(int1) == 4);
  SELFTEST_CHECK(failures, sizeof(int2) == 8 && alignof(int2) == 8);
  SELFTEST_CHECK(failures, sizeof(uint3) == 12 && alignof(uint3) == 4);
  SELFTEST_CHECK(failures, sizeof(int4) == 16 && alignof(int4) == 16);
  SELFTEST_CHECK(failures, sizeof(long2) == 2 * sizeof(long) && alignof(long2) == 2 * sizeof(long));
  SELFTEST_CHECK(failures, sizeof(ulong3) == 3 * sizeof(long) && alignof(ulong3) == alignof(long));
  SELFTEST_CHECK(failures, sizeof(long4_16a) == 4 * sizeof(long) && alignof(long4_16a) == 16);
  SELFTEST_CHECK(failures, alignof(ulong4_32a) == 32);
  SELFTEST_CHECK(failures, sizeof(float1) == 4 && alignof(float1) == 4);
  SELFTEST_CHECK(failures, sizeof(float2) == 8 && alignof(float2) == 8);
  SELFTEST_CHECK(failures, sizeof(float3) == 12 && alignof(float3) == 4);
  SELFTEST_CHECK(failures, sizeof(float4) == 16 && alignof(float4) == 16);
  SELFTEST_CHECK(failures, sizeof(longlong1) == 8 && alignof(longlong1) == 8);
  SELFTEST_CHECK(failures, sizeof(longlong2) == 16 && alignof(longlong2) == 16);
  SELFTEST_CHECK(failures, sizeof(ulonglong3) == 24 && alignof(ulonglong3) == 8);
  SELFTEST_CHECK(failures, sizeof(longlong4_16a) == 32 && alignof(longlong4_16a) == 16);
  SELFTEST_CHECK(failures, sizeof(ulonglong4_32a) == 32 && alignof(ulonglong4_32a) == 32);
  SELFTEST_CHECK(failures, sizeof(double1) == 8 && alignof(double1) == 8);
  SELFTEST_CHECK(failures, sizeof(double2) == 16 && alignof(double2) == 16);
  SELFTEST_CHECK(failures, sizeof(double3) == 24 && alignof(double3) == 8);
  SELFTEST_CHECK(failures, sizeof(double4_16a) == 32 && alignof(double4_16a) == 16);
  SELFTEST_CHECK(failures, sizeof(double4_32a) == 32 && alignof(double4_32a) == 32);
  SELFTEST_CHECK(failures, sizeof(dim3) == 12);

  const unsigned lane = threadIdx.x;
  const char4 c = make_char4(-1, 2, -3, 4);
  SELFTEST_CHECK(failures, c.x == -1 && c.y == 2 && c.z == -3 && c.w == 4);
  const uchar3 uc = make_uchar3(255, 0, 7);
  SELFTEST_CHECK(failures, uc.x == 255 && uc.y == 0 && uc.z == 7);
  const short1 s1 = make_short1(-300);
  SELFTEST_CHECK(failures, s1.x == -300);
  const ushort2 us = make_ushort2(65535, 1);
  SELFTEST_CHECK(failures, us.x == 65535 && us.y == 1);
  const int4 i4 = make_int4(1, 2, 3, (int)lane);
  SELFTEST_CHECK(failures, i4.x == 1 && i4.y == 2 && i4.z == 3 && i4.w == (int)lane);
  const uint2 u2 = make_uint2(0xffffffffu, lane);
  SELFTEST_CHECK(failures, u2.x == 0xffffffffu && u2.y == lane);
  const long3 l3 = make_long3(-1L, 0L, 1L);
  SELFTEST_CHECK(failures, l3.x == -1L && l3.z == 1L);
  const ulong4_16a ul = make_ulong4_16a(1UL, 2UL, 3UL, 4UL);
  SELFTEST_CHECK(failures, ul.w == 4UL);
  const float2 f2 = make_float2(1.5f, -2.5f);
  SELFTEST_CHECK(failures, f2.x == 1.5f && f2.y == -2.5f);
  const float4 f4 = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
  SELFTEST_CHECK(failures, f4.x + f4.y + f4.z + f4.w == 10.0f);
  const longlong2 ll = make_longlong2(LLONG_MIN, LLONG_MAX);
  SELFTEST_CHECK(failures, ll.x == LLONG_MIN && ll.y == LLONG_MAX);
  const ulonglong4_32a ull = make_ulonglong4_32a(1ULL, 2ULL, 3ULL, ~0ULL);
  SELFTEST_CHECK(failures, ull.w == ~0ULL);
  const double3 d3 = make_double3(0.5, 0.25, 0.125);
  SELFTEST_CHECK(failures, d3.x == 0.5 && d3.y == 0.25 && d3.z == 0.125);
  const double4_32a d4 = make_double4_32a(1.0, 2.0, 3.0, 4.0);
  SELFTEST_CHECK(failures, d4.w == 4.0);

  const dim3 d;
  SELFTEST_CHECK(failures, d.x == 1 && d.y == 1 && d.z == 1);
  const dim3 e(4);
  SELFTEST_CHECK(failures, e.x == 4 && e.y == 1 && e.z == 1);
  const dim3 f(make_uint3(2, 3, 4));
  SELFTEST_CHECK(failures, f.x == 2 && f.y == 3 && f.z == 4);
  const uint3 g = dim3(5, 6, 7);
  SELFTEST_CHECK(failures, g.x == 5 && g.y == 6 && g.z == 7);
}

/* ------------------------------------------------------------------------ */

extern "C" __global__ void selftest_math_double(unsigned *failures) {
  const double tol = 1e-14;
  const double lane = threadIdx.x;

  /* sinpi, cospi, sincospi: exact at integers and half-integers. */
  SELFTEST_CHECK(failures, sinpi(opaque(lane)) == 0.0);
  SELFTEST_CHECK(failures, near_d(cospi(opaque(lane)), threadIdx.x % 2 ? -1.0 : 1.0, tol));
  SELFTEST_CHECK(failures, near_d(sinpi(opaque(lane + 0.5)), threadIdx.x % 2 ? -1.0 : 1.0, tol));
  SELFTEST_CHECK(failures, cospi(opaque(lane + 0.5)) == 0.0);
  SELFTEST_CHECK(failures, is_neg_zero_d(sinpi(opaque(-0.0))));
  SELFTEST_CHECK(failures, is_pos_zero_d(sinpi(opaque(0.0))));
  SELFTEST_CHECK(failures, isnan(sinpi(opaque(inf_d()))) && isnan(cospi(opaque(-inf_d()))));
  SELFTEST_CHECK(failures, near_d(sinpi(opaque(1.0 / 3.0)), 0.86602540378443865, tol));
  SELFTEST_CHECK(failures, near_d(sinpi(opaque(-0.1)), -0.30901699437494744, tol));
  SELFTEST_CHECK(failures, near_d(cospi(opaque(1.0 / 3.0)), 0.5, tol));
  double s, c;
  sincospi(opaque(0.25), &s, &c);
  SELFTEST_CHECK(failures, near_d(s, 0.70710678118654752, tol) && near_d(c, 0.70710678118654752, tol));
  sincos(opaque(0.5), &s, &c);
  SELFTEST_CHECK(failures, near_d(s, 0.479425538604203, tol) && near_d(c, 0.87758256189037272, tol));

  /* Reciprocal roots. */
  SELFTEST_CHECK(failures, near_d(rsqrt(opaque(4.0)), 0.5, tol));
  SELFTEST_CHECK(failures, rsqrt(opaque(0.0)) == inf_d() && rsqrt(opaque(-0.0)) == -inf_d());
  SELFTEST_CHECK(failures, is_pos_zero_d(rsqrt(opaque(inf_d()))) && isnan(rsqrt(opaque(-1.0))));
  SELFTEST_CHECK(failures, near_d(rcbrt(opaque(-8.0)), -0.5, tol) && near_d(rcbrt(opaque(0.125)), 2.0, tol));
  SELFTEST_CHECK(failures, rcbrt(opaque(0.0)) == inf_d() && rcbrt(opaque(-0.0)) == -inf_d());
  SELFTEST_CHECK(failures, is_neg_zero_d(rcbrt(opaque(-inf_d()))));
  SELFTEST_CHECK(failures, near_d(cbrt(opaque(-27.5)), -3.0184053683988429, tol));

  /* Inverse error functions. */
  SELFTEST_CHECK(failures, is_pos_zero_d(erfinv(opaque(0.0))) && is_neg_zero_d(erfinv(opaque(-0.0))));
  SELFTEST_CHECK(failures, erfinv(opaque(1.0)) == inf_d() && erfinv(opaque(-1.0)) == -inf_d());
  SELFTEST_CHECK(failures, isnan(erfinv(opaque(1.5))) && isnan(erfinv(opaque(nan_d()))));
  SELFTEST_CHECK(failures, near_d(erfinv(opaque(0.5)), 0.47693627620446987, tol));
  SELFTEST_CHECK(failures, near_d(erfinv(opaque(-0.999)), -2.3267537655135245, tol));
  SELFTEST_CHECK(failures, near_d(erfinv(erf(opaque(0.5))), 0.5, tol));
  SELFTEST_CHECK(failures, erfcinv(opaque(0.0)) == inf_d() && erfcinv(opaque(2.0)) == -inf_d());
  SELFTEST_CHECK(failures, isnan(erfcinv(opaque(-0.5))) && isnan(erfcinv(opaque(2.5))));
  SELFTEST_CHECK(failures, near_d(erfcinv(opaque(1.0)), 0.0, 0.0, 1e-15));
  SELFTEST_CHECK(failures, near_d(erfcinv(opaque(0.3)), 0.73286907795921687, tol));
  SELFTEST_CHECK(failures, near_d(erfcinv(opaque(1.7)), -0.73286907795921678, tol));
  SELFTEST_CHECK(failures, near_d(erfcinv(opaque(1e-100)), 15.065574702592646, tol));

  /* Scaled complementary error function. */
  SELFTEST_CHECK(failures, near_d(erfcx(opaque(0.0)), 1.0, tol));
  SELFTEST_CHECK(failures, near_d(erfcx(opaque(1.0)), 0.427583576155807, tol));
  SELFTEST_CHECK(failures, near_d(erfcx(opaque(5.0)), 0.11070463773306863, tol));
  SELFTEST_CHECK(failures, near_d(erfcx(opaque(30.0)), 0.018795888861416751, tol));
  SELFTEST_CHECK(failures, near_d(erfcx(opaque(-1.0)), 5.0089800807622835, tol));
  SELFTEST_CHECK(failures, is_pos_zero_d(erfcx(opaque(inf_d()))) && erfcx(opaque(-inf_d())) == inf_d());

  /* Normal distribution. */
  SELFTEST_CHECK(failures, near_d(normcdf(opaque(0.0)), 0.5, tol));
  SELFTEST_CHECK(failures, normcdf(opaque(inf_d())) == 1.0 && normcdf(opaque(-inf_d())) == 0.0);
  SELFTEST_CHECK(failures, near_d(normcdf(opaque(1.96)), 0.97500210485177956, tol));
  SELFTEST_CHECK(failures, near_d(normcdf(opaque(-1.0)), 0.15865525393145705, tol));
  SELFTEST_CHECK(failures, near_d(normcdf(opaque(-30.0)), 4.9067139271481871e-198, 1e-13));
  SELFTEST_CHECK(failures, normcdfinv(opaque(0.0)) == -inf_d() && normcdfinv(opaque(1.0)) == inf_d());
  SELFTEST_CHECK(failures, isnan(normcdfinv(opaque(-0.1))) && isnan(normcdfinv(opaque(1.1))));
  SELFTEST_CHECK(failures, near_d(normcdfinv(opaque(0.5)), 0.0, 0.0, 1e-15));
  SELFTEST_CHECK(failures, near_d(normcdfinv(opaque(0.975)), 1.9599639845400539, tol));
  SELFTEST_CHECK(failures, near_d(normcdfinv(opaque(0.1)), -1.2815515655446004, tol));
  SELFTEST_CHECK(failures, near_d(normcdfinv(opaque(1e-300)), -37.047096299361199, tol));

  /* Norms. */
  const double v[4] = {3.0, 4.0, 12.0, 84.0};
  SELFTEST_CHECK(failures, near_d(norm3d(opaque(3.0), 4.0, 12.0), 13.0, tol));
  SELFTEST_CHECK(failures, near_d(rnorm3d(opaque(2.0), 3.0, 6.0), 1.0 / 7.0, tol));
  SELFTEST_CHECK(failures, near_d(norm4d(opaque(3.0), 4.0, 12.0, 84.0), 85.0, tol));
  SELFTEST_CHECK(failures, near_d(rnorm4d(opaque(3.0), 4.0, 12.0, 84.0), 1.0 / 85.0, tol));
  SELFTEST_CHECK(failures, near_d(norm(4, v), 85.0, tol) && near_d(rnorm(2, v), 0.2, tol));
  SELFTEST_CHECK(failures, near_d(norm3d(opaque(1e300), 1e300, 1e300), 1.7320508075688774e+300, tol));
  SELFTEST_CHECK(failures, near_d(norm3d(opaque(3e-310), 4e-310, 0.0), 5e-310, 1e-9));
  SELFTEST_CHECK(failures, norm3d(opaque(inf_d()), nan_d(), 1.0) == inf_d());
  SELFTEST_CHECK(failures, norm4d(opaque(nan_d()), 1.0, 2.0, -inf_d()) == inf_d());
  SELFTEST_CHECK(failures, isnan(norm3d(opaque(nan_d()), 1.0, 2.0)));
  SELFTEST_CHECK(failures, rnorm3d(opaque(0.0), 0.0, 0.0) == inf_d());
  SELFTEST_CHECK(failures, near_d(rhypot(opaque(3.0), 4.0), 0.2, tol) && rhypot(opaque(0.0), 0.0) == inf_d());
  SELFTEST_CHECK(failures, near_d(hypot(opaque(3.0), 4.0), 5.0, tol));

  /* Bessel functions. */
  SELFTEST_CHECK(failures, near_d(cyl_bessel_i0(opaque(0.0)), 1.0, tol) && cyl_bessel_i1(opaque(0.0)) == 0.0);
  SELFTEST_CHECK(failures, near_d(cyl_bessel_i0(opaque(1.0)), 1.2660658777520083, tol));
  SELFTEST_CHECK(failures, near_d(cyl_bessel_i0(opaque(-1.0)), 1.2660658777520083, tol));
  SELFTEST_CHECK(failures, near_d(cyl_bessel_i1(opaque(-1.0)), -0.56515910399248503, tol));
  SELFTEST_CHECK(failures, near_d(cyl_bessel_i0(opaque(30.0)), 781672297823.97749, tol));
  SELFTEST_CHECK(failures, near_d(cyl_bessel_i1(opaque(7.5)), 249.58436542268814, tol));
  SELFTEST_CHECK(failures, cyl_bessel_i0(opaque(inf_d())) == inf_d());
  SELFTEST_CHECK(failures, near_d(j0(opaque(1.0)), 0.76519768655796655, tol));
  SELFTEST_CHECK(failures, near_d(j1(opaque(1.0)), 0.44005058574493352, tol));
  SELFTEST_CHECK(failures, near_d(jn(3, opaque(2.5)), 0.21660039103911352, tol));
  SELFTEST_CHECK(failures, near_d(y0(opaque(1.0)), 0.088256964215676958, tol));
  SELFTEST_CHECK(failures, near_d(y1(opaque(1.0)), -0.78121282130028872, tol));
  SELFTEST_CHECK(failures, near_d(yn(2, opaque(1.0)), -1.6506826068162544, tol));
  SELFTEST_CHECK(failures, y0(opaque(0.0)) == -inf_d() && isnan(y0(opaque(-1.0))));
  SELFTEST_CHECK(failures, j0(opaque(inf_d())) == 0.0);

  /* Gamma and exponentials. */
  SELFTEST_CHECK(failures, near_d(lgamma(opaque(0.5)), 0.57236494292470009, tol));
  SELFTEST_CHECK(failures, near_d(lgamma(opaque(-2.5)), -0.056243716497674051, 1e-13));
  SELFTEST_CHECK(failures, lgamma(opaque(1.0)) == 0.0 && lgamma(opaque(0.0)) == inf_d());
  SELFTEST_CHECK(failures, near_d(tgamma(opaque(5.0)), 24.0, tol));
  SELFTEST_CHECK(failures, near_d(tgamma(opaque(0.5)), 1.772453850905516, tol));
  SELFTEST_CHECK(failures, tgamma(opaque(0.0)) == inf_d() && tgamma(opaque(-0.0)) == -inf_d());
  SELFTEST_CHECK(failures, isnan(tgamma(opaque(-1.0))));
  SELFTEST_CHECK(failures, near_d(exp10(opaque(2.0)), 100.0, tol) && near_d(exp10(opaque(0.5)), 3.1622776601683793, tol));
  SELFTEST_CHECK(failures, near_d(expm1(opaque(1e-10)), 1.00000000005e-10, tol));
  SELFTEST_CHECK(failures, near_d(log1p(opaque(1e-10)), 9.9999999995e-11, tol));
  SELFTEST_CHECK(failures, near_d(erf(opaque(0.5)), 0.52049987781304654, tol));

  /* Exact functions. */
  SELFTEST_CHECK(failures, fma(opaque(2.0), 3.0, 4.0) == 10.0 && isnan(fma(opaque(inf_d()), 0.0, 1.0)));
  SELFTEST_CHECK(failures, nextafter(opaque(1.0), 2.0) == 1.0 + 0x1p-52);
  SELFTEST_CHECK(failures, nextafter(opaque(0.0), -1.0) == -0x1p-1074);
  SELFTEST_CHECK(failures, scalbn(opaque(1.5), 4) == 24.0 && ldexp(opaque(1.0), -1074) == 0x1p-1074);
  int e = 0;
  SELFTEST_CHECK(failures, frexp(opaque(8.0), &e) == 0.5 && e == 4);
  double ip = 0.0;
  SELFTEST_CHECK(failures, modf(opaque(-3.25), &ip) == -0.25 && ip == -3.0);
  int quo = 0;
  SELFTEST_CHECK(failures, remquo(opaque(10.0), 3.0, &quo) == 1.0 && (quo & 7) == 3);
  SELFTEST_CHECK(failures, remainder(opaque(10.0), 4.0) == 2.0 && fmod(opaque(-7.0), 3.0) == -1.0);
  SELFTEST_CHECK(failures, copysign(opaque(2.0), -0.0) == -2.0 && fdim(opaque(5.0), 7.0) == 0.0);
  SELFTEST_CHECK(failures, fmax(opaque(nan_d()), 1.0) == 1.0 && fmin(opaque(-0.5), nan_d()) == -0.5);
  SELFTEST_CHECK(failures, trunc(opaque(-2.7)) == -2.0 && round(opaque(2.5)) == 3.0 && rint(opaque(2.5)) == 2.0);
  SELFTEST_CHECK(failures, lround(opaque(-2.5)) == -3 && llrint(opaque(3.5)) == 4);
  SELFTEST_CHECK(failures, ilogb(opaque(1024.0)) == 10 && logb(opaque(0.25)) == -2.0);
  SELFTEST_CHECK(failures, near_d(fdivide(opaque(1.0), 4.0), 0.25, tol));
  SELFTEST_CHECK(failures, isinf(opaque(inf_d())) && isnan(opaque(nan_d())) && isfinite(opaque(1.0)));
  SELFTEST_CHECK(failures, signbit(opaque(-0.0)) && !signbit(opaque(0.0)));
}

/* ------------------------------------------------------------------------ */

extern "C" __global__ void selftest_math_float(unsigned *failures) {
  const float tol = 1e-5f;
  const float lane = (float)threadIdx.x;

  SELFTEST_CHECK(failures, sinpif(opaque(lane)) == 0.0f);
  SELFTEST_CHECK(failures, near_f(cospif(opaque(lane)), threadIdx.x % 2 ? -1.0f : 1.0f, tol));
  SELFTEST_CHECK(failures, cospif(opaque(lane + 0.5f)) == 0.0f);
  SELFTEST_CHECK(failures, is_neg_zero_f(sinpif(opaque(-0.0f))));
  SELFTEST_CHECK(failures, near_f(sinpif(opaque(0.25f)), 0.70710678f, tol));
  float s, c;
  sincospif(opaque(1.0f / 6.0f), &s, &c);
  SELFTEST_CHECK(failures, near_f(s, 0.5f, tol) && near_f(c, 0.86602540f, tol));
  sincosf(opaque(1.0f), &s, &c);
  SELFTEST_CHECK(failures, near_f(s, 0.84147098f, tol) && near_f(c, 0.54030231f, tol));

  SELFTEST_CHECK(failures, near_f(rsqrtf(opaque(4.0f)), 0.5f, tol));
  SELFTEST_CHECK(failures, rsqrtf(opaque(0.0f)) == inf_f() && rsqrtf(opaque(-0.0f)) == -inf_f());
  SELFTEST_CHECK(failures, near_f(rcbrtf(opaque(27.0f)), 1.0f / 3.0f, tol) && rcbrtf(opaque(-0.0f)) == -inf_f());
  SELFTEST_CHECK(failures, near_f(erfinvf(opaque(0.5f)), 0.47693628f, tol));
  SELFTEST_CHECK(failures, erfinvf(opaque(-1.0f)) == -inf_f() && isnan(erfinvf(opaque(2.0f))));
  SELFTEST_CHECK(failures, near_f(erfcinvf(opaque(0.3f)), 0.73286908f, tol) && erfcinvf(opaque(0.0f)) == inf_f());
  SELFTEST_CHECK(failures, near_f(erfcxf(opaque(1.0f)), 0.42758358f, tol) && near_f(erfcxf(opaque(0.0f)), 1.0f, tol));
  SELFTEST_CHECK(failures, near_f(normcdff(opaque(1.96f)), 0.97500210f, tol) && near_f(normcdff(opaque(0.0f)), 0.5f, tol));
  SELFTEST_CHECK(failures, near_f(normcdfinvf(opaque(0.975f)), 1.95996398f, tol));
  SELFTEST_CHECK(failures, normcdfinvf(opaque(0.0f)) == -inf_f() && normcdfinvf(opaque(1.0f)) == inf_f());
  const float v[3] = {2.0f, 3.0f, 6.0f};
  SELFTEST_CHECK(failures, near_f(norm3df(opaque(2.0f), 3.0f, 6.0f), 7.0f, tol));
  SELFTEST_CHECK(failures, near_f(rnorm3df(opaque(2.0f), 3.0f, 6.0f), 1.0f / 7.0f, tol));
  SELFTEST_CHECK(failures, near_f(norm4df(opaque(1.0f), 2.0f, 4.0f, 10.0f), 11.0f, tol));
  SELFTEST_CHECK(failures, near_f(rnorm4df(opaque(1.0f), 2.0f, 4.0f, 10.0f), 1.0f / 11.0f, tol));
  SELFTEST_CHECK(failures, near_f(normf(3, v), 7.0f, tol) && near_f(rnormf(3, v), 1.0f / 7.0f, tol));
  SELFTEST_CHECK(failures, near_f(norm3df(opaque(3e30f), 4e30f, 0.0f), 5e30f, tol));
  SELFTEST_CHECK(failures, norm3df(opaque(nan_f()), -inf_f(), 0.0f) == inf_f());
  SELFTEST_CHECK(failures, near_f(rhypotf(opaque(3.0f), 4.0f), 0.2f, tol));
  SELFTEST_CHECK(failures, near_f(cyl_bessel_i0f(opaque(1.0f)), 1.26606588f, tol));
  SELFTEST_CHECK(failures, near_f(cyl_bessel_i1f(opaque(-1.0f)), -0.56515910f, tol));
  SELFTEST_CHECK(failures, near_f(j0f(opaque(1.0f)), 0.76519769f, tol) && near_f(y1f(opaque(1.0f)), -0.78121282f, tol));
  SELFTEST_CHECK(failures, near_f(exp10f(opaque(2.0f)), 100.0f, tol) && near_f(lgammaf(opaque(0.5f)), 0.57236494f, tol));
  SELFTEST_CHECK(failures, near_f(tgammaf(opaque(5.0f)), 24.0f, tol));
  SELFTEST_CHECK(failures, fmaf(opaque(2.0f), 3.0f, 4.0f) == 10.0f);
  SELFTEST_CHECK(failures, nextafterf(opaque(1.0f), 0.0f) == 1.0f - 0x1p-24f);
  SELFTEST_CHECK(failures, scalbnf(opaque(1.5f), 4) == 24.0f);
  int e = 0;
  SELFTEST_CHECK(failures, frexpf(opaque(0.75f), &e) == 0.75f && e == 0);
  float ip = 0.0f;
  SELFTEST_CHECK(failures, modff(opaque(2.5f), &ip) == 0.5f && ip == 2.0f);
  int quo = 0;
  SELFTEST_CHECK(failures, remquof(opaque(10.0f), 3.0f, &quo) == 1.0f && (quo & 7) == 3);
  SELFTEST_CHECK(failures, fdividef(opaque(1.0f), 4.0f) == 0.25f);
  SELFTEST_CHECK(failures, fminf(opaque(nan_f()), 1.0f) == 1.0f && fmaxf(opaque(-1.0f), nan_f()) == -1.0f);

  /* The float overloads CUDA declares return float. */
  SELFTEST_CHECK(failures, sizeof(sin(1.0f)) == sizeof(float) && sizeof(pow(2.0f, 3.0f)) == sizeof(float));
  SELFTEST_CHECK(failures, sizeof(exp10(1.0f)) == sizeof(float) && sizeof(rsqrt(1.0f)) == sizeof(float));
  SELFTEST_CHECK(failures, sizeof(erfinv(0.5f)) == sizeof(float) && sizeof(normcdf(0.5f)) == sizeof(float));
  SELFTEST_CHECK(failures, sizeof(j0(1.0f)) == sizeof(float) && sizeof(cyl_bessel_i0(1.0f)) == sizeof(float));
  SELFTEST_CHECK(failures, sizeof(copysign(1.0, 2.0f)) == sizeof(double));
  SELFTEST_CHECK(failures, near_f(sinpi(opaque(0.5f)), 1.0f, tol) && near_f(cospi(opaque(0.0f)), 1.0f, tol));
  SELFTEST_CHECK(failures, near_f(rsqrt(opaque(16.0f)), 0.25f, tol) && near_f(rcbrt(opaque(8.0f)), 0.5f, tol));
  SELFTEST_CHECK(failures, near_f(exp10(opaque(1.0f)), 10.0f, tol) && near_f(erfcx(opaque(0.0f)), 1.0f, tol));
  SELFTEST_CHECK(failures, near_f(erfinv(opaque(0.5f)), 0.47693628f, tol) && near_f(erfcinv(opaque(1.0f)), 0.0f, 0.0f, tol));
  SELFTEST_CHECK(failures, near_f(normcdf(opaque(0.0f)), 0.5f, tol) && near_f(normcdfinv(opaque(0.5f)), 0.0f, 0.0f, tol));
  SELFTEST_CHECK(failures, near_f(j1(opaque(1.0f)), 0.44005059f, tol) && near_f(y0(opaque(1.0f)), 0.08825696f, tol));
  SELFTEST_CHECK(failures, near_f(jn(3, opaque(2.5f)), 0.21660039f, tol) && near_f(yn(2, opaque(1.0f)), -1.65068261f, tol));
  SELFTEST_CHECK(failures, near_f(cyl_bessel_i1(opaque(1.0f)), 0.56515910f, tol));
  sincos(opaque(0.5f), &s, &c);
  SELFTEST_CHECK(failures, near_f(s, 0.47942554f, tol) && near_f(c, 0.87758256f, tol));
  sincospi(opaque(0.5f), &s, &c);
  SELFTEST_CHECK(failures, near_f(s, 1.0f, tol) && near_f(c, 0.0f, 0.0f, tol));
}

/* ------------------------------------------------------------------------ */

extern "C" __global__ void selftest_math_fast(unsigned *failures) {
  const float tol = 1e-5f;
  SELFTEST_CHECK(failures, near_f(__expf(opaque(1.0f)), 2.71828183f, tol));
  SELFTEST_CHECK(failures, near_f(__exp10f(opaque(2.0f)), 100.0f, tol));
  SELFTEST_CHECK(failures, near_f(__logf(opaque(3.0f)), 1.09861229f, tol));
  SELFTEST_CHECK(failures, near_f(__log2f(opaque(8.0f)), 3.0f, tol) && near_f(__log10f(opaque(1000.0f)), 3.0f, tol));
  SELFTEST_CHECK(failures, __logf(opaque(0.0f)) == -inf_f() && isnan(__logf(opaque(-1.0f))));
  SELFTEST_CHECK(failures, near_f(__sinf(opaque(0.5f)), 0.47942554f, tol) && near_f(__cosf(opaque(0.5f)), 0.87758256f, tol));
  SELFTEST_CHECK(failures, near_f(__tanf(opaque(0.5f)), 0.54630249f, tol));
  SELFTEST_CHECK(failures, near_f(__tanhf(opaque(0.5f)), 0.46211716f, 2e-3f));
  float s, c;
  __sincosf(opaque(0.1f), &s, &c);
  SELFTEST_CHECK(failures, near_f(s, 0.09983342f, tol) && near_f(c, 0.99500417f, tol));
  SELFTEST_CHECK(failures, near_f(__powf(opaque(2.0f), 10.0f), 1024.0f, tol));
  SELFTEST_CHECK(failures, near_f(__fdividef(opaque(1.0f), 3.0f), 0.33333333f, tol));
  /* CUDA documents 0 for a finite x and NaN for an infinite x when
   * 2^126 < |y| < 2^128. */
  SELFTEST_CHECK(failures, __fdividef(opaque(1.0f), 0x1.8p127f) == 0.0f);
  SELFTEST_CHECK(failures, isnan(__fdividef(opaque(inf_f()), 0x1.8p127f)));
  SELFTEST_CHECK(failures, __saturatef(opaque(-1.0f)) == 0.0f && __saturatef(opaque(2.0f)) == 1.0f);
  SELFTEST_CHECK(failures, __saturatef(opaque(0.25f)) == 0.25f && __saturatef(opaque(nan_f())) == 0.0f);
  SELFTEST_CHECK(failures, __saturatef(opaque(inf_f())) == 1.0f && __saturatef(opaque(-inf_f())) == 0.0f);
}

/* ------------------------------------------------------------------------ */

extern "C" __global__ void selftest_math_rounded_float(unsigned *failures) {
  const float one = opaque(1.0f), tiny = opaque(0x1p-30f), flt_max = opaque(0x1.fffffep127f);
  const float a = opaque(1.0f + 0x1p-23f);

  SELFTEST_CHECK(failures, __fadd_rn(one, tiny) == 1.0f && __fadd_rz(one, tiny) == 1.0f);
  SELFTEST_CHECK(failures, __fadd_rd(one, tiny) == 1.0f && __fadd_ru(one, tiny) == 1.0f + 0x1p-23f);
  SELFTEST_CHECK(failures, __fadd_rd(-one, -tiny) == -1.0f - 0x1p-23f && __fadd_ru(-one, -tiny) == -1.0f);
  SELFTEST_CHECK(failures, __fadd_rz(-one, -tiny) == -1.0f);
  SELFTEST_CHECK(failures, is_neg_zero_f(__fadd_rd(one, -one)) && is_pos_zero_f(__fadd_rn(one, -one)));
  SELFTEST_CHECK(failures, is_pos_zero_f(__fadd_ru(one, -one)) && is_pos_zero_f(__fadd_rz(one, -one)));
  SELFTEST_CHECK(failures, __fadd_rn(flt_max, flt_max) == inf_f() && __fadd_rz(flt_max, flt_max) == flt_max);
  SELFTEST_CHECK(failures, __fadd_rd(flt_max, flt_max) == flt_max && __fadd_ru(-flt_max, -flt_max) == -flt_max);
  SELFTEST_CHECK(failures, __fsub_rd(one, tiny) == 1.0f - 0x1p-24f && __fsub_ru(one, tiny) == 1.0f);
  SELFTEST_CHECK(failures, __fsub_rn(one, tiny) == 1.0f && __fsub_rz(one, tiny) == 1.0f - 0x1p-24f);
  SELFTEST_CHECK(failures, is_neg_zero_f(__fsub_rd(one, one)));

  /* (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46. */
  SELFTEST_CHECK(failures, __fmul_rn(a, a) == 1.0f + 0x1p-22f && __fmul_rz(a, a) == 1.0f + 0x1p-22f);
  SELFTEST_CHECK(failures, __fmul_rd(a, a) == 1.0f + 0x1p-22f && __fmul_ru(a, a) == 1.0f + 0x1.8p-22f);
  SELFTEST_CHECK(failures, __fmul_rd(-a, a) == -1.0f - 0x1.8p-22f && __fmul_rz(-a, a) == -1.0f - 0x1p-22f);
  const float denorm_min = opaque(0x1p-149f);
  SELFTEST_CHECK(failures, __fmul_ru(denorm_min, 0.5f) == 0x1p-149f && is_pos_zero_f(__fmul_rn(denorm_min, 0.5f)));
  SELFTEST_CHECK(failures, is_neg_zero_f(__fmul_rz(-denorm_min, 0.5f)) && __fmul_rd(-denorm_min, 0.5f) == -0x1p-149f);

  /* 1/3 = 0x1.5555...p-2; rounding to nearest goes up. */
  const float three = opaque(3.0f);
  SELFTEST_CHECK(failures, __fdiv_rn(one, three) == 0x1.555556p-2f && __fdiv_ru(one, three) == 0x1.555556p-2f);
  SELFTEST_CHECK(failures, __fdiv_rd(one, three) == 0x1.555554p-2f && __fdiv_rz(one, three) == 0x1.555554p-2f);
  SELFTEST_CHECK(failures, __fdiv_rd(-one, three) == -0x1.555556p-2f && __fdiv_ru(-one, three) == -0x1.555554p-2f);
  SELFTEST_CHECK(failures, __fdiv_rn(one, opaque(0.0f)) == inf_f() && isnan(__fdiv_rz(opaque(0.0f), opaque(0.0f))));
  SELFTEST_CHECK(failures, __frcp_rn(three) == 0x1.555556p-2f && __frcp_ru(three) == 0x1.555556p-2f);
  SELFTEST_CHECK(failures, __frcp_rd(three) == 0x1.555554p-2f && __frcp_rz(three) == 0x1.555554p-2f);
  SELFTEST_CHECK(failures, __frcp_rn(opaque(-0.0f)) == -inf_f());

  /* sqrt(2) = 1.41421356..., nearest float 0x1.6a09e6p+0 is below it. */
  const float two = opaque(2.0f);
  SELFTEST_CHECK(failures, __fsqrt_rn(two) == 0x1.6a09e6p+0f && __fsqrt_rd(two) == 0x1.6a09e6p+0f);
  SELFTEST_CHECK(failures, __fsqrt_rz(two) == 0x1.6a09e6p+0f && __fsqrt_ru(two) == 0x1.6a09e8p+0f);
  SELFTEST_CHECK(failures, isnan(__fsqrt_rn(-two)) && is_neg_zero_f(__fsqrt_ru(opaque(-0.0f))));
  SELFTEST_CHECK(failures, __frsqrt_rn(opaque(4.0f)) == 0.5f && __frsqrt_rn(two) == 0x1.6a09e6p-1f);
  SELFTEST_CHECK(failures, __frsqrt_rn(opaque(0.0f)) == inf_f() && __frsqrt_rn(opaque(-0.0f)) == -inf_f());
  SELFTEST_CHECK(failures, isnan(__frsqrt_rn(-two)) && is_pos_zero_f(__frsqrt_rn(inf_f())));

  /* a * a - 1 = 2^-22 + 2^-46, exactly halfway between two floats. */
  SELFTEST_CHECK(failures, __fmaf_rn(a, a, -one) == 0x1p-22f && __fmaf_rz(a, a, -one) == 0x1p-22f);
  SELFTEST_CHECK(failures, __fmaf_rd(a, a, -one) == 0x1p-22f && __fmaf_ru(a, a, -one) == 0x1p-22f + 0x1p-45f);
  SELFTEST_CHECK(failures, __fmaf_rd(-a, a, one) == -0x1p-22f - 0x1p-45f && __fmaf_ru(-a, a, one) == -0x1p-22f);
  SELFTEST_CHECK(failures, is_neg_zero_f(__fmaf_rd(one, one, -one)) && is_pos_zero_f(__fmaf_rn(one, one, -one)));
  SELFTEST_CHECK(failures, __fmaf_ieee_rn(a, a, -one) == 0x1p-22f && __fmaf_ieee_ru(a, a, -one) == 0x1p-22f + 0x1p-45f);
  SELFTEST_CHECK(failures, __fmaf_ieee_rd(-a, a, one) == -0x1p-22f - 0x1p-45f && __fmaf_ieee_rz(-a, a, one) == -0x1p-22f);
}

extern "C" __global__ void selftest_math_rounded_double(unsigned *failures) {
  const double one = opaque(1.0), tiny = opaque(0x1p-60), dmax = opaque(0x1.fffffffffffffp1023);
  const double a = opaque(1.0 + 0x1p-52);

  SELFTEST_CHECK(failures, __dadd_rn(one, tiny) == 1.0 && __dadd_rz(one, tiny) == 1.0);
  SELFTEST_CHECK(failures, __dadd_rd(one, tiny) == 1.0 && __dadd_ru(one, tiny) == 1.0 + 0x1p-52);
  SELFTEST_CHECK(failures, __dadd_rd(-one, -tiny) == -1.0 - 0x1p-52 && __dadd_rz(-one, -tiny) == -1.0);
  SELFTEST_CHECK(failures, is_neg_zero_d(__dadd_rd(one, -one)) && is_pos_zero_d(__dadd_ru(one, -one)));
  SELFTEST_CHECK(failures, __dadd_rn(dmax, dmax) == inf_d() && __dadd_rz(dmax, dmax) == dmax);
  SELFTEST_CHECK(failures, __dadd_rd(dmax, dmax) == dmax && __dadd_ru(-dmax, -dmax) == -dmax);
  SELFTEST_CHECK(failures, __dsub_rd(one, tiny) == 1.0 - 0x1p-53 && __dsub_ru(one, tiny) == 1.0);
  SELFTEST_CHECK(failures, __dsub_rn(one, tiny) == 1.0 && __dsub_rz(one, tiny) == 1.0 - 0x1p-53);

  /* (1 + 2^-52)^2 = 1 + 2^-51 + 2^-104. */
  SELFTEST_CHECK(failures, __dmul_rn(a, a) == 1.0 + 0x1p-51 && __dmul_rz(a, a) == 1.0 + 0x1p-51);
  SELFTEST_CHECK(failures, __dmul_rd(a, a) == 1.0 + 0x1p-51 && __dmul_ru(a, a) == 1.0 + 0x1.8p-51);
  SELFTEST_CHECK(failures, __dmul_rd(-a, a) == -1.0 - 0x1.8p-51 && __dmul_ru(-a, a) == -1.0 - 0x1p-51);
  const double denorm_min = opaque(0x1p-1074);
  SELFTEST_CHECK(failures, __dmul_ru(denorm_min, 0.5) == 0x1p-1074 && is_pos_zero_d(__dmul_rn(denorm_min, 0.5)));
  SELFTEST_CHECK(failures, is_neg_zero_d(__dmul_rz(-denorm_min, 0.5)) && __dmul_rd(-denorm_min, 0.5) == -0x1p-1074);
  SELFTEST_CHECK(failures, __dmul_rd(-dmax, 2.0) == -inf_d() && __dmul_ru(-dmax, 2.0) == -dmax);

  /* 1/3 in double rounds down to nearest. */
  const double three = opaque(3.0);
  SELFTEST_CHECK(failures, __ddiv_rn(one, three) == 0x1.5555555555555p-2 && __ddiv_rd(one, three) == 0x1.5555555555555p-2);
  SELFTEST_CHECK(failures, __ddiv_rz(one, three) == 0x1.5555555555555p-2 && __ddiv_ru(one, three) == 0x1.5555555555556p-2);
  SELFTEST_CHECK(failures, __ddiv_rd(-one, three) == -0x1.5555555555556p-2);
  SELFTEST_CHECK(failures, __drcp_rn(three) == 0x1.5555555555555p-2 && __drcp_ru(three) == 0x1.5555555555556p-2);
  SELFTEST_CHECK(failures, __drcp_rd(three) == 0x1.5555555555555p-2 && __drcp_rz(three) == 0x1.5555555555555p-2);

  /* sqrt(2): the nearest double 0x1.6a09e667f3bcdp+0 is above it. */
  const double two = opaque(2.0);
  SELFTEST_CHECK(failures, __dsqrt_rn(two) == 0x1.6a09e667f3bcdp+0 && __dsqrt_ru(two) == 0x1.6a09e667f3bcdp+0);
  SELFTEST_CHECK(failures, __dsqrt_rd(two) == 0x1.6a09e667f3bccp+0 && __dsqrt_rz(two) == 0x1.6a09e667f3bccp+0);
  SELFTEST_CHECK(failures, isnan(__dsqrt_rn(-two)));

  /* a * a - 1 = 2^-51 + 2^-104, exactly halfway. */
  SELFTEST_CHECK(failures, __fma_rn(a, a, -one) == 0x1p-51 && __fma_rz(a, a, -one) == 0x1p-51);
  SELFTEST_CHECK(failures, __fma_rd(a, a, -one) == 0x1p-51 && __fma_ru(a, a, -one) == 0x1p-51 + 0x1p-103);
  SELFTEST_CHECK(failures, is_neg_zero_d(__fma_rd(one, one, -one)) && is_pos_zero_d(__fma_ru(one, one, -one)));
}

/* ------------------------------------------------------------------------ */

extern "C" __global__ void selftest_math_conversions(unsigned *failures) {
  const float nf = opaque(nan_f()), inff = opaque(inf_f());
  const double nd = opaque(nan_d()), infd = opaque(inf_d());

  /* float to int: ties to even, directions, saturation, NaN to 0. */
  SELFTEST_CHECK(failures, __float2int_rn(opaque(2.5f)) == 2 && __float2int_rn(opaque(3.5f)) == 4);
  SELFTEST_CHECK(failures, __float2int_rn(opaque(-2.5f)) == -2 && __float2int_rn(opaque(0.5f)) == 0);
  SELFTEST_CHECK(failures, __float2int_rz(opaque(-2.7f)) == -2 && __float2int_rz(opaque(2.7f)) == 2);
  SELFTEST_CHECK(failures, __float2int_rd(opaque(-2.1f)) == -3 && __float2int_rd(opaque(2.9f)) == 2);
  SELFTEST_CHECK(failures, __float2int_ru(opaque(2.1f)) == 3 && __float2int_ru(opaque(-2.9f)) == -2);
  SELFTEST_CHECK(failures, __float2int_rn(nf) == 0 && __float2int_rz(nf) == 0);
  SELFTEST_CHECK(failures, __float2int_rd(nf) == 0 && __float2int_ru(nf) == 0);
  SELFTEST_CHECK(failures, __float2int_rz(opaque(3e9f)) == INT_MAX && __float2int_rz(opaque(-3e9f)) == INT_MIN);
  SELFTEST_CHECK(failures, __float2int_rn(inff) == INT_MAX && __float2int_rn(-inff) == INT_MIN);
  SELFTEST_CHECK(failures, __float2int_rz(opaque(2147483520.0f)) == 2147483520);
  SELFTEST_CHECK(failures, __float2int_rz(opaque(-2147483648.0f)) == INT_MIN);
  SELFTEST_CHECK(failures, __float2uint_rn(opaque(-1.0f)) == 0u && __float2uint_ru(opaque(-0.5f)) == 0u);
  SELFTEST_CHECK(failures, __float2uint_rz(opaque(5e9f)) == UINT_MAX && __float2uint_rn(inff) == UINT_MAX);
  SELFTEST_CHECK(failures, __float2uint_rz(opaque(4294967040.0f)) == 4294967040u && __float2uint_rd(-inff) == 0u);
  SELFTEST_CHECK(failures, __float2uint_rn(nf) == 0u && __float2uint_rd(opaque(2.5f)) == 2u);
  SELFTEST_CHECK(failures, __float2uint_ru(opaque(2.5f)) == 3u && __float2uint_rn(opaque(2.5f)) == 2u);
  SELFTEST_CHECK(failures, __float2ll_rn(opaque(-2.5f)) == -2LL && __float2ll_rd(opaque(-2.5f)) == -3LL);
  SELFTEST_CHECK(failures, __float2ll_rz(opaque(1e19f)) == LLONG_MAX && __float2ll_ru(opaque(-1e19f)) == LLONG_MIN);
  SELFTEST_CHECK(failures, __float2ll_rz(opaque(1e10f)) == 10000000000LL);
  SELFTEST_CHECK(failures, __float2ull_rz(opaque(-1.0f)) == 0ULL && __float2ull_ru(opaque(2e19f)) == ULLONG_MAX);
  SELFTEST_CHECK(failures, __float2ull_rd(opaque(1e19f)) == 9999999980506447872ULL);
  /* A NaN converted to a 64-bit integer gives 1 << 63 (PTX ISA, cvt). */
  SELFTEST_CHECK(failures, __float2ll_rz(nf) == LLONG_MIN && __float2ull_rz(nf) == 1ULL << 63);

  /* double to integer; a NaN gives 1 << (bits - 1). */
  SELFTEST_CHECK(failures, __double2int_rn(opaque(2147483647.4)) == INT_MAX && __double2int_ru(opaque(2147483647.4)) == INT_MAX);
  SELFTEST_CHECK(failures, __double2int_rd(opaque(-2147483648.5)) == INT_MIN && __double2int_rz(opaque(-7.9)) == -7);
  SELFTEST_CHECK(failures, __double2int_rn(opaque(-0.5)) == 0 && __double2int_rn(opaque(1.5)) == 2);
  SELFTEST_CHECK(failures, __double2int_rz(nd) == INT_MIN && __double2int_rn(infd) == INT_MAX);
  SELFTEST_CHECK(failures, __double2uint_rz(nd) == 0x80000000u && __double2uint_rz(opaque(-1.0)) == 0u);
  SELFTEST_CHECK(failures, __double2uint_rz(opaque(4294967295.9)) == UINT_MAX && __double2uint_rd(opaque(4294967294.9)) == 4294967294u);
  SELFTEST_CHECK(failures, __double2uint_ru(opaque(0.1)) == 1u && __double2uint_rn(opaque(1e10)) == UINT_MAX);
  SELFTEST_CHECK(failures, __double2ll_rz(nd) == LLONG_MIN && __double2ll_rn(opaque(-2.5)) == -2LL);
  SELFTEST_CHECK(failures, __double2ll_rd(opaque(-1e19)) == LLONG_MIN && __double2ll_ru(opaque(9007199254740993.0)) == 9007199254740992LL);
  SELFTEST_CHECK(failures, __double2ull_rz(nd) == 1ULL << 63 && __double2ull_ru(opaque(0.1)) == 1ULL);
  SELFTEST_CHECK(failures, __double2ull_rn(opaque(-1e300)) == 0ULL && __double2ull_rd(infd) == ULLONG_MAX);

  /* Integers to float and double in each direction. */
  const int i24 = opaque(16777217);
  SELFTEST_CHECK(failures, __int2float_rn(i24) == 16777216.0f && __int2float_rz(i24) == 16777216.0f);
  SELFTEST_CHECK(failures, __int2float_rd(i24) == 16777216.0f && __int2float_ru(i24) == 16777218.0f);
  SELFTEST_CHECK(failures, __int2float_rz(-i24) == -16777216.0f && __int2float_rd(-i24) == -16777218.0f);
  SELFTEST_CHECK(failures, __int2float_ru(-i24) == -16777216.0f && __int2float_rn(opaque(16777219)) == 16777220.0f);
  const unsigned u32_max = opaque(UINT_MAX);
  SELFTEST_CHECK(failures, __uint2float_rd(u32_max) == 4294967040.0f && __uint2float_ru(u32_max) == 4294967296.0f);
  SELFTEST_CHECK(failures, __uint2float_rn(u32_max) == 4294967296.0f && __uint2float_rz(u32_max) == 4294967040.0f);
  const long long i64_max = opaque(LLONG_MAX);
  SELFTEST_CHECK(failures, __ll2float_rd(i64_max) == 0x1.fffffep62f && __ll2float_ru(i64_max) == 0x1p63f);
  SELFTEST_CHECK(failures, __ll2float_rn(i64_max) == 0x1p63f && __ll2float_rz(-i64_max) == -0x1.fffffep62f);
  const unsigned long long u64_max = opaque(ULLONG_MAX);
  SELFTEST_CHECK(failures, __ull2float_rd(u64_max) == 0x1.fffffep63f && __ull2float_ru(u64_max) == 0x1p64f);
  SELFTEST_CHECK(failures, __ull2float_rn(u64_max) == 0x1p64f && __ull2float_rz(u64_max) == 0x1.fffffep63f);
  SELFTEST_CHECK(failures, __int2double_rn(opaque(INT_MIN)) == -2147483648.0 && __uint2double_rn(u32_max) == 4294967295.0);
  const long long l53 = opaque((1LL << 53) + 1);
  SELFTEST_CHECK(failures, __ll2double_rn(l53) == 0x1p53 && __ll2double_rz(l53) == 0x1p53);
  SELFTEST_CHECK(failures, __ll2double_rd(l53) == 0x1p53 && __ll2double_ru(l53) == 0x1p53 + 2.0);
  SELFTEST_CHECK(failures, __ll2double_rz(-l53) == -0x1p53 && __ll2double_rd(-l53) == -0x1p53 - 2.0);
  SELFTEST_CHECK(failures, __ull2double_ru(u64_max) == 0x1p64 && __ull2double_rd(u64_max) == 0x1.fffffffffffffp63);
  SELFTEST_CHECK(failures, __ull2double_rn(u64_max) == 0x1p64 && __ull2double_rz(u64_max) == 0x1.fffffffffffffp63);

  /* double to float. */
  const double half_ulp = opaque(1.0 + 0x1p-24);
  SELFTEST_CHECK(failures, __double2float_rn(half_ulp) == 1.0f && __double2float_ru(half_ulp) == 1.0f + 0x1p-23f);
  SELFTEST_CHECK(failures, __double2float_rd(half_ulp) == 1.0f && __double2float_rz(-half_ulp) == -1.0f);
  SELFTEST_CHECK(failures, __double2float_rd(-half_ulp) == -1.0f - 0x1p-23f);
  const double big = opaque(1e39), small = opaque(1e-50);
  SELFTEST_CHECK(failures, __double2float_rz(big) == 0x1.fffffep127f && __double2float_ru(big) == inf_f());
  SELFTEST_CHECK(failures, __double2float_rn(big) == inf_f() && __double2float_rd(-big) == -inf_f());
  SELFTEST_CHECK(failures, __double2float_rz(-big) == -0x1.fffffep127f && __double2float_ru(-big) == -0x1.fffffep127f);
  SELFTEST_CHECK(failures, __double2float_ru(small) == 0x1p-149f && is_pos_zero_f(__double2float_rd(small)));
  SELFTEST_CHECK(failures, is_pos_zero_f(__double2float_rn(small)) && __double2float_rd(-small) == -0x1p-149f);
  SELFTEST_CHECK(failures, isnan(__double2float_rn(nd)) && __double2float_rz(infd) == inf_f());

  /* Reinterpretation. */
  SELFTEST_CHECK(failures, __float_as_int(opaque(1.0f)) == 0x3f800000 && __float_as_int(opaque(-0.0f)) == INT_MIN);
  SELFTEST_CHECK(failures, __int_as_float(opaque(0x40490fdb)) == 3.14159274f && __float_as_uint(opaque(-1.0f)) == 0xbf800000u);
  SELFTEST_CHECK(failures, __uint_as_float(opaque(0x7f800000u)) == inf_f());
  SELFTEST_CHECK(failures, __double_as_longlong(opaque(1.0)) == 0x3ff0000000000000LL);
  SELFTEST_CHECK(failures, __longlong_as_double(opaque(0x4000000000000000LL)) == 2.0);
  const double bits = __longlong_as_double(opaque(0x123456789abcdef0LL));
  SELFTEST_CHECK(failures, __double2hiint(bits) == 0x12345678 && __double2loint(bits) == (int)0x9abcdef0);
  SELFTEST_CHECK(failures, __double2hiint(opaque(-2.0)) == (int)0xc0000000 && __double2loint(opaque(-2.0)) == 0);
  SELFTEST_CHECK(failures, __hiloint2double(opaque(0x3ff00000), 0) == 1.0);
  SELFTEST_CHECK(failures, __double_as_longlong(__hiloint2double(opaque(INT_MIN), 1)) == (long long)0x8000000000000001ULL);
}
