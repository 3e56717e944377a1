/* fin_jumps.cu: Merton jump-diffusion calls by Monte Carlo with XORWOW
 * states (curand_poisson for the jump counts), against Merton's series;
 * Heston-style float kernel with fast-math intrinsics; a host-side
 * generator (curandCreateGeneratorHost) reproducing the device one.
 * From tests/programs_trialfin.sh (a trial of computational-finance code:
 * a CMake project with a static library of pricing kernels; here each
 * program is whole, the library's functions in its headers).
 * CUEMU_OPTIONS: -Xcompiler -O0 --extended-lambda -lcurand
 * NVCC_OPTIONS: --extended-lambda -lcurand */
#include <vector>
#include <curand.h>
#include <curand_kernel.h>
#include "fin/common.cuh"
#include "fin/curand_check.h"
#include "fin/reduce.cuh"

using namespace fin;

struct Merton {
  double S, K, r, sigma, T, lambda, mu_j, sigma_j;
};

__global__ void merton_kernel(Merton m, int per_thread, unsigned long long seed, double *acc) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState st;
  curand_init(seed, id, 0, &st);
  const double k = exp(m.mu_j + 0.5 * m.sigma_j * m.sigma_j) - 1.0;
  const double drift = (m.r - m.lambda * k - 0.5 * m.sigma * m.sigma) * m.T;
  double sum = 0.0;
  for (int i = 0; i < per_thread; ++i) {
    unsigned int nj = curand_poisson(&st, m.lambda * m.T);
    double z = curand_normal_double(&st);
    double jumps = nj * m.mu_j + sqrt((double)nj) * m.sigma_j * curand_normal_double(&st);
    double st_T = m.S * exp(drift + m.sigma * sqrt(m.T) * z + jumps);
    sum += fmax(st_T - m.K, 0.0);
  }
  cg_reduce_add(sum, acc);
}

__global__ void fast_math_kernel(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __expf(-x[i]) * rsqrtf(1.0f + x[i]) + __fdividef(x[i], 3.0f) + __logf(1.0f + x[i]);
}

int main() {
  int fails = 0;
  Merton m{100.0, 100.0, 0.05, 0.2, 1.0, 0.5, -0.1, 0.15};
  double *acc;
  CUDA_CHECK(cudaMalloc(&acc, sizeof(double)));
  CUDA_CHECK(cudaMemset(acc, 0, sizeof(double)));
  const int blocks = 32, threads = 128, per = 64;
  merton_kernel<<<blocks, threads>>>(m, per, 99ULL, acc);
  CHECK_LAST_KERNEL();
  double h_acc;
  CUDA_CHECK(cudaMemcpy(&h_acc, acc, sizeof h_acc, cudaMemcpyDeviceToHost));
  const double mc = std::exp(-m.r * m.T) * h_acc / (blocks * threads * per);
  // Merton's series: sum over n of Poisson weights times BS prices.
  const double k = std::exp(m.mu_j + 0.5 * m.sigma_j * m.sigma_j) - 1.0;
  const double lp = m.lambda * (1.0 + k) * m.T;
  double series = 0.0, w = std::exp(-lp);
  for (int n = 0; n < 40; ++n) {
    if (n > 0) w *= lp / n;
    double sn = std::sqrt(m.sigma * m.sigma + n * m.sigma_j * m.sigma_j / m.T);
    double rn = m.r - m.lambda * k + n * std::log(1.0 + k) / m.T;
    series += w * host_black_scholes(m.S, m.K, rn, sn, m.T, OptionType::Call);
  }
  std::printf("merton: mc %.4f series %.4f\n", mc, series);
  fails += report("merton jump diffusion", std::fabs(mc - series) < 0.15);

  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = 0.01f * i;
  float *dx, *dy;
  CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  fast_math_kernel<<<(n + 255) / 256, 256>>>(dx, dy, n);
  CUDA_CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  double err = 0.0;
  for (int i = 0; i < n; ++i) {
    double want = std::exp(-x[i]) / std::sqrt(1.0 + x[i]) + x[i] / 3.0 + std::log(1.0 + x[i]);
    err = std::fmax(err, std::fabs(want - y[i]) / (1.0 + std::fabs(want)));
  }
  fails += report("fast-math intrinsics", err < 1e-5);

  // The host generator gives the device generator's numbers.
  const size_t cnt = 1000;
  curandGenerator_t dev, host;
  CURAND_CHECK(curandCreateGenerator(&dev, CURAND_RNG_PSEUDO_MRG32K3A));
  CURAND_CHECK(curandCreateGeneratorHost(&host, CURAND_RNG_PSEUDO_MRG32K3A));
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(dev, 5));
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(host, 5));
  double *d_v;
  std::vector<double> hv(cnt), dv(cnt);
  CUDA_CHECK(cudaMalloc(&d_v, cnt * sizeof(double)));
  CURAND_CHECK(curandGenerateLogNormalDouble(dev, d_v, cnt, 0.0, 0.25));
  CURAND_CHECK(curandGenerateLogNormalDouble(host, hv.data(), cnt, 0.0, 0.25));
  CUDA_CHECK(cudaMemcpy(dv.data(), d_v, cnt * sizeof(double), cudaMemcpyDeviceToHost));
  double diff = 0.0;
  for (size_t i = 0; i < cnt; ++i) diff = std::fmax(diff, std::fabs(hv[i] - dv[i]));
  std::printf("host vs device lognormal: max diff %.3e\n", diff);
  fails += report("host generator", diff < 1e-12);
  CURAND_CHECK(curandDestroyGenerator(dev));
  CURAND_CHECK(curandDestroyGenerator(host));
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? EXIT_FAILURE : EXIT_SUCCESS;
}
