/* solver_jacobi.h: checks that solver_spectral.cu runs (one program, so
 * that the test builds once): cuSOLVER's Jacobi solvers, the 64-bit
 * generic eigen-solver and SVD, and the batched Cholesky, each checked by
 * a residual against host products:
 * - syevj/heevj (S and Z), lower and upper, with a tolerance and a limit
 *   of sweeps set on the syevjInfo_t and the residual and sweeps read
 *   back; one sweep allowed on a tight tolerance gives info = n + 1;
 * - gesvdj (D and C), tall and wide, full and economy, ||A - U S V^H||,
 *   U and V orthonormal, the same S without vectors;
 * - syevjBatched (unsorted) and gesvdjBatched (D), each matrix of the
 *   batch by its residual, their reports not supported;
 * - sygvd (D, lower) and hegvj (C, upper) for the three problem types,
 *   an indefinite B giving info > n;
 * - cusolverDnXsyevd and cusolverDnXgesvd (D and C);
 * - potrfBatched and potrsBatched (S and Z), one matrix of the batch
 *   indefinite.
 * The including file defines g_h (the handle, on a stream) and g_info. */
#ifndef SOLVER_JACOBI_H
#define SOLVER_JACOBI_H

#include "solver_host.h"

#define JACOBI_OVERLOADS(P, T, R, SY)                                          \
  static cusolverStatus_t evj_bufferSize(                                      \
      cusolverDnHandle_t h, cusolverEigMode_t j, cublasFillMode_t u, int n,    \
      const T *a, int lda, const R *w, int *lw, syevjInfo_t p) {               \
    return cusolverDn##P##SY##evj_bufferSize(h, j, u, n, a, lda, w, lw, p);    \
  }                                                                            \
  static cusolverStatus_t evj(cusolverDnHandle_t h, cusolverEigMode_t j,       \
                              cublasFillMode_t u, int n, T *a, int lda, R *w,  \
                              T *work, int lw, int *info, syevjInfo_t p) {     \
    return cusolverDn##P##SY##evj(h, j, u, n, a, lda, w, work, lw, info, p);   \
  }                                                                            \
  static cusolverStatus_t gesvdj_bufferSize(                                   \
      cusolverDnHandle_t h, cusolverEigMode_t j, int econ, int m, int n,       \
      const T *a, int lda, const R *s, const T *u, int ldu, const T *v,        \
      int ldv, int *lw, gesvdjInfo_t p) {                                      \
    return cusolverDn##P##gesvdj_bufferSize(h, j, econ, m, n, a, lda, s, u,    \
                                            ldu, v, ldv, lw, p);               \
  }                                                                            \
  static cusolverStatus_t gesvdj(cusolverDnHandle_t h, cusolverEigMode_t j,    \
                                 int econ, int m, int n, T *a, int lda, R *s,  \
                                 T *u, int ldu, T *v, int ldv, T *work,        \
                                 int lw, int *info, gesvdjInfo_t p) {          \
    return cusolverDn##P##gesvdj(h, j, econ, m, n, a, lda, s, u, ldu, v, ldv,  \
                                 work, lw, info, p);                           \
  }                                                                            \
  static cusolverStatus_t evjBatched(                                          \
      cusolverDnHandle_t h, cusolverEigMode_t j, cublasFillMode_t u, int n,    \
      T *a, int lda, R *w, int *info, syevjInfo_t p, int batch) {              \
    int lw = 0;                                                                \
    cusolverStatus_t s = cusolverDn##P##SY##evjBatched_bufferSize(             \
        h, j, u, n, a, lda, w, &lw, p, batch);                                 \
    if (s != CUSOLVER_STATUS_SUCCESS)                                          \
      return s;                                                                \
    T *work;                                                                   \
    CHECK_CUDA(cudaMalloc(&work, (lw > 0 ? lw : 1) * sizeof(T)));              \
    s = cusolverDn##P##SY##evjBatched(h, j, u, n, a, lda, w, work, lw, info,   \
                                      p, batch);                               \
    cudaFree(work);                                                            \
    return s;                                                                  \
  }                                                                            \
  static cusolverStatus_t gesvdjBatched(                                       \
      cusolverDnHandle_t h, cusolverEigMode_t j, int m, int n, T *a, int lda,  \
      R *s, T *u, int ldu, T *v, int ldv, int *info, gesvdjInfo_t p,           \
      int batch) {                                                             \
    int lw = 0;                                                                \
    cusolverStatus_t st = cusolverDn##P##gesvdjBatched_bufferSize(             \
        h, j, m, n, a, lda, s, u, ldu, v, ldv, &lw, p, batch);                 \
    if (st != CUSOLVER_STATUS_SUCCESS)                                         \
      return st;                                                               \
    T *work;                                                                   \
    CHECK_CUDA(cudaMalloc(&work, (lw > 0 ? lw : 1) * sizeof(T)));              \
    st = cusolverDn##P##gesvdjBatched(h, j, m, n, a, lda, s, u, ldu, v, ldv,   \
                                      work, lw, info, p, batch);               \
    cudaFree(work);                                                            \
    return st;                                                                 \
  }                                                                            \
  static cusolverStatus_t gvd(cusolverDnHandle_t h, cusolverEigType_t it,     \
                              cusolverEigMode_t j, cublasFillMode_t u, int n,  \
                              T *a, int lda, T *b, int ldb, R *w, int *info,   \
                              syevjInfo_t p) {                                 \
    int lw = 0;                                                                \
    cusolverStatus_t s =                                                       \
        p ? cusolverDn##P##SY##gvj_bufferSize(h, it, j, u, n, a, lda, b, ldb,  \
                                              w, &lw, p)                       \
          : cusolverDn##P##SY##gvd_bufferSize(h, it, j, u, n, a, lda, b, ldb,  \
                                              w, &lw);                         \
    if (s != CUSOLVER_STATUS_SUCCESS)                                          \
      return s;                                                                \
    T *work;                                                                   \
    CHECK_CUDA(cudaMalloc(&work, (lw > 0 ? lw : 1) * sizeof(T)));              \
    s = p ? cusolverDn##P##SY##gvj(h, it, j, u, n, a, lda, b, ldb, w, work,    \
                                   lw, info, p)                                \
          : cusolverDn##P##SY##gvd(h, it, j, u, n, a, lda, b, ldb, w, work,    \
                                   lw, info);                                  \
    cudaFree(work);                                                            \
    return s;                                                                  \
  }                                                                            \
  static cusolverStatus_t potrfBatched(cusolverDnHandle_t h,                   \
                                       cublasFillMode_t u, int n, T **a,       \
                                       int lda, int *info, int batch) {        \
    return cusolverDn##P##potrfBatched(h, u, n, a, lda, info, batch);          \
  }                                                                            \
  static cusolverStatus_t potrsBatched(cusolverDnHandle_t h,                   \
                                       cublasFillMode_t u, int n, int nrhs,    \
                                       T **a, int lda, T **b, int ldb,         \
                                       int *info, int batch) {                 \
    return cusolverDn##P##potrsBatched(h, u, n, nrhs, a, lda, b, ldb, info,    \
                                       batch);                                 \
  }

JACOBI_OVERLOADS(S, float, float, sy)
JACOBI_OVERLOADS(D, double, double, sy)
JACOBI_OVERLOADS(C, cuComplex, float, he)
JACOBI_OVERLOADS(Z, cuDoubleComplex, double, he)

template <class T> static cudaDataType data_type();
template <> cudaDataType data_type<float>() { return CUDA_R_32F; }
template <> cudaDataType data_type<double>() { return CUDA_R_64F; }
template <> cudaDataType data_type<cuComplex>() { return CUDA_C_32F; }
template <> cudaDataType data_type<cuDoubleComplex>() { return CUDA_C_64F; }

template <class R> static std::vector<R> from_device_real(const R *d, int n) {
  std::vector<R> v(n);
  CHECK_CUDA(cudaMemcpy(v.data(), d, n * sizeof(R), cudaMemcpyDeviceToHost));
  return v;
}

/* A Hermitian n x n matrix with eigenvalues of both signs. */
template <class T> static mat hermitian(int n) {
  mat g = random_mat<T>(n, n);
  mat a = mul(g, adjoint(g));
  for (int i = 0; i < n; ++i)
    a(i, i) -= 2.0;
  return a;
}

/* ||A V - V W|| / ||A|| and ||V^H V - I|| / n. */
template <class R>
static void eigen_residuals(const mat &a, const mat &v,
                            const std::vector<R> &w, double *r, double *o) {
  int n = a.rows;
  mat vw = v;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      vw(i, j) *= (double)w[j];
  *r = diff(mul(a, v), vw) / norm(a);
  *o = diff(mul(v, v, true), eye(n)) / n;
}

template <class T> static void check_syevj(void) {
  typedef typename real_of<T>::type R;
  const int n = 10, lda = 12;
  const char *t = type_name<T>();
  mat a = hermitian<T>(n);
  syevjInfo_t params;
  EXPECT_STATUS(cusolverDnCreateSyevjInfo(&params), CUSOLVER_STATUS_SUCCESS);
  double tol = sizeof(R) == 4 ? 1e-6 : 1e-13;
  EXPECT_STATUS(cusolverDnXsyevjSetTolerance(params, tol),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverDnXsyevjSetMaxSweeps(params, 30),
                CUSOLVER_STATUS_SUCCESS);
  R *dw;
  CHECK_CUDA(cudaMalloc(&dw, n * sizeof(R)));
  const cublasFillMode_t uplos[] = {CUBLAS_FILL_MODE_LOWER,
                                    CUBLAS_FILL_MODE_UPPER};
  for (cublasFillMode_t uplo : uplos) {
    mat in = a; /* the other triangle holds junk */
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        if (uplo == CUBLAS_FILL_MODE_LOWER ? i < j : i > j)
          in(i, j) = 77.0;
    T *da = to_device<T>(in, lda), *work;
    int lwork = 0;
    EXPECT_STATUS(evj_bufferSize(g_h, CUSOLVER_EIG_MODE_VECTOR, uplo, n, da,
                                 lda, dw, &lwork, params),
                  CUSOLVER_STATUS_SUCCESS);
    CHECK_CUDA(cudaMalloc(&work, (lwork > 0 ? lwork : 1) * sizeof(T)));
    EXPECT_STATUS(evj(g_h, CUSOLVER_EIG_MODE_VECTOR, uplo, n, da, lda, dw, work,
                      lwork, g_info, params),
                  CUSOLVER_STATUS_SUCCESS);
    EXPECT(device_int(g_info) == 0, "%ssyevj info %d", t, device_int(g_info));
    std::vector<R> w = from_device_real(dw, n);
    for (int i = 1; i < n; ++i)
      EXPECT(w[i - 1] <= w[i], "%ssyevj: eigenvalues not ascending", t);
    double r, o;
    eigen_residuals(a, from_device<T>(da, n, n, lda), w, &r, &o);
    EXPECT(r < tolerance<T>() && o < tolerance<T>(),
           "%ssyevj: ||A V - V W|| %g, ||V^H V - I|| %g", t, r, o);
    double residual = -1;
    int sweeps = -1;
    EXPECT_STATUS(cusolverDnXsyevjGetResidual(g_h, params, &residual),
                  CUSOLVER_STATUS_SUCCESS);
    EXPECT_STATUS(cusolverDnXsyevjGetSweeps(g_h, params, &sweeps),
                  CUSOLVER_STATUS_SUCCESS);
    if (uplo == CUBLAS_FILL_MODE_LOWER)
      std::printf("%ssyevj n=%d: %d sweeps, residual %.3g\n", t, n, sweeps,
                  residual);
    EXPECT(residual >= 0 && residual <= tol * norm(a) && sweeps >= 1 &&
               sweeps <= 30,
           "%ssyevj: residual %g (tolerance %g), %d sweeps", t, residual,
           tol * norm(a), sweeps);
    cudaFree(da);
    cudaFree(work);
  }
  /* One sweep cannot reach a tolerance near the machine's: info = n + 1,
   * and the eigenvalues alone (NOVECTOR) are still written. */
  EXPECT_STATUS(cusolverDnXsyevjSetMaxSweeps(params, 1),
                CUSOLVER_STATUS_SUCCESS);
  T *da = to_device<T>(a, lda);
  EXPECT_STATUS(evj(g_h, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_LOWER, n,
                    da, lda, dw, (T *)nullptr, 0, g_info, params),
                CUSOLVER_STATUS_SUCCESS);
  int sweeps = 0;
  EXPECT_STATUS(cusolverDnXsyevjGetSweeps(g_h, params, &sweeps),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == n + 1 && sweeps == 1,
         "%ssyevj one sweep: info %d, %d sweeps", t, device_int(g_info),
         sweeps);
  cudaFree(da);
  cudaFree(dw);
  EXPECT_STATUS(cusolverDnDestroySyevjInfo(params), CUSOLVER_STATUS_SUCCESS);
}

template <class T> static void check_gesvdj(int m, int n, int econ) {
  typedef typename real_of<T>::type R;
  const char *t = type_name<T>();
  int k = m < n ? m : n, lda = m + 1, ldu = m + 2, ldv = n + 1;
  int ucols = econ ? k : m, vcols = econ ? k : n;
  mat a = random_mat<T>(m, n);
  gesvdjInfo_t params;
  EXPECT_STATUS(cusolverDnCreateGesvdjInfo(&params), CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverDnXgesvdjSetTolerance(params, sizeof(R) == 4 ? 1e-7
                                                                     : 1e-14),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverDnXgesvdjSetMaxSweeps(params, 40),
                CUSOLVER_STATUS_SUCCESS);
  T *da = to_device<T>(a, lda), *du, *dv, *work;
  R *ds;
  CHECK_CUDA(cudaMalloc(&ds, k * sizeof(R)));
  CHECK_CUDA(cudaMalloc(&du, ldu * ucols * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&dv, ldv * vcols * sizeof(T)));
  int lwork = 0;
  EXPECT_STATUS(gesvdj_bufferSize(g_h, CUSOLVER_EIG_MODE_VECTOR, econ, m, n,
                                  da, lda, ds, du, ldu, dv, ldv, &lwork,
                                  params),
                CUSOLVER_STATUS_SUCCESS);
  CHECK_CUDA(cudaMalloc(&work, (lwork > 0 ? lwork : 1) * sizeof(T)));
  EXPECT_STATUS(gesvdj(g_h, CUSOLVER_EIG_MODE_VECTOR, econ, m, n, da, lda, ds,
                       du, ldu, dv, ldv, work, lwork, g_info, params),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "%sgesvdj %dx%d info %d", t, m, n,
         device_int(g_info));
  std::vector<R> s = from_device_real(ds, k);
  for (int i = 1; i < k; ++i)
    EXPECT(s[i - 1] >= s[i] && s[i] >= 0, "%sgesvdj: not descending", t);
  mat u = from_device<T>(du, m, ucols, ldu), v = from_device<T>(dv, n, vcols, ldv);
  double ou = diff(mul(u, u, true), eye(ucols)) / ucols;
  double ov = diff(mul(v, v, true), eye(vcols)) / vcols;
  mat us(m, k);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < m; ++i)
      us(i, j) = u(i, j) * (double)s[j];
  mat vk(n, k);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < n; ++i)
      vk(i, j) = v(i, j);
  double r = diff(mul(us, adjoint(vk)), a) / norm(a);
  EXPECT(r < tolerance<T>() && ou < tolerance<T>() && ov < tolerance<T>(),
         "%sgesvdj %dx%d econ %d: ||U S V^H - A|| %g, ||U^H U - I|| %g, "
         "||V^H V - I|| %g",
         t, m, n, econ, r, ou, ov);
  double residual = -1;
  int sweeps = 0;
  EXPECT_STATUS(cusolverDnXgesvdjGetResidual(g_h, params, &residual),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverDnXgesvdjGetSweeps(g_h, params, &sweeps),
                CUSOLVER_STATUS_SUCCESS);
  std::printf("%sgesvdj %dx%d econ %d: %d sweeps, residual %.3g\n", t, m, n,
              econ, sweeps, residual);
  EXPECT(residual >= 0 && residual < tolerance<T>() * norm(a) && sweeps >= 1,
         "%sgesvdj: residual %g, %d sweeps", t, residual, sweeps);
  /* The singular values alone, from a fresh copy of A. */
  cudaFree(da);
  da = to_device<T>(a, lda);
  EXPECT_STATUS(gesvdj(g_h, CUSOLVER_EIG_MODE_NOVECTOR, econ, m, n, da, lda,
                       ds, (T *)nullptr, ldu, (T *)nullptr, ldv, work, lwork,
                       g_info, params),
                CUSOLVER_STATUS_SUCCESS);
  std::vector<R> s2 = from_device_real(ds, k);
  for (int i = 0; i < k; ++i)
    EXPECT(std::fabs(s2[i] - s[i]) < tolerance<T>() * s[0],
           "%sgesvdj NOVECTOR: s[%d] %g vs %g", t, i, (double)s2[i],
           (double)s[i]);
  cudaFree(da);
  cudaFree(du);
  cudaFree(dv);
  cudaFree(ds);
  cudaFree(work);
  EXPECT_STATUS(cusolverDnDestroyGesvdjInfo(params), CUSOLVER_STATUS_SUCCESS);
}

/* cusolverDnXsyevd and cusolverDnXgesvd, the 64-bit generic API. */
template <class T> static void check_generic(void) {
  typedef typename real_of<T>::type R;
  const char *t = type_name<T>();
  cudaDataType dt = data_type<T>(), rt = data_type<R>();
  cusolverDnParams_t params;
  EXPECT_STATUS(cusolverDnCreateParams(&params), CUSOLVER_STATUS_SUCCESS);
  const int n = 9, lda = 11;
  mat a = hermitian<T>(n);
  T *da = to_device<T>(a, lda);
  R *dw;
  CHECK_CUDA(cudaMalloc(&dw, n * sizeof(R)));
  size_t dev_bytes = 0, host_bytes = 0;
  EXPECT_STATUS(cusolverDnXsyevd_bufferSize(
                    g_h, params, CUSOLVER_EIG_MODE_VECTOR,
                    CUBLAS_FILL_MODE_UPPER, n, dt, da, lda, rt, dw, dt,
                    &dev_bytes, &host_bytes),
                CUSOLVER_STATUS_SUCCESS);
  void *dbuf, *hbuf = std::malloc(host_bytes + 1);
  CHECK_CUDA(cudaMalloc(&dbuf, dev_bytes + 1));
  EXPECT_STATUS(cusolverDnXsyevd(g_h, params, CUSOLVER_EIG_MODE_VECTOR,
                                 CUBLAS_FILL_MODE_UPPER, n, dt, da, lda, rt, dw,
                                 dt, dbuf, dev_bytes, hbuf, host_bytes, g_info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "Xsyevd %s info %d", t, device_int(g_info));
  double r, o;
  std::vector<R> w = from_device_real(dw, n);
  eigen_residuals(a, from_device<T>(da, n, n, lda), w, &r, &o);
  EXPECT(r < tolerance<T>() && o < tolerance<T>(),
         "Xsyevd %s: ||A V - V W|| %g, ||V^H V - I|| %g", t, r, o);
  /* W of the wrong precision is not supported. */
  EXPECT_STATUS(cusolverDnXsyevd(g_h, params, CUSOLVER_EIG_MODE_VECTOR,
                                 CUBLAS_FILL_MODE_UPPER, n, dt, da, lda,
                                 sizeof(R) == 4 ? CUDA_R_64F : CUDA_R_32F, dw,
                                 dt, dbuf, dev_bytes, hbuf, host_bytes, g_info),
                CUSOLVER_STATUS_NOT_SUPPORTED);
  cudaFree(da);
  cudaFree(dbuf);
  std::free(hbuf);

  const int m = 12, k = 7, ldu = 12, ldvt = 7;
  mat b = random_mat<T>(m, k);
  T *db = to_device<T>(b, lda + 2), *du, *dvt;
  CHECK_CUDA(cudaMalloc(&du, ldu * m * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&dvt, ldvt * k * sizeof(T)));
  EXPECT_STATUS(cusolverDnXgesvd_bufferSize(g_h, params, 'S', 'A', m, k, dt, db,
                                            lda + 2, rt, dw, dt, du, ldu, dt,
                                            dvt, ldvt, dt, &dev_bytes,
                                            &host_bytes),
                CUSOLVER_STATUS_SUCCESS);
  hbuf = std::malloc(host_bytes + 1);
  CHECK_CUDA(cudaMalloc(&dbuf, dev_bytes + 1));
  EXPECT_STATUS(cusolverDnXgesvd(g_h, params, 'S', 'A', m, k, dt, db, lda + 2,
                                 rt, dw, dt, du, ldu, dt, dvt, ldvt, dt, dbuf,
                                 dev_bytes, hbuf, host_bytes, g_info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "Xgesvd %s info %d", t, device_int(g_info));
  std::vector<R> s = from_device_real(dw, k);
  mat u = from_device<T>(du, m, k, ldu), vt = from_device<T>(dvt, k, k, ldvt);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < m; ++i)
      u(i, j) *= (double)s[j];
  double rs = diff(mul(u, vt), b) / norm(b);
  EXPECT(rs < tolerance<T>(), "Xgesvd %s: ||U S VT - A|| %g", t, rs);
  cudaFree(db);
  cudaFree(du);
  cudaFree(dvt);
  cudaFree(dw);
  cudaFree(dbuf);
  std::free(hbuf);
  EXPECT_STATUS(cusolverDnDestroyParams(params), CUSOLVER_STATUS_SUCCESS);
}

/* potrfBatched and potrsBatched on four matrices, the third indefinite. */
template <class T> static void check_batched(cublasFillMode_t uplo) {
  const char *t = type_name<T>();
  const int n = 8, lda = 9, batch = 4;
  std::vector<mat> a, b;
  T *ha[batch], *hb[batch];
  for (int k = 0; k < batch; ++k) {
    mat g = random_mat<T>(n, n), s = mul(g, adjoint(g));
    for (int i = 0; i < n; ++i)
      s(i, i) += k == 2 ? -50.0 : n;
    a.push_back(s);
    b.push_back(random_mat<T>(n, 1));
    ha[k] = to_device<T>(s, lda);
    hb[k] = to_device<T>(b[k], n);
  }
  T **da, **db;
  int *dinfo;
  CHECK_CUDA(cudaMalloc(&da, sizeof ha));
  CHECK_CUDA(cudaMalloc(&db, sizeof hb));
  CHECK_CUDA(cudaMalloc(&dinfo, batch * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
  EXPECT_STATUS(potrfBatched(g_h, uplo, n, da, lda, dinfo, batch),
                CUSOLVER_STATUS_SUCCESS);
  int info[batch];
  CHECK_CUDA(cudaMemcpy(info, dinfo, sizeof info, cudaMemcpyDeviceToHost));
  for (int k = 0; k < batch; ++k)
    EXPECT(k == 2 ? info[k] > 0 : info[k] == 0,
           "%spotrfBatched uplo %d: info[%d] = %d", t, (int)uplo, k, info[k]);
  /* nrhs must be 1. */
  EXPECT_STATUS(potrsBatched(g_h, uplo, n, 2, da, lda, db, n, g_info, batch),
                CUSOLVER_STATUS_INVALID_VALUE);
  EXPECT_STATUS(potrsBatched(g_h, uplo, n, 1, da, lda, db, n, g_info, batch),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "%spotrsBatched info %d", t,
         device_int(g_info));
  for (int k = 0; k < batch; ++k) {
    if (k == 2)
      continue;
    mat x = from_device<T>(hb[k], n, 1, n);
    double r = diff(mul(a[k], x), b[k]) / norm(b[k]);
    EXPECT(r < tolerance<T>(), "%spotrsBatched uplo %d: ||A x - b|| %g", t,
           (int)uplo, r);
  }
  for (int k = 0; k < batch; ++k) {
    cudaFree(ha[k]);
    cudaFree(hb[k]);
  }
  cudaFree(da);
  cudaFree(db);
  cudaFree(dinfo);
}

/* syevjBatched, unsorted, then gesvdjBatched: each matrix of the batch
 * by its residual; the report of a batched call is not supported. */
template <class T> static void check_jacobi_batched(void) {
  typedef typename real_of<T>::type R;
  const char *t = type_name<T>();
  const int n = 6, lda = 7, batch = 3;
  std::vector<mat> a;
  std::vector<T> host(lda * n * batch);
  for (int b = 0; b < batch; ++b) {
    a.push_back(hermitian<T>(n));
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        host[b * lda * n + j * lda + i] = from_c<T>(a[b](i, j));
  }
  T *da;
  R *dw;
  int *dinfo;
  CHECK_CUDA(cudaMalloc(&da, host.size() * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(da, host.data(), host.size() * sizeof(T),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMalloc(&dw, n * batch * sizeof(R)));
  CHECK_CUDA(cudaMalloc(&dinfo, batch * sizeof(int)));
  syevjInfo_t params;
  EXPECT_STATUS(cusolverDnCreateSyevjInfo(&params), CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverDnXsyevjSetSortEig(params, 0), CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(evjBatched(g_h, CUSOLVER_EIG_MODE_VECTOR,
                           CUBLAS_FILL_MODE_LOWER, n, da, lda, dw, dinfo,
                           params, batch),
                CUSOLVER_STATUS_SUCCESS);
  std::vector<R> w = from_device_real(dw, n * batch);
  int info[batch];
  CHECK_CUDA(cudaMemcpy(info, dinfo, sizeof info, cudaMemcpyDeviceToHost));
  for (int b = 0; b < batch; ++b) {
    double r, o;
    std::vector<R> wb(w.begin() + b * n, w.begin() + (b + 1) * n);
    eigen_residuals(a[b], from_device<T>(da + b * lda * n, n, n, lda), wb, &r,
                    &o);
    EXPECT(info[b] == 0 && r < tolerance<T>() && o < tolerance<T>(),
           "%ssyevjBatched matrix %d: info %d, ||A V - V W|| %g, "
           "||V^H V - I|| %g",
           t, b, info[b], r, o);
  }
  double residual;
  EXPECT_STATUS(cusolverDnXsyevjGetResidual(g_h, params, &residual),
                CUSOLVER_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(cusolverDnDestroySyevjInfo(params), CUSOLVER_STATUS_SUCCESS);
  cudaFree(da), cudaFree(dw), cudaFree(dinfo);

  /* gesvdjBatched: m x k matrices, full U and V. */
  const int m = 5, k = 4;
  std::vector<mat> g;
  std::vector<T> hg(m * k * batch);
  for (int b = 0; b < batch; ++b) {
    g.push_back(random_mat<T>(m, k));
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < m; ++i)
        hg[b * m * k + j * m + i] = from_c<T>(g[b](i, j));
  }
  T *dg, *du, *dv;
  R *ds;
  CHECK_CUDA(cudaMalloc(&dg, hg.size() * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(dg, hg.data(), hg.size() * sizeof(T),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMalloc(&du, m * m * batch * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&dv, k * k * batch * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&ds, k * batch * sizeof(R)));
  CHECK_CUDA(cudaMalloc(&dinfo, batch * sizeof(int)));
  gesvdjInfo_t sp;
  EXPECT_STATUS(cusolverDnCreateGesvdjInfo(&sp), CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(gesvdjBatched(g_h, CUSOLVER_EIG_MODE_VECTOR, m, k, dg, m, ds,
                              du, m, dv, k, dinfo, sp, batch),
                CUSOLVER_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(info, dinfo, sizeof info, cudaMemcpyDeviceToHost));
  std::vector<R> sv = from_device_real(ds, k * batch);
  for (int b = 0; b < batch; ++b) {
    mat u = from_device<T>(du + b * m * m, m, k, m),
        v = from_device<T>(dv + b * k * k, k, k, k);
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < m; ++i)
        u(i, j) *= (double)sv[b * k + j];
    double r = diff(mul(u, adjoint(v)), g[b]) / norm(g[b]);
    EXPECT(info[b] == 0 && r < tolerance<T>(),
           "%sgesvdjBatched matrix %d: info %d, ||U S V^H - A|| %g", t, b,
           info[b], r);
  }
  int sweeps;
  EXPECT_STATUS(cusolverDnXgesvdjGetSweeps(g_h, sp, &sweeps),
                CUSOLVER_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(cusolverDnDestroyGesvdjInfo(sp), CUSOLVER_STATUS_SUCCESS);
  cudaFree(dg), cudaFree(du), cudaFree(dv), cudaFree(ds), cudaFree(dinfo);
}

/* sygvd/hegvd (jacobi false) or sygvj/hegvj: the three problem types,
 * A x = w B x (1), A B x = w x (2), B A x = w x (3), by their residuals and
 * X^H B X = I (1 and 2); an indefinite B gives info > n. */
template <class T> static void check_generalized(bool jacobi,
                                                 cublasFillMode_t uplo) {
  typedef typename real_of<T>::type R;
  const char *t = type_name<T>();
  const char *call = jacobi ? "sygvj" : "sygvd";
  const int n = 7, lda = 8, ldb = 9;
  mat a = hermitian<T>(n), g = random_mat<T>(n, n), b = mul(g, adjoint(g));
  for (int i = 0; i < n; ++i)
    b(i, i) += 1.0;
  syevjInfo_t params = nullptr;
  if (jacobi)
    EXPECT_STATUS(cusolverDnCreateSyevjInfo(&params), CUSOLVER_STATUS_SUCCESS);
  R *dw;
  CHECK_CUDA(cudaMalloc(&dw, n * sizeof(R)));
  const cusolverEigType_t types[] = {CUSOLVER_EIG_TYPE_1, CUSOLVER_EIG_TYPE_2,
                                     CUSOLVER_EIG_TYPE_3};
  for (cusolverEigType_t it : types) {
    T *da = to_device<T>(a, lda), *db = to_device<T>(b, ldb);
    EXPECT_STATUS(gvd(g_h, it, CUSOLVER_EIG_MODE_VECTOR, uplo, n, da, lda, db,
                      ldb, dw, g_info, params),
                  CUSOLVER_STATUS_SUCCESS);
    EXPECT(device_int(g_info) == 0, "%s%s itype %d: info %d", t, call, (int)it,
           device_int(g_info));
    std::vector<R> w = from_device_real(dw, n);
    mat x = from_device<T>(da, n, n, lda), xw = x;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        xw(i, j) *= (double)w[j];
    /* The two sides of each problem's equation. */
    mat lhs = it == CUSOLVER_EIG_TYPE_1   ? mul(a, x)
              : it == CUSOLVER_EIG_TYPE_2 ? mul(a, mul(b, x))
                                          : mul(b, mul(a, x));
    mat rhs = it == CUSOLVER_EIG_TYPE_1 ? mul(b, xw) : xw;
    double r = diff(lhs, rhs) / (norm(lhs) + norm(rhs));
    double o = it == CUSOLVER_EIG_TYPE_3
                   ? 0
                   : diff(mul(x, mul(b, x), true), eye(n)) / n;
    EXPECT(r < tolerance<T>() && o < tolerance<T>(),
           "%s%s itype %d uplo %d: residual %g, ||X^H B X - I|| %g", t, call,
           (int)it, (int)uplo, r, o);
    cudaFree(da), cudaFree(db);
  }
  /* B indefinite: info > n (its leading minor of order info - n). */
  mat bad = b;
  for (int i = 0; i < n; ++i)
    bad(i, i) -= 1000.0;
  T *da = to_device<T>(a, lda), *db = to_device<T>(bad, ldb);
  EXPECT_STATUS(gvd(g_h, CUSOLVER_EIG_TYPE_1, CUSOLVER_EIG_MODE_NOVECTOR, uplo,
                    n, da, lda, db, ldb, dw, g_info, params),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == n + 1, "%s%s indefinite B: info %d", t, call,
         device_int(g_info));
  cudaFree(da), cudaFree(db), cudaFree(dw);
  if (params)
    cusolverDnDestroySyevjInfo(params);
}

static void check_jacobi(void) {
  /* Two types of each call (the four entry points of a call share one
   * path), so that the program compiles in a few seconds. */
  check_syevj<float>();
  check_syevj<cuDoubleComplex>();
  check_gesvdj<double>(11, 7, 0);
  check_gesvdj<double>(7, 11, 1);
  check_gesvdj<cuComplex>(7, 11, 0);
  check_gesvdj<cuComplex>(11, 7, 1);
  check_generic<double>();
  check_generic<cuComplex>();
  check_batched<float>(CUBLAS_FILL_MODE_LOWER);
  check_batched<cuDoubleComplex>(CUBLAS_FILL_MODE_UPPER);
  check_jacobi_batched<double>();
  check_generalized<double>(false, CUBLAS_FILL_MODE_LOWER);
  check_generalized<cuComplex>(true, CUBLAS_FILL_MODE_UPPER);
}

#endif /* SOLVER_JACOBI_H */
