/*
 * cuemu_rand_discrete.c: cuRAND's discrete distributions for the device
 * API: curandCreatePoissonDistribution makes, in device memory, the
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
 * (_curand_M2_double). The columns are built by Robin Hood: the poorest
 * column is filled up from the richest until every column holds 1/length.
 * For lambda above 4000 the structure asks for the rounded normal
 * approximation instead (CURAND_DISCRETE_GAUSS, mean lambda, standard
 * deviation sqrt(lambda)), as curand_poisson() itself does there.
 * The histogram and its range are cuemu's (docs/cublas.md).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

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

/* The Poisson range kept: lambda +- 10 standard deviations and 10 more,
 * whose tails hold less than 1e-20. */
static void poisson_range(double lambda, unsigned *shift, unsigned *length) {
  double spread = 10.0 * sqrt(lambda) + 10.0;
  double lo = floor(lambda - spread), hi = ceil(lambda + spread);
  if (lo < 0)
    lo = 0;
  *shift = (unsigned)lo;
  *length = (unsigned)(hi - lo) + 1;
}

/* Fills V and K with the square histogram of probabilities p[0..n). */
static void square_histogram(double *p, unsigned n, double *V, unsigned *K) {
  double a = 1.0 / n;
  for (unsigned i = 0; i < n; ++i)
    K[i] = i, V[i] = (i + 1) * a;
  for (unsigned step = 0; step + 1 < n; ++step) {
    unsigned poor = 0, rich = 0;
    for (unsigned i = 1; i < n; ++i) {
      if (p[i] < p[poor])
        poor = i;
      if (p[i] > p[rich])
        rich = i;
    }
    if (p[poor] >= a)
      break; /* every column is full */
    K[poor] = rich;
    V[poor] = poor * a + p[poor];
    p[rich] -= a - p[poor];
    p[poor] = a;
  }
}

CUEMU_RAND_EXPORT curandStatus_t
curandCreatePoissonDistribution(double lambda, void **out) {
  if (!out)
    return CURAND_STATUS_OUT_OF_RANGE;
  if (!(lambda > 0) || isinf(lambda))
    return CURAND_STATUS_OUT_OF_RANGE;
  unsigned shift = 0, length = 0;
  if (lambda <= GAUSS_LAMBDA)
    poisson_range(lambda, &shift, &length);
  size_t bytes = sizeof(struct block) + (size_t)length * (sizeof(double) +
                                                          sizeof(unsigned));
  struct block *b;
  if (cuemu_rt_malloc((void **)&b, bytes) != 0)
    return CURAND_STATUS_ALLOCATION_FAILED;
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
    double *p = malloc(length * sizeof *p);
    if (!p) {
      cuemu_rt_free(b);
      return CURAND_STATUS_ALLOCATION_FAILED;
    }
    /* The probabilities from the log of the mass, normalised over the
     * range. */
    double sum = 0;
    for (unsigned i = 0; i < length; ++i) {
      double k = (double)shift + i;
      p[i] = exp(k * log(lambda) - lambda - lgamma(k + 1));
      sum += p[i];
    }
    for (unsigned i = 0; i < length; ++i)
      p[i] /= sum;
    square_histogram(p, length, V, K);
    free(p);
  }
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
