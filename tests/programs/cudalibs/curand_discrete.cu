/* curand_discrete.cu: cuRAND's discrete distributions for the device API,
 * in the style of the guide's Poisson API example: a Poisson distribution
 * made by curandCreatePoissonDistribution and drawn by curand_discrete()
 * in a kernel (XORWOW states from curand_init), then freed by
 * curandDestroyDistribution. Checks: the histogram's columns imply the
 * Poisson probabilities (the structure read back with cudaMemcpy, as its
 * pointers are device pointers); each draw is the histogram's value for
 * the same state's raw draw (_curand_M2_double, computed here on the
 * host); the draws' mean and variance are lambda; a large lambda takes the
 * normal approximation; curand_poisson() without a table and the
 * double log-normal of the device API have the right moments.
 * CUEMU_OPTIONS: -lcurand */
#include <cmath>
#include <vector>

#include <curand.h>
#include <curand_kernel.h>

#include "check_libs.h"

static const int kThreads = 256;
static const int kPer = 64;

/* Thread t draws kPer values from the distribution, and the raw draws of
 * an identical state, so that the host can recompute them. */
__global__ void draw(curandDiscreteDistribution_t dist, unsigned *out,
                     unsigned *raw) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  curandState a, b;
  curand_init(1234, t, 0, &a);
  curand_init(1234, t, 0, &b);
  for (int i = 0; i < kPer; ++i) {
    out[t * kPer + i] = curand_discrete(&a, dist);
    raw[t * kPer + i] = curand(&b);
  }
}

/* curand_poisson without a table, and the double log-normal. */
__global__ void draw_direct(double lambda, unsigned *out, double *lognormal) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t s;
  curand_init(99, t, 0, &s);
  for (int i = 0; i < kPer; ++i) {
    out[t * kPer + i] = curand_poisson(&s, lambda);
    lognormal[t * kPer + i] = curand_log_normal_double(&s, 0.5, 0.25);
  }
}

/* The device structure, read back. */
struct table {
  double mean, stddev;
  int method;
  unsigned shift, length;
  std::vector<double> V;
  std::vector<unsigned> K;
};

static table read_table(curandDiscreteDistribution_t dist) {
  table t;
  curandDiscreteDistribution_st d;
  CHECK_CUDA(cudaMemcpy(&d, dist, sizeof d, cudaMemcpyDeviceToHost));
  t.mean = d.mean, t.stddev = d.stddev, t.method = d.method;
  curandDistributionM2Shift_st m2;
  CHECK_CUDA(cudaMemcpy(&m2, d.M2, sizeof m2, cudaMemcpyDeviceToHost));
  t.shift = m2.shift, t.length = m2.length;
  if (t.method != CURAND_M2)
    return t;
  curandHistogramM2_st h;
  CHECK_CUDA(cudaMemcpy(&h, m2.histogram, sizeof h, cudaMemcpyDeviceToHost));
  t.V.resize(t.length);
  t.K.resize(t.length);
  CHECK_CUDA(cudaMemcpy(t.V.data(), h.V, t.length * sizeof(double),
                        cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(t.K.data(), h.K, t.length * sizeof(unsigned),
                        cudaMemcpyDeviceToHost));
  return t;
}

static double poisson_pmf(double lambda, unsigned k) {
  return std::exp(k * std::log(lambda) - lambda - std::lgamma(k + 1.0));
}

static void check_lambda(double lambda) {
  curandDiscreteDistribution_t dist;
  EXPECT_STATUS(curandCreatePoissonDistribution(lambda, &dist),
                CURAND_STATUS_SUCCESS);
  table t = read_table(dist);
  if (lambda <= 100) {
    EXPECT(t.method == CURAND_M2 && t.length > 0,
           "lambda %g: method %d, %u columns", lambda, t.method, t.length);
    /* The probability of each value, from the columns. */
    std::vector<double> p(t.length, 0.0);
    double a = 1.0 / t.length;
    for (unsigned j = 0; j < t.length; ++j) {
      EXPECT(t.V[j] >= j * a - 1e-12 && t.V[j] <= (j + 1) * a + 1e-12 &&
                 t.K[j] < t.length,
             "lambda %g: column %u: V %.17g K %u", lambda, j, t.V[j], t.K[j]);
      p[j] += t.V[j] - j * a;
      if (t.K[j] < t.length)
        p[t.K[j]] += (j + 1) * a - t.V[j];
    }
    double worst = 0;
    for (unsigned j = 0; j < t.length; ++j)
      worst = std::fmax(worst,
                        std::fabs(p[j] - poisson_pmf(lambda, t.shift + j)));
    EXPECT(worst < 1e-6, "lambda %g: the histogram's probabilities differ "
           "from Poisson's by %.3g", lambda, worst);
  }

  const int n = kThreads * kPer;
  unsigned *d, *draws;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof *d));
  CHECK_CUDA(cudaMalloc(&draws, n * sizeof *draws));
  draw<<<kThreads / 64, 64>>>(dist, d, draws);
  CHECK_CUDA(cudaGetLastError());
  std::vector<unsigned> x(n), raw(n);
  CHECK_CUDA(cudaMemcpy(x.data(), d, n * sizeof *d, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(raw.data(), draws, n * sizeof *draws,
                        cudaMemcpyDeviceToHost));
  EXPECT_STATUS(curandDestroyDistribution(dist), CURAND_STATUS_SUCCESS);
  if (t.method == CURAND_M2) {
    /* _curand_M2_double of each raw draw. */
    int differ = 0;
    for (int i = 0; i < n; ++i) {
      double u = raw[i] * CURAND_2POW32_INV_DOUBLE + CURAND_2POW32_INV_DOUBLE;
      int j = (int)std::floor(t.length * u);
      unsigned want = t.shift + (u < t.V[j] ? j : t.K[j]);
      differ += x[i] != want;
    }
    EXPECT(differ == 0, "lambda %g: %d of %d draws are not the histogram's",
           lambda, differ, n);
  } else {
    EXPECT(t.method == CURAND_DISCRETE_GAUSS && t.mean == lambda &&
               std::fabs(t.stddev - std::sqrt(lambda)) < 1e-9,
           "lambda %g: method %d mean %g stddev %g", lambda, t.method, t.mean,
           t.stddev);
  }
  double sum = 0, sq = 0;
  for (unsigned v : x)
    sum += v, sq += (double)v * v;
  double mean = sum / n, var = sq / n - mean * mean;
  /* Within 5 standard errors. */
  EXPECT(std::fabs(mean - lambda) < 5 * std::sqrt(lambda / n) &&
             std::fabs(var / lambda - 1) < 0.06,
         "lambda %g: mean %.4f variance %.4f", lambda, mean, var);
  CHECK_CUDA(cudaFree(d));
  CHECK_CUDA(cudaFree(draws));
}

static void check_direct(void) {
  const int n = kThreads * kPer;
  const double lambda = 20.5;
  unsigned *d;
  double *dl;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof *d));
  CHECK_CUDA(cudaMalloc(&dl, n * sizeof *dl));
  draw_direct<<<kThreads / 64, 64>>>(lambda, d, dl);
  CHECK_CUDA(cudaGetLastError());
  std::vector<unsigned> x(n);
  std::vector<double> l(n);
  CHECK_CUDA(cudaMemcpy(x.data(), d, n * sizeof *d, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(l.data(), dl, n * sizeof *dl, cudaMemcpyDeviceToHost));
  double sum = 0, sq = 0, lsum = 0;
  for (int i = 0; i < n; ++i)
    sum += x[i], sq += (double)x[i] * x[i], lsum += std::log(l[i]);
  double mean = sum / n, var = sq / n - mean * mean;
  EXPECT(std::fabs(mean - lambda) < 5 * std::sqrt(lambda / n) &&
             std::fabs(var / lambda - 1) < 0.06,
         "curand_poisson(%g): mean %.4f variance %.4f", lambda, mean, var);
  EXPECT(std::fabs(lsum / n - 0.5) < 5 * 0.25 / std::sqrt((double)n),
         "curand_log_normal_double: mean log %.4f", lsum / n);
  CHECK_CUDA(cudaFree(d));
  CHECK_CUDA(cudaFree(dl));
}

int main(void) {
  check_lambda(3.5);
  check_lambda(60.0);
  check_lambda(6000.0);
  check_direct();
  curandDiscreteDistribution_t dist;
  EXPECT_STATUS(curandCreatePoissonDistribution(-1.0, &dist),
                CURAND_STATUS_OUT_OF_RANGE);
  return finish();
}
