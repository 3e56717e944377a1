/*
 * cuemu_rand.h: what the files of cuemu's cuRAND (libcuemu_curand.so,
 * emulator/libs/libs.am) share: cuRAND's ABI constants and the internal
 * functions of the Sobol generators (cuemu_rand_quasi.c), the toolkit's
 * tables (cuemu_rand_toolkit.c) and the Mersenne Twisters
 * (cuemu_rand_mt.c). Only the cuemu_rand*.c files include it.
 */
#ifndef CUEMU_RAND_H
#define CUEMU_RAND_H

#include <stddef.h>
#include <stdint.h>

#define CUEMU_RAND_EXPORT __attribute__((visibility("default")))

typedef enum {
  CURAND_STATUS_SUCCESS = 0,
  CURAND_STATUS_VERSION_MISMATCH = 100,
  CURAND_STATUS_NOT_INITIALIZED = 101,
  CURAND_STATUS_ALLOCATION_FAILED = 102,
  CURAND_STATUS_TYPE_ERROR = 103,
  CURAND_STATUS_OUT_OF_RANGE = 104,
  CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  CURAND_STATUS_LAUNCH_FAILURE = 201,
  CURAND_STATUS_PREEXISTING_FAILURE = 202,
  CURAND_STATUS_INITIALIZATION_FAILED = 203,
  CURAND_STATUS_ARCH_MISMATCH = 204,
  CURAND_STATUS_INTERNAL_ERROR = 999
} curandStatus_t;

/* curandRngType_t */
enum { RNG_TEST = 0, RNG_PSEUDO_DEFAULT = 100, RNG_XORWOW = 101,
       RNG_MRG32K3A = 121, RNG_MTGP32 = 141, RNG_MT19937 = 142,
       RNG_PHILOX = 161, RNG_QUASI_DEFAULT = 200, RNG_SOBOL32 = 201,
       RNG_SCRAMBLED_SOBOL32 = 202, RNG_SOBOL64 = 203,
       RNG_SCRAMBLED_SOBOL64 = 204 };
/* curandOrdering_t */
enum { ORDERING_PSEUDO_BEST = 100, ORDERING_PSEUDO_DEFAULT = 101,
       ORDERING_PSEUDO_SEEDED = 102, ORDERING_PSEUDO_LEGACY = 103,
       ORDERING_PSEUDO_DYNAMIC = 104, ORDERING_QUASI_DEFAULT = 201 };

/* Calls `function` of the toolkit's libcurand.so (a table getter: with
 * `set` when set >= 0) and stores the table's address in *out; a message
 * and CURAND_STATUS_INITIALIZATION_FAILED without the library. */
curandStatus_t cuemu__rand_toolkit_table(const char *function, int set,
                                         void **out);

/* The Sobol generators: the state of all dimensions of one generator. */
typedef struct cuemu_rand_sobol cuemu_rand_sobol;
int cuemu__rand_is_quasi(int type);
int cuemu__rand_is_quasi64(int type);
curandStatus_t cuemu__rand_sobol_create(cuemu_rand_sobol **out, int type);
void cuemu__rand_sobol_destroy(cuemu_rand_sobol *s);
curandStatus_t cuemu__rand_sobol_set_dims(cuemu_rand_sobol *s, unsigned dims);
unsigned cuemu__rand_sobol_dims(const cuemu_rand_sobol *s);
/* Sets the next point of every dimension (the generator's offset). */
void cuemu__rand_sobol_seek(cuemu_rand_sobol *s, unsigned long long position);
/* n points (a multiple of the dimensions), dimension-major. */
void cuemu__rand_sobol_points(cuemu_rand_sobol *s, uint64_t *out, size_t n);
/* _curand_normal_icdf and _curand_normal_icdf_double of a point. */
float cuemu__rand_normal_icdf(uint64_t point, int wide);
double cuemu__rand_normal_icdf_double(uint64_t point, int wide);

/* The Mersenne Twisters (MTGP32, MT19937) as streams of 32-bit draws in
 * the host generator's order. cuemu__rand_mt_create refuses MTGP32 with
 * CURAND_STATUS_TYPE_ERROR where the build had no parameter table. */
typedef struct cuemu_rand_mt cuemu_rand_mt;
/* Seeds the generator; the offset is ignored, as NVIDIA's generators of
 * these types ignore it. */
curandStatus_t cuemu__rand_mt_create(cuemu_rand_mt **out, int type);
void cuemu__rand_mt_destroy(cuemu_rand_mt *m);
void cuemu__rand_mt_reset(cuemu_rand_mt *m, unsigned long long seed,
                          unsigned long long offset);
uint32_t cuemu__rand_mt_next(cuemu_rand_mt *m);

/* One state of XORWOW (v, d), MRG32k3a (s1, s2) or Philox4_32_10 (ctr,
 * key, the block `out` and the next draw's index in it), as the device
 * API's curandState*_t hold them (cuemu_rand_pseudo.c). */
typedef struct {
  uint32_t v[5], d;
  uint64_t s1[3], s2[3];
  uint32_t ctr[4], key[2], out[4];
  int index;
  /* curand_normal's and curand_normal_double's second value of a pair,
   * kept for the next call (boxmuller_flag, boxmuller_extra). */
  int normal_kept, normal_double_kept;
  float normal_extra;
  double normal_double_extra;
} cuemu_rand_state;
uint32_t cuemu__rand_xorwow_next(cuemu_rand_state *s);
/* MRG32k3a's value in [1, m1] (curand_MRG32k3a). */
uint64_t cuemu__rand_mrg_next(cuemu_rand_state *s);
uint32_t cuemu__rand_philox_next(cuemu_rand_state *s);
void cuemu__rand_philox_block(const uint32_t ctr[4], const uint32_t key[2],
                              uint32_t out[4]);
/* The threads of NVIDIA's host API layout of a generator type and
 * ordering: 4096 (XORWOW), 81,920 (MRG32k3a; 4096 in the LEGACY ordering),
 * 65,536 (Philox4_32_10). */
unsigned cuemu__rand_pseudo_threads(int type, int ordering);
/* starts[t] = curand_init(seed, t, 0) for every thread t of the default
 * ordering (the most threads); in XORWOW's SEEDED ordering,
 * curand_init(seed + 3133713 t, 0, 0). */
void cuemu__rand_pseudo_starts(int type, int ordering,
                               unsigned long long seed,
                               cuemu_rand_state *starts);
/* Moves each of `count` states n draws on, and the first `first` of them
 * one more (for Philox, n is a multiple of 4 and the extra is 4 draws). */
void cuemu__rand_pseudo_skip(int type, cuemu_rand_state *states,
                             unsigned count, unsigned long long n,
                             unsigned first);

/* A Poisson distribution's square histogram (cuemu_rand_discrete.c):
 * value shift + j below V[j] in column j, shift + K[j] above. */
typedef struct {
  double lambda;
  unsigned shift, length;
  double *V;
  unsigned *K;
} cuemu_rand_poisson_table;
/* NVIDIA's table for lambda (its host generators' below lambda 2000):
 * every value whose mass is a positive double. */
curandStatus_t cuemu__rand_poisson_table(double lambda,
                                         cuemu_rand_poisson_table *t);
void cuemu__rand_poisson_table_free(cuemu_rand_poisson_table *t);

#endif /* CUEMU_RAND_H */
