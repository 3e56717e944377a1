/* fin_lsm.cu: American put by Longstaff-Schwartz. Each exercise date's
 * regression is solved from normal equations built with cuBLAS (Dgemm for
 * X^T X, Dgemv for X^T Y) and Cholesky (potrf/potrs); at one date the same
 * coefficients are also found by QR (geqrf, ormqr, trsm), by the
 * iterative-refinement solvers (DDgesv on the normal equations, DDgels on
 * X directly). The price must agree with a 1000-step binomial tree.
 * From tests/programs_trialfin.sh (a trial of computational-finance code:
 * a CMake project with a static library of pricing kernels; here each
 * program is whole, the library's functions in its headers).
 * CUEMU_OPTIONS: -Xcompiler -O0 --extended-lambda -lcurand -lcublas -lcusolver
 * NVCC_OPTIONS: --extended-lambda -lcurand -lcublas -lcusolver */
#include <vector>
#include <numeric>
#include <algorithm>
#include "fin/common.cuh"
#include "fin/lib_check.h"
#include "fin/lsm.cuh"

using namespace fin;

struct Solvers {
  cublasHandle_t blas;
  cusolverDnHandle_t dn;
  double *A, *b, *work;
  int *info, *ipiv;
  int lwork;
};

// beta = (X^T X)^{-1} X^T Y by Cholesky.
static void normal_equations(Solvers &s, const double *X, const double *Y, int n, double *beta) {
  const double one = 1.0, zero = 0.0;
  CUBLAS_CHECK(cublasDgemm(s.blas, CUBLAS_OP_T, CUBLAS_OP_N, kBasis, kBasis, n, &one, X, n, X, n,
                           &zero, s.A, kBasis));
  CUBLAS_CHECK(cublasDgemv(s.blas, CUBLAS_OP_T, n, kBasis, &one, X, n, Y, 1, &zero, beta, 1));
  CUSOLVER_CHECK(
      cusolverDnDpotrf(s.dn, CUBLAS_FILL_MODE_LOWER, kBasis, s.A, kBasis, s.work, s.lwork, s.info));
  CUSOLVER_CHECK(
      cusolverDnDpotrs(s.dn, CUBLAS_FILL_MODE_LOWER, kBasis, 1, s.A, kBasis, beta, kBasis, s.info));
}

// beta by QR of X: R beta = (Q^T Y)[0:3]. X and Y are overwritten.
static void qr_solve(Solvers &s, double *X, double *Y, int n, double *beta) {
  int lgeqrf = 0, lormqr = 0;
  CUSOLVER_CHECK(cusolverDnDgeqrf_bufferSize(s.dn, n, kBasis, X, n, &lgeqrf));
  CUSOLVER_CHECK(cusolverDnDormqr_bufferSize(s.dn, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, n, 1, kBasis, X,
                                             n, s.b, Y, n, &lormqr));
  double *work;
  const int lwork = std::max(lgeqrf, lormqr);
  CUDA_CHECK(cudaMalloc(&work, lwork * sizeof(double)));
  CUSOLVER_CHECK(cusolverDnDgeqrf(s.dn, n, kBasis, X, n, s.b, work, lwork, s.info));
  CUSOLVER_CHECK(cusolverDnDormqr(s.dn, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, n, 1, kBasis, X, n, s.b, Y,
                                  n, work, lwork, s.info));
  const double one = 1.0;
  CUBLAS_CHECK(cublasDtrsm(s.blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                           CUBLAS_DIAG_NON_UNIT, kBasis, 1, &one, X, n, Y, n));
  cudaStream_t st;
  CUBLAS_CHECK(cublasGetStream(s.blas, &st));
  CUDA_CHECK(cudaMemcpyAsync(beta, Y, kBasis * sizeof(double), cudaMemcpyDeviceToDevice, st));
  CUDA_CHECK(cudaFree(work));
}

// Iterative-refinement solvers, as a project that wants the fastest
// solver on recent GPUs would call them.
static void irs_solve(Solvers &s, const double *X, const double *Y, int n, double *beta_gesv,
                      double *beta_gels) {
  const double one = 1.0, zero = 0.0;
  double *A, *b, *Xc, *Yc;
  CUDA_CHECK(cudaMalloc(&A, kBasis * kBasis * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&b, kBasis * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&Xc, (size_t)n * kBasis * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&Yc, (size_t)n * sizeof(double)));
  CUBLAS_CHECK(cublasDgemm(s.blas, CUBLAS_OP_T, CUBLAS_OP_N, kBasis, kBasis, n, &one, X, n, X, n,
                           &zero, A, kBasis));
  CUBLAS_CHECK(cublasDgemv(s.blas, CUBLAS_OP_T, n, kBasis, &one, X, n, Y, 1, &zero, b, 1));
  size_t bytes = 0;
  int iters = 0;
  CUSOLVER_CHECK(cusolverDnDDgesv_bufferSize(s.dn, kBasis, 1, A, kBasis, s.ipiv, b, kBasis,
                                             beta_gesv, kBasis, nullptr, &bytes));
  void *work;
  CUDA_CHECK(cudaMalloc(&work, bytes));
  CUSOLVER_CHECK(cusolverDnDDgesv(s.dn, kBasis, 1, A, kBasis, s.ipiv, b, kBasis, beta_gesv, kBasis,
                                  work, bytes, &iters, s.info));
  CUDA_CHECK(cudaFree(work));

  cudaStream_t st;
  CUBLAS_CHECK(cublasGetStream(s.blas, &st));
  CUDA_CHECK(cudaMemcpyAsync(Xc, X, (size_t)n * kBasis * sizeof(double), cudaMemcpyDeviceToDevice,
                             st));
  CUDA_CHECK(cudaMemcpyAsync(Yc, Y, (size_t)n * sizeof(double), cudaMemcpyDeviceToDevice, st));
  double *xsol;
  CUDA_CHECK(cudaMalloc(&xsol, kBasis * sizeof(double)));
  CUSOLVER_CHECK(cusolverDnDDgels_bufferSize(s.dn, n, kBasis, 1, Xc, n, Yc, n, xsol, kBasis,
                                             nullptr, &bytes));
  CUDA_CHECK(cudaMalloc(&work, bytes));
  CUSOLVER_CHECK(cusolverDnDDgels(s.dn, n, kBasis, 1, Xc, n, Yc, n, xsol, kBasis, work, bytes,
                                  &iters, s.info));
  CUDA_CHECK(
      cudaMemcpyAsync(beta_gels, xsol, kBasis * sizeof(double), cudaMemcpyDeviceToDevice, st));
  CUDA_CHECK(cudaStreamSynchronize(st));
  CUDA_CHECK(cudaFree(work));
  CUDA_CHECK(cudaFree(xsol));
  CUDA_CHECK(cudaFree(A));
  CUDA_CHECK(cudaFree(b));
  CUDA_CHECK(cudaFree(Xc));
  CUDA_CHECK(cudaFree(Yc));
}

int main() {
  const OptionData o{36.0, 40.0, 0.06, 0.2, 1.0, OptionType::Put}; // Longstaff-Schwartz table 1
  const int npaths = 1 << 14, steps = 50, threads = 256;
  const int blocks = (npaths + threads - 1) / threads;
  const double disc = std::exp(-o.rate * o.expiry / steps);

  double *d_paths, *d_value, *d_X, *d_Y, *d_beta, *d_check;
  CUDA_CHECK(cudaMalloc(&d_paths, (size_t)npaths * steps * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_value, npaths * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_X, (size_t)npaths * kBasis * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_Y, npaths * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_beta, kBasis * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_check, 3 * kBasis * sizeof(double)));

  Solvers s{};
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CUBLAS_CHECK(cublasCreate(&s.blas));
  CUSOLVER_CHECK(cusolverDnCreate(&s.dn));
  CUBLAS_CHECK(cublasSetStream(s.blas, stream));
  CUSOLVER_CHECK(cusolverDnSetStream(s.dn, stream));
  CUDA_CHECK(cudaMalloc(&s.A, kBasis * kBasis * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&s.b, kBasis * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&s.info, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&s.ipiv, kBasis * sizeof(int)));
  CUSOLVER_CHECK(
      cusolverDnDpotrf_bufferSize(s.dn, CUBLAS_FILL_MODE_LOWER, kBasis, s.A, kBasis, &s.lwork));
  CUDA_CHECK(cudaMalloc(&s.work, s.lwork * sizeof(double)));

  lsm_paths_kernel<<<blocks, threads, 0, stream>>>(d_paths, npaths, steps, o, 2718ULL);
  CHECK_LAST_KERNEL();
  lsm_terminal_kernel<<<blocks, threads, 0, stream>>>(d_paths + (size_t)(steps - 1) * npaths,
                                                      d_value, npaths, o);
  double max_beta_diff = 0.0;
  for (int t = steps - 1; t >= 1; --t) {
    const double *spot = d_paths + (size_t)(t - 1) * npaths;
    lsm_regression_kernel<<<blocks, threads, 0, stream>>>(spot, d_value, d_X, d_Y, npaths, o,
                                                          disc);
    CHECK_LAST_KERNEL();
    if (t == steps / 2) {
      irs_solve(s, d_X, d_Y, npaths, d_check + kBasis, d_check + 2 * kBasis);
    }
    normal_equations(s, d_X, d_Y, npaths, d_beta);
    int info = 0;
    CUDA_CHECK(cudaMemcpyAsync(&info, s.info, sizeof info, cudaMemcpyDeviceToHost, stream));
    if (t == steps / 2) {
      // X, Y are rebuilt after the QR, which destroys them.
      qr_solve(s, d_X, d_Y, npaths, d_check);
      lsm_regression_kernel<<<blocks, threads, 0, stream>>>(spot, d_value, d_X, d_Y, npaths, o,
                                                            1.0);
      double h[4][kBasis];
      CUDA_CHECK(cudaMemcpyAsync(h[0], d_beta, sizeof h[0], cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaMemcpyAsync(h[1], d_check, 3 * sizeof h[0], cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));
      for (int k = 1; k < 4; ++k)
        for (int j = 0; j < kBasis; ++j)
          max_beta_diff =
              std::max(max_beta_diff, std::fabs(h[k][j] - h[0][j]) / (1.0 + std::fabs(h[0][j])));
      std::printf("t=%d beta chol (%.4f %.4f %.4f) qr (%.4f %.4f %.4f)\n", t, h[0][0], h[0][1],
                  h[0][2], h[1][0], h[1][1], h[1][2]);
    }
    lsm_exercise_kernel<<<blocks, threads, 0, stream>>>(spot, d_value, d_beta, npaths, o);
    CHECK_LAST_KERNEL();
    CUDA_CHECK(cudaStreamSynchronize(stream));
    if (info != 0) {
      std::fprintf(stderr, "potrf/potrs info %d at step %d\n", info, t);
      return EXIT_FAILURE;
    }
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
  // (The trial reduces with thrust::reduce; this copy sums on the host,
  // which keeps Thrust out of the combined build.)
  std::vector<double> values(npaths);
  CUDA_CHECK(cudaMemcpy(values.data(), d_value, npaths * sizeof(double), cudaMemcpyDeviceToHost));
  const double mean = std::accumulate(values.begin(), values.end(), 0.0) / npaths;
  const double lsm = std::max(disc * mean, o.strike - o.spot);
  const double tree = host_crr(o, 1000, true);
  const double euro = host_black_scholes(o.spot, o.strike, o.rate, o.vol, o.expiry, o.type);
  std::printf("lsm american put %.4f, binomial %.4f, european %.4f, beta diff %.2e\n", lsm, tree,
              euro, max_beta_diff);
  int fails = report("lsm vs binomial", std::fabs(lsm - tree) < 0.05 && lsm > euro);
  fails += report("lsm solvers agree", max_beta_diff < 1e-8);

  cublasDestroy(s.blas);
  cusolverDnDestroy(s.dn);
  CUDA_CHECK(cudaStreamDestroy(stream));
  for (double *p : {d_paths, d_value, d_X, d_Y, d_beta, d_check, s.A, s.b, s.work})
    CUDA_CHECK(cudaFree(p));
  CUDA_CHECK(cudaFree(s.info));
  CUDA_CHECK(cudaFree(s.ipiv));
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? EXIT_FAILURE : EXIT_SUCCESS;
}
