/* fin_qmc.cu: quasi-Monte Carlo Asian and European calls with cuRAND's host
 * API (Sobol32 and scrambled Sobol32, one dimension per time step),
 * checked against closed forms (geometric Asian, Black-Scholes); a pseudo
 * generator's offset and ordering are checked for reproducibility.
 * From tests/programs_trialfin.sh (a trial of computational-finance code:
 * a CMake project with a static library of pricing kernels; here each
 * program is whole, the library's functions in its headers).
 * CUEMU_OPTIONS: -Xcompiler -O0 --extended-lambda -lcurand
 * NVCC_OPTIONS: --extended-lambda -lcurand */
#include <vector>
#include "fin/common.cuh"
#include "fin/curand_check.h"
#include "fin/asian.cuh"

using namespace fin;

static double geometric_asian_call(const AsianParams &p) {
  const double n = p.steps;
  const double sg = p.vol * std::sqrt((n + 1) * (2 * n + 1) / (6 * n * n));
  const double mu = (p.rate - 0.5 * p.vol * p.vol) * (n + 1) / (2 * n) + 0.5 * sg * sg;
  const double d1 = (std::log(p.spot / p.strike) + (mu + 0.5 * sg * sg) * p.expiry) /
                    (sg * std::sqrt(p.expiry));
  const double d2 = d1 - sg * std::sqrt(p.expiry);
  return std::exp(-p.rate * p.expiry) *
         (p.spot * std::exp(mu * p.expiry) * host_norm_cdf(d1) - p.strike * host_norm_cdf(d2));
}

static int run_qmc(const char *label, curandRngType_t type) {
  AsianParams p{100.0, 100.0, 0.05, 0.2, 1.0, 12};
  const int npaths = 1 << 14;
  double *d_z, *d_out;
  CUDA_CHECK(cudaMalloc(&d_z, sizeof(double) * npaths * p.steps));
  CUDA_CHECK(cudaMalloc(&d_out, 3 * sizeof(double)));
  CUDA_CHECK(cudaMemset(d_out, 0, 3 * sizeof(double)));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));

  curandGenerator_t gen;
  CURAND_CHECK(curandCreateGenerator(&gen, type));
  CURAND_CHECK(curandSetStream(gen, stream));
  CURAND_CHECK(curandSetQuasiRandomGeneratorDimensions(gen, p.steps));
  CURAND_CHECK(curandSetGeneratorOrdering(gen, CURAND_ORDERING_QUASI_DEFAULT));
  CURAND_CHECK(curandSetGeneratorOffset(gen, 1)); // skip the all-0.5 first point
  CURAND_CHECK(curandGenerateNormalDouble(gen, d_z, (size_t)npaths * p.steps, 0.0, 1.0));
  asian_paths_kernel<256><<<32, 256, 0, stream>>>(d_z, npaths, p, d_out);
  CHECK_LAST_KERNEL();
  double out[3];
  CUDA_CHECK(cudaMemcpyAsync(out, d_out, sizeof out, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  const double disc = std::exp(-p.rate * p.expiry);
  const double geo = disc * out[0] / npaths, ari = disc * out[1] / npaths,
               eur = disc * out[2] / npaths;
  const double geo_exact = geometric_asian_call(p);
  const double eur_exact =
      host_black_scholes(p.spot, p.strike, p.rate, p.vol, p.expiry, OptionType::Call);
  std::printf("%-16s geo=%.5f (exact %.5f) eur=%.5f (exact %.5f) arith=%.5f\n", label, geo,
              geo_exact, eur, eur_exact, ari);
  CURAND_CHECK(curandDestroyGenerator(gen));
  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFree(d_z));
  CUDA_CHECK(cudaFree(d_out));
  // QMC with 2^14 points: errors well under a cent; arithmetic >= geometric.
  return report(label, std::fabs(geo - geo_exact) < 0.02 && std::fabs(eur - eur_exact) < 0.03 &&
                           ari > geo);
}

// A pseudo-random generator at an offset reproduces itself; with the
// default ordering, two generators with one seed agree.
static int run_offsets() {
  const size_t n = 4096;
  double *d_a, *d_b;
  CUDA_CHECK(cudaMalloc(&d_a, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(double)));
  curandGenerator_t g1, g2;
  CURAND_CHECK(curandCreateGenerator(&g1, CURAND_RNG_PSEUDO_PHILOX4_32_10));
  CURAND_CHECK(curandCreateGenerator(&g2, CURAND_RNG_PSEUDO_PHILOX4_32_10));
  for (curandGenerator_t g : {g1, g2}) {
    CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(g, 42ULL));
    CURAND_CHECK(curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_DEFAULT));
    CURAND_CHECK(curandSetGeneratorOffset(g, 1 << 20));
  }
  CURAND_CHECK(curandGenerateNormalDouble(g1, d_a, n, 0.0, 1.0));
  CURAND_CHECK(curandGenerateNormalDouble(g2, d_b, n, 0.0, 1.0));
  std::vector<double> a(n), b(n);
  CUDA_CHECK(cudaMemcpy(a.data(), d_a, n * sizeof(double), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(b.data(), d_b, n * sizeof(double), cudaMemcpyDeviceToHost));
  double mean = 0.0, var = 0.0;
  bool same = true;
  for (size_t i = 0; i < n; ++i) {
    same = same && a[i] == b[i];
    mean += a[i];
    var += a[i] * a[i];
  }
  mean /= n;
  var = var / n - mean * mean;
  CURAND_CHECK(curandDestroyGenerator(g1));
  CURAND_CHECK(curandDestroyGenerator(g2));
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  std::printf("philox offset 2^20: mean=%.4f var=%.4f same=%d\n", mean, var, (int)same);
  return report("philox offset/ordering", same && std::fabs(mean) < 0.1 && std::fabs(var - 1) < 0.1);
}

int main() {
  int fails = 0;
  fails += run_qmc("qmc sobol32", CURAND_RNG_QUASI_SOBOL32);
  fails += run_qmc("qmc scrambled", CURAND_RNG_QUASI_SCRAMBLED_SOBOL32);
  fails += run_offsets();
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? EXIT_FAILURE : EXIT_SUCCESS;
}
