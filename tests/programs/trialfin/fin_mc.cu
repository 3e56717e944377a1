/* fin_mc.cu: Monte Carlo European options with Philox4_32_10 and MRG32k3a
 * states kept in global memory over several launches; the estimate must lie
 * within four standard errors of Black-Scholes.
 * From tests/programs_trialfin.sh (a trial of computational-finance code:
 * a CMake project with a static library of pricing kernels; here each
 * program is whole, the library's functions in its headers).
 * CUEMU_OPTIONS: -Xcompiler -O0 --extended-lambda -lcurand
 * NVCC_OPTIONS: --extended-lambda -lcurand */
#include <vector>
#include <cstring>
#include "fin/common.cuh"
#include "fin/mc.cuh"

using namespace fin;

template <typename State>
static int price(const char *label, const GbmParams &p, bool use_cg) {
  const int threads = 128, blocks = 16, n = threads * blocks;
  const int pairs_per_launch = 16, launches = 2;
  State *d_states;
  double *d_sum, *d_sq, *d_acc;
  CUDA_CHECK(cudaMalloc(&d_states, n * sizeof(State)));
  CUDA_CHECK(cudaMalloc(&d_sum, blocks * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_sq, blocks * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_acc, 2 * sizeof(double)));
  CUDA_CHECK(cudaMemset(d_acc, 0, 2 * sizeof(double)));
  init_rng_kernel<<<blocks, threads>>>(d_states, 1234ULL, n);
  CHECK_LAST_KERNEL();

  double total = 0.0, total_sq = 0.0;
  std::vector<double> h_sum(blocks), h_sq(blocks);
  for (int l = 0; l < launches; ++l) {
    if (use_cg) {
      mc_european_cg_kernel<<<blocks, threads>>>(d_states, p, pairs_per_launch, d_acc);
    } else {
      mc_european_kernel<<<blocks, threads>>>(d_states, p, pairs_per_launch, d_sum, d_sq);
      CUDA_CHECK(cudaMemcpy(h_sum.data(), d_sum, blocks * sizeof(double), cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(h_sq.data(), d_sq, blocks * sizeof(double), cudaMemcpyDeviceToHost));
      for (int b = 0; b < blocks; ++b) {
        total += h_sum[b];
        total_sq += h_sq[b];
      }
    }
    CHECK_LAST_KERNEL();
  }
  if (use_cg) {
    double acc[2];
    CUDA_CHECK(cudaMemcpy(acc, d_acc, sizeof acc, cudaMemcpyDeviceToHost));
    total = acc[0];
    total_sq = acc[1];
  }
  const double m = double(n) * pairs_per_launch * launches * 2; // samples (antithetic means)
  const double mean = total / m;
  const double var = total_sq / m - mean * mean;
  const double disc = std::exp(-p.rate * p.expiry);
  const double price = disc * mean, se = disc * std::sqrt(var / m);
  const double exact = host_black_scholes(p.spot, p.strike, p.rate, p.vol, p.expiry,
                                          p.is_call ? OptionType::Call : OptionType::Put);
  std::printf("%-28s mc=%.5f se=%.5f bs=%.5f z=%.2f\n", label, price, se, exact,
              (price - exact) / se);

  // Keeping the states in global memory means launches continue the stream:
  // the states now differ from freshly initialised ones.
  std::vector<State> after(2), fresh(2);
  CUDA_CHECK(cudaMemcpy(after.data(), d_states, 2 * sizeof(State), cudaMemcpyDeviceToHost));
  init_rng_kernel<<<blocks, threads>>>(d_states, 1234ULL, n);
  CUDA_CHECK(cudaMemcpy(fresh.data(), d_states, 2 * sizeof(State), cudaMemcpyDeviceToHost));
  const bool advanced = std::memcmp(after.data(), fresh.data(), 2 * sizeof(State)) != 0;

  CUDA_CHECK(cudaFree(d_states));
  CUDA_CHECK(cudaFree(d_sum));
  CUDA_CHECK(cudaFree(d_sq));
  CUDA_CHECK(cudaFree(d_acc));
  return report(label, std::fabs(price - exact) < 4.0 * se && se > 0 && se < 0.05 && advanced);
}

int main() {
  int fails = 0;
  GbmParams call{100.0, 105.0, 0.03, 0.25, 1.0, 1};
  GbmParams put{100.0, 95.0, 0.03, 0.35, 0.5, 0};
  fails += price<curandStatePhilox4_32_10_t>("mc philox call (block)", call, false);
  fails += price<curandStatePhilox4_32_10_t>("mc philox put (cg)", put, true);
  fails += price<curandStateMRG32k3a_t>("mc mrg32k3a call (cg)", call, true);
  fails += price<curandStateMRG32k3a_t>("mc mrg32k3a put (block)", put, false);
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? EXIT_FAILURE : EXIT_SUCCESS;
}
