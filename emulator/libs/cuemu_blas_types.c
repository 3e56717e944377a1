/*
 * cuemu_blas_types.c: the element types of cuemu's cuBLAS (cudaDataType
 * values): sizes, loads and stores through double complex, and the
 * binary16 and bfloat16 conversions.
 */
#include <math.h>
#include <string.h>

#include "cuemu_blas.h"

size_t cuemu__blas_type_size(int t) {
  switch (t) {
  case CUEMU_R_8I:
    return 1;
  case CUEMU_R_16F:
  case CUEMU_R_16BF:
    return 2;
  case CUEMU_R_32I:
  case CUEMU_R_32F:
    return 4;
  case CUEMU_R_64F:
  case CUEMU_R_64I:
  case CUEMU_C_32F:
    return 8;
  case CUEMU_C_64F:
    return 16;
  }
  return 0;
}

float cuemu__half_to_float(uint16_t h) {
  unsigned sign = h >> 15, exp = (h >> 10) & 31, man = h & 1023;
  float v;
  if (exp == 0)
    v = ldexpf((float)man, -24);
  else if (exp == 31)
    v = man ? NAN : INFINITY;
  else
    v = ldexpf((float)(man | 1024), (int)exp - 25);
  return sign ? -v : v;
}

uint16_t cuemu__float_to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
  uint32_t ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u)
    return sign | 0x7e00; /* NaN */
  if (ax >= 0x477ff000u)  /* rounds to 65520 or more: infinity */
    return sign | 0x7c00;
  if (ax < 0x38800000u) { /* a subnormal half (or zero) */
    float a;
    memcpy(&a, &ax, 4);
    /* a * 2^24 rounded to an integer, to nearest even (the FPU's mode). */
    return sign | (uint16_t)nearbyintf(a * 16777216.0f);
  }
  uint32_t exp = (ax >> 23) - 112, man = ax & 0x7fffff;
  uint32_t h = (exp << 10) | (man >> 13), rest = man & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h; /* a carry into the exponent is right, up to infinity */
  return sign | (uint16_t)h;
}

float cuemu__bf16_to_float(uint16_t h) {
  uint32_t x = (uint32_t)h << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

uint16_t cuemu__float_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return (uint16_t)((x >> 16) | 0x40);
  x += 0x7fffu + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

double complex cuemu__blas_load(int t, const void *p, int64_t i) {
  switch (t) {
  case CUEMU_R_8I:
    return ((const int8_t *)p)[i];
  case CUEMU_R_32I:
    return ((const int32_t *)p)[i];
  case CUEMU_R_64I:
    return (double)((const int64_t *)p)[i];
  case CUEMU_R_16F:
    return cuemu__half_to_float(((const uint16_t *)p)[i]);
  case CUEMU_R_16BF:
    return cuemu__bf16_to_float(((const uint16_t *)p)[i]);
  case CUEMU_R_32F:
    return ((const float *)p)[i];
  case CUEMU_R_64F:
    return ((const double *)p)[i];
  case CUEMU_C_32F:
    return ((const float complex *)p)[i];
  case CUEMU_C_64F:
    return ((const double complex *)p)[i];
  }
  return 0;
}

void cuemu__blas_store(int t, void *p, int64_t i, double complex v) {
  switch (t) {
  case CUEMU_R_8I:
    ((int8_t *)p)[i] = (int8_t)llrint(creal(v));
    break;
  case CUEMU_R_32I:
    ((int32_t *)p)[i] = (int32_t)llrint(creal(v));
    break;
  case CUEMU_R_64I:
    ((int64_t *)p)[i] = (int64_t)llrint(creal(v));
    break;
  case CUEMU_R_16F:
    ((uint16_t *)p)[i] = cuemu__float_to_half((float)creal(v));
    break;
  case CUEMU_R_16BF:
    ((uint16_t *)p)[i] = cuemu__float_to_bf16((float)creal(v));
    break;
  case CUEMU_R_32F:
    ((float *)p)[i] = (float)creal(v);
    break;
  case CUEMU_R_64F:
    ((double *)p)[i] = creal(v);
    break;
  case CUEMU_C_32F:
    ((float complex *)p)[i] = (float complex)v;
    break;
  case CUEMU_C_64F:
    ((double complex *)p)[i] = v;
    break;
  }
}
