/* half_axpy_host.c: the host implementations of half_axpy.cu. A __half is
 * its 16 bits (uint16_t) here; this file converts them itself. */
#include <math.h>
#include <stdint.h>

/* The value of the half with bits h (exact in double). */
static double half_to_double(uint16_t h) {
  int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exponent == 0x1f) return mantissa ? NAN : sign * INFINITY;
  if (exponent == 0) return sign * ldexp(mantissa, -24);
  return sign * ldexp(mantissa + 1024, exponent - 25);
}

/* v rounded to the nearest half, ties to even (NaN becomes 0x7fff, CUDA's
 * canonical NaN). */
static uint16_t half_from_double(double v) {
  uint16_t sign = signbit(v) ? 0x8000 : 0;
  double a = fabs(v), q;
  int e;
  if (isnan(v)) return 0x7fff;
  /* 65520 lies halfway between the largest half, 65504, and 65536: it and
   * everything above round to infinity. */
  if (a >= 65520.0) return sign | 0x7c00;
  /* Subnormal halves are multiples of 2^-24; 1024 of them make the smallest
   * normal half, whose bits are 0x0400, so the sum still encodes right. */
  if (a < 0x1p-14) return sign | (uint16_t)nearbyint(a * 0x1p24);
  frexp(a, &e); /* a is in [2^(e-1), 2^e) */
  q = nearbyint(ldexp(a, 11 - e)); /* 11 significant bits, 1024 .. 2048 */
  if (q == 2048.0) {
    q = 1024.0;
    e++;
  }
  return sign | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)(q - 1024.0);
}

/* The product of two halves is exact in double, and with every input in
 * [-2, 2] (as the case draws them) so is the sum: one rounding to half, as
 * __hfma does. */
void haxpy(int n, uint16_t a, const uint16_t *x, uint16_t *y) {
  for (int i = 0; i < n; ++i)
    y[i] = half_from_double(half_to_double(a) * half_to_double(x[i]) +
                            half_to_double(y[i]));
}

void half_round(int n, const float *x, uint16_t *h, float *back) {
  for (int i = 0; i < n; ++i) {
    h[i] = half_from_double(x[i]);
    back[i] = (float)half_to_double(h[i]);
  }
}
