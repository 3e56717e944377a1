/*
 * cuemu_fft_engine.c: the 1-D transform of cuemu's cuFFT
 * (cuemu_fft.h), in double precision whatever the plan's: Stockham's
 * self-sorting mixed-radix FFT (radices 4, 2, 3, 5, 7) for lengths with
 * no other prime factor, and Bluestein's algorithm (the DFT as a
 * convolution with a chirp, done by a power-of-two FFT) for the others,
 * so that every length costs O(n log n). Twiddle factors come from one
 * table of exp(-2 pi i k / n), each computed directly from its own angle.
 * The inverse is the conjugate of the forward transform of the conjugate.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_fft.h"

#define MAX_FACTORS 64
#define PI 3.14159265358979323846

struct cuemu_fft_engine {
  size_t n;
  int nfactors;
  int factor[MAX_FACTORS];
  /* exp(-2 pi i k / n), k < n (mixed radix only). */
  cuemu_fft_complex *twiddle;
  /* Bluestein: the power-of-two engine of length m >= 2n - 1, the chirp
   * exp(-pi i k^2 / n) for k < n, and the transform of its conjugate
   * wrapped to length m. */
  cuemu_fft_engine *inner;
  size_t m;
  cuemu_fft_complex *chirp, *kernel;
};

static cuemu_fft_complex cmul(cuemu_fft_complex a, cuemu_fft_complex b) {
  cuemu_fft_complex r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  return r;
}

/* exp(-2 pi i num / den), num < den, from the angle of num itself. */
static cuemu_fft_complex root(unsigned long long num, unsigned long long den) {
  double angle = -2.0 * PI * (double)num / (double)den;
  cuemu_fft_complex r = {cos(angle), sin(angle)};
  return r;
}

/* Splits n into radices 4, 2, 3, 5 and 7; 0 when another prime remains. */
static int factorize(cuemu_fft_engine *e, size_t n) {
  static const int radices[] = {4, 2, 3, 5, 7};
  e->nfactors = 0;
  for (int r = 0; r < 5; ++r)
    while (n % (size_t)radices[r] == 0 && e->nfactors < MAX_FACTORS) {
      e->factor[e->nfactors++] = radices[r];
      n /= (size_t)radices[r];
    }
  return n == 1;
}

cuemu_fft_engine *cuemu__fft_engine_create(size_t n) {
  cuemu_fft_engine *e = calloc(1, sizeof *e);
  if (!e || n == 0) {
    free(e);
    return NULL;
  }
  e->n = n;
  if (factorize(e, n)) {
    e->twiddle = malloc(n * sizeof *e->twiddle);
    if (!e->twiddle) {
      free(e);
      return NULL;
    }
    for (size_t k = 0; k < n; ++k)
      e->twiddle[k] = root(k, n);
    return e;
  }
  e->m = 1;
  while (e->m < 2 * n - 1)
    e->m *= 2;
  e->inner = cuemu__fft_engine_create(e->m);
  e->chirp = malloc(n * sizeof *e->chirp);
  e->kernel = calloc(e->m, sizeof *e->kernel);
  cuemu_fft_complex *scratch =
      e->inner ? malloc(cuemu__fft_engine_scratch(e->inner) * sizeof *scratch)
               : NULL;
  if (!e->inner || !e->chirp || !e->kernel || !scratch) {
    free(scratch);
    cuemu__fft_engine_destroy(e);
    return NULL;
  }
  /* k^2 taken modulo 2n keeps the chirp's angles small and exact. */
  for (size_t k = 0; k < n; ++k) {
    unsigned long long k2 = (unsigned long long)k * k % (2ULL * n);
    e->chirp[k] = root(k2, 2ULL * n);
    cuemu_fft_complex c = {e->chirp[k].re, -e->chirp[k].im};
    e->kernel[k] = c;
    if (k > 0)
      e->kernel[e->m - k] = c;
  }
  cuemu__fft_engine_run(e->inner, e->kernel, CUFFT_FORWARD, scratch);
  free(scratch);
  return e;
}

void cuemu__fft_engine_destroy(cuemu_fft_engine *e) {
  if (!e)
    return;
  cuemu__fft_engine_destroy(e->inner);
  free(e->twiddle);
  free(e->chirp);
  free(e->kernel);
  free(e);
}

size_t cuemu__fft_engine_scratch(const cuemu_fft_engine *e) {
  if (!e->inner)
    return e->n;
  /* The padded sequence, then the inner engine's own scratch. */
  return e->m + cuemu__fft_engine_scratch(e->inner);
}

/* One radix-p pass of Stockham's algorithm over sub-transforms of length
 * len = p * m, s of them interleaved: from a to b. */
static void pass(const cuemu_fft_engine *e, int p, size_t len, size_t s,
                 const cuemu_fft_complex *a, cuemu_fft_complex *b) {
  size_t m = len / (size_t)p, n = e->n, step = n / len, unit = n / (size_t)p;
  const cuemu_fft_complex *w = e->twiddle;
  for (size_t j = 0; j < m; ++j) {
    /* The twiddles of this j, exp(-2 pi i j t / len), for every q. */
    cuemu_fft_complex tw[7];
    for (int t = 0; t < p; ++t)
      tw[t] = w[j * (size_t)t * step];
    const cuemu_fft_complex *from = a + s * j;
    cuemu_fft_complex *to = b + s * (size_t)p * j;
    if (p == 4) {
      const cuemu_fft_complex *a0 = from, *a1 = from + s * m,
                              *a2 = from + 2 * s * m, *a3 = from + 3 * s * m;
      for (size_t q = 0; q < s; ++q) {
        double s0r = a0[q].re + a2[q].re, s0i = a0[q].im + a2[q].im;
        double d0r = a0[q].re - a2[q].re, d0i = a0[q].im - a2[q].im;
        double s1r = a1[q].re + a3[q].re, s1i = a1[q].im + a3[q].im;
        double d1r = a1[q].re - a3[q].re, d1i = a1[q].im - a3[q].im;
        /* exp(-2 pi i / 4) = -i */
        cuemu_fft_complex o1 = {d0r + d1i, d0i - d1r};
        cuemu_fft_complex o2 = {s0r - s1r, s0i - s1i};
        cuemu_fft_complex o3 = {d0r - d1i, d0i + d1r};
        to[q].re = s0r + s1r, to[q].im = s0i + s1i;
        to[q + s] = cmul(o1, tw[1]);
        to[q + 2 * s] = cmul(o2, tw[2]);
        to[q + 3 * s] = cmul(o3, tw[3]);
      }
      continue;
    }
    if (p == 2) {
      const cuemu_fft_complex *a0 = from, *a1 = from + s * m;
      for (size_t q = 0; q < s; ++q) {
        cuemu_fft_complex d = {a0[q].re - a1[q].re, a0[q].im - a1[q].im};
        to[q].re = a0[q].re + a1[q].re, to[q].im = a0[q].im + a1[q].im;
        to[q + s] = cmul(d, tw[1]);
      }
      continue;
    }
    for (size_t q = 0; q < s; ++q) {
      cuemu_fft_complex in[7];
      for (int k = 0; k < p; ++k)
        in[k] = from[q + s * (size_t)k * m];
      for (int t = 0; t < p; ++t) {
        cuemu_fft_complex sum = in[0];
        for (int k = 1; k < p; ++k) {
          cuemu_fft_complex v = cmul(in[k], w[(size_t)(t * k % p) * unit]);
          sum.re += v.re, sum.im += v.im;
        }
        to[q + s * (size_t)t] = t == 0 ? sum : cmul(sum, tw[t]);
      }
    }
  }
}

static void forward(const cuemu_fft_engine *e, cuemu_fft_complex *x,
                    cuemu_fft_complex *scratch) {
  size_t n = e->n;
  if (!e->inner) {
    cuemu_fft_complex *a = x, *b = scratch;
    size_t len = n, s = 1;
    for (int f = 0; f < e->nfactors; ++f) {
      pass(e, e->factor[f], len, s, a, b);
      cuemu_fft_complex *t = a;
      a = b, b = t;
      len /= (size_t)e->factor[f];
      s *= (size_t)e->factor[f];
    }
    if (a != x)
      memcpy(x, a, n * sizeof *x);
    return;
  }
  /* Bluestein: X[k] = c[k] sum_j (x[j] c[j]) conj(c[k - j]). */
  size_t m = e->m;
  cuemu_fft_complex *y = scratch, *rest = scratch + m;
  for (size_t k = 0; k < n; ++k)
    y[k] = cmul(x[k], e->chirp[k]);
  memset(y + n, 0, (m - n) * sizeof *y);
  cuemu__fft_engine_run(e->inner, y, CUFFT_FORWARD, rest);
  for (size_t k = 0; k < m; ++k)
    y[k] = cmul(y[k], e->kernel[k]);
  cuemu__fft_engine_run(e->inner, y, CUFFT_INVERSE, rest);
  for (size_t k = 0; k < n; ++k) {
    cuemu_fft_complex v = cmul(y[k], e->chirp[k]);
    x[k].re = v.re / (double)m, x[k].im = v.im / (double)m;
  }
}

void cuemu__fft_engine_run(const cuemu_fft_engine *e, cuemu_fft_complex *x,
                           int sign, cuemu_fft_complex *scratch) {
  if (sign < 0) {
    forward(e, x, scratch);
    return;
  }
  for (size_t k = 0; k < e->n; ++k)
    x[k].im = -x[k].im;
  forward(e, x, scratch);
  for (size_t k = 0; k < e->n; ++k)
    x[k].im = -x[k].im;
}
