/* solver_tridiagonal.h: checks that solver_selective.cu runs (one program,
 * so that the test builds once): cuSOLVER's reduction to tridiagonal form
 * in the four types, lower and upper (the other triangle junk):
 * - sytrd/hetrd gives d, e and tau, d and e also on A's diagonal and first
 *   sub- or superdiagonal; orgtr/ungtr makes Q from them: Q^H Q = I and
 *   Q T Q^H = A, T the tridiagonal matrix of d and e;
 * - ormtr/unmtr: Q C (left, N) and C Q^H (right, T or C) against the
 *   host's products with that Q;
 * - bad arguments give info = -i.
 * The including file defines g_h (the handle, on a stream) and g_info. */
#ifndef SOLVER_TRIDIAGONAL_H
#define SOLVER_TRIDIAGONAL_H

#include "solver_host.h"

#define TRIDIAGONAL_OVERLOADS(P, T, R, OR, SY)                                 \
  static cusolverStatus_t sytrd(cusolverDnHandle_t h, cublasFillMode_t u,      \
                                int n, T *a, int lda, R *d, R *e, T *tau,      \
                                int *info) {                                   \
    int lw = 1;                                                                \
    cusolverStatus_t s =                                                       \
        cusolverDn##P##SY##trd_bufferSize(h, u, n, a, lda, d, e, tau, &lw);    \
    /* A bad argument's call too, for its info. */                             \
    if (s != CUSOLVER_STATUS_SUCCESS && s != CUSOLVER_STATUS_INVALID_VALUE)    \
      return s;                                                                \
    T *work;                                                                   \
    CHECK_CUDA(cudaMalloc(&work, (lw > 0 ? lw : 1) * sizeof(T)));              \
    s = cusolverDn##P##SY##trd(h, u, n, a, lda, d, e, tau, work, lw, info);    \
    cudaFree(work);                                                            \
    return s;                                                                  \
  }                                                                            \
  static cusolverStatus_t orgtr(cusolverDnHandle_t h, cublasFillMode_t u,      \
                                int n, T *a, int lda, const T *tau,            \
                                int *info) {                                   \
    int lw = 0;                                                                \
    cusolverStatus_t s =                                                       \
        cusolverDn##P##OR##gtr_bufferSize(h, u, n, a, lda, tau, &lw);          \
    if (s != CUSOLVER_STATUS_SUCCESS)                                          \
      return s;                                                                \
    T *work;                                                                   \
    CHECK_CUDA(cudaMalloc(&work, (lw > 0 ? lw : 1) * sizeof(T)));              \
    s = cusolverDn##P##OR##gtr(h, u, n, a, lda, tau, work, lw, info);          \
    cudaFree(work);                                                            \
    return s;                                                                  \
  }                                                                            \
  static cusolverStatus_t ormtr(cusolverDnHandle_t h, cublasSideMode_t side,   \
                                cublasFillMode_t u, cublasOperation_t op,      \
                                int m, int n, T *a, int lda, T *tau, T *c,     \
                                int ldc, int *info) {                          \
    int lw = 1;                                                                \
    cusolverStatus_t s = cusolverDn##P##OR##mtr_bufferSize(                    \
        h, side, u, op, m, n, a, lda, tau, c, ldc, &lw);                       \
    if (s != CUSOLVER_STATUS_SUCCESS && s != CUSOLVER_STATUS_INVALID_VALUE)    \
      return s;                                                                \
    T *work;                                                                   \
    CHECK_CUDA(cudaMalloc(&work, (lw > 0 ? lw : 1) * sizeof(T)));              \
    s = cusolverDn##P##OR##mtr(h, side, u, op, m, n, a, lda, tau, c, ldc,      \
                               work, lw, info);                                \
    cudaFree(work);                                                            \
    return s;                                                                  \
  }

TRIDIAGONAL_OVERLOADS(S, float, float, or, sy)
TRIDIAGONAL_OVERLOADS(D, double, double, or, sy)
TRIDIAGONAL_OVERLOADS(C, cuComplex, float, un, he)
TRIDIAGONAL_OVERLOADS(Z, cuDoubleComplex, double, un, he)

template <class T> static void check_sytrd(cublasFillMode_t uplo) {
  typedef typename real_of<T>::type R;
  const int n = 8, lda = 10, m = 5, ldc = 9;
  bool lower = uplo == CUBLAS_FILL_MODE_LOWER;
  char call[32];
  std::snprintf(call, sizeof call, "%s%strd %s", type_name<T>(),
                is_complex<T>() ? "he" : "sy", lower ? "lower" : "upper");
  mat a = random_mat<T>(n, n);
  a = mul(a, adjoint(a));
  for (int i = 0; i < n; ++i)
    a(i, i) -= 2.0;
  mat in = a; /* the other triangle holds junk */
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (lower ? i < j : i > j)
        in(i, j) = 55.0;
  T *da = to_device<T>(in, lda), *dtau;
  R *dd, *de;
  CHECK_CUDA(cudaMalloc(&dd, n * sizeof(R)));
  CHECK_CUDA(cudaMalloc(&de, (n - 1) * sizeof(R)));
  CHECK_CUDA(cudaMalloc(&dtau, (n - 1) * sizeof(T)));
  EXPECT_STATUS(sytrd(g_h, uplo, n, da, lda, dd, de, dtau, g_info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "%s: info %d", call, device_int(g_info));
  std::vector<R> d(n), e(n - 1);
  CHECK_CUDA(cudaMemcpy(d.data(), dd, n * sizeof(R), cudaMemcpyDeviceToHost));
  CHECK_CUDA(
      cudaMemcpy(e.data(), de, (n - 1) * sizeof(R), cudaMemcpyDeviceToHost));
  mat t(n, n), f = from_device<T>(da, n, n, lda);
  bool on_a = true;
  for (int i = 0; i < n; ++i) {
    t(i, i) = (double)d[i];
    on_a = on_a && f(i, i) == cplx((double)d[i], 0);
    if (i + 1 < n) {
      t(i + 1, i) = t(i, i + 1) = (double)e[i];
      on_a =
          on_a && (lower ? f(i + 1, i) : f(i, i + 1)) == cplx((double)e[i], 0);
    }
  }
  EXPECT(on_a, "%s: d and e are not on A's diagonals", call);

  /* Q from orgtr, over A. */
  EXPECT_STATUS(orgtr(g_h, uplo, n, da, lda, dtau, g_info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "%s: orgtr info %d", call,
         device_int(g_info));
  mat q = from_device<T>(da, n, n, lda);
  double o = diff(mul(q, q, true), eye(n)) / n;
  double r = diff(mul(mul(q, t), adjoint(q)), a) / norm(a);
  EXPECT(o < tolerance<T>() && r < tolerance<T>(),
         "%s + orgtr: ||Q^H Q - I|| %g, ||Q T Q^H - A|| %g", call, o, r);

  /* ormtr: Q C (n x m) and C Q^H (m x n), against the Q of orgtr. */
  CHECK_CUDA(cudaFree(da));
  da = to_device<T>(in, lda);
  EXPECT_STATUS(sytrd(g_h, uplo, n, da, lda, dd, de, dtau, g_info),
                CUSOLVER_STATUS_SUCCESS);
  mat c = random_mat<T>(n, m);
  T *dc = to_device<T>(c, ldc);
  EXPECT_STATUS(ormtr(g_h, CUBLAS_SIDE_LEFT, uplo, CUBLAS_OP_N, n, m, da, lda,
                      dtau, dc, ldc, g_info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "%s: ormtr info %d", call,
         device_int(g_info));
  r = diff(from_device<T>(dc, n, m, ldc), mul(q, c)) / norm(c);
  EXPECT(r < tolerance<T>(), "%s + ormtr: ||Q C - host's|| %g", call, r);
  cudaFree(dc);
  mat c2 = random_mat<T>(m, n);
  dc = to_device<T>(c2, ldc);
  EXPECT_STATUS(ormtr(g_h, CUBLAS_SIDE_RIGHT, uplo,
                      is_complex<T>() ? CUBLAS_OP_C : CUBLAS_OP_T, m, n, da,
                      lda, dtau, dc, ldc, g_info),
                CUSOLVER_STATUS_SUCCESS);
  r = diff(from_device<T>(dc, m, n, ldc), mul(c2, adjoint(q))) / norm(c2);
  EXPECT(r < tolerance<T>(), "%s + ormtr: ||C Q^H - host's|| %g", call, r);

  /* Bad arguments: sytrd's lda (-4), ormtr's trans T for a complex type
   * or ldc (-3, -10). */
  EXPECT_STATUS(sytrd(g_h, uplo, n, da, n - 1, dd, de, dtau, g_info),
                CUSOLVER_STATUS_INVALID_VALUE);
  EXPECT(device_int(g_info) == -4, "%s: lda < n: info %d", call,
         device_int(g_info));
  EXPECT_STATUS(ormtr(g_h, CUBLAS_SIDE_RIGHT, uplo, CUBLAS_OP_N, m, n, da, lda,
                      dtau, dc, m - 1, g_info),
                CUSOLVER_STATUS_INVALID_VALUE);
  EXPECT(device_int(g_info) == -10, "%s: ormtr ldc < m: info %d", call,
         device_int(g_info));
  if (is_complex<T>()) {
    EXPECT_STATUS(ormtr(g_h, CUBLAS_SIDE_RIGHT, uplo, CUBLAS_OP_T, m, n, da,
                        lda, dtau, dc, ldc, g_info),
                  CUSOLVER_STATUS_INVALID_VALUE);
    EXPECT(device_int(g_info) == -3, "%s: unmtr with T: info %d", call,
           device_int(g_info));
  }
  cudaFree(dc);
  cudaFree(da);
  cudaFree(dd);
  cudaFree(de);
  cudaFree(dtau);
}

static void check_tridiagonal(void) {
  const cublasFillMode_t uplos[] = {CUBLAS_FILL_MODE_LOWER,
                                    CUBLAS_FILL_MODE_UPPER};
  for (cublasFillMode_t uplo : uplos) {
    check_sytrd<float>(uplo);
    check_sytrd<double>(uplo);
    check_sytrd<cuComplex>(uplo);
    check_sytrd<cuDoubleComplex>(uplo);
  }
}

#endif /* SOLVER_TRIDIAGONAL_H */
