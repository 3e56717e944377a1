/* solver_svd_variants.h: checks that solver_selective.cu runs (one
 * program, so that the test builds once): cuSOLVER's other SVDs:
 * - cusolverDnXgesvdp (D and C; tall full, wide economy): A = U S V^H, U
 *   and V orthonormal, S descending, h_err_sigma small;
 * - cusolverDnXgesvdr (D and Z, k = 3 of 9 x 7): S the k largest of
 *   Xgesvdp's, A v_i = s_i u_i, U and V orthonormal;
 * - cusolverDn?gesvdaStridedBatched (S and Z, two 8 x 5 matrices with
 *   padded strides, rank 3): per matrix A v_i = s_i u_i, U and V
 *   orthonormal, h_R_nrmF = ||A - U S V^H||_F on the host.
 * The including file defines g_h (the handle, on a stream), g_info and
 * data_type<T>(). */
#ifndef SOLVER_SVD_VARIANTS_H
#define SOLVER_SVD_VARIANTS_H

#include "solver_host.h"

#define SVD_VARIANTS_OVERLOADS(P, T, R)                                        \
  static cusolverStatus_t gesvda(                                              \
      cusolverEigMode_t jobz, int rank, int m, int n, const T *a, int lda,     \
      long long sa, R *s, long long ss, T *u, int ldu, long long su, T *v,     \
      int ldv, long long sv, int *info, double *r, int batch) {                \
    int lw = 0;                                                                \
    cusolverStatus_t st = cusolverDn##P##gesvdaStridedBatched_bufferSize(      \
        g_h, jobz, rank, m, n, a, lda, sa, s, ss, u, ldu, su, v, ldv, sv, &lw, \
        batch);                                                                \
    if (st != CUSOLVER_STATUS_SUCCESS)                                         \
      return st;                                                               \
    T *work;                                                                   \
    CHECK_CUDA(cudaMalloc(&work, (lw > 0 ? lw : 1) * sizeof(T)));              \
    st = cusolverDn##P##gesvdaStridedBatched(g_h, jobz, rank, m, n, a, lda,    \
                                             sa, s, ss, u, ldu, su, v, ldv,    \
                                             sv, work, lw, info, r, batch);    \
    cudaFree(work);                                                            \
    return st;                                                                 \
  }

SVD_VARIANTS_OVERLOADS(S, float, float)
SVD_VARIANTS_OVERLOADS(D, double, double)
SVD_VARIANTS_OVERLOADS(C, cuComplex, float)
SVD_VARIANTS_OVERLOADS(Z, cuDoubleComplex, double)

/* The first k triplets: ||A V - U S|| / ||A||, ||U^H U - I||,
 * ||V^H V - I||, all below T's tolerance, and S descending. */
template <class T, class R>
static void check_triplets(const char *call, const mat &a, const mat &u,
                           const std::vector<R> &s, const mat &v, int k) {
  mat us = u;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < a.rows; ++i)
      us(i, j) *= (double)s[j];
  double r = diff(mul(a, v), us) / norm(a);
  double ou = diff(mul(u, u, true), eye(k)) / k;
  double ov = diff(mul(v, v, true), eye(k)) / k;
  EXPECT(r < tolerance<T>() && ou < tolerance<T>() && ov < tolerance<T>(),
         "%s: ||A V - U S|| %g, ||U^H U - I|| %g, ||V^H V - I|| %g", call, r,
         ou, ov);
  for (int i = 1; i < k; ++i)
    EXPECT(s[i - 1] >= s[i], "%s: S not descending", call);
}

/* Xgesvdp of a random m x n, full (econ 0) or economy; its S returned. */
template <class T>
static std::vector<typename real_of<T>::type> check_xgesvdp(const mat &a,
                                                            int econ) {
  typedef typename real_of<T>::type R;
  int m = a.rows, n = a.cols, k = m < n ? m : n;
  int ucols = econ ? k : m, vcols = econ ? k : n;
  char call[40];
  std::snprintf(call, sizeof call, "%sXgesvdp %dx%d econ %d", type_name<T>(), m,
                n, econ);
  cusolverDnParams_t params;
  EXPECT_STATUS(cusolverDnCreateParams(&params), CUSOLVER_STATUS_SUCCESS);
  T *da = to_device<T>(a, m), *du, *dv;
  R *ds;
  CHECK_CUDA(cudaMalloc(&ds, k * sizeof(R)));
  CHECK_CUDA(cudaMalloc(&du, m * ucols * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&dv, n * vcols * sizeof(T)));
  size_t dbytes = 0, hbytes = 0;
  EXPECT_STATUS(
      cusolverDnXgesvdp_bufferSize(g_h, params, CUSOLVER_EIG_MODE_VECTOR, econ,
                                   m, n, data_type<T>(), da, m, data_type<R>(),
                                   ds, data_type<T>(), du, m, data_type<T>(),
                                   dv, n, data_type<T>(), &dbytes, &hbytes),
      CUSOLVER_STATUS_SUCCESS);
  void *dbuf, *hbuf = std::malloc(hbytes ? hbytes : 1);
  CHECK_CUDA(cudaMalloc(&dbuf, dbytes ? dbytes : 1));
  double err = -1;
  EXPECT_STATUS(cusolverDnXgesvdp(g_h, params, CUSOLVER_EIG_MODE_VECTOR, econ,
                                  m, n, data_type<T>(), da, m, data_type<R>(),
                                  ds, data_type<T>(), du, m, data_type<T>(), dv,
                                  n, data_type<T>(), dbuf, dbytes, hbuf, hbytes,
                                  g_info, &err),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "%s: info %d", call, device_int(g_info));
  std::vector<R> s(k);
  CHECK_CUDA(cudaMemcpy(s.data(), ds, k * sizeof(R), cudaMemcpyDeviceToHost));
  mat u = from_device<T>(du, m, ucols, m), v = from_device<T>(dv, n, vcols, n);
  EXPECT(err >= 0 && err < 1e-12 * norm(a), "%s: h_err_sigma %g", call, err);
  /* The full U and V are unitary; their first k columns the triplets. */
  EXPECT(diff(mul(u, u, true), eye(ucols)) / ucols < tolerance<T>() &&
             diff(mul(v, v, true), eye(vcols)) / vcols < tolerance<T>(),
         "%s: U or V not unitary", call);
  mat uk(m, k), vk(n, k);
  for (int j = 0; j < k; ++j) {
    for (int i = 0; i < m; ++i)
      uk(i, j) = u(i, j);
    for (int i = 0; i < n; ++i)
      vk(i, j) = v(i, j);
  }
  check_triplets<T>(call, a, uk, s, vk, k);
  cudaFree(dbuf);
  std::free(hbuf);
  cudaFree(da);
  cudaFree(ds);
  cudaFree(du);
  cudaFree(dv);
  cusolverDnDestroyParams(params);
  return s;
}

template <class T> static void check_xgesvdr(void) {
  typedef typename real_of<T>::type R;
  const int m = 9, n = 7, k = 3, ld = 10;
  char call[24];
  std::snprintf(call, sizeof call, "%sXgesvdr", type_name<T>());
  mat a = random_mat<T>(m, n);
  std::vector<R> all = check_xgesvdp<T>(a, 1);
  cusolverDnParams_t params;
  EXPECT_STATUS(cusolverDnCreateParams(&params), CUSOLVER_STATUS_SUCCESS);
  T *da = to_device<T>(a, ld), *du, *dv;
  R *ds;
  CHECK_CUDA(cudaMalloc(&ds, k * sizeof(R)));
  CHECK_CUDA(cudaMalloc(&du, ld * k * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&dv, ld * k * sizeof(T)));
  size_t dbytes = 0, hbytes = 0;
  EXPECT_STATUS(cusolverDnXgesvdr_bufferSize(
                    g_h, params, 'S', 'S', m, n, k, 2, 2, data_type<T>(), da,
                    ld, data_type<R>(), ds, data_type<T>(), du, ld,
                    data_type<T>(), dv, ld, data_type<T>(), &dbytes, &hbytes),
                CUSOLVER_STATUS_SUCCESS);
  void *dbuf, *hbuf = std::malloc(hbytes ? hbytes : 1);
  CHECK_CUDA(cudaMalloc(&dbuf, dbytes ? dbytes : 1));
  EXPECT_STATUS(cusolverDnXgesvdr(g_h, params, 'S', 'S', m, n, k, 2, 2,
                                  data_type<T>(), da, ld, data_type<R>(), ds,
                                  data_type<T>(), du, ld, data_type<T>(), dv,
                                  ld, data_type<T>(), dbuf, dbytes, hbuf,
                                  hbytes, g_info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "%s: info %d", call, device_int(g_info));
  std::vector<R> s(k);
  CHECK_CUDA(cudaMemcpy(s.data(), ds, k * sizeof(R), cudaMemcpyDeviceToHost));
  for (int i = 0; i < k; ++i)
    EXPECT(std::fabs(s[i] - all[i]) < tolerance<T>() * all[0],
           "%s: S[%d] %g, Xgesvdp's %g", call, i, (double)s[i], (double)all[i]);
  check_triplets<T>(call, a, from_device<T>(du, m, k, ld), s,
                    from_device<T>(dv, n, k, ld), k);
  /* k beyond min(m, n): info -5. */
  EXPECT_STATUS(cusolverDnXgesvdr(g_h, params, 'S', 'S', m, n, n + 1, 2, 2,
                                  data_type<T>(), da, ld, data_type<R>(), ds,
                                  data_type<T>(), du, ld, data_type<T>(), dv,
                                  ld, data_type<T>(), dbuf, dbytes, hbuf,
                                  hbytes, g_info),
                CUSOLVER_STATUS_INVALID_VALUE);
  EXPECT(device_int(g_info) == -5, "%s: k > min(m, n): info %d", call,
         device_int(g_info));
  cudaFree(dbuf);
  std::free(hbuf);
  cudaFree(da);
  cudaFree(ds);
  cudaFree(du);
  cudaFree(dv);
  cusolverDnDestroyParams(params);
}

template <class T> static void check_gesvda(void) {
  typedef typename real_of<T>::type R;
  const int m = 8, n = 5, rank = 3, batch = 2, lda = 9, ldu = 8, ldv = 6;
  const long long sa = lda * n + 3, ss = rank + 1, su = ldu * rank + 2,
                  sv = ldv * rank + 1;
  char call[40];
  std::snprintf(call, sizeof call, "%sgesvdaStridedBatched", type_name<T>());
  mat all(1, (int)(sa * batch));
  std::vector<mat> as;
  for (int b = 0; b < batch; ++b) {
    mat a = random_mat<T>(m, n);
    as.push_back(a);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        all(0, (int)(b * sa + j * lda + i)) = a(i, j);
  }
  T *da = to_device<T>(all, 1), *du, *dv;
  R *ds;
  int *dinfo;
  CHECK_CUDA(cudaMalloc(&ds, ss * batch * sizeof(R)));
  CHECK_CUDA(cudaMalloc(&du, su * batch * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&dv, sv * batch * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&dinfo, batch * sizeof(int)));
  double rnrm[batch] = {-1, -1};
  EXPECT_STATUS(gesvda(CUSOLVER_EIG_MODE_VECTOR, rank, m, n, da, lda, sa, ds,
                       ss, du, ldu, su, dv, ldv, sv, dinfo, rnrm, batch),
                CUSOLVER_STATUS_SUCCESS);
  std::vector<int> info(batch);
  CHECK_CUDA(cudaMemcpy(info.data(), dinfo, batch * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int b = 0; b < batch; ++b) {
    EXPECT(info[b] == 0, "%s: info[%d] %d", call, b, info[b]);
    std::vector<R> s(rank);
    CHECK_CUDA(cudaMemcpy(s.data(), ds + b * ss, rank * sizeof(R),
                          cudaMemcpyDeviceToHost));
    mat u = from_device<T>(du + b * su, m, rank, ldu);
    mat v = from_device<T>(dv + b * sv, n, rank, ldv);
    check_triplets<T>(call, as[b], u, s, v, rank);
    mat usv = u;
    for (int j = 0; j < rank; ++j)
      for (int i = 0; i < m; ++i)
        usv(i, j) *= (double)s[j];
    double host_r = diff(as[b], mul(usv, adjoint(v)));
    EXPECT(std::fabs(rnrm[b] - host_r) < tolerance<T>() * 10 * norm(as[b]),
           "%s: h_R_nrmF[%d] %g, host's %g", call, b, rnrm[b], host_r);
  }
  /* rank 0: info -2. */
  EXPECT_STATUS(cusolverDnDgesvdaStridedBatched(
                    g_h, CUSOLVER_EIG_MODE_VECTOR, 0, m, n, (double *)da, lda,
                    sa, (double *)ds, ss, (double *)du, ldu, su, (double *)dv,
                    ldv, sv, (double *)du, 1, dinfo, rnrm, batch),
                CUSOLVER_STATUS_INVALID_VALUE);
  EXPECT(device_int(dinfo) == -2, "%s: rank 0: info %d", call,
         device_int(dinfo));
  cudaFree(da);
  cudaFree(ds);
  cudaFree(du);
  cudaFree(dv);
  cudaFree(dinfo);
}

static void check_svd_variants(void) {
  check_xgesvdp<double>(random_mat<double>(8, 5), 0);
  check_xgesvdp<cuComplex>(random_mat<cuComplex>(5, 8), 1);
  check_xgesvdr<double>();
  check_xgesvdr<cuDoubleComplex>();
  check_gesvda<float>();
  check_gesvda<cuDoubleComplex>();
}

#endif /* SOLVER_SVD_VARIANTS_H */
