/*
 * cuemu_rand_pseudo.c: the states of the pseudorandom generators XORWOW,
 * MRG32k3a and Philox4_32_10 (the device API's curand_init and curand of
 * curand_kernel.h), and the skip-ahead that lays them out as NVIDIA's host
 * API does: many threads, thread t on subsequence t (docs/cublas.md). The
 * jumps are computed here from the generators' recurrences (matrices over
 * GF(2) for XORWOW, modulo m1 and m2 for MRG32k3a), not read from the
 * toolkit's precalculated tables.
 */
#include <string.h>

#include "cuemu_rand.h"

#define MRG_M1 4294967087u
#define MRG_M2 4294944443u

/* ---- One state, as curand_kernel.h's curand() draws -------------------- */

uint32_t cuemu__rand_xorwow_next(cuemu_rand_state *s) {
  uint32_t t = s->v[0] ^ (s->v[0] >> 2);
  s->v[0] = s->v[1];
  s->v[1] = s->v[2];
  s->v[2] = s->v[3];
  s->v[3] = s->v[4];
  s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
  s->d += 362437;
  return s->v[4] + s->d;
}

void cuemu__rand_philox_block(const uint32_t ctr_in[4],
                              const uint32_t key_in[2], uint32_t out[4]) {
  uint32_t c[4] = {ctr_in[0], ctr_in[1], ctr_in[2], ctr_in[3]};
  uint32_t k0 = key_in[0], k1 = key_in[1];
  for (int r = 0; r < 10; ++r) {
    uint64_t p0 = (uint64_t)0xD2511F53u * c[0],
             p1 = (uint64_t)0xCD9E8D57u * c[2];
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0, n1 = (uint32_t)p1;
    uint32_t n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1, n3 = (uint32_t)p0;
    c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
    k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
  }
  memcpy(out, c, sizeof c);
}

uint32_t cuemu__rand_philox_next(cuemu_rand_state *s) {
  uint32_t r = s->out[s->index++];
  if (s->index == 4) {
    for (int i = 0; i < 4 && ++s->ctr[i] == 0; ++i)
      ;
    cuemu__rand_philox_block(s->ctr, s->key, s->out);
    s->index = 0;
  }
  return r;
}

uint64_t cuemu__rand_mrg_next(cuemu_rand_state *s) {
  uint64_t p1 = (1403580u * s->s1[1] +
                 (uint64_t)810728u * (MRG_M1 - s->s1[0])) % MRG_M1;
  s->s1[0] = s->s1[1], s->s1[1] = s->s1[2], s->s1[2] = p1;
  uint64_t p2 = (527612u * s->s2[2] +
                 (uint64_t)1370589u * (MRG_M2 - s->s2[0])) % MRG_M2;
  s->s2[0] = s->s2[1], s->s2[1] = s->s2[2], s->s2[2] = p2;
  return p1 > p2 ? p1 - p2 : p1 - p2 + MRG_M1;
}

/* curand_init(seed, 0, 0). */
static void seed_state(int type, unsigned long long seed, cuemu_rand_state *s) {
  memset(s, 0, sizeof *s);
  if (type == RNG_PHILOX) {
    s->key[0] = (uint32_t)seed, s->key[1] = (uint32_t)(seed >> 32);
    cuemu__rand_philox_block(s->ctr, s->key, s->out);
  } else if (type == RNG_MRG32K3A) {
    for (int i = 0; i < 3; ++i)
      s->s1[i] = s->s2[i] = 12345u;
    if (seed != 0) {
      uint64_t x1 = (uint32_t)seed ^ 0x55555555u;
      uint64_t x2 = (uint32_t)((seed >> 32) ^ 0xAAAAAAAAu);
      s->s1[0] = x1 * s->s1[0] % MRG_M1, s->s1[1] = x2 * s->s1[1] % MRG_M1;
      s->s1[2] = x1 * s->s1[2] % MRG_M1, s->s2[0] = x2 * s->s2[0] % MRG_M2;
      s->s2[1] = x1 * s->s2[1] % MRG_M2, s->s2[2] = x2 * s->s2[2] % MRG_M2;
    }
  } else {
    uint32_t s0 = (uint32_t)seed ^ 0xaad26b49u;
    uint32_t s1 = (uint32_t)(seed >> 32) ^ 0xf7dcefddu;
    uint32_t t0 = 1099087573u * s0, t1 = 2591861531u * s1;
    s->d = 6615241u + t1 + t0;
    s->v[0] = 123456789u + t0;
    s->v[1] = 362436069u ^ t0;
    s->v[2] = 521288629u + t1;
    s->v[3] = 88675123u ^ t1;
    s->v[4] = 5783321u + t0;
  }
}

/* ---- XORWOW's jumps: 160x160 matrices over GF(2), by columns ---------- */

typedef struct {
  uint32_t column[160][5];
} xorwow_matrix;

static void xorwow_apply(const xorwow_matrix *m, const uint32_t in[5],
                         uint32_t out[5]) {
  uint32_t r[5] = {0};
  for (int j = 0; j < 160; ++j)
    if (in[j >> 5] >> (j & 31) & 1)
      for (int k = 0; k < 5; ++k)
        r[k] ^= m->column[j][k];
  memcpy(out, r, sizeof r);
}

/* c = a b (c may be a or b). */
static void xorwow_product(const xorwow_matrix *a, const xorwow_matrix *b,
                           xorwow_matrix *c) {
  xorwow_matrix r;
  for (int j = 0; j < 160; ++j)
    xorwow_apply(a, b->column[j], r.column[j]);
  *c = r;
}

/* The matrix of one draw of XORWOW's v[] (d is a counter, kept apart). */
static void xorwow_step_matrix(xorwow_matrix *m) {
  for (int j = 0; j < 160; ++j) {
    cuemu_rand_state s;
    memset(&s, 0, sizeof s);
    s.v[j >> 5] = 1u << (j & 31);
    cuemu__rand_xorwow_next(&s);
    memcpy(m->column[j], s.v, sizeof s.v);
  }
}

/* m = step^n. */
static void xorwow_power(xorwow_matrix *m, unsigned long long n) {
  xorwow_matrix square;
  memset(m, 0, sizeof *m);
  for (int j = 0; j < 160; ++j)
    m->column[j][j >> 5] = 1u << (j & 31);
  xorwow_step_matrix(&square);
  for (; n; n >>= 1) {
    if (n & 1)
      xorwow_product(&square, m, m);
    if (n > 1)
      xorwow_product(&square, &square, &square);
  }
}

/* ---- MRG32k3a's jumps: 3x3 matrices modulo m ---------------------------- */

typedef uint64_t mrg_matrix[3][3];

static void mrg_product(const mrg_matrix a, const mrg_matrix b, mrg_matrix c,
                        uint64_t m) {
  mrg_matrix r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      uint64_t s = 0;
      for (int k = 0; k < 3; ++k)
        s = (s + a[i][k] * b[k][j] % m) % m;
      r[i][j] = s;
    }
  memcpy(c, r, sizeof r);
}

static void mrg_apply(const mrg_matrix a, uint64_t v[3], uint64_t m) {
  uint64_t r[3];
  for (int i = 0; i < 3; ++i) {
    uint64_t s = 0;
    for (int k = 0; k < 3; ++k)
      s = (s + a[i][k] * v[k] % m) % m;
    r[i] = s;
  }
  memcpy(v, r, sizeof r);
}

/* The two components' matrices of n draws; n = 2^log2 when log2 >= 0. */
static void mrg_power(mrg_matrix a1, mrg_matrix a2, unsigned long long n,
                      int log2) {
  mrg_matrix s1 = {{0, 1, 0}, {0, 0, 1}, {MRG_M1 - 810728u, 1403580u, 0}};
  mrg_matrix s2 = {{0, 1, 0}, {0, 0, 1}, {MRG_M2 - 1370589u, 0, 527612u}};
  if (log2 >= 0) {
    for (int i = 0; i < log2; ++i) {
      mrg_product(s1, s1, s1, MRG_M1);
      mrg_product(s2, s2, s2, MRG_M2);
    }
    memcpy(a1, s1, sizeof s1);
    memcpy(a2, s2, sizeof s2);
    return;
  }
  mrg_matrix one = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  memcpy(a1, one, sizeof one);
  memcpy(a2, one, sizeof one);
  for (; n; n >>= 1) {
    if (n & 1) {
      mrg_product(s1, a1, a1, MRG_M1);
      mrg_product(s2, a2, a2, MRG_M2);
    }
    mrg_product(s1, s1, s1, MRG_M1);
    mrg_product(s2, s2, s2, MRG_M2);
  }
}

/* ---- The host API's layout ---------------------------------------------- */

unsigned cuemu__rand_pseudo_threads(int type, int ordering) {
  if (type == RNG_MRG32K3A)
    return ordering == ORDERING_PSEUDO_LEGACY ? 4096u : 81920u;
  return type == RNG_PHILOX ? 65536u : 4096u;
}

void cuemu__rand_pseudo_starts(int type, int ordering,
                               unsigned long long seed,
                               cuemu_rand_state *starts) {
  unsigned threads = cuemu__rand_pseudo_threads(type, ORDERING_PSEUDO_DEFAULT);
  cuemu_rand_state s;
  if (ordering == ORDERING_PSEUDO_SEEDED) {
    /* XORWOW's SEEDED ordering: thread t is curand_init(seed + 3133713 t,
     * 0, 0), no jump (found from NVIDIA's host generator's draws). */
    for (unsigned t = 0; t < threads; ++t)
      seed_state(type, seed + 3133713ull * t, &starts[t]);
    return;
  }
  seed_state(type, seed, &s);
  if (type == RNG_PHILOX) {
    /* A subsequence is the counter's upper half. */
    for (unsigned t = 0; t < threads; ++t) {
      starts[t] = s;
      starts[t].ctr[2] = t;
      cuemu__rand_philox_block(starts[t].ctr, starts[t].key, starts[t].out);
    }
  } else if (type == RNG_MRG32K3A) {
    /* Subsequences 2^76 draws apart. */
    mrg_matrix a1, a2;
    mrg_power(a1, a2, 0, 76);
    for (unsigned t = 0; t < threads; ++t) {
      starts[t] = s;
      mrg_apply(a1, s.s1, MRG_M1);
      mrg_apply(a2, s.s2, MRG_M2);
    }
  } else {
    /* Subsequences 2^67 draws apart; d moves by a multiple of 2^32. */
    xorwow_matrix jump;
    xorwow_step_matrix(&jump);
    for (int i = 0; i < 67; ++i)
      xorwow_product(&jump, &jump, &jump);
    for (unsigned t = 0; t < threads; ++t) {
      starts[t] = s;
      xorwow_apply(&jump, s.v, s.v);
    }
  }
}

void cuemu__rand_pseudo_skip(int type, cuemu_rand_state *states,
                             unsigned count, unsigned long long n,
                             unsigned first) {
  if (type == RNG_PHILOX) {
    /* Draws of whole blocks of four (n is a multiple of four). */
    for (unsigned t = 0; t < count; ++t) {
      unsigned long long k = n + (t < first ? 4 : 0);
      uint64_t lo = ((uint64_t)states[t].ctr[1] << 32 | states[t].ctr[0]) +
                    k / 4;
      states[t].ctr[0] = (uint32_t)lo, states[t].ctr[1] = (uint32_t)(lo >> 32);
      cuemu__rand_philox_block(states[t].ctr, states[t].key, states[t].out);
    }
  } else if (type == RNG_MRG32K3A) {
    mrg_matrix a1, a2;
    if (n) {
      mrg_power(a1, a2, n, -1);
      for (unsigned t = 0; t < count; ++t) {
        mrg_apply(a1, states[t].s1, MRG_M1);
        mrg_apply(a2, states[t].s2, MRG_M2);
      }
    }
    for (unsigned t = 0; t < first && t < count; ++t)
      cuemu__rand_mrg_next(&states[t]);
  } else {
    if (n) {
      xorwow_matrix m;
      xorwow_power(&m, n);
      for (unsigned t = 0; t < count; ++t) {
        xorwow_apply(&m, states[t].v, states[t].v);
        states[t].d += 362437u * (uint32_t)n;
      }
    }
    for (unsigned t = 0; t < first && t < count; ++t)
      cuemu__rand_xorwow_next(&states[t]);
  }
}
