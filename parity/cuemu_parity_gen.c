/*
 * cuemu_parity_gen.c: the seeded generators that fill parity inputs. Each
 * array draws from its own stream (splitmix64 seeded by the case's seed and
 * the argument's position), so every leg and every run sees the same values
 * whatever the order of the arguments' generation.
 */
#include <math.h>
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
      cuemu__pfield_set(&type->fields[f], p + i * type->size, v);
    }
  }
  free(perm);
}
