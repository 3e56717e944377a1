/*
 * cuemu_libdevice.h: the math functions of the CUDA toolkit's libdevice,
 * compiled for the host when libcuemu is built (scripts/libdevice_x86.py):
 * cuemu_nv_NAME computes what libdevice's __nv_NAME computes on a GPU,
 * bit for bit where libdevice uses no .approx instruction. Kernels reach
 * them without naming them: the device pass's calls of sin, expf, pow...
 * are renamed to these, and the shims call the CUDA-only ones. Defined
 * by libcuemu only where it was built with libdevice (CUEMU_HAVE_LIBDEVICE);
 * emulator/math/cuemu_libdevice.def is the list.
 */
#ifndef CUEMU_LIBDEVICE_H
#define CUEMU_LIBDEVICE_H

#ifdef __cplusplus
extern "C" {
#endif

double cuemu_nv_sin(double x);
double cuemu_nv_cos(double x);
double cuemu_nv_tan(double x);
void cuemu_nv_sincos(double x, double *s, double *c);
double cuemu_nv_log(double x);
double cuemu_nv_log2(double x);
double cuemu_nv_log10(double x);
double cuemu_nv_log1p(double x);
double cuemu_nv_exp(double x);
double cuemu_nv_exp2(double x);
double cuemu_nv_exp10(double x);
double cuemu_nv_expm1(double x);
double cuemu_nv_cosh(double x);
double cuemu_nv_sinh(double x);
double cuemu_nv_tanh(double x);
double cuemu_nv_atan2(double x, double y);
double cuemu_nv_atan(double x);
double cuemu_nv_asin(double x);
double cuemu_nv_acos(double x);
double cuemu_nv_acosh(double x);
double cuemu_nv_asinh(double x);
double cuemu_nv_atanh(double x);
double cuemu_nv_hypot(double x, double y);
double cuemu_nv_cbrt(double x);
double cuemu_nv_pow(double x, double y);
double cuemu_nv_j0(double x);
double cuemu_nv_j1(double x);
double cuemu_nv_y0(double x);
double cuemu_nv_y1(double x);
double cuemu_nv_jn(int n, double x);
double cuemu_nv_yn(int n, double x);
double cuemu_nv_erf(double x);
double cuemu_nv_erfc(double x);
double cuemu_nv_tgamma(double x);
double cuemu_nv_lgamma(double x);
float cuemu_nv_sinf(float x);
float cuemu_nv_cosf(float x);
float cuemu_nv_tanf(float x);
void cuemu_nv_sincosf(float x, float *s, float *c);
float cuemu_nv_logf(float x);
float cuemu_nv_log2f(float x);
float cuemu_nv_log10f(float x);
float cuemu_nv_log1pf(float x);
float cuemu_nv_expf(float x);
float cuemu_nv_exp2f(float x);
float cuemu_nv_exp10f(float x);
float cuemu_nv_expm1f(float x);
float cuemu_nv_coshf(float x);
float cuemu_nv_sinhf(float x);
float cuemu_nv_tanhf(float x);
float cuemu_nv_atan2f(float x, float y);
float cuemu_nv_atanf(float x);
float cuemu_nv_asinf(float x);
float cuemu_nv_acosf(float x);
float cuemu_nv_acoshf(float x);
float cuemu_nv_asinhf(float x);
float cuemu_nv_atanhf(float x);
float cuemu_nv_hypotf(float x, float y);
float cuemu_nv_cbrtf(float x);
float cuemu_nv_powf(float x, float y);
float cuemu_nv_j0f(float x);
float cuemu_nv_j1f(float x);
float cuemu_nv_y0f(float x);
float cuemu_nv_y1f(float x);
float cuemu_nv_jnf(int n, float x);
float cuemu_nv_ynf(int n, float x);
float cuemu_nv_erff(float x);
float cuemu_nv_erfcf(float x);
float cuemu_nv_tgammaf(float x);
float cuemu_nv_lgammaf(float x);
double cuemu_nv_rsqrt(double x);
float cuemu_nv_rsqrtf(float x);
double cuemu_nv_rcbrt(double x);
float cuemu_nv_rcbrtf(float x);
double cuemu_nv_sinpi(double x);
float cuemu_nv_sinpif(float x);
double cuemu_nv_cospi(double x);
float cuemu_nv_cospif(float x);
void cuemu_nv_sincospi(double x, double *s, double *c);
void cuemu_nv_sincospif(float x, float *s, float *c);
double cuemu_nv_erfinv(double x);
float cuemu_nv_erfinvf(float x);
double cuemu_nv_erfcinv(double x);
float cuemu_nv_erfcinvf(float x);
double cuemu_nv_erfcx(double x);
float cuemu_nv_erfcxf(float x);
double cuemu_nv_normcdf(double x);
float cuemu_nv_normcdff(float x);
double cuemu_nv_normcdfinv(double x);
float cuemu_nv_normcdfinvf(float x);
double cuemu_nv_rhypot(double x, double y);
float cuemu_nv_rhypotf(float x, float y);
double cuemu_nv_norm3d(double a, double b, double c);
float cuemu_nv_norm3df(float a, float b, float c);
double cuemu_nv_rnorm3d(double a, double b, double c);
float cuemu_nv_rnorm3df(float a, float b, float c);
double cuemu_nv_norm4d(double a, double b, double c, double d);
float cuemu_nv_norm4df(float a, float b, float c, float d);
double cuemu_nv_rnorm4d(double a, double b, double c, double d);
float cuemu_nv_rnorm4df(float a, float b, float c, float d);
double cuemu_nv_norm(int dim, const double *p);
float cuemu_nv_normf(int dim, const float *p);
double cuemu_nv_rnorm(int dim, const double *p);
float cuemu_nv_rnormf(int dim, const float *p);
double cuemu_nv_cyl_bessel_i0(double x);
float cuemu_nv_cyl_bessel_i0f(float x);
double cuemu_nv_cyl_bessel_i1(double x);
float cuemu_nv_cyl_bessel_i1f(float x);

/* The fast intrinsics (__expf, __sinf, __powf, __fdividef...). */
float cuemu_nv_fast_expf(float x);
float cuemu_nv_fast_exp10f(float x);
float cuemu_nv_fast_logf(float x);
float cuemu_nv_fast_log2f(float x);
float cuemu_nv_fast_log10f(float x);
float cuemu_nv_fast_powf(float x, float y);
float cuemu_nv_fast_sinf(float x);
float cuemu_nv_fast_cosf(float x);
float cuemu_nv_fast_tanf(float x);
void cuemu_nv_fast_sincosf(float x, float *s, float *c);
float cuemu_nv_fast_tanhf(float x);
float cuemu_nv_fast_fdividef(float x, float y);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_LIBDEVICE_H */
