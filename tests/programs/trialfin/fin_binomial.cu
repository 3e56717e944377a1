/* fin_binomial.cu: American puts and calls on CRR trees, one block per
 * option, against the host tree; an American call without dividends is
 * worth its European price, and an American put at least its European.
 * From tests/programs_trialfin.sh (a trial of computational-finance code:
 * a CMake project with a static library of pricing kernels; here each
 * program is whole, the library's functions in its headers).
 * CUEMU_OPTIONS: -Xcompiler -O0 --extended-lambda -lcurand
 * NVCC_OPTIONS: --extended-lambda -lcurand */
#include <vector>
#include <algorithm>
#include "fin/binomial.cuh"

using namespace fin;

int main() {
  const int nopts = 16, steps = 300;
  std::vector<OptionData> opts(nopts);
  for (int i = 0; i < nopts; ++i) {
    opts[i].spot = 80.0 + i;
    opts[i].strike = 100.0;
    opts[i].rate = 0.04 + 0.001 * (i % 5);
    opts[i].vol = 0.15 + 0.01 * (i % 7);
    opts[i].expiry = 0.5 + 0.25 * (i % 4);
    opts[i].type = (i % 3 == 0) ? OptionType::Call : OptionType::Put;
  }
  OptionData *d_opts;
  double *d_price;
  float *d_pricef;
  CUDA_CHECK(cudaMalloc(&d_opts, nopts * sizeof(OptionData)));
  CUDA_CHECK(cudaMalloc(&d_price, nopts * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_pricef, nopts * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_opts, opts.data(), nopts * sizeof(OptionData), cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));
  price_american_binomial<double>(d_opts, d_price, nopts, steps);
  CUDA_CHECK(cudaEventRecord(stop));
  price_american_binomial<float>(d_opts, d_pricef, nopts, steps);
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  std::vector<double> price(nopts);
  std::vector<float> pricef(nopts);
  CUDA_CHECK(cudaMemcpy(price.data(), d_price, nopts * sizeof(double), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(pricef.data(), d_pricef, nopts * sizeof(float), cudaMemcpyDeviceToHost));

  double max_err = 0.0, max_errf = 0.0;
  bool bounds = true;
  for (int i = 0; i < nopts; ++i) {
    const OptionData &o = opts[i];
    double ref = host_crr(o, steps, true);
    max_err = std::max(max_err, std::fabs(ref - price[i]));
    max_errf = std::max(max_errf, std::fabs(ref - pricef[i]));
    double euro = host_black_scholes(o.spot, o.strike, o.rate, o.vol, o.expiry, o.type);
    if (o.type == OptionType::Call)
      bounds = bounds && std::fabs(price[i] - euro) < 0.02;
    else
      bounds = bounds && price[i] >= euro - 0.02 && price[i] >= o.strike - o.spot - 1e-9;
  }
  std::printf("binomial: %d options x %d steps, %.3f ms, max|err| double %.2e float %.2e\n", nopts,
              steps, ms, max_err, max_errf);
  int fails = report("binomial double", max_err < 1e-9);
  fails += report("binomial float", max_errf < 5e-3);
  fails += report("binomial bounds", bounds);
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaFree(d_opts));
  CUDA_CHECK(cudaFree(d_price));
  CUDA_CHECK(cudaFree(d_pricef));
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? EXIT_FAILURE : EXIT_SUCCESS;
}
