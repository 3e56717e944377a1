/*
 * cuemu_rand_mt.c: cuRAND's Mersenne Twisters for the host API of
 * cuemu_rand.c, as streams of 32-bit draws:
 *
 * - MTGP32 (CURAND_RNG_PSEUDO_MTGP32): 192 states made as the device API's
 *   curandMakeMTGP32KernelState(states, mtgp32dc_params_fast_11213, ...,
 *   192, seed) makes them (curand_mtgp32_host.h), each advanced as one
 *   block of 256 threads calling curand() (curand_mtgp32_kernel.h). The
 *   stream is 256 draws of state 0, 256 of state 1, ... 256 of state 191,
 *   then the next 256 of state 0: the order of NVIDIA's own host
 *   generator, checked draw by draw (tests/programs/cudalibs/curand_mt.cu).
 *   The parameter table is the toolkit's curand_mtgp32dc_p_11213.h, found
 *   at build time (emulator/libs/libs.am); without it MTGP32 is refused.
 * - MT19937 (CURAND_RNG_PSEUDO_MT19937): Matsumoto and Nishimura's
 *   generator seeded by init_genrand with the low 32 bits of the seed, its
 *   draws in their order (docs/cublas.md: NVIDIA's first draw is this one,
 *   its later ones interleave subsequences this does not reproduce).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_rand.h"

#if defined(__has_include)
#if __has_include(<curand_mtgp32dc_p_11213.h>)
#include <curand_mtgp32dc_p_11213.h>
#define CUEMU_HAVE_MTGP32_PARAMS 1
#endif
#endif

/* ---- MTGP32 -------------------------------------------------------------- */

#define MTGP_STATES 192   /* the host generator's states (blocks), as NVIDIA's */
#define MTGP_THREADS 256  /* draws of one state per round (threads) */
#define MTGP_SIZE 1024    /* MTGP32_STATE_SIZE */
#define MTGP_N 351        /* MTGPDC_N: 11213 / 32 + 1 */

#ifdef CUEMU_HAVE_MTGP32_PARAMS
/* One state: the 1024-word ring of curandStateMtgp32_t and its offset. */
typedef struct {
  uint32_t s[MTGP_SIZE];
  unsigned offset;
} mtgp_state;

/* mtgp32_init_state (curand_mtgp32_host.h): the first words of the ring
 * from the seed and the parameter set's hidden seed. */
static void mtgp_init(mtgp_state *st, const mtgp32_params_fast_t *p,
                      uint32_t seed) {
  uint32_t hidden = p->tbl[4] ^ (p->tbl[8] << 16);
  uint32_t fill = hidden;
  fill += fill >> 16;
  fill += fill >> 8;
  memset(st->s, fill & 0xff, sizeof(uint32_t) * MTGP_N);
  st->s[0] = seed;
  st->s[1] = hidden;
  for (int i = 1; i < MTGP_N; ++i)
    st->s[i] ^= 1812433253u * (st->s[i - 1] ^ (st->s[i - 1] >> 30)) + i;
  st->offset = 0;
}

/* One round of a block of 256 threads on state `k` (the device API's
 * curand(): para_rec, then temper), in thread order: a thread writes
 * ahead of every word the round reads, so the order does not matter. */
static void mtgp_round(mtgp_state *st, const mtgp32_params_fast_t *p,
                       uint32_t mask, uint32_t *out) {
  for (unsigned t = 0; t < MTGP_THREADS; ++t) {
    unsigned o = st->offset + t;
    uint32_t x1 = st->s[o & (MTGP_SIZE - 1)];
    uint32_t x2 = st->s[(o + 1) & (MTGP_SIZE - 1)];
    uint32_t y = st->s[(o + p->pos) & (MTGP_SIZE - 1)];
    uint32_t x = (x1 & mask) ^ x2;
    x ^= x << p->sh1;
    y = x ^ (y >> p->sh2);
    uint32_t r = y ^ p->tbl[y & 0x0f];
    st->s[(o + MTGP_N) & (MTGP_SIZE - 1)] = r;
    uint32_t v = st->s[(o + p->pos - 1) & (MTGP_SIZE - 1)];
    v ^= v >> 16;
    v ^= v >> 8;
    out[t] = r ^ p->tmp_tbl[v & 0x0f];
  }
  st->offset = (st->offset + MTGP_THREADS) & (MTGP_SIZE - 1);
}
#endif

/* ---- MT19937 ------------------------------------------------------------- */

#define MT_N 624
#define MT_M 397

static void mt19937_init(uint32_t *s, uint32_t seed) {
  s[0] = seed;
  for (int i = 1; i < MT_N; ++i)
    s[i] = 1812433253u * (s[i - 1] ^ (s[i - 1] >> 30)) + (uint32_t)i;
}

/* The next 624 words of the state, tempered into `out`. */
static void mt19937_twist(uint32_t *s, uint32_t *out) {
  for (int i = 0; i < MT_N; ++i) {
    uint32_t y = (s[i] & 0x80000000u) | (s[(i + 1) % MT_N] & 0x7fffffffu);
    s[i] = s[(i + MT_M) % MT_N] ^ (y >> 1) ^ (y & 1 ? 0x9908b0dfu : 0);
  }
  for (int i = 0; i < MT_N; ++i) {
    uint32_t y = s[i];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    out[i] = y;
  }
}

/* ---- The stream ---------------------------------------------------------- */

struct cuemu_rand_mt {
  int type;
  uint32_t *buffer; /* the draws of one round */
  size_t size, next; /* its length, and the next draw in it */
#ifdef CUEMU_HAVE_MTGP32_PARAMS
  mtgp_state *mtgp; /* MTGP_STATES states */
#endif
  uint32_t mt[MT_N];
};

curandStatus_t cuemu__rand_mt_create(cuemu_rand_mt **out, int type) {
#ifndef CUEMU_HAVE_MTGP32_PARAMS
  if (type == RNG_MTGP32)
    return CURAND_STATUS_TYPE_ERROR;
#endif
  cuemu_rand_mt *m = calloc(1, sizeof *m);
  if (!m)
    return CURAND_STATUS_ALLOCATION_FAILED;
  m->type = type;
  m->size = type == RNG_MTGP32 ? (size_t)MTGP_STATES * MTGP_THREADS : MT_N;
  m->buffer = malloc(m->size * sizeof *m->buffer);
#ifdef CUEMU_HAVE_MTGP32_PARAMS
  if (type == RNG_MTGP32)
    m->mtgp = malloc(MTGP_STATES * sizeof *m->mtgp);
  if (type == RNG_MTGP32 && !m->mtgp) {
    free(m->buffer);
    m->buffer = NULL;
  }
#endif
  if (!m->buffer) {
    free(m);
    return CURAND_STATUS_ALLOCATION_FAILED;
  }
  *out = m;
  return CURAND_STATUS_SUCCESS;
}

void cuemu__rand_mt_destroy(cuemu_rand_mt *m) {
#ifdef CUEMU_HAVE_MTGP32_PARAMS
  free(m->mtgp);
#endif
  free(m->buffer);
  free(m);
}

/* The next round of draws into the buffer. */
static void refill(cuemu_rand_mt *m) {
#ifdef CUEMU_HAVE_MTGP32_PARAMS
  if (m->type == RNG_MTGP32) {
    for (int k = 0; k < MTGP_STATES; ++k)
      mtgp_round(&m->mtgp[k], &mtgp32dc_params_fast_11213[k],
                 mtgp32dc_params_fast_11213[0].mask,
                 m->buffer + (size_t)k * MTGP_THREADS);
    m->next = 0;
    return;
  }
#endif
  mt19937_twist(m->mt, m->buffer);
  m->next = 0;
}

void cuemu__rand_mt_reset(cuemu_rand_mt *m, unsigned long long seed,
                          unsigned long long offset) {
#ifdef CUEMU_HAVE_MTGP32_PARAMS
  if (m->type == RNG_MTGP32) {
    /* curandMakeMTGP32KernelState: the seed folded to 32 bits, state k
     * seeded with seed + k + 1. */
    uint32_t folded = (uint32_t)(seed ^ (seed >> 32));
    for (int k = 0; k < MTGP_STATES; ++k)
      mtgp_init(&m->mtgp[k], &mtgp32dc_params_fast_11213[k], folded + k + 1);
  }
#endif
  if (m->type == RNG_MT19937)
    mt19937_init(m->mt, (uint32_t)seed);
  /* NVIDIA's MTGP32 and MT19937 generators ignore the offset: the draws
   * after curandSetGeneratorOffset are those of offset 0 (checked against
   * its host generator). */
  (void)offset;
  refill(m);
}

uint32_t cuemu__rand_mt_next(cuemu_rand_mt *m) {
  if (m->next == m->size)
    refill(m);
  return m->buffer[m->next++];
}
