/* fin_bs.cu: European calls and puts in float and double, three CND methods,
 * checked against the host formula and put-call parity.
 * From tests/programs_trialfin.sh (a trial of computational-finance code:
 * a CMake project with a static library of pricing kernels; here each
 * program is whole, the library's functions in its headers).
 * CUEMU_OPTIONS: -Xcompiler -O0 --extended-lambda -lcurand
 * NVCC_OPTIONS: --extended-lambda -lcurand */
#include <vector>
#include <random>
#include <algorithm>
#include "fin/black_scholes.cuh"
#include "fin/common.cuh"

template <typename Real>
static int run(const char *label, fin::CndMethod method, int n, double tol) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> spot(5.0, 30.0), strike(1.0, 100.0), expiry(0.25, 10.0);
  std::vector<Real> S(n), K(n), T(n), call(n), put(n);
  for (int i = 0; i < n; ++i) {
    S[i] = Real(spot(rng));
    K[i] = Real(strike(rng));
    T[i] = Real(expiry(rng));
  }
  const Real r = Real(0.02), v = Real(0.30);
  Real *d_buf = nullptr;
  CUDA_CHECK(cudaMalloc(&d_buf, 5 * n * sizeof(Real)));
  Real *dS = d_buf, *dK = d_buf + n, *dT = d_buf + 2 * n, *dC = d_buf + 3 * n,
       *dP = d_buf + 4 * n;
  CUDA_CHECK(cudaMemcpy(dS, S.data(), n * sizeof(Real), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dK, K.data(), n * sizeof(Real), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dT, T.data(), n * sizeof(Real), cudaMemcpyHostToDevice));
  fin::launch_black_scholes<Real>(method, dC, dP, dS, dK, dT, r, v, n);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(call.data(), dC, n * sizeof(Real), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(put.data(), dP, n * sizeof(Real), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_buf));

  double max_err = 0.0, max_parity = 0.0;
  for (int i = 0; i < n; ++i) {
    double c = fin::host_black_scholes(S[i], K[i], r, v, T[i], fin::OptionType::Call);
    double p = fin::host_black_scholes(S[i], K[i], r, v, T[i], fin::OptionType::Put);
    max_err = std::max({max_err, std::fabs(c - call[i]), std::fabs(p - put[i])});
    // C - P = S - K e^{-rT}
    double parity = double(call[i]) - double(put[i]) -
                    (double(S[i]) - double(K[i]) * std::exp(-double(r) * double(T[i])));
    max_parity = std::max(max_parity, std::fabs(parity));
  }
  std::printf("%-22s n=%d max|err|=%.3e max|parity|=%.3e\n", label, n, max_err, max_parity);
  return fin::report(label, max_err < tol && max_parity < 10 * tol);
}

int main() {
  int fails = 0;
  const int n = 20011; // not a multiple of the block size
  fails += run<float>("bs float poly", fin::CndMethod::Poly, n, 2e-3);
  fails += run<float>("bs float normcdff", fin::CndMethod::NormCdf, n, 5e-4);
  fails += run<float>("bs float erfcf", fin::CndMethod::Erfc, n, 5e-4);
  fails += run<double>("bs double poly", fin::CndMethod::Poly, n, 1e-5);
  fails += run<double>("bs double normcdf", fin::CndMethod::NormCdf, n, 1e-10);
  fails += run<double>("bs double erfc", fin::CndMethod::Erfc, n, 1e-10);
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? EXIT_FAILURE : EXIT_SUCCESS;
}
