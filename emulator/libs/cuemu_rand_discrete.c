/*
 * cuemu_rand_discrete.c: cuRAND's Poisson tables: the one NVIDIA's host
 * generators draw Poisson values below lambda 2000 from
 * (cuemu__rand_poisson_table, for cuemu_rand.c), and the discrete
 * distributions of the device API: curandCreatePoissonDistribution makes, in device memory, the
 * structure that curand_discrete() and curand_discrete4() of
 * curand_kernel.h (curand_discrete2.h) read, and curandDestroyDistribution
 * frees it.
 *
 * The structure is the toolkit's (curand_discrete.h): a
 * curandDiscreteDistribution_st whose M2 member points to a
 * curandDistributionM2Shift_st (shift, length) whose histogram points to a
 * curandHistogramM2_st, whose V and K are Marsaglia, Tsang and Wang's
 * square histogram of the Poisson probabilities of shift .. shift +
 * length - 1: a uniform u in (0, 1] falls in column j = floor(length * u),
 * which returns shift + j if u < V[j] and shift + K[j] otherwise
 * (_curand_M2_double). The table is the host generators' (square_histogram
 * below), over every value whose mass is a positive double. For lambda
 * above 4000 the structure asks for the rounded normal
 * approximation instead (CURAND_DISCRETE_GAUSS, mean lambda, standard
 * deviation sqrt(lambda)), as curand_poisson() itself does there.
 * That NVIDIA's device-API structure holds the same table is likely (one
 * library) but not checked without a GPU (docs/cublas.md).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>

#include "cuemu_rand.h"

/* curandMethod_t */
enum { METHOD_M2 = 5, METHOD_DISCRETE_GAUSS = 7 };

/* The toolkit's structures (curand_discrete.h), field for field. */
struct histogram_m2 {
  double *V, *host_V;
  unsigned *K, *host_K;
  unsigned host_gen;
};

struct m2_shift {
  struct histogram_m2 *histogram, *host_histogram;
  unsigned shift, length, host_gen;
};

struct discrete {
  struct discrete *self_host_ptr;
  struct m2_shift *M2, *host_M2;
  double stddev, mean;
  int method;
  unsigned host_gen;
};

/* The whole allocation: the three structures, then V and K. */
struct block {
  struct discrete d;
  struct m2_shift m2;
  struct histogram_m2 h;
};

/* Above this lambda, the normal approximation (curand_poisson's bound). */
#define GAUSS_LAMBDA 4000.0

/* The square histogram of p[0..n) (Marsaglia, Tsang and Wang's method M2)
 * as NVIDIA's host generators build theirs: column i keeps value i below
 * V[i] and gives K[i] above; the poor columns (p n < 1) are filled in
 * sweeps of ascending index, each from the richest column of the highest
 * index that is still rich, which becomes poor (and is filled in its turn,
 * in this sweep if ahead, else the next) when what it has left falls below
 * one column. Derived from the values of NVIDIA's host generators
 * (docs/cublas.md); p is consumed. */
static void square_histogram(double *p, unsigned n, double *V, unsigned *K) {
  double a = 1.0 / n;
  unsigned *rich = malloc(n * sizeof *rich);
  unsigned char *done = calloc(n, 1);
  if (!rich || !done) {
    free(rich);
    free(done);
    for (unsigned i = 0; i < n; ++i)
      K[i] = i, V[i] = (i + 1) * a;
    return;
  }
  unsigned top = 0;
  for (unsigned i = 0; i < n; ++i) {
    p[i] *= n; /* in columns */
    K[i] = i, V[i] = (i + 1) * a;
    if (p[i] >= 1)
      rich[top++] = i;
  }
  for (int progress = 1; progress && top > 0;) {
    progress = 0;
    for (unsigned i = 0; i < n && top > 0; ++i) {
      unsigned donor = rich[top - 1];
      if (done[i] || p[i] >= 1 || donor == i)
        continue;
      V[i] = i * a + p[i] * a;
      K[i] = donor;
      done[i] = 1, progress = 1;
      p[donor] -= 1 - p[i];
      if (p[donor] < 1)
        --top;
    }
  }
  free(rich);
  free(done);
}

curandStatus_t cuemu__rand_poisson_table(double lambda,
                                         cuemu_rand_poisson_table *t) {
  /* Every k whose mass is a positive double, from the first. */
  double log_lambda = log(lambda);
  unsigned k = 0;
  while (exp(k * log_lambda - lambda - lgamma(k + 1.0)) <= 0)
    ++k;
  unsigned first = k;
  while (exp(k * log_lambda - lambda - lgamma(k + 1.0)) > 0)
    ++k;
  unsigned n = k - first;
  double *p = malloc(n * sizeof *p);
  double *V = malloc(n * sizeof *V);
  unsigned *K = malloc(n * sizeof *K);
  if (!p || !V || !K) {
    free(p), free(V), free(K);
    return CURAND_STATUS_ALLOCATION_FAILED;
  }
  for (unsigned i = 0; i < n; ++i) {
    double j = (double)first + i;
    p[i] = exp(j * log_lambda - lambda - lgamma(j + 1));
  }
  square_histogram(p, n, V, K);
  free(p);
  t->lambda = lambda, t->shift = first, t->length = n, t->V = V, t->K = K;
  return CURAND_STATUS_SUCCESS;
}

void cuemu__rand_poisson_table_free(cuemu_rand_poisson_table *t) {
  free(t->V);
  free(t->K);
  t->V = NULL, t->K = NULL, t->length = 0;
}

CUEMU_RAND_EXPORT curandStatus_t
curandCreatePoissonDistribution(double lambda, void **out) {
  if (!out)
    return CURAND_STATUS_OUT_OF_RANGE;
  if (!(lambda > 0) || isinf(lambda))
    return CURAND_STATUS_OUT_OF_RANGE;
  cuemu_rand_poisson_table table = {0};
  if (lambda <= GAUSS_LAMBDA &&
      cuemu__rand_poisson_table(lambda, &table) != CURAND_STATUS_SUCCESS)
    return CURAND_STATUS_ALLOCATION_FAILED;
  unsigned shift = table.shift, length = table.length;
  size_t bytes = sizeof(struct block) + (size_t)length * (sizeof(double) +
                                                          sizeof(unsigned));
  struct block *b;
  if (cuemu_rt_malloc((void **)&b, bytes) != 0) {
    cuemu__rand_poisson_table_free(&table);
    return CURAND_STATUS_ALLOCATION_FAILED;
  }
  b->d.self_host_ptr = &b->d;
  b->d.M2 = b->d.host_M2 = &b->m2;
  b->d.host_gen = 0;
  b->d.mean = lambda;
  b->d.stddev = sqrt(lambda);
  b->d.method = lambda <= GAUSS_LAMBDA ? METHOD_M2 : METHOD_DISCRETE_GAUSS;
  b->m2.histogram = b->m2.host_histogram = &b->h;
  b->m2.shift = shift, b->m2.length = length, b->m2.host_gen = 0;
  double *V = (double *)(b + 1);
  unsigned *K = (unsigned *)(V + length);
  b->h.V = b->h.host_V = V;
  b->h.K = b->h.host_K = K;
  b->h.host_gen = 0;
  if (length) {
    memcpy(V, table.V, length * sizeof *V);
    memcpy(K, table.K, length * sizeof *K);
  }
  cuemu__rand_poisson_table_free(&table);
  *out = b;
  return CURAND_STATUS_SUCCESS;
}

CUEMU_RAND_EXPORT curandStatus_t curandDestroyDistribution(void *distribution) {
  if (!distribution)
    return CURAND_STATUS_OUT_OF_RANGE;
  /* In stream order after the kernels that read it, as cudaFree. */
  return cuemu_rt_free(distribution) == 0 ? CURAND_STATUS_SUCCESS
                                          : CURAND_STATUS_OUT_OF_RANGE;
}
