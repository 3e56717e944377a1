/* solver_types.cu: cuSOLVER's dense factorizations in the four types
 * (S, D, C, Z), each checked by residuals against host products: LU with
 * and without pivoting solved with op N, T and C; Cholesky upper and lower
 * with potrs and potri; QR with orgqr/ungqr (||Q R - A||, ||Q^H Q - I||)
 * and ormqr/unmqr from both sides; then the 64-bit generic API (Xgetrf,
 * Xgetrs, Xpotrf, Xpotrs, Xgeqrf) in double.
 * CUEMU_OPTIONS: -O0 -lcusolver
 * NVCC_OPTIONS: -lcusolver */
#include "solver_host.h"

static cusolverDnHandle_t g_h;
static int *g_info;

template <class T> static T *workspace(int lwork) {
  T *w;
  CHECK_CUDA(cudaMalloc(&w, (lwork > 0 ? lwork : 1) * sizeof(T)));
  return w;
}

template <class T> static void check_lu(void) {
  const int n = 24, nrhs = 3, lda = 27;
  const char *t = type_name<T>();
  for (int pivot = 1; pivot >= 0; --pivot) {
    mat a = random_mat<T>(n, n);
    if (!pivot) /* diagonally dominant: no pivoting needed */
      for (int i = 0; i < n; ++i)
        a(i, i) += (double)n;
    T *da = to_device<T>(a, lda);
    int lwork = 0, *ipiv = nullptr;
    EXPECT_STATUS(getrf_bufferSize(g_h, n, n, da, lda, &lwork),
                  CUSOLVER_STATUS_SUCCESS);
    T *w = workspace<T>(lwork);
    if (pivot)
      CHECK_CUDA(cudaMalloc(&ipiv, n * sizeof(int)));
    EXPECT_STATUS(getrf(g_h, n, n, da, lda, w, ipiv, g_info),
                  CUSOLVER_STATUS_SUCCESS);
    EXPECT(device_int(g_info) == 0, "%sgetrf info %d", t, device_int(g_info));
    const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
    for (cublasOperation_t op : ops) {
      mat b = random_mat<T>(n, nrhs);
      T *db = to_device<T>(b, n);
      EXPECT_STATUS(getrs(g_h, op, n, nrhs, da, lda, ipiv, db, n, g_info),
                    CUSOLVER_STATUS_SUCCESS);
      mat x = from_device<T>(db, n, nrhs, n);
      mat opa = op == CUBLAS_OP_N   ? a
                : op == CUBLAS_OP_T ? transpose(a)
                                    : adjoint(a);
      double r = diff(mul(opa, x), b) / (norm(opa) * norm(x));
      EXPECT(r < tolerance<T>() && device_int(g_info) == 0,
             "%sgetrs pivot %d op %d: residual %g", t, pivot, (int)op, r);
      cudaFree(db);
    }
    cudaFree(da);
    cudaFree(w);
    cudaFree(ipiv);
  }
}

/* The full Hermitian matrix from the triangle `uplo` of m. */
static mat hermitian_from(const mat &m, cublasFillMode_t uplo) {
  mat f(m.rows, m.cols);
  for (int j = 0; j < m.cols; ++j)
    for (int i = 0; i < m.rows; ++i) {
      bool in = uplo == CUBLAS_FILL_MODE_LOWER ? i >= j : i <= j;
      f(i, j) = in ? m(i, j) : std::conj(m(j, i));
    }
  return f;
}

template <class T> static void check_cholesky(void) {
  const int n = 20, nrhs = 2, lda = 22;
  const char *t = type_name<T>();
  mat g = random_mat<T>(n, n);
  mat a = mul(g, g, true);
  for (int i = 0; i < n; ++i)
    a(i, i) += (double)n;
  const cublasFillMode_t uplos[] = {CUBLAS_FILL_MODE_LOWER,
                                    CUBLAS_FILL_MODE_UPPER};
  for (cublasFillMode_t uplo : uplos) {
    T *da = to_device<T>(a, lda);
    int lwork = 0;
    EXPECT_STATUS(potrf_bufferSize(g_h, uplo, n, da, lda, &lwork),
                  CUSOLVER_STATUS_SUCCESS);
    T *w = workspace<T>(lwork);
    EXPECT_STATUS(potrf(g_h, uplo, n, da, lda, w, lwork, g_info),
                  CUSOLVER_STATUS_SUCCESS);
    EXPECT(device_int(g_info) == 0, "%spotrf info", t);
    /* The factor reproduces A: L L^H or U^H U. */
    mat f = from_device<T>(da, n, n, lda);
    mat tri(n, n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        if (uplo == CUBLAS_FILL_MODE_LOWER ? i >= j : i <= j)
          tri(i, j) = f(i, j);
    mat back = uplo == CUBLAS_FILL_MODE_LOWER ? mul(tri, adjoint(tri))
                                              : mul(tri, tri, true);
    double r = diff(back, a) / norm(a);
    EXPECT(r < tolerance<T>(), "%spotrf uplo %d: ||F F^H - A|| %g", t,
           (int)uplo, r);
    mat b = random_mat<T>(n, nrhs);
    T *db = to_device<T>(b, n);
    EXPECT_STATUS(potrs(g_h, uplo, n, nrhs, da, lda, db, n, g_info),
                  CUSOLVER_STATUS_SUCCESS);
    mat x = from_device<T>(db, n, nrhs, n);
    r = diff(mul(a, x), b) / (norm(a) * norm(x));
    EXPECT(r < tolerance<T>(), "%spotrs uplo %d: residual %g", t, (int)uplo, r);
    EXPECT_STATUS(potri_bufferSize(g_h, uplo, n, da, lda, &lwork),
                  CUSOLVER_STATUS_SUCCESS);
    EXPECT_STATUS(potri(g_h, uplo, n, da, lda, w, lwork, g_info),
                  CUSOLVER_STATUS_SUCCESS);
    mat inv = hermitian_from(from_device<T>(da, n, n, lda), uplo);
    r = diff(mul(inv, a), eye(n)) / n;
    EXPECT(r < tolerance<T>() && device_int(g_info) == 0,
           "%spotri uplo %d: ||inv(A) A - I|| %g", t, (int)uplo, r);
    cudaFree(da);
    cudaFree(db);
    cudaFree(w);
  }
}

template <class T> static void check_qr(void) {
  const int m = 30, n = 20, lda = 32;
  const char *t = type_name<T>();
  mat a = random_mat<T>(m, n);
  T *da = to_device<T>(a, lda), *tau;
  CHECK_CUDA(cudaMalloc(&tau, n * sizeof(T)));
  int lwork = 0;
  EXPECT_STATUS(geqrf_bufferSize(g_h, m, n, da, lda, &lwork),
                CUSOLVER_STATUS_SUCCESS);
  T *w = workspace<T>(lwork);
  EXPECT_STATUS(geqrf(g_h, m, n, da, lda, tau, w, lwork, g_info),
                CUSOLVER_STATUS_SUCCESS);
  mat qr = from_device<T>(da, m, n, lda);
  mat r(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i)
      r(i, j) = qr(i, j);
  /* ormqr/unmqr: Q^H A = [R; 0] from the left, in place of A's copy. */
  T *dc = to_device<T>(a, m);
  cublasOperation_t adj = is_complex<T>() ? CUBLAS_OP_C : CUBLAS_OP_T;
  EXPECT_STATUS(mqr_bufferSize(g_h, CUBLAS_SIDE_LEFT, adj, m, n, n, da, lda,
                               tau, dc, m, &lwork),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(mqr(g_h, CUBLAS_SIDE_LEFT, adj, m, n, n, da, lda, tau, dc, m, w,
                    lwork, g_info),
                CUSOLVER_STATUS_SUCCESS);
  mat qha = from_device<T>(dc, m, n, m);
  mat rz(m, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i)
      rz(i, j) = r(i, j);
  double e = diff(qha, rz) / norm(a);
  EXPECT(e < tolerance<T>(), "%sormqr left adjoint: ||Q^H A - R|| %g", t, e);
  /* From the right: (A^H) Q = [R^H 0]. */
  T *dd = to_device<T>(adjoint(a), n);
  EXPECT_STATUS(mqr(g_h, CUBLAS_SIDE_RIGHT, CUBLAS_OP_N, n, m, n, da, lda, tau,
                    dd, n, w, lwork, g_info),
                CUSOLVER_STATUS_SUCCESS);
  e = diff(from_device<T>(dd, n, m, n), adjoint(rz)) / norm(a);
  EXPECT(e < tolerance<T>(), "%sormqr right: ||A^H Q - R^H|| %g", t, e);
  /* orgqr/ungqr: the m x n Q. */
  EXPECT_STATUS(gqr_bufferSize(g_h, m, n, n, da, lda, tau, &lwork),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(gqr(g_h, m, n, n, da, lda, tau, w, lwork, g_info),
                CUSOLVER_STATUS_SUCCESS);
  mat q = from_device<T>(da, m, n, lda);
  e = diff(mul(q, r), a) / norm(a);
  double o = diff(mul(q, q, true), eye(n)) / n;
  EXPECT(e < tolerance<T>() && o < tolerance<T>() && device_int(g_info) == 0,
         "%sorgqr: ||Q R - A|| %g, ||Q^H Q - I|| %g", t, e, o);
  cudaFree(da);
  cudaFree(dc);
  cudaFree(dd);
  cudaFree(tau);
  cudaFree(w);
}

/* The 64-bit generic API on doubles. */
static void check_generic(void) {
  const int64_t n = 16, nrhs = 2;
  cusolverDnParams_t params;
  EXPECT_STATUS(cusolverDnCreateParams(&params), CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(
      cusolverDnSetAdvOptions(params, CUSOLVERDN_GETRF, CUSOLVER_ALG_0),
      CUSOLVER_STATUS_SUCCESS);
  mat a = random_mat<double>(n, n);
  mat b = random_mat<double>(n, nrhs);
  double *da = to_device<double>(a, n), *db = to_device<double>(b, n);
  size_t dev_bytes = 0, host_bytes = 0;
  EXPECT_STATUS(cusolverDnXgetrf_bufferSize(g_h, params, n, n, CUDA_R_64F, da,
                                            n, CUDA_R_64F, &dev_bytes,
                                            &host_bytes),
                CUSOLVER_STATUS_SUCCESS);
  void *dwork, *hwork = std::malloc(host_bytes + 1);
  CHECK_CUDA(cudaMalloc(&dwork, dev_bytes + 1));
  int64_t *ipiv;
  CHECK_CUDA(cudaMalloc(&ipiv, n * sizeof(int64_t)));
  EXPECT_STATUS(cusolverDnXgetrf(g_h, params, n, n, CUDA_R_64F, da, n, ipiv,
                                 CUDA_R_64F, dwork, dev_bytes, hwork,
                                 host_bytes, g_info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverDnXgetrs(g_h, params, CUBLAS_OP_N, n, nrhs, CUDA_R_64F,
                                 da, n, ipiv, CUDA_R_64F, db, n, g_info),
                CUSOLVER_STATUS_SUCCESS);
  mat x = from_device<double>(db, n, nrhs, n);
  double r = diff(mul(a, x), b) / (norm(a) * norm(x));
  EXPECT(r < 1e-12 && device_int(g_info) == 0, "Xgetrs residual %g", r);

  mat spd = mul(a, a, true);
  for (int i = 0; i < n; ++i)
    spd(i, i) += (double)n;
  cudaFree(da);
  da = to_device<double>(spd, n);
  cudaFree(db);
  db = to_device<double>(b, n);
  EXPECT_STATUS(cusolverDnXpotrf_bufferSize(g_h, params, CUBLAS_FILL_MODE_UPPER,
                                            n, CUDA_R_64F, da, n, CUDA_R_64F,
                                            &dev_bytes, &host_bytes),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverDnXpotrf(g_h, params, CUBLAS_FILL_MODE_UPPER, n,
                                 CUDA_R_64F, da, n, CUDA_R_64F, dwork,
                                 dev_bytes, hwork, host_bytes, g_info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverDnXpotrs(g_h, params, CUBLAS_FILL_MODE_UPPER, n, nrhs,
                                 CUDA_R_64F, da, n, CUDA_R_64F, db, n, g_info),
                CUSOLVER_STATUS_SUCCESS);
  x = from_device<double>(db, n, nrhs, n);
  r = diff(mul(spd, x), b) / (norm(spd) * norm(x));
  EXPECT(r < 1e-12 && device_int(g_info) == 0, "Xpotrs residual %g", r);

  cudaFree(da);
  da = to_device<double>(a, n);
  double *tau;
  CHECK_CUDA(cudaMalloc(&tau, n * sizeof(double)));
  EXPECT_STATUS(cusolverDnXgeqrf_bufferSize(g_h, params, n, n, CUDA_R_64F, da,
                                            n, CUDA_R_64F, tau, CUDA_R_64F,
                                            &dev_bytes, &host_bytes),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverDnXgeqrf(g_h, params, n, n, CUDA_R_64F, da, n,
                                 CUDA_R_64F, tau, CUDA_R_64F, dwork, dev_bytes,
                                 hwork, host_bytes, g_info),
                CUSOLVER_STATUS_SUCCESS);
  /* |R|'s diagonal is the norms of A's columns after projection: R's first
   * is A's first column's norm. */
  mat qr = from_device<double>(da, n, n, n);
  double c0 = 0;
  for (int i = 0; i < n; ++i)
    c0 += std::norm(a(i, 0));
  EXPECT(std::fabs(std::abs(qr(0, 0)) - std::sqrt(c0)) < 1e-12,
         "Xgeqrf R(0,0) %g vs %g", std::abs(qr(0, 0)), std::sqrt(c0));
  EXPECT_STATUS(cusolverDnDestroyParams(params), CUSOLVER_STATUS_SUCCESS);
  cudaFree(da);
  cudaFree(db);
  cudaFree(tau);
  cudaFree(ipiv);
  cudaFree(dwork);
  std::free(hwork);
}

template <class T> static void check_type(void) {
  check_lu<T>();
  check_cholesky<T>();
  check_qr<T>();
}

int main(void) {
  if (cusolverDnCreate(&g_h) != CUSOLVER_STATUS_SUCCESS) {
    std::printf("cusolverDnCreate failed\n");
    return 1;
  }
  CHECK_CUDA(cudaMalloc(&g_info, sizeof(int)));
  check_type<float>();
  check_type<double>();
  check_type<cuComplex>();
  check_type<cuDoubleComplex>();
  check_generic();
  cudaFree(g_info);
  cusolverDnDestroy(g_h);
  return finish();
}
