/* solver_auxiliary.h: checks that solver_selective.cu runs (one program,
 * so that the test builds once): cuSOLVER's auxiliary routines and
 * settings, against host computations:
 * - laswp (D and Z): rows exchanged forward (incx 1) and backward
 *   (incx -1) as LAPACK's laswp, the other rows untouched;
 * - lauum (S and C): U U^H and L^H L over the triangle, the other one
 *   untouched;
 * - Xlarft (D and Z; forward, and backward in D): I - V T V^H equals the
 *   product of the reflectors, T's other triangle untouched;
 * - cusolverDnSet/GetEmulationStrategy read back.
 * The including file defines g_h (the handle, on a stream), g_info and
 * data_type<T>(). */
#ifndef SOLVER_AUXILIARY_H
#define SOLVER_AUXILIARY_H

#include "solver_host.h"

#define AUXILIARY_OVERLOADS(P, T)                                              \
  static cusolverStatus_t laswp(int n, T *a, int lda, int k1, int k2,          \
                                const int *ipiv, int incx) {                   \
    return cusolverDn##P##laswp(g_h, n, a, lda, k1, k2, ipiv, incx);           \
  }                                                                            \
  static cusolverStatus_t lauum(cublasFillMode_t u, int n, T *a, int lda) {    \
    int lw = 0;                                                                \
    cusolverStatus_t s =                                                       \
        cusolverDn##P##lauum_bufferSize(g_h, u, n, a, lda, &lw);               \
    if (s != CUSOLVER_STATUS_SUCCESS)                                          \
      return s;                                                                \
    T *work;                                                                   \
    CHECK_CUDA(cudaMalloc(&work, (lw > 0 ? lw : 1) * sizeof(T)));              \
    s = cusolverDn##P##lauum(g_h, u, n, a, lda, work, lw, g_info);             \
    cudaFree(work);                                                            \
    return s;                                                                  \
  }

AUXILIARY_OVERLOADS(S, float)
AUXILIARY_OVERLOADS(D, double)
AUXILIARY_OVERLOADS(C, cuComplex)
AUXILIARY_OVERLOADS(Z, cuDoubleComplex)

template <class T> static void check_laswp(void) {
  const int m = 6, n = 4, lda = 7;
  const int ipiv[4] = {3, 3, 6, 4};
  int *dipiv;
  CHECK_CUDA(cudaMalloc(&dipiv, sizeof ipiv));
  CHECK_CUDA(cudaMemcpy(dipiv, ipiv, sizeof ipiv, cudaMemcpyHostToDevice));
  mat a = random_mat<T>(lda, n);
  for (int incx = -1; incx <= 1; incx += 2) {
    T *da = to_device<T>(a, lda);
    EXPECT_STATUS(laswp(n, da, lda, 1, 4, dipiv, incx),
                  CUSOLVER_STATUS_SUCCESS);
    mat want = a;
    for (int s = 0; s < 4; ++s) {
      int r = incx > 0 ? s : 3 - s;
      for (int j = 0; j < n; ++j)
        std::swap(want(r, j), want(ipiv[r] - 1, j));
    }
    EXPECT(diff(from_device<T>(da, lda, n, lda), want) == 0,
           "%slaswp incx %d: rows not exchanged as LAPACK's", type_name<T>(),
           incx);
    cudaFree(da);
  }
  (void)m;
  cudaFree(dipiv);
}

template <class T> static void check_lauum(void) {
  const int n = 6, lda = 8;
  for (int lower = 0; lower <= 1; ++lower) {
    cublasFillMode_t uplo =
        lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    mat in = random_mat<T>(n, n), tri(n, n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        if (lower ? i >= j : i <= j)
          tri(i, j) = in(i, j);
    /* U U^H, or L^H L. */
    mat want = lower ? mul(tri, tri, true) : mul(tri, adjoint(tri));
    T *da = to_device<T>(in, lda);
    EXPECT_STATUS(lauum(uplo, n, da, lda), CUSOLVER_STATUS_SUCCESS);
    EXPECT(device_int(g_info) == 0, "%slauum: info %d", type_name<T>(),
           device_int(g_info));
    mat out = from_device<T>(da, n, n, lda);
    double r = 0;
    bool kept = true;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        if (lower ? i >= j : i <= j)
          r += std::norm(out(i, j) - want(i, j));
        else
          kept = kept && out(i, j) == in(i, j);
      }
    EXPECT(std::sqrt(r) / norm(want) < tolerance<T>() && kept,
           "%slauum %s: residual %g, other triangle kept %d", type_name<T>(),
           lower ? "lower" : "upper", std::sqrt(r) / norm(want), kept);
    cudaFree(da);
  }
}

template <class T> static void check_xlarft(cusolverDirectMode_t direct) {
  const int n = 7, k = 3, ldv = 8, ldt = 4;
  bool forward = direct == CUBLAS_DIRECT_FORWARD;
  char call[32];
  std::snprintf(call, sizeof call, "%sXlarft %s", type_name<T>(),
                forward ? "forward" : "backward");
  mat v = random_mat<T>(n, k), tau = random_mat<T>(k, 1);
  /* The vectors as larft sees them: a unit and zeros, implicit. */
  mat vv = v;
  for (int i = 0; i < k; ++i) {
    int unit = forward ? i : n - k + i;
    for (int r = 0; r < n; ++r)
      if (r == unit)
        vv(r, i) = 1.0;
      else if (forward ? r < unit : r > unit)
        vv(r, i) = 0.0;
  }
  /* H = H(1) ... H(k) forward, H(k) ... H(1) backward. */
  mat h = eye(n);
  for (int s = 0; s < k; ++s) {
    int i = forward ? s : k - 1 - s;
    mat hi = eye(n);
    for (int c = 0; c < n; ++c)
      for (int r = 0; r < n; ++r)
        hi(r, c) -= tau(i, 0) * vv(r, i) * std::conj(vv(c, i));
    h = mul(h, hi);
  }
  T *dv = to_device<T>(v, ldv), *dtau = to_device<T>(tau, k);
  mat tin(ldt, k);
  for (auto &x : tin.v)
    x = 44.0;
  T *dt = to_device<T>(tin, ldt);
  cusolverDnParams_t params;
  EXPECT_STATUS(cusolverDnCreateParams(&params), CUSOLVER_STATUS_SUCCESS);
  size_t dbytes = 0, hbytes = 0;
  EXPECT_STATUS(cusolverDnXlarft_bufferSize(
                    g_h, params, direct, CUBLAS_STOREV_COLUMNWISE, n, k,
                    data_type<T>(), dv, ldv, data_type<T>(), dtau,
                    data_type<T>(), dt, ldt, data_type<T>(), &dbytes, &hbytes),
                CUSOLVER_STATUS_SUCCESS);
  void *dbuf, *hbuf = std::malloc(hbytes ? hbytes : 1);
  CHECK_CUDA(cudaMalloc(&dbuf, dbytes ? dbytes : 1));
  EXPECT_STATUS(cusolverDnXlarft(g_h, params, direct, CUBLAS_STOREV_COLUMNWISE,
                                 n, k, data_type<T>(), dv, ldv, data_type<T>(),
                                 dtau, data_type<T>(), dt, ldt, data_type<T>(),
                                 dbuf, dbytes, hbuf, hbytes),
                CUSOLVER_STATUS_SUCCESS);
  mat tout = from_device<T>(dt, k, k, ldt), t(k, k);
  bool kept = true;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) {
      if (forward ? i <= j : i >= j)
        t(i, j) = tout(i, j);
      else
        kept = kept && tout(i, j) == cplx(44.0);
    }
  mat vtv = mul(mul(vv, t), adjoint(vv)), ident = eye(n);
  for (size_t i = 0; i < ident.v.size(); ++i)
    ident.v[i] -= vtv.v[i];
  double r = diff(ident, h) / norm(h);
  EXPECT(r < tolerance<T>() && kept,
         "%s: ||I - V T V^H - H|| %g, other triangle kept %d", call, r, kept);
  /* Rowwise storage is not cuSOLVER's. */
  EXPECT_STATUS(cusolverDnXlarft(g_h, params, direct, CUBLAS_STOREV_ROWWISE, n,
                                 k, data_type<T>(), dv, ldv, data_type<T>(),
                                 dtau, data_type<T>(), dt, ldt, data_type<T>(),
                                 dbuf, dbytes, hbuf, hbytes),
                CUSOLVER_STATUS_INVALID_VALUE);
  cudaFree(dbuf);
  std::free(hbuf);
  cudaFree(dv);
  cudaFree(dtau);
  cudaFree(dt);
  cusolverDnDestroyParams(params);
}

static void check_auxiliary(void) {
  check_laswp<double>();
  check_laswp<cuDoubleComplex>();
  check_lauum<float>();
  check_lauum<cuComplex>();
  check_xlarft<double>(CUBLAS_DIRECT_FORWARD);
  check_xlarft<cuDoubleComplex>(CUBLAS_DIRECT_FORWARD);
  check_xlarft<double>(CUBLAS_DIRECT_BACKWARD);
  cudaEmulationStrategy_t strategy = CUDA_EMULATION_STRATEGY_DEFAULT;
  EXPECT_STATUS(cusolverDnGetEmulationStrategy(g_h, &strategy),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(strategy == CUDA_EMULATION_STRATEGY_DEFAULT, "emulation %d",
         (int)strategy);
  EXPECT_STATUS(
      cusolverDnSetEmulationStrategy(g_h, CUDA_EMULATION_STRATEGY_EAGER),
      CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverDnGetEmulationStrategy(g_h, &strategy),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(strategy == CUDA_EMULATION_STRATEGY_EAGER, "emulation %d read back",
         (int)strategy);
}

#endif /* SOLVER_AUXILIARY_H */
