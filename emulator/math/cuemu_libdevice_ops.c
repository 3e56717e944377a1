/*
 * cuemu_libdevice_ops.c: the PTX operations that libdevice's math functions
 * are made of (NVVM intrinsics and inline PTX), for the host.
 *
 * This file is not compiled into libcuemu by itself: the build compiles it
 * to LLVM IR and links it with libdevice's IR (scripts/libdevice_x86.py),
 * where every function is inlined. Each function is named after the NVVM
 * intrinsic it replaces (llvm.nvvm.fma.rn.d is cuemu_ld_fma_rn_d).
 *
 * Semantics are PTX's: .ftz flushes subnormal inputs and results to a zero
 * of the same sign; min and max return the other operand of a NaN and order
 * -0.0 below +0.0; conversions to integers saturate and give 0 for a NaN;
 * round is to the nearest integer, ties to even (cvt.rni). The .approx
 * operations are computed exactly rounded here: the GPU's own
 * approximations are within their documented bounds of these values, and
 * libdevice refines the double precision ones with Newton steps, which
 * mostly take both to the same final bits.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static float ftz_f(float x) {
  return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

static double ftz_d(double x) {
  return fpclassify(x) == FP_SUBNORMAL ? copysign(0.0, x) : x;
}

/*
 * Directed rounding without changing the rounding mode (libdevice's expf
 * rounds an fma down in every call; two changes of the mode would cost more
 * than the function). The exact result is first held as s + e, two doubles
 * in round-to-nearest: s the nearest double, e its error, exact by the
 * two-sum (this file is compiled without contraction). Then:
 * - to a float: f, the nearest float to s, is the answer when it lies on
 *   the right side of s + e; otherwise the next float that way is (f and s
 *   are on the double grid, where |e| is under half a step of s);
 * - to a double: s, or the next double towards zero when e points there.
 * A zero s + e takes the sign IEEE 754 gives an exact zero sum: -0 rounding
 * down unless both addends are +0; otherwise +0 unless both are -0.
 */
enum cuemu_ld_direction { CUEMU_LD_DOWN, CUEMU_LD_UP, CUEMU_LD_ZERO };

static void two_sum(double a, double b, double *s, double *e) {
  const double sum = a + b, bb = sum - a;
  *s = sum;
  *e = (a - (sum - bb)) + (b - bb);
}

static double exact_zero(double a, double b, enum cuemu_ld_direction d) {
  if (d == CUEMU_LD_DOWN)
    return signbit(a) || signbit(b) || a != 0.0 ? -0.0 : 0.0;
  return signbit(a) && signbit(b) && a == 0.0 ? -0.0 : 0.0;
}

/* The next float from a finite or infinite f towards +inf (up) or -inf. */
static float next_float(float f, int up) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  const int negative = (u >> 31) != 0;
  if ((u & 0x7fffffffu) == 0)
    u = up ? 1u : 0x80000001u; /* the smallest subnormal of that sign */
  else if (negative == up)
    u -= 1; /* towards zero */
  else if ((u & 0x7fffffffu) < 0x7f800000u)
    u += 1; /* away from zero, up to infinity */
  memcpy(&f, &u, sizeof f);
  return f;
}

static float round_to_float(double s, double e, enum cuemu_ld_direction d) {
  if (!isfinite(s))
    return (float)s;
  const int down = d == CUEMU_LD_DOWN || (d == CUEMU_LD_ZERO && (s > 0.0 || (s == 0.0 && e > 0.0)));
  float f = (float)s;
  if (down) {
    if ((double)f > s || ((double)f == s && e < 0.0))
      f = next_float(f, 0);
  } else if ((double)f < s || ((double)f == s && e > 0.0)) {
    f = next_float(f, 1);
  }
  return f;
}

/* a + b (doubles) rounded to a float in direction d. */
static float sum_to_float(double a, double b, enum cuemu_ld_direction d) {
  double s, e;
  two_sum(a, b, &s, &e);
  if (s == 0.0 && e == 0.0)
    return (float)exact_zero(a, b, d);
  return round_to_float(s, e, d);
}

/* Fused multiply-add. A float product is exact in double. */
double cuemu_ld_fma_rn_d(double a, double b, double c) { return fma(a, b, c); }
float cuemu_ld_fma_rn_f(float a, float b, float c) { return fmaf(a, b, c); }
float cuemu_ld_fma_rn_ftz_f(float a, float b, float c) {
  return ftz_f(fmaf(ftz_f(a), ftz_f(b), ftz_f(c)));
}
float cuemu_ld_fma_rm_f(float a, float b, float c) {
  return sum_to_float((double)a * b, c, CUEMU_LD_DOWN);
}
float cuemu_ld_fma_rm_ftz_f(float a, float b, float c) {
  return ftz_f(cuemu_ld_fma_rm_f(ftz_f(a), ftz_f(b), ftz_f(c)));
}
float cuemu_ld_fma_rz_f(float a, float b, float c) {
  return sum_to_float((double)a * b, c, CUEMU_LD_ZERO);
}
float cuemu_ld_fma_rz_ftz_f(float a, float b, float c) {
  return ftz_f(cuemu_ld_fma_rz_f(ftz_f(a), ftz_f(b), ftz_f(c)));
}
float cuemu_ld_fma_rp_f(float a, float b, float c) {
  return sum_to_float((double)a * b, c, CUEMU_LD_UP);
}
float cuemu_ld_fma_rp_ftz_f(float a, float b, float c) {
  return ftz_f(cuemu_ld_fma_rp_f(ftz_f(a), ftz_f(b), ftz_f(c)));
}

/* Addition, subtraction and multiplication, never contracted. */
double cuemu_ld_add_rn_d(double a, double b) { return a + b; }
float cuemu_ld_add_rn_f(float a, float b) { return a + b; }
float cuemu_ld_add_rn_ftz_f(float a, float b) { return ftz_f(ftz_f(a) + ftz_f(b)); }
double cuemu_ld_add_rz_d(double a, double b) {
  double s, e;
  two_sum(a, b, &s, &e);
  if (isinf(s) && isfinite(a) && isfinite(b))
    return copysign(DBL_MAX, s);
  if (!isfinite(s) || e == 0.0 || (e < 0.0) == (s < 0.0))
    return s;
  return nextafter(s, 0.0);
}
float cuemu_ld_add_rz_f(float a, float b) { return sum_to_float(a, b, CUEMU_LD_ZERO); }
float cuemu_ld_add_rz_ftz_f(float a, float b) {
  return ftz_f(cuemu_ld_add_rz_f(ftz_f(a), ftz_f(b)));
}
double cuemu_ld_sub_rn_d(double a, double b) { return a - b; }
float cuemu_ld_sub_rn_f(float a, float b) { return a - b; }
float cuemu_ld_sub_rn_ftz_f(float a, float b) { return ftz_f(ftz_f(a) - ftz_f(b)); }
double cuemu_ld_mul_rn_d(double a, double b) { return a * b; }
float cuemu_ld_mul_rn_f(float a, float b) { return a * b; }
float cuemu_ld_mul_rn_ftz_f(float a, float b) { return ftz_f(ftz_f(a) * ftz_f(b)); }
float cuemu_ld_mul_rz_f(float a, float b) {
  return round_to_float((double)a * b, 0.0, CUEMU_LD_ZERO);
}
float cuemu_ld_mul_rz_ftz_f(float a, float b) {
  return ftz_f(cuemu_ld_mul_rz_f(ftz_f(a), ftz_f(b)));
}

/* Division, square root and reciprocals. */
float cuemu_ld_div_rn_f(float a, float b) { return a / b; }
float cuemu_ld_div_rn_ftz_f(float a, float b) { return ftz_f(ftz_f(a) / ftz_f(b)); }
/* div.approx multiplies by an approximate 1/b, flushed to zero for
 * 2^126 < |b| < 2^128 (as CUDA documents for __fdividef: 0, or NaN for an
 * infinite a). */
float cuemu_ld_div_approx_f(float a, float b) {
  const float ab = fabsf(b);
  if (ab > 0x1p126f && ab < INFINITY)
    return a * copysignf(0.0f, b);
  return a / b;
}
float cuemu_ld_div_approx_ftz_f(float a, float b) {
  return ftz_f(cuemu_ld_div_approx_f(ftz_f(a), ftz_f(b)));
}
double cuemu_ld_sqrt_rn_d(double a) { return sqrt(a); }
float cuemu_ld_sqrt_rn_f(float a) { return sqrtf(a); }
float cuemu_ld_sqrt_rn_ftz_f(float a) { return ftz_f(sqrtf(ftz_f(a))); }
float cuemu_ld_sqrt_approx_f(float a) { return sqrtf(a); }
float cuemu_ld_sqrt_approx_ftz_f(float a) { return ftz_f(sqrtf(ftz_f(a))); }
double cuemu_ld_rcp_approx_ftz_d(double a) { return ftz_d(1.0 / ftz_d(a)); }
float cuemu_ld_rcp_approx_ftz_f(float a) { return ftz_f(1.0f / ftz_f(a)); }
double cuemu_ld_rsqrt_approx_d(double a) { return 1.0 / sqrt(a); }
double cuemu_ld_rsqrt_approx_ftz_d(double a) { return ftz_d(1.0 / sqrt(ftz_d(a))); }
float cuemu_ld_rsqrt_approx_f(float a) { return (float)(1.0 / sqrt((double)a)); }
float cuemu_ld_rsqrt_approx_ftz_f(float a) {
  return ftz_f((float)(1.0 / sqrt((double)ftz_f(a))));
}

/* Base-2 exponential and logarithm (ex2.approx, lg2.approx). */
float cuemu_ld_ex2_approx_f(float a) { return exp2f(a); }
float cuemu_ld_ex2_approx_ftz_f(float a) { return ftz_f(exp2f(ftz_f(a))); }
float cuemu_ld_lg2_approx_f(float a) { return log2f(a); }
float cuemu_ld_lg2_approx_ftz_f(float a) { return log2f(ftz_f(a)); }

/* The hardware's sine, cosine and hyperbolic tangent (sin.approx,
 * cos.approx, tanh.approx): exactly rounded here. */
float cuemu_ld_sin_approx_f(float a) { return (float)sin((double)a); }
float cuemu_ld_sin_approx_ftz_f(float a) { return ftz_f((float)sin((double)ftz_f(a))); }
float cuemu_ld_cos_approx_f(float a) { return (float)cos((double)a); }
float cuemu_ld_cos_approx_ftz_f(float a) { return (float)cos((double)ftz_f(a)); }
float cuemu_ld_tanh_approx_f32(float a) { return (float)tanh((double)a); }

/* Absolute value, minimum and maximum. */
double cuemu_ld_fabs_d(double a) { return fabs(a); }
float cuemu_ld_fabs_f(float a) { return fabsf(a); }
float cuemu_ld_fabs_ftz_f(float a) { return fabsf(ftz_f(a)); }

#define CUEMU_LD_MINMAX(name, type, canonical_nan, is_max)                     \
  type name(type a, type b) {                                                  \
    if (isnan(a) && isnan(b))                                                  \
      return canonical_nan;                                                    \
    if (isnan(a))                                                              \
      return b;                                                                \
    if (isnan(b))                                                              \
      return a;                                                                \
    if (a == b)                                                                \
      return (signbit(a) != 0) != (is_max) ? a : b;                            \
    return (a > b) == (is_max) ? a : b;                                        \
  }
CUEMU_LD_MINMAX(cuemu_ld_fmin_d, double, (double)NAN, 0)
CUEMU_LD_MINMAX(cuemu_ld_fmax_d, double, (double)NAN, 1)
CUEMU_LD_MINMAX(cuemu_ld_fmin_f, float, NAN, 0)
CUEMU_LD_MINMAX(cuemu_ld_fmax_f, float, NAN, 1)
float cuemu_ld_fmin_ftz_f(float a, float b) { return cuemu_ld_fmin_f(ftz_f(a), ftz_f(b)); }
float cuemu_ld_fmax_ftz_f(float a, float b) { return cuemu_ld_fmax_f(ftz_f(a), ftz_f(b)); }

/* Rounding to integral values. */
double cuemu_ld_floor_d(double a) { return floor(a); }
float cuemu_ld_floor_f(float a) { return floorf(a); }
float cuemu_ld_floor_ftz_f(float a) { return floorf(ftz_f(a)); }
double cuemu_ld_ceil_d(double a) { return ceil(a); }
float cuemu_ld_ceil_f(float a) { return ceilf(a); }
float cuemu_ld_ceil_ftz_f(float a) { return ceilf(ftz_f(a)); }
double cuemu_ld_trunc_d(double a) { return trunc(a); }
float cuemu_ld_trunc_f(float a) { return truncf(a); }
float cuemu_ld_trunc_ftz_f(float a) { return truncf(ftz_f(a)); }
double cuemu_ld_round_d(double a) { return nearbyint(a); }
float cuemu_ld_round_f(float a) { return nearbyintf(a); }
float cuemu_ld_round_ftz_f(float a) { return nearbyintf(ftz_f(a)); }
float cuemu_ld_saturate_f(float a) {
  return isnan(a) ? 0.0f : a < 0.0f ? 0.0f : a > 1.0f ? 1.0f : a;
}
float cuemu_ld_saturate_ftz_f(float a) { return cuemu_ld_saturate_f(ftz_f(a)); }

/* Conversions to int: saturated, 0 for a NaN. */
static int32_t to_int(double integral) {
  if (isnan(integral))
    return 0;
  if (integral <= (double)INT32_MIN)
    return INT32_MIN;
  if (integral >= (double)INT32_MAX)
    return INT32_MAX;
  return (int32_t)integral;
}
int32_t cuemu_ld_d2i_rn(double a) { return to_int(nearbyint(a)); }
int32_t cuemu_ld_f2i_rn(float a) { return to_int(nearbyint((double)a)); }
int32_t cuemu_ld_f2i_rn_ftz(float a) { return to_int(nearbyint((double)ftz_f(a))); }
int32_t cuemu_ld_f2i_rz(float a) { return to_int(trunc((double)a)); }
int32_t cuemu_ld_f2i_rz_ftz(float a) { return to_int(trunc((double)ftz_f(a))); }

/* The halves of a double's bits. */
int32_t cuemu_ld_d2i_hi(double a) {
  uint64_t bits;
  memcpy(&bits, &a, sizeof bits);
  return (int32_t)(uint32_t)(bits >> 32);
}
int32_t cuemu_ld_d2i_lo(double a) {
  uint64_t bits;
  memcpy(&bits, &a, sizeof bits);
  return (int32_t)(uint32_t)bits;
}
double cuemu_ld_lohi_i2d(int32_t lo, int32_t hi) {
  const uint64_t bits = (uint64_t)(uint32_t)hi << 32 | (uint32_t)lo;
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}
