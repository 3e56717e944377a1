/*
 * cuemu_rand_quasi.c: cuRAND's Sobol generators (CURAND_RNG_QUASI_SOBOL32,
 * SCRAMBLED_SOBOL32, SOBOL64, SCRAMBLED_SOBOL64) for the host API of
 * cuemu_rand.c, the host functions that hand their tables to the device
 * API (curandGetDirectionVectors32/64, curandGetScrambleConstants32/64),
 * and the inverse-CDF normal transform the quasirandom generators use.
 *
 * The direction vectors and scramble constants are NVIDIA's own, read at
 * run time from the CUDA toolkit's libcurand.so (cuemu_rand_toolkit.c):
 * cuemu carries no copy of them. Without the toolkit's library these
 * functions fail with CURAND_STATUS_INITIALIZATION_FAILED and a message.
 *
 * The sequence of one dimension is the device API's (curand_kernel.h):
 * point i is the scramble constant (0 unscrambled) XOR the direction
 * vectors of the set bits of i's Gray code, so that consecutive points
 * differ by the vector of the lowest zero bit of i. The host API lays n
 * results out dimension-major (docs/cublas.md): n / dims consecutive
 * points of dimension 0, then as many of dimension 1, and so on; the next
 * call continues every dimension where the last one stopped. This layout
 * was checked against the toolkit's own host generator
 * (tests/programs/cudalibs/curand_quasi.cu).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuemu_rand.h"

/* The Joe-Kuo tables of cuRAND have this many dimensions. */
#define SOBOL_MAX_DIMS 20000

/* The sets of direction vectors (curandDirectionVectorSet_t). */
enum { VECTORS_32 = 101, SCRAMBLED_VECTORS_32 = 102, VECTORS_64 = 103,
       SCRAMBLED_VECTORS_64 = 104 };

/* ---- The tables, from the toolkit's libcurand.so --------------------------- */

CUEMU_RAND_EXPORT curandStatus_t curandGetDirectionVectors32(void **vectors,
                                                             int set) {
  if (!vectors)
    return CURAND_STATUS_OUT_OF_RANGE;
  if (set != VECTORS_32 && set != SCRAMBLED_VECTORS_32)
    return CURAND_STATUS_OUT_OF_RANGE;
  return cuemu__rand_toolkit_table("curandGetDirectionVectors32", set,
                                   vectors);
}

CUEMU_RAND_EXPORT curandStatus_t curandGetDirectionVectors64(void **vectors,
                                                             int set) {
  if (!vectors)
    return CURAND_STATUS_OUT_OF_RANGE;
  if (set != VECTORS_64 && set != SCRAMBLED_VECTORS_64)
    return CURAND_STATUS_OUT_OF_RANGE;
  return cuemu__rand_toolkit_table("curandGetDirectionVectors64", set,
                                   vectors);
}

CUEMU_RAND_EXPORT curandStatus_t curandGetScrambleConstants32(void **constants) {
  if (!constants)
    return CURAND_STATUS_OUT_OF_RANGE;
  return cuemu__rand_toolkit_table("curandGetScrambleConstants32", -1,
                                   constants);
}

CUEMU_RAND_EXPORT curandStatus_t curandGetScrambleConstants64(void **constants) {
  if (!constants)
    return CURAND_STATUS_OUT_OF_RANGE;
  return cuemu__rand_toolkit_table("curandGetScrambleConstants64", -1,
                                   constants);
}

/* ---- The generator ------------------------------------------------------- */

struct cuemu_rand_sobol {
  int wide;      /* 64-bit points (SOBOL64, SCRAMBLED_SOBOL64) */
  int scrambled;
  unsigned dims;
  unsigned long long position; /* the next point of every dimension */
  const uint32_t *v32;         /* dims x 32 direction vectors */
  const uint64_t *v64;         /* dims x 64 */
  const uint32_t *c32;         /* scramble constants, one per dimension */
  const uint64_t *c64;
};

int cuemu__rand_is_quasi(int type) {
  return type >= RNG_QUASI_DEFAULT && type <= RNG_SCRAMBLED_SOBOL64;
}

int cuemu__rand_is_quasi64(int type) {
  return type == RNG_SOBOL64 || type == RNG_SCRAMBLED_SOBOL64;
}

curandStatus_t cuemu__rand_sobol_create(cuemu_rand_sobol **out, int type) {
  cuemu_rand_sobol *s = calloc(1, sizeof *s);
  if (!s)
    return CURAND_STATUS_ALLOCATION_FAILED;
  s->wide = cuemu__rand_is_quasi64(type);
  s->scrambled = type == RNG_SCRAMBLED_SOBOL32 || type == RNG_SCRAMBLED_SOBOL64;
  s->dims = 1;
  void *vectors = NULL, *constants = NULL;
  /* A scrambled generator uses the scrambled Joe-Kuo set and starts each
   * dimension at its scramble constant, as the device API's
   * curand_init(vectors, constant, offset) (checked against the toolkit's
   * host generator). */
  curandStatus_t status =
      s->wide ? curandGetDirectionVectors64(
                    &vectors, s->scrambled ? SCRAMBLED_VECTORS_64 : VECTORS_64)
              : curandGetDirectionVectors32(
                    &vectors, s->scrambled ? SCRAMBLED_VECTORS_32 : VECTORS_32);
  if (status == CURAND_STATUS_SUCCESS && s->scrambled)
    status = s->wide ? curandGetScrambleConstants64(&constants)
                     : curandGetScrambleConstants32(&constants);
  if (status != CURAND_STATUS_SUCCESS) {
    free(s);
    return status;
  }
  s->v32 = vectors, s->v64 = vectors;
  s->c32 = constants, s->c64 = constants;
  *out = s;
  return CURAND_STATUS_SUCCESS;
}

void cuemu__rand_sobol_destroy(cuemu_rand_sobol *s) { free(s); }

curandStatus_t cuemu__rand_sobol_set_dims(cuemu_rand_sobol *s, unsigned dims) {
  if (dims < 1 || dims > SOBOL_MAX_DIMS)
    return CURAND_STATUS_OUT_OF_RANGE;
  s->dims = dims;
  return CURAND_STATUS_SUCCESS;
}

unsigned cuemu__rand_sobol_dims(const cuemu_rand_sobol *s) { return s->dims; }

void cuemu__rand_sobol_seek(cuemu_rand_sobol *s, unsigned long long position) {
  s->position = position;
}

/* The lowest zero bit of i, as __curand_find_trailing_zero: the last
 * vector for an i of all ones. */
static int trailing_zero(uint64_t i, int bits) {
  if (~i == 0 || (bits == 32 && (uint32_t)~i == 0))
    return bits - 1;
  return __builtin_ctzll(~i);
}

/* n consecutive points from the current position, dimension-major, as
 * 64-bit values (a 32-bit generator's in the low half). */
void cuemu__rand_sobol_points(cuemu_rand_sobol *s, uint64_t *out, size_t n) {
  size_t per = n / s->dims;
  int bits = s->wide ? 64 : 32;
  for (unsigned d = 0; d < s->dims; ++d) {
    uint64_t x = 0, i = s->position;
    if (s->scrambled)
      x = s->wide ? s->c64[d] : s->c32[d];
    uint64_t gray = i ^ (i >> 1);
    for (int k = 0; k < bits; ++k)
      if (gray >> k & 1)
        x ^= s->wide ? s->v64[(size_t)d * 64 + k] : s->v32[(size_t)d * 32 + k];
    uint64_t *o = out + (size_t)d * per;
    for (size_t j = 0; j < per; ++j, ++i) {
      o[j] = x;
      int k = trailing_zero(bits == 32 ? (uint32_t)i : i, bits);
      x ^= s->wide ? s->v64[(size_t)d * 64 + k] : s->v32[(size_t)d * 32 + k];
    }
  }
  s->position += per;
}

/* ---- The inverse-CDF normal transform ----------------------------------- */

/* erfc^-1(y) for y in (0, 1]: an estimate from the logarithm of the tail,
 * then Halley steps on erfc(x) - y with the C library's erfc, which
 * converge to the double nearest the root (within an ulp). */
static double erfcinv_unit(double y) {
  if (y >= 1.0)
    return 0.0;
  double t = sqrt(-2.0 * log(y / 2.0));
  double x = 0.70711 * (t - (2.30753 + 0.27061 * t) /
                                (1.0 + (0.99229 + 0.04481 * t) * t));
  for (int step = 0; step < 6; ++step) {
    double f = erfc(x) - y;
    double df = -1.1283791670955126 * exp(-x * x); /* d erfc / dx */
    double dx = f / df;
    dx = dx / (1.0 + x * dx); /* Halley's correction (f'' = -2x f') */
    x -= dx;
    if (fabs(dx) <= 1e-17 * fabs(x))
      break;
  }
  return x;
}

/* _curand_normal_icdf (curand_normal_static.h): the point mirrored into
 * (0, 0.5] and mapped through erfcinvf, times CURAND_SQRT2, which is
 * -sqrt(2) (curand_globals.h): a small point gives a negative normal. */
float cuemu__rand_normal_icdf(uint64_t point, int wide) {
  uint32_t x = wide ? (uint32_t)(point >> 32) : (uint32_t)point;
  float s = -1.4142135f;
  if (x > 0x80000000u)
    x = 0xffffffffu - x, s = -s;
  float p = x * 2.3283064e-10f + (2.3283064e-10f / 2.0f);
  return s * (float)erfcinv_unit((double)(2.0f * p));
}

/* _curand_normal_icdf_double: 32 bits, or the top 53 of 64. */
double cuemu__rand_normal_icdf_double(uint64_t point, int wide) {
  double s = -1.4142135623730951, p;
  if (wide) {
    uint64_t x = point >> 11;
    if (x > 0x10000000000000ull)
      x = 0x1fffffffffffffull - x, s = -s;
    p = x * 1.1102230246251565e-16 + (1.1102230246251565e-16 / 2.0);
  } else {
    uint32_t x = (uint32_t)point;
    if (x > 0x80000000u)
      x = 0xffffffffu - x, s = -s;
    p = x * 2.3283064365386963e-10 + (2.3283064365386963e-10 / 2.0);
  }
  return s * erfcinv_unit(2.0 * p);
}
