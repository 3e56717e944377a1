/* solver_linear.cu: a dense linear solver in the style of the CUDA
 * samples' cuSolverDn_LinearSolver: a kernel generates the 2-D Laplacian of
 * a 12 x 12 grid (n = 144, symmetric positive definite) on the device,
 * b = ones, and the system is solved three ways on one stream: Cholesky
 * (potrf + potrs), LU with partial pivoting (getrf + getrs) and QR (geqrf,
 * ormqr for Q^T b, cublasDtrsm with R). Each prints its time and the
 * relative residual ||b - A x|| / (||A|| ||x||) and must be below 1e-12.
 * CUEMU_OPTIONS: -O0 -lcusolver -lcublas
 * NVCC_OPTIONS: -lcusolver -lcublas */
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include <cublas_v2.h>
#include <cusolverDn.h>

#include "../cudalibs/check_libs.h"

#define CHECK_SOLVER(call) EXPECT_STATUS(call, CUSOLVER_STATUS_SUCCESS)

/* Row i of the 5-point Laplacian of a g x g grid, column-major. */
__global__ void laplacian(int g, double *a) {
  int n = g * g;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int x = i % g, y = i / g;
  for (int j = 0; j < n; ++j)
    a[(size_t)j * n + i] = 0.0;
  a[(size_t)i * n + i] = 4.0;
  if (x > 0)
    a[(size_t)(i - 1) * n + i] = -1.0;
  if (x < g - 1)
    a[(size_t)(i + 1) * n + i] = -1.0;
  if (y > 0)
    a[(size_t)(i - g) * n + i] = -1.0;
  if (y < g - 1)
    a[(size_t)(i + g) * n + i] = -1.0;
}

static double residual(const std::vector<double> &a,
                       const std::vector<double> &x,
                       const std::vector<double> &b, int n) {
  double r = 0, an = 0, xn = 0;
  for (int i = 0; i < n; ++i) {
    double s = b[i], row = 0;
    for (int j = 0; j < n; ++j) {
      s -= a[(size_t)j * n + i] * x[j];
      row += std::fabs(a[(size_t)j * n + i]);
    }
    r = std::fmax(r, std::fabs(s));
    an = std::fmax(an, row);
    xn = std::fmax(xn, std::fabs(x[i]));
  }
  return r / (an * xn);
}

int main(void) {
  const int g = 12, n = g * g, lda = n;
  cusolverDnHandle_t solver;
  cublasHandle_t blas;
  cudaStream_t stream;
  CHECK_SOLVER(cusolverDnCreate(&solver));
  EXPECT_STATUS(cublasCreate(&blas), CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CHECK_SOLVER(cusolverDnSetStream(solver, stream));
  cublasSetStream(blas, stream);
  cudaStream_t got = nullptr;
  CHECK_SOLVER(cusolverDnGetStream(solver, &got));
  EXPECT(got == stream, "cusolverDnGetStream");

  double *d_a0, *d_a, *d_b, *d_tau, *d_work;
  int *d_info, *d_ipiv;
  CHECK_CUDA(cudaMalloc(&d_a0, sizeof(double) * n * n));
  CHECK_CUDA(cudaMalloc(&d_a, sizeof(double) * n * n));
  CHECK_CUDA(cudaMalloc(&d_b, sizeof(double) * n));
  CHECK_CUDA(cudaMalloc(&d_tau, sizeof(double) * n));
  CHECK_CUDA(cudaMalloc(&d_info, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_ipiv, sizeof(int) * n));
  laplacian<<<(n + 63) / 64, 64, 0, stream>>>(g, d_a0);
  CHECK_CUDA(cudaGetLastError());

  int lwork = 0, l;
  CHECK_SOLVER(cusolverDnDpotrf_bufferSize(solver, CUBLAS_FILL_MODE_LOWER, n,
                                           d_a0, lda, &l));
  lwork = l > lwork ? l : lwork;
  CHECK_SOLVER(cusolverDnDgetrf_bufferSize(solver, n, n, d_a0, lda, &l));
  lwork = l > lwork ? l : lwork;
  CHECK_SOLVER(cusolverDnDgeqrf_bufferSize(solver, n, n, d_a0, lda, &l));
  lwork = l > lwork ? l : lwork;
  CHECK_CUDA(cudaMalloc(&d_work, sizeof(double) * lwork));

  std::vector<double> a((size_t)n * n), ones(n, 1.0), x(n);
  CHECK_CUDA(cudaMemcpyAsync(a.data(), d_a0, sizeof(double) * n * n,
                             cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  const char *names[] = {"Cholesky", "LU", "QR"};
  for (int method = 0; method < 3; ++method) {
    auto start = std::chrono::steady_clock::now();
    CHECK_CUDA(cudaMemcpyAsync(d_a, d_a0, sizeof(double) * n * n,
                               cudaMemcpyDeviceToDevice, stream));
    CHECK_CUDA(cudaMemcpyAsync(d_b, ones.data(), sizeof(double) * n,
                               cudaMemcpyHostToDevice, stream));
    if (method == 0) {
      CHECK_SOLVER(cusolverDnDpotrf(solver, CUBLAS_FILL_MODE_LOWER, n, d_a, lda,
                                    d_work, lwork, d_info));
      CHECK_SOLVER(cusolverDnDpotrs(solver, CUBLAS_FILL_MODE_LOWER, n, 1, d_a,
                                    lda, d_b, n, d_info));
    } else if (method == 1) {
      CHECK_SOLVER(
          cusolverDnDgetrf(solver, n, n, d_a, lda, d_work, d_ipiv, d_info));
      CHECK_SOLVER(cusolverDnDgetrs(solver, CUBLAS_OP_N, n, 1, d_a, lda, d_ipiv,
                                    d_b, n, d_info));
    } else {
      const double one = 1.0;
      CHECK_SOLVER(cusolverDnDgeqrf(solver, n, n, d_a, lda, d_tau, d_work,
                                    lwork, d_info));
      CHECK_SOLVER(cusolverDnDormqr(solver, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, n, 1,
                                    n, d_a, lda, d_tau, d_b, n, d_work, lwork,
                                    d_info));
      EXPECT_STATUS(cublasDtrsm(blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER,
                                CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, 1, &one,
                                d_a, lda, d_b, n),
                    CUBLAS_STATUS_SUCCESS);
    }
    int info = -1;
    CHECK_CUDA(cudaMemcpyAsync(&info, d_info, sizeof(int),
                               cudaMemcpyDeviceToHost, stream));
    CHECK_CUDA(cudaMemcpyAsync(x.data(), d_b, sizeof(double) * n,
                               cudaMemcpyDeviceToHost, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    double r = residual(a, x, ones, n);
    std::printf("%-8s n = %d: %.3f ms, |b - A x| / (|A| |x|) = %.3e\n",
                names[method], n, ms, r);
    EXPECT(info == 0, "%s: info %d", names[method], info);
    EXPECT(r < 1e-12, "%s: residual %g", names[method], r);
  }
  cudaFree(d_a0);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_tau);
  cudaFree(d_info);
  cudaFree(d_ipiv);
  cudaFree(d_work);
  cublasDestroy(blas);
  CHECK_SOLVER(cusolverDnDestroy(solver));
  cudaStreamDestroy(stream);
  return finish();
}
