/* solver_bidiagonal.h: checks that solver_selective.cu runs (one program,
 * so that the test builds once): cuSOLVER's reduction to bidiagonal form
 * in the four types, tall (upper bidiagonal) and wide (lower):
 * - gebrd gives d and e, also on A's diagonal and first super- or
 *   subdiagonal; orgbr/ungbr makes Q (side left) and P^H (right) from A
 *   and tauq, taup as LAPACK's orgbr is called after gebrd: Q^H Q = I,
 *   P^H P = I and Q B P^H = A, B the bidiagonal matrix of d and e;
 * - bad arguments give info = -i.
 * The including file defines g_h (the handle, on a stream) and g_info. */
#ifndef SOLVER_BIDIAGONAL_H
#define SOLVER_BIDIAGONAL_H

#include "solver_host.h"

#define BIDIAGONAL_OVERLOADS(P, T, R, OR)                                      \
  static cusolverStatus_t gebrd(cusolverDnHandle_t h, int m, int n, T *a,      \
                                int lda, R *d, R *e, T *tauq, T *taup,         \
                                int *info) {                                   \
    int lw = 1;                                                                \
    cusolverStatus_t s = cusolverDn##P##gebrd_bufferSize(h, m, n, &lw);        \
    /* A bad argument's call too, for its info. */                             \
    if (s != CUSOLVER_STATUS_SUCCESS && s != CUSOLVER_STATUS_INVALID_VALUE)    \
      return s;                                                                \
    T *work;                                                                   \
    CHECK_CUDA(cudaMalloc(&work, (lw > 0 ? lw : 1) * sizeof(T)));              \
    s = cusolverDn##P##gebrd(h, m, n, a, lda, d, e, tauq, taup, work, lw,      \
                             info);                                            \
    cudaFree(work);                                                            \
    return s;                                                                  \
  }                                                                            \
  static cusolverStatus_t orgbr(cusolverDnHandle_t h, cublasSideMode_t side,   \
                                int m, int n, int k, T *a, int lda,            \
                                const T *tau, int *info) {                     \
    int lw = 1;                                                                \
    cusolverStatus_t s =                                                       \
        cusolverDn##P##OR##gbr_bufferSize(h, side, m, n, k, a, lda, tau, &lw); \
    if (s != CUSOLVER_STATUS_SUCCESS && s != CUSOLVER_STATUS_INVALID_VALUE)    \
      return s;                                                                \
    T *work;                                                                   \
    CHECK_CUDA(cudaMalloc(&work, (lw > 0 ? lw : 1) * sizeof(T)));              \
    s = cusolverDn##P##OR##gbr(h, side, m, n, k, a, lda, tau, work, lw, info); \
    cudaFree(work);                                                            \
    return s;                                                                  \
  }

BIDIAGONAL_OVERLOADS(S, float, float, or)
BIDIAGONAL_OVERLOADS(D, double, double, or)
BIDIAGONAL_OVERLOADS(C, cuComplex, float, un)
BIDIAGONAL_OVERLOADS(Z, cuDoubleComplex, double, un)

/* An m x n matrix (m > n: tall) reduced, then its Q (m x k) and P^H
 * (k x n), k = min(m, n), generated as LAPACK's gesvd does:
 * orgbr(Q, m, k, n) and orgbr(P, k, n, m). */
template <class T> static void check_gebrd(int m, int n) {
  typedef typename real_of<T>::type R;
  const int lda = m + 2, k = m < n ? m : n;
  char call[32];
  std::snprintf(call, sizeof call, "%sgebrd %dx%d", type_name<T>(), m, n);
  mat a = random_mat<T>(m, n);
  T *da = to_device<T>(a, lda), *dtauq, *dtaup;
  R *dd, *de;
  CHECK_CUDA(cudaMalloc(&dd, k * sizeof(R)));
  CHECK_CUDA(cudaMalloc(&de, k * sizeof(R)));
  CHECK_CUDA(cudaMalloc(&dtauq, k * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&dtaup, k * sizeof(T)));
  EXPECT_STATUS(gebrd(g_h, m, n, da, lda, dd, de, dtauq, dtaup, g_info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "%s: info %d", call, device_int(g_info));
  std::vector<R> d(k), e(k);
  CHECK_CUDA(cudaMemcpy(d.data(), dd, k * sizeof(R), cudaMemcpyDeviceToHost));
  CHECK_CUDA(
      cudaMemcpy(e.data(), de, (k - 1) * sizeof(R), cudaMemcpyDeviceToHost));
  mat f = from_device<T>(da, m, n, lda), b(k, k);
  bool on_a = true;
  for (int i = 0; i < k; ++i) {
    b(i, i) = (double)d[i];
    on_a = on_a && f(i, i) == cplx((double)d[i], 0);
    if (i + 1 < k) {
      /* Upper bidiagonal when tall, lower when wide. */
      cplx &bij = m >= n ? b(i, i + 1) : b(i + 1, i);
      bij = (double)e[i];
      on_a =
          on_a && (m >= n ? f(i, i + 1) : f(i + 1, i)) == cplx((double)e[i], 0);
    }
  }
  EXPECT(on_a, "%s: d and e are not on A's diagonals", call);

  /* Q from a copy of the reduced A, P^H from another. */
  T *dq = to_device<T>(f, lda), *dp = to_device<T>(f, lda);
  EXPECT_STATUS(orgbr(g_h, CUBLAS_SIDE_LEFT, m, k, n, dq, lda, dtauq, g_info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "%s: orgbr(Q) info %d", call,
         device_int(g_info));
  EXPECT_STATUS(orgbr(g_h, CUBLAS_SIDE_RIGHT, k, n, m, dp, lda, dtaup, g_info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "%s: orgbr(P) info %d", call,
         device_int(g_info));
  mat q = from_device<T>(dq, m, k, lda), ph = from_device<T>(dp, k, n, lda);
  double oq = diff(mul(q, q, true), eye(k)) / k;
  double op = diff(mul(ph, adjoint(ph)), eye(k)) / k;
  double r = diff(mul(mul(q, b), ph), a) / norm(a);
  EXPECT(oq < tolerance<T>() && op < tolerance<T>() && r < tolerance<T>(),
         "%s + orgbr: ||Q^H Q - I|| %g, ||P^H P - I|| %g, ||Q B P^H - A|| %g",
         call, oq, op, r);

  /* Bad arguments: gebrd's lda (-4); orgbr's side (-1) and a Q wider
   * than tall (-3). */
  EXPECT_STATUS(gebrd(g_h, m, n, da, m - 1, dd, de, dtauq, dtaup, g_info),
                CUSOLVER_STATUS_INVALID_VALUE);
  EXPECT(device_int(g_info) == -4, "%s: lda < m: info %d", call,
         device_int(g_info));
  EXPECT_STATUS(
      orgbr(g_h, (cublasSideMode_t)5, m, k, n, dq, lda, dtauq, g_info),
      CUSOLVER_STATUS_INVALID_VALUE);
  EXPECT(device_int(g_info) == -1, "%s: orgbr side: info %d", call,
         device_int(g_info));
  EXPECT_STATUS(
      orgbr(g_h, CUBLAS_SIDE_LEFT, k, m + 1, n, dq, lda, dtauq, g_info),
      CUSOLVER_STATUS_INVALID_VALUE);
  EXPECT(device_int(g_info) == -3, "%s: orgbr(Q) n > m: info %d", call,
         device_int(g_info));
  cudaFree(dq);
  cudaFree(dp);
  cudaFree(da);
  cudaFree(dd);
  cudaFree(de);
  cudaFree(dtauq);
  cudaFree(dtaup);
}

static void check_bidiagonal(void) {
  const int shapes[][2] = {{9, 6}, {6, 9}, {7, 7}};
  for (auto &s : shapes) {
    check_gebrd<float>(s[0], s[1]);
    check_gebrd<double>(s[0], s[1]);
    check_gebrd<cuComplex>(s[0], s[1]);
    check_gebrd<cuDoubleComplex>(s[0], s[1]);
  }
}

#endif /* SOLVER_BIDIAGONAL_H */
