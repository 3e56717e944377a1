/*
 * check_atomics.c: atomics are exact under parallel workers. 512 blocks of
 * 256 threads run on two workers; every result below is independent of the
 * order of the operations, so any lost update or torn value shows.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu.h>

#include "check_suites.h"
#include "cuemu_test_util.h"

#define BLOCKS 512u
#define THREADS 256u
#define N (BLOCKS * THREADS)

/* mix() of tests/kernels/atomics_counts.cu. */
static unsigned mix(unsigned gid) {
  unsigned x = gid * 2654435761u + 0x9e3779b9u;
  x ^= x >> 15;
  x *= 2246822519u;
  x ^= x >> 13;
  return x;
}

static cuemu_module *module;

static void setup(void) {
  test_setenv("CUEMU_WORKERS", "2");
  module = test_module("atomics_counts.cu");
}

static void teardown(void) {
  cuemu_module_unload(module);
  module = NULL;
}

static void run(const char *name, unsigned blocks, unsigned threads,
                void **args, int nargs) {
  cuemu_kernel *k = test_kernel(module, name);
  cuemu_status st = test_launch1(k, blocks, threads, args, nargs);
  if (st != CUEMU_SUCCESS)
    ck_abort_msg("launch of %s failed: %s: %s", name, cuemu_status_name(st),
                 cuemu_last_message());
}

/* Checks that values[0..n) together with `extra` (n + 1 values) are each of
 * `first`, first + 1, ..., first + n exactly once. */
static void check_permutation(const char *what, const long long *values,
                              size_t n, long long extra, long long first) {
  unsigned char *seen = calloc(n + 1, 1);
  ck_assert_ptr_nonnull(seen);
  for (size_t i = 0; i <= n; ++i) {
    long long v = i < n ? values[i] : extra;
    long long at = v - first;
    ck_assert_msg(at >= 0 && at <= (long long)n,
                  "%s: value %lld out of range", what, v);
    ck_assert_msg(!seen[at], "%s: value %lld seen twice", what, v);
    seen[at] = 1;
  }
  free(seen);
}

START_TEST(add_counts_are_exact) {
  int i = 0;
  unsigned u = 7;
  unsigned long long ull = 0;
  float f[2] = {0.0f, 0.0f};
  double d[2] = {0.0, 0.0};
  int *olds = malloc(N * sizeof *olds);
  ck_assert_ptr_nonnull(olds);
  int *pi = &i, *po = olds;
  unsigned *pu = &u;
  unsigned long long *pull = &ull;
  float *pf = f;
  double *pd = d;
  void *args[] = {&pi, &pu, &pull, &pf, &pd, &po};
  run("atomic_adds", BLOCKS, THREADS, args, 6);
  ck_assert_int_eq(i, (int)N);
  ck_assert_uint_eq(u, 7u + 3u * N);
  ck_assert_uint_eq(ull, (unsigned long long)N * ((1ull << 32) + 1ull));
  ck_assert_msg(f[0] == (float)N, "float count %.1f, expected %u",
                (double)f[0], N);
  ck_assert_msg(f[1] == (float)(N / 4u * 6u), "float sum %.1f, expected %u",
                (double)f[1], N / 4u * 6u);
  ck_assert_msg(d[0] == 0.5 * N, "double count %.1f", d[0]);
  ck_assert_msg(d[1] == (double)N * (N - 1) / 2.0, "double sum %.1f", d[1]);
  /* The old values returned are 0..N-1, each once. */
  long long *wide = malloc(N * sizeof *wide);
  ck_assert_ptr_nonnull(wide);
  for (unsigned k = 0; k < N; ++k)
    wide[k] = olds[k];
  check_permutation("atomicAdd old values", wide, N, (long long)N, 0);
  free(wide);
  free(olds);
}
END_TEST

START_TEST(sub_counts_are_exact) {
  int i = 3 * (int)N + 11;
  unsigned u = 5; /* wraps below zero, modulo 2^32 */
  int *pi = &i;
  unsigned *pu = &u;
  void *args[] = {&pi, &pu};
  run("atomic_subs", BLOCKS, THREADS, args, 2);
  ck_assert_int_eq(i, 11);
  ck_assert_uint_eq(u, 5u - 2u * N);
}
END_TEST

START_TEST(exchanges_form_a_permutation) {
  int slot = -1;
  float fslot = -1.0f;
  unsigned long long uslot = 1ull << 50;
  int *olds = malloc(N * sizeof *olds);
  unsigned long long *uolds = malloc(N * sizeof *uolds);
  long long *wide = malloc(N * sizeof *wide);
  ck_assert(olds && uolds && wide);
  int *ps = &slot, *po = olds;
  float *pf = &fslot;
  unsigned long long *pus = &uslot, *puo = uolds;
  void *args[] = {&ps, &po, &pf, &pus, &puo};
  run("atomic_exchanges", BLOCKS, THREADS, args, 5);
  for (unsigned k = 0; k < N; ++k)
    wide[k] = olds[k];
  check_permutation("atomicExch(int) old values", wide, N, slot, -1);
  /* uslot held 1 << 50, then gid << 20 for each thread. */
  for (unsigned k = 0; k < N; ++k) {
    ck_assert_msg(uolds[k] == 1ull << 50 || uolds[k] % (1ull << 20) == 0,
                  "atomicExch(ull): torn value %llx", uolds[k]);
    wide[k] = uolds[k] == 1ull << 50 ? -1 : (long long)(uolds[k] >> 20);
  }
  ck_assert_uint_eq(uslot % (1ull << 20), 0);
  check_permutation("atomicExch(ull) old values", wide, N,
                    (long long)(uslot >> 20), -1);
  ck_assert_msg(fslot >= 0.0f && fslot < (float)N &&
                    fslot == (float)(unsigned)fslot,
                "atomicExch(float) left %g", (double)fslot);
  free(olds);
  free(uolds);
  free(wide);
}
END_TEST

START_TEST(min_max_are_exact) {
  int imin = INT_MAX, imax = INT_MIN;
  unsigned umin = UINT_MAX, umax = 0;
  long long llmin = LLONG_MAX, llmax = LLONG_MIN;
  unsigned long long ullmin = ULLONG_MAX, ullmax = 0;
  int ei_min = INT_MAX, ei_max = INT_MIN;
  unsigned eu_min = UINT_MAX, eu_max = 0;
  for (unsigned g = 0; g < N; ++g) {
    unsigned v = mix(g);
    if ((int)v < ei_min)
      ei_min = (int)v;
    if ((int)v > ei_max)
      ei_max = (int)v;
    if (v < eu_min)
      eu_min = v;
    if (v > eu_max)
      eu_max = v;
  }
  int *a = &imin, *b = &imax;
  unsigned *c = &umin, *d = &umax;
  long long *e = &llmin, *f = &llmax;
  unsigned long long *g = &ullmin, *h = &ullmax;
  void *args[] = {&a, &b, &c, &d, &e, &f, &g, &h};
  run("atomic_min_max", BLOCKS, THREADS, args, 8);
  ck_assert_int_eq(imin, ei_min);
  ck_assert_int_eq(imax, ei_max);
  ck_assert_uint_eq(umin, eu_min);
  ck_assert_uint_eq(umax, eu_max);
  ck_assert_int_eq(llmin, (long long)ei_min * 1000);
  ck_assert_int_eq(llmax, (long long)ei_max * 1000);
  ck_assert_uint_eq(ullmin, (unsigned long long)eu_min << 24);
  ck_assert_uint_eq(ullmax, (unsigned long long)eu_max << 24);
}
END_TEST

START_TEST(inc_dec_wrap_around) {
  unsigned limit = 999; /* counts modulo 1000 */
  unsigned inc = 0, dec = 0;
  unsigned *olds = malloc(N * sizeof *olds);
  unsigned *hist = calloc(limit + 1, sizeof *hist);
  ck_assert(olds && hist);
  unsigned *pi = &inc, *pd = &dec, *po = olds;
  void *args[] = {&pi, &pd, &limit, &po};
  run("atomic_inc_dec", BLOCKS, THREADS, args, 4);
  ck_assert_uint_eq(inc, N % (limit + 1));
  ck_assert_uint_eq(dec, (limit + 1 - N % (limit + 1)) % (limit + 1));
  for (unsigned k = 0; k < N; ++k) {
    ck_assert_uint_le(olds[k], limit);
    hist[olds[k]]++;
  }
  /* Each value 0..limit was returned N / (limit + 1) times, one more for
   * the first N % (limit + 1) values. */
  for (unsigned v = 0; v <= limit; ++v)
    ck_assert_msg(hist[v] == N / (limit + 1) + (v < N % (limit + 1)),
                  "atomicInc returned %u %u times", v, hist[v]);

  /* From a value above the limit, atomicInc goes to 0 and atomicDec to the
   * limit. */
  inc = 5000;
  dec = 5000;
  run("atomic_inc_dec", 1, 1, args, 4);
  ck_assert_uint_eq(olds[0], 5000);
  ck_assert_uint_eq(inc, 0);
  ck_assert_uint_eq(dec, limit);
  free(olds);
  free(hist);
}
END_TEST

START_TEST(cas_spin_lock) {
  int lock = 0;
  unsigned counter = 0, inside = 0;
  int *pl = &lock;
  unsigned *pc = &counter, *pin = &inside;
  void *args[] = {&pl, &pc, &pin};
  run("spin_lock_counter", BLOCKS, THREADS, args, 3);
  ck_assert_uint_eq(counter, N);
  ck_assert_int_eq(lock, 0);
  ck_assert_uint_eq(inside, 0);
}
END_TEST

START_TEST(bit_patterns) {
  unsigned and_w = 0xffffffffu, or_w = 0x80000000u, xor_w = 0x12345678u;
  unsigned long long and_ll = ~0ull, or_ll = 1ull << 63, xor_ll = 42;
  int or_i = 0;
  unsigned e_and = and_w, e_or = or_w, e_xor = xor_w;
  unsigned long long e_and_ll = and_ll, e_or_ll = or_ll, e_xor_ll = xor_ll;
  int e_or_i = 0;
  for (unsigned g = 0; g < N; ++g) {
    unsigned v = mix(g);
    unsigned long long wide = ((unsigned long long)mix(g + 77u) << 32) | v;
    e_and &= v | 0x0ff00000u;
    e_or |= v & 0x0000ff0fu;
    e_xor ^= v;
    e_and_ll &= wide | 0xf0000000000000f0ull;
    e_or_ll |= wide & 0x000000ffff0000ffull;
    e_xor_ll ^= wide;
    e_or_i |= (int)(1u << (g % 31u));
  }
  unsigned *a = &and_w, *b = &or_w, *c = &xor_w;
  unsigned long long *d = &and_ll, *e = &or_ll, *f = &xor_ll;
  int *g = &or_i;
  void *args[] = {&a, &b, &c, &d, &e, &f, &g};
  run("atomic_bits", BLOCKS, THREADS, args, 7);
  ck_assert_uint_eq(and_w, e_and);
  ck_assert_uint_eq(or_w, e_or);
  ck_assert_uint_eq(xor_w, e_xor);
  ck_assert_uint_eq(and_ll, e_and_ll);
  ck_assert_uint_eq(or_ll, e_or_ll);
  ck_assert_uint_eq(xor_ll, e_xor_ll);
  ck_assert_int_eq(or_i, e_or_i);
  ck_assert_int_eq(or_i, 0x7fffffff);
}
END_TEST

START_TEST(block_and_system_scopes) {
  unsigned *block_counts = calloc(BLOCKS, sizeof *block_counts);
  ck_assert_ptr_nonnull(block_counts);
  unsigned system_count = 0;
  int system_max = -5, cas_count = 0;
  unsigned words[12] = {0, 0, 0, 0xffffffffu, 0, N + 5, 100, 0, 0xff, 0, 0,
                        UINT_MAX};
  unsigned *pb = block_counts, *ps = &system_count, *pw = words;
  int *pm = &system_max, *pc = &cas_count;
  void *args[] = {&pb, &ps, &pm, &pc, &pw};
  run("atomic_scopes", BLOCKS, THREADS, args, 5);
  for (unsigned b = 0; b < BLOCKS; ++b)
    ck_assert_msg(block_counts[b] == THREADS,
                  "block %u counted %u threads in shared memory", b,
                  block_counts[b]);
  ck_assert_uint_eq(system_count, 2u * N);
  ck_assert_int_eq(system_max, (int)N - 1);
  ck_assert_int_eq(cas_count, 2 * (int)N);
  unsigned e_xor = 0;
  for (unsigned g = 0; g < N; ++g)
    e_xor ^= mix(g);
  ck_assert_uint_eq(words[0], 1u);
  ck_assert_uint_eq(words[1], 2u);
  ck_assert_uint_eq(words[2], e_xor);
  ck_assert_uint_eq(words[3], 0u); /* 512 blocks clear all 32 bits */
  ck_assert_uint_eq(words[4], N);
  ck_assert_uint_eq(words[5], 5u);
  ck_assert_uint_eq(words[6], 7u);
  ck_assert_uint_eq(words[7], 9u);
  ck_assert_uint_eq(words[8], 0xf0u);
  ck_assert_uint_eq(words[9], 0xffffffffu);
  ck_assert_uint_eq(words[10], N % 2u);
  ck_assert_uint_eq(words[11], 3u);
  free(block_counts);
}
END_TEST

Suite *make_atomics_suite(void) {
  Suite *s = suite_create("atomics");
  TCase *tc = test_tcase(s, "exact", 60);
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, add_counts_are_exact);
  tcase_add_test(tc, sub_counts_are_exact);
  tcase_add_test(tc, exchanges_form_a_permutation);
  tcase_add_test(tc, min_max_are_exact);
  tcase_add_test(tc, inc_dec_wrap_around);
  tcase_add_test(tc, cas_spin_lock);
  tcase_add_test(tc, bit_patterns);
  tcase_add_test(tc, block_and_system_scopes);
  return s;
}
