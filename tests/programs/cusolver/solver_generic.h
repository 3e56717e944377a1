/* solver_generic.h: checks that solver_selective.cu runs (one program, so
 * that the test builds once): two calls of cuSOLVER's 64-bit generic API:
 * - cusolverDnXtrtri, the inverse of a triangle in place (four types,
 *   lower and upper, unit diagonal or not): T T^-1 = I on the host, the
 *   other triangle and a unit diagonal untouched; a zero on a non-unit
 *   diagonal gives info = its index, A unchanged; bad arguments info = -i;
 * - cusolverDnXsyevBatched (S and Z, with and without vectors): each
 *   matrix of the batch by ||A V - V W|| and ||V^H V - I||.
 * The including file defines g_h (the handle, on a stream), g_info and
 * data_type<T>(). */
#ifndef SOLVER_GENERIC_H
#define SOLVER_GENERIC_H

#include "solver_host.h"

template <class T>
static cusolverStatus_t xtrtri(cublasFillMode_t uplo, cublasDiagType_t diag,
                               int n, T *da, int lda) {
  size_t dbytes = 0, hbytes = 0;
  cusolverStatus_t s = cusolverDnXtrtri_bufferSize(
      g_h, uplo, diag, n, data_type<T>(), da, lda, &dbytes, &hbytes);
  if (s != CUSOLVER_STATUS_SUCCESS && s != CUSOLVER_STATUS_INVALID_VALUE)
    return s;
  void *dbuf, *hbuf = std::malloc(hbytes ? hbytes : 1);
  CHECK_CUDA(cudaMalloc(&dbuf, dbytes ? dbytes : 1));
  s = cusolverDnXtrtri(g_h, uplo, diag, n, data_type<T>(), da, lda, dbuf,
                       dbytes, hbuf, hbytes, g_info);
  cudaFree(dbuf);
  std::free(hbuf);
  return s;
}

template <class T> static void check_xtrtri(void) {
  const int n = 7, lda = 9;
  const char *t = type_name<T>();
  for (int lower = 0; lower <= 1; ++lower)
    for (int unit = 0; unit <= 1; ++unit) {
      cublasFillMode_t uplo =
          lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
      cublasDiagType_t diag = unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
      /* The stored matrix: its triangle, a diagonal of 2 + x (junk 9 when
       * unit) and junk 33 in the other triangle. */
      mat in = random_mat<T>(n, n), tri(n, n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          if (i == j)
            in(i, j) = unit ? cplx(9.0) : in(i, j) + 2.0;
          else if (lower ? i < j : i > j)
            in(i, j) = 33.0;
          else
            tri(i, j) = in(i, j);
        }
      for (int i = 0; i < n; ++i)
        tri(i, i) = unit ? cplx(1.0) : in(i, i);
      T *da = to_device<T>(in, lda);
      EXPECT_STATUS(xtrtri<T>(uplo, diag, n, da, lda), CUSOLVER_STATUS_SUCCESS);
      EXPECT(device_int(g_info) == 0, "%sXtrtri: info %d", t,
             device_int(g_info));
      mat out = from_device<T>(da, n, n, lda), inv(n, n);
      bool kept = true;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          if (i == j && unit)
            kept = kept && out(i, j) == in(i, j);
          else if (lower ? i < j : i > j)
            kept = kept && out(i, j) == in(i, j);
          inv(i, j) = i == j && unit            ? cplx(1.0)
                      : (lower ? i < j : i > j) ? cplx(0.0)
                                                : out(i, j);
        }
      EXPECT(kept, "%sXtrtri %s %s: wrote outside its triangle", t,
             lower ? "lower" : "upper", unit ? "unit" : "non-unit");
      double r = diff(mul(tri, inv), eye(n)) / n;
      EXPECT(r < tolerance<T>(), "%sXtrtri %s %s: ||T T^-1 - I|| %g", t,
             lower ? "lower" : "upper", unit ? "unit" : "non-unit", r);
      cudaFree(da);
    }
  /* A zero on a non-unit diagonal (row 4): info 4; bad lda: -5. */
  mat z = eye(n);
  z(3, 3) = 0;
  T *da = to_device<T>(z, lda);
  EXPECT_STATUS(
      xtrtri<T>(CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_NON_UNIT, n, da, lda),
      CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 4, "%sXtrtri singular: info %d", t,
         device_int(g_info));
  EXPECT_STATUS(
      xtrtri<T>(CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_NON_UNIT, n, da, n - 1),
      CUSOLVER_STATUS_INVALID_VALUE);
  EXPECT(device_int(g_info) == -5, "%sXtrtri lda < n: info %d", t,
         device_int(g_info));
  cudaFree(da);
}

template <class T> static void check_xsyevbatched(void) {
  typedef typename real_of<T>::type R;
  const int n = 5, lda = 6, batch = 3;
  const char *t = type_name<T>();
  std::vector<mat> as;
  mat all(lda, n * batch);
  for (int b = 0; b < batch; ++b) {
    mat g = random_mat<T>(n, n), a = mul(g, adjoint(g));
    for (int i = 0; i < n; ++i)
      a(i, i) -= 1.0 + b;
    as.push_back(a);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        all(i, b * n + j) = a(i, j);
  }
  cusolverDnParams_t params;
  EXPECT_STATUS(cusolverDnCreateParams(&params), CUSOLVER_STATUS_SUCCESS);
  int *dinfo;
  R *dw;
  CHECK_CUDA(cudaMalloc(&dinfo, batch * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dw, n * batch * sizeof(R)));
  for (int vectors = 0; vectors <= 1; ++vectors) {
    cusolverEigMode_t jobz =
        vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    T *da = to_device<T>(all, lda);
    size_t dbytes = 0, hbytes = 0;
    EXPECT_STATUS(cusolverDnXsyevBatched_bufferSize(
                      g_h, params, jobz, CUBLAS_FILL_MODE_LOWER, n,
                      data_type<T>(), da, lda, data_type<R>(), dw,
                      data_type<T>(), &dbytes, &hbytes, batch),
                  CUSOLVER_STATUS_SUCCESS);
    void *dbuf, *hbuf = std::malloc(hbytes ? hbytes : 1);
    CHECK_CUDA(cudaMalloc(&dbuf, dbytes ? dbytes : 1));
    EXPECT_STATUS(cusolverDnXsyevBatched(
                      g_h, params, jobz, CUBLAS_FILL_MODE_LOWER, n,
                      data_type<T>(), da, lda, data_type<R>(), dw,
                      data_type<T>(), dbuf, dbytes, hbuf, hbytes, dinfo, batch),
                  CUSOLVER_STATUS_SUCCESS);
    std::vector<int> info(batch);
    CHECK_CUDA(cudaMemcpy(info.data(), dinfo, batch * sizeof(int),
                          cudaMemcpyDeviceToHost));
    std::vector<R> w(n * batch);
    CHECK_CUDA(cudaMemcpy(w.data(), dw, n * batch * sizeof(R),
                          cudaMemcpyDeviceToHost));
    mat v = from_device<T>(da, lda, n * batch, lda);
    for (int b = 0; b < batch; ++b) {
      EXPECT(info[b] == 0, "%sXsyevBatched: info[%d] %d", t, b, info[b]);
      /* The eigenvalues' sum is the trace. */
      double trace = 0, sum = 0;
      for (int i = 0; i < n; ++i) {
        trace += as[b](i, i).real();
        sum += (double)w[b * n + i];
      }
      EXPECT(std::fabs(trace - sum) < tolerance<T>() * 100,
             "%sXsyevBatched matrix %d: sum of W %g, trace %g", t, b, sum,
             trace);
      if (!vectors)
        continue;
      mat vb(n, n), vw(n, n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          vb(i, j) = v(i, b * n + j);
          vw(i, j) = vb(i, j) * (double)w[b * n + j];
        }
      double r = diff(mul(as[b], vb), vw) / norm(as[b]);
      double o = diff(mul(vb, vb, true), eye(n)) / n;
      EXPECT(r < tolerance<T>() && o < tolerance<T>(),
             "%sXsyevBatched matrix %d: ||A V - V W|| %g, ||V^H V - I|| %g", t,
             b, r, o);
    }
    cudaFree(dbuf);
    std::free(hbuf);
    cudaFree(da);
  }
  cudaFree(dinfo);
  cudaFree(dw);
  cusolverDnDestroyParams(params);
}

static void check_generic_api(void) {
  check_xtrtri<float>();
  check_xtrtri<double>();
  check_xtrtri<cuComplex>();
  check_xtrtri<cuDoubleComplex>();
  check_xsyevbatched<float>();
  check_xsyevbatched<cuDoubleComplex>();
}

#endif /* SOLVER_GENERIC_H */
