/*
 * cuemu_parity_gen.c: the seeded generators that fill parity inputs. Each
 * array draws from its own stream (splitmix64 seeded by the case's seed and
 * the argument's position), so every leg and every run sees the same values
 * whatever the order of the arguments' generation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_parity_internal.h"

static uint64_t next(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* A double in [0, 1). */
static double unit(uint64_t *state) {
  return (double)(next(state) >> 11) * 0x1.0p-53;
}

/* An integer in [0, n), without modulo bias. */
static uint64_t below(uint64_t *state, uint64_t n) {
  uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t x;
  do
    x = next(state);
  while (x >= limit);
  return x % n;
}

/* Steps a floating-point field down, one representable value at a time,
 * until it is below hi (and not below lo). */
static void below_hi(const cuemu__pfield *f, unsigned char *elem, double lo,
                     double hi) {
  if (f->kind != CUEMU__PS_FLOAT && f->kind != CUEMU__PS_HALF &&
      f->kind != CUEMU__PS_BF16)
    return;
  for (int i = 0; i < 4 && cuemu__pfield_get(f, elem) >= hi; ++i) {
    uint64_t bits = 0, sign = (uint64_t)1 << (f->size * 8 - 1);
    memcpy(&bits, elem + f->offset, f->size);
    if (bits & sign)
      bits++;            /* more negative */
    else if (bits == 0)
      bits = sign | 1;   /* below +0 */
    else
      bits--;
    memcpy(elem + f->offset, &bits, f->size);
  }
  if (cuemu__pfield_get(f, elem) < lo)
    cuemu__pfield_set(f, elem, lo);
}

int cuemu__parity_generator_check(const cuemu_parity_generator *g, char *why,
                                  size_t size) {
  int ranged = g->kind == CUEMU_PARITY_UNIFORM || g->kind == CUEMU_PARITY_NORMAL ||
               g->kind == CUEMU_PARITY_INTEGERS || g->kind == CUEMU_PARITY_ARANGE;
  if (ranged && (!isfinite(g->a) || !isfinite(g->b))) {
    snprintf(why, size, "the generator's numbers must be finite");
    return -1;
  }
  switch (g->kind) {
  case CUEMU_PARITY_UNIFORM:
    if (!(g->a < g->b)) {
      snprintf(why, size, "the range [%g, %g) is empty", g->a, g->b);
      return -1;
    }
    return 0;
  case CUEMU_PARITY_INTEGERS:
    if (g->a != floor(g->a) || g->b != floor(g->b) || !(g->a < g->b) ||
        g->b - g->a > 4611686018427387904.0) {
      snprintf(why, size,
               "integers takes whole bounds [lo, hi) with lo < hi, at most "
               "2^62 apart, not [%g, %g)",
               g->a, g->b);
      return -1;
    }
    return 0;
  case CUEMU_PARITY_NORMAL:
    if (g->b < 0) {
      snprintf(why, size, "the standard deviation is negative");
      return -1;
    }
    return 0;
  case CUEMU_PARITY_VALUES:
    if (!g->values || !g->nvalues) {
      snprintf(why, size, "values needs at least one value");
      return -1;
    }
    return 0;
  case CUEMU_PARITY_CONSTANT:
  case CUEMU_PARITY_ARANGE:
  case CUEMU_PARITY_PERMUTATION:
    return 0;
  }
  snprintf(why, size, "unknown generator kind %d", (int)g->kind);
  return -1;
}

void cuemu__parity_generate(const cuemu_parity_generator *gen,
                            const cuemu__ptype *type, void *out, size_t count,
                            uint64_t seed, uint64_t stream) {
  uint64_t state = seed * 0x2545f4914f6cdd1dull + (stream + 1) * 0x9e3779b97f4a7c15ull;
  unsigned char *p = out;
  size_t nf = (size_t)type->nfields;
  /* A permutation shuffles 0 .. count-1 first, then writes it out. */
  uint64_t *perm = NULL;
  if (gen->kind == CUEMU_PARITY_PERMUTATION) {
    perm = malloc((count ? count : 1) * sizeof *perm);
    if (!perm)
      return;
    for (size_t i = 0; i < count; ++i)
      perm[i] = i;
    for (size_t i = count; i > 1; --i) {
      size_t j = (size_t)below(&state, i);
      uint64_t t = perm[i - 1];
      perm[i - 1] = perm[j];
      perm[j] = t;
    }
  }
  double spare = 0;
  int have_spare = 0;
  for (size_t i = 0; i < count; ++i) {
    for (size_t f = 0; f < nf; ++f) {
      double v = 0;
      size_t k = i * nf + f; /* the scalar's position in the array */
      switch (gen->kind) {
      case CUEMU_PARITY_UNIFORM:
        v = gen->a + (gen->b - gen->a) * unit(&state);
        break;
      case CUEMU_PARITY_NORMAL:
        /* Box-Muller, two values per pair of draws. */
        if (have_spare) {
          v = spare;
          have_spare = 0;
        } else {
          double u1 = unit(&state), u2 = unit(&state);
          double r = sqrt(-2.0 * log(1.0 - u1));
          v = r * cos(2 * M_PI * u2);
          spare = r * sin(2 * M_PI * u2);
          have_spare = 1;
        }
        v = gen->a + gen->b * v;
        break;
      case CUEMU_PARITY_INTEGERS:
        v = gen->a + (double)below(&state, (uint64_t)(gen->b - gen->a));
        break;
      case CUEMU_PARITY_CONSTANT:
        v = gen->a;
        break;
      case CUEMU_PARITY_ARANGE:
        v = gen->a + (double)k * gen->b;
        break;
      case CUEMU_PARITY_PERMUTATION:
        v = (double)perm[i];
        break;
      case CUEMU_PARITY_VALUES:
        v = gen->nvalues ? gen->values[k % gen->nvalues] : 0;
        break;
      }
      unsigned char *elem = p + i * type->size;
      cuemu__pfield_set(&type->fields[f], elem, v);
      /* Rounding to a narrow type may reach hi; uniform stays below it. */
      if (gen->kind == CUEMU_PARITY_UNIFORM)
        below_hi(&type->fields[f], elem, gen->a, gen->b);
    }
  }
  free(perm);
}
