/* solver_indefinite.h: checks that solver_selective.cu runs (one program,
 * so that the test builds once): cuSOLVER's symmetric indefinite
 * factorization, cusolverDn?sytrf (Bunch-Kaufman, A = P L D L^T P^T or
 * P U D U^T P^T; symmetric, not Hermitian, for the complex types), its
 * inverse cusolverDn?sytri and its solve cusolverDnXsytrs, in the four
 * types, lower and upper:
 * - a symmetric matrix with a small diagonal, which needs 2 x 2 pivots:
 *   info 0, ipiv in LAPACK's encoding (a 2 x 2 block's two entries equal
 *   and negative), the matrix rebuilt on the host from the factor and
 *   ipiv as LAPACK documents them, Xsytrs solving A X = B to T's rounding
 *   (so P L D L^T P^T = A through the solve), and sytri giving A^-1;
 * - devIpiv NULL (no pivoting) on an indefinite matrix with a strong
 *   diagonal, then Xsytrs with ipiv NULL;
 * - a zero matrix (info: the first zero pivot met, for sytrf and sytri),
 *   bad arguments (info -i) and a pair of data types Xsytrs has not
 *   (CUSOLVER_STATUS_NOT_SUPPORTED).
 * The including file defines g_h (the handle, on a stream), g_info and
 * data_type<T>(). */
#ifndef SOLVER_INDEFINITE_H
#define SOLVER_INDEFINITE_H

#include <cstdint>

#include "solver_host.h"

#define INDEFINITE_OVERLOADS(P, T)                                             \
  static cusolverStatus_t sytrf(cusolverDnHandle_t h, cublasFillMode_t u,      \
                                int n, T *a, int lda, int *ipiv, int *info) {  \
    int lw = 0;                                                                \
    cusolverStatus_t s = cusolverDn##P##sytrf_bufferSize(h, n, a, lda, &lw);   \
    if (s != CUSOLVER_STATUS_SUCCESS)                                          \
      return s;                                                                \
    T *work;                                                                   \
    CHECK_CUDA(cudaMalloc(&work, (lw > 0 ? lw : 1) * sizeof(T)));              \
    s = cusolverDn##P##sytrf(h, u, n, a, lda, ipiv, work, lw, info);           \
    cudaFree(work);                                                            \
    return s;                                                                  \
  }                                                                            \
  static cusolverStatus_t sytri(cusolverDnHandle_t h, cublasFillMode_t u,      \
                                int n, T *a, int lda, const int *ipiv,         \
                                int *info) {                                   \
    int lw = 0;                                                                \
    cusolverStatus_t s =                                                       \
        cusolverDn##P##sytri_bufferSize(h, u, n, a, lda, ipiv, &lw);           \
    if (s != CUSOLVER_STATUS_SUCCESS)                                          \
      return s;                                                                \
    T *work;                                                                   \
    CHECK_CUDA(cudaMalloc(&work, (lw > 0 ? lw : 1) * sizeof(T)));              \
    s = cusolverDn##P##sytri(h, u, n, a, lda, ipiv, work, lw, info);           \
    cudaFree(work);                                                            \
    return s;                                                                  \
  }

INDEFINITE_OVERLOADS(S, float)
INDEFINITE_OVERLOADS(D, double)
INDEFINITE_OVERLOADS(C, cuComplex)
INDEFINITE_OVERLOADS(Z, cuDoubleComplex)

/* X := A^-1 B by Xsytrs with A's factor (the 64-bit pivots, or none). */
template <class T>
static cusolverStatus_t xsytrs(cublasFillMode_t uplo, int n, int nrhs,
                               const T *da, int lda, const int64_t *dipiv,
                               T *db, int ldb) {
  size_t dbytes = 0, hbytes = 0;
  cusolverStatus_t s = cusolverDnXsytrs_bufferSize(
      g_h, uplo, n, nrhs, data_type<T>(), da, lda, dipiv, data_type<T>(), db,
      ldb, &dbytes, &hbytes);
  if (s != CUSOLVER_STATUS_SUCCESS)
    return s;
  void *dbuf, *hbuf = std::malloc(hbytes ? hbytes : 1);
  CHECK_CUDA(cudaMalloc(&dbuf, dbytes ? dbytes : 1));
  s = cusolverDnXsytrs(g_h, uplo, n, nrhs, data_type<T>(), da, lda, dipiv,
                       data_type<T>(), db, ldb, dbuf, dbytes, hbuf, hbytes,
                       g_info);
  cudaFree(dbuf);
  std::free(hbuf);
  return s;
}

/* A random symmetric (A^T = A, also for a complex T) n x n matrix whose
 * diagonal is `diagonal` times random values, plus `shift` alternating in
 * sign (indefinite). */
template <class T> static mat symmetric(int n, double diagonal, double shift) {
  mat a = random_mat<T>(n, n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < j; ++i)
      a(i, j) = a(j, i);
    a(j, j) = a(j, j) * diagonal + (j % 2 ? -shift : shift);
  }
  return a;
}

/* A rebuilt from sytrf's factor f and its 1-based ipiv as LAPACK documents
 * them: lower, A = L D L^T with L = P(1) L(1) P(2) L(2) ..., each block
 * k (1 x 1, or 2 x 2 when ipiv[k] = ipiv[k+1] < 0) exchanging row k (k+1
 * for a 2 x 2) with |ipiv[k]| and L(k) unit lower, its multipliers below
 * the block; upper, A = U D U^T with U = P(n) U(n) ... from the last row
 * up. Gives false when ipiv does not have that form. */
static bool rebuild(const mat &f, const std::vector<int> &ipiv, bool lower,
                    mat *out) {
  int n = f.rows;
  /* The blocks, as (first row, size), in the order of L's product. */
  std::vector<std::pair<int, int>> blocks;
  if (lower) {
    for (int k = 0; k < n;) {
      int size = ipiv[k] > 0 ? 1 : 2;
      if (size == 2 && (k + 1 >= n || ipiv[k + 1] != ipiv[k]))
        return false;
      blocks.push_back({k, size});
      k += size;
    }
  } else {
    for (int k = n - 1; k >= 0;) {
      int size = ipiv[k] > 0 ? 1 : 2;
      if (size == 2 && (k < 1 || ipiv[k - 1] != ipiv[k]))
        return false;
      blocks.push_back({k - size + 1, size});
      k -= size;
    }
  }
  mat a(n, n);
  for (auto &b : blocks)
    for (int j = b.first; j < b.first + b.second; ++j)
      for (int i = b.first; i < b.first + b.second; ++i)
        a(i, j) = lower ? f(std::max(i, j), std::min(i, j))
                        : f(std::min(i, j), std::max(i, j));
  /* A := P(k) L(k) A L(k)^T P(k)^T, the last factor first. */
  for (size_t q = blocks.size(); q-- > 0;) {
    int k = blocks[q].first, size = blocks[q].second;
    mat l = eye(n);
    for (int c = k; c < k + size; ++c)
      for (int i = 0; i < n; ++i)
        if (lower ? i >= k + size : i < k)
          l(i, c) = f(i, c);
    a = mul(mul(l, a), transpose(l));
    int row = lower ? k + size - 1 : k, p = std::abs(ipiv[lower ? k : k]) - 1;
    if (p < 0 || p >= n)
      return false;
    for (int j = 0; j < n; ++j)
      std::swap(a(row, j), a(p, j));
    for (int i = 0; i < n; ++i)
      std::swap(a(i, row), a(i, p));
  }
  *out = a;
  return true;
}

template <class T> static void check_sytrf(cublasFillMode_t uplo) {
  const int n = 9, lda = 11, ldb = 10, nrhs = 2;
  bool lower = uplo == CUBLAS_FILL_MODE_LOWER;
  char call[32];
  std::snprintf(call, sizeof call, "%ssytrf %s", type_name<T>(),
                lower ? "lower" : "upper");
  mat a = symmetric<T>(n, 0.05, 0);
  T *da = to_device<T>(a, lda);
  int *dipiv;
  CHECK_CUDA(cudaMalloc(&dipiv, n * sizeof(int)));
  EXPECT_STATUS(sytrf(g_h, uplo, n, da, lda, dipiv, g_info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "%s: info %d", call, device_int(g_info));
  std::vector<int> ipiv(n);
  CHECK_CUDA(
      cudaMemcpy(ipiv.data(), dipiv, n * sizeof(int), cudaMemcpyDeviceToHost));
  int pairs = 0;
  for (int k = 0; k < n; ++k) {
    EXPECT(ipiv[k] != 0 && std::abs(ipiv[k]) <= n, "%s: ipiv[%d] = %d", call, k,
           ipiv[k]);
    pairs += ipiv[k] < 0;
  }
  EXPECT(pairs >= 2, "%s: no 2 x 2 pivot on a small diagonal", call);
  mat f = from_device<T>(da, n, n, lda), back(n, n);
  bool formed = rebuild(f, ipiv, lower, &back);
  EXPECT(formed, "%s: ipiv is not in LAPACK's form", call);
  if (formed)
    EXPECT(diff(back, a) / norm(a) < tolerance<T>(),
           "%s: ||P L D L^T P^T - A|| / ||A|| = %g", call,
           diff(back, a) / norm(a));

  /* The solve, with the pivots as Xsytrs takes them. */
  std::vector<int64_t> ipiv64(ipiv.begin(), ipiv.end());
  int64_t *dipiv64;
  CHECK_CUDA(cudaMalloc(&dipiv64, n * sizeof(int64_t)));
  CHECK_CUDA(cudaMemcpy(dipiv64, ipiv64.data(), n * sizeof(int64_t),
                        cudaMemcpyHostToDevice));
  mat x = random_mat<T>(n, nrhs), b = mul(a, x);
  T *db = to_device<T>(b, ldb);
  EXPECT_STATUS(xsytrs<T>(uplo, n, nrhs, da, lda, dipiv64, db, ldb),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "%s: Xsytrs info %d", call,
         device_int(g_info));
  mat got = from_device<T>(db, n, nrhs, ldb);
  double r = diff(mul(a, got), b) / (norm(a) * norm(got));
  EXPECT(r < tolerance<T>(), "%s + Xsytrs: ||A X - B|| / ||A|| ||X|| = %g",
         call, r);
  cudaFree(db);

  /* sytri: A^-1 over uplo's triangle (symmetric, not Hermitian). */
  EXPECT_STATUS(sytri(g_h, uplo, n, da, lda, dipiv, g_info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "%s + sytri: info %d", call,
         device_int(g_info));
  mat inv = from_device<T>(da, n, n, lda);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (lower ? i < j : i > j)
        inv(i, j) = inv(j, i);
  r = diff(mul(a, inv), eye(n)) / n;
  EXPECT(r < tolerance<T>() * 10, "%s + sytri: ||A A^-1 - I|| = %g", call, r);
  cudaFree(da);

  /* No pivoting: an indefinite matrix with a strong diagonal. */
  a = symmetric<T>(n, 0.1, 6);
  da = to_device<T>(a, lda);
  EXPECT_STATUS(sytrf(g_h, uplo, n, da, lda, NULL, g_info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == 0, "%s without pivots: info %d", call,
         device_int(g_info));
  b = mul(a, x);
  db = to_device<T>(b, ldb);
  EXPECT_STATUS(xsytrs<T>(uplo, n, nrhs, da, lda, NULL, db, ldb),
                CUSOLVER_STATUS_SUCCESS);
  got = from_device<T>(db, n, nrhs, ldb);
  r = diff(mul(a, got), b) / (norm(a) * norm(got));
  EXPECT(r < tolerance<T>(), "%s without pivots: ||A X - B|| %g", call, r);
  cudaFree(db);
  cudaFree(da);

  /* A zero matrix: info names the first zero pivot met, column 1 for
   * lower, column n (4) for upper, whose steps go up from the last. */
  da = to_device<T>(mat(4, 4), 4);
  EXPECT_STATUS(sytrf(g_h, uplo, 4, da, 4, dipiv, g_info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == (lower ? 1 : 4), "%s of a zero matrix: info %d",
         call, device_int(g_info));
  EXPECT_STATUS(sytri(g_h, uplo, 4, da, 4, dipiv, g_info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(device_int(g_info) == (lower ? 1 : 4), "sytri of its factor: info %d",
         device_int(g_info));
  cudaFree(da);
  cudaFree(dipiv64);
  cudaFree(dipiv);
}

static void check_indefinite(void) {
  const cublasFillMode_t uplos[] = {CUBLAS_FILL_MODE_LOWER,
                                    CUBLAS_FILL_MODE_UPPER};
  for (cublasFillMode_t uplo : uplos) {
    check_sytrf<float>(uplo);
    check_sytrf<double>(uplo);
    check_sytrf<cuComplex>(uplo);
    check_sytrf<cuDoubleComplex>(uplo);
  }
  /* Bad arguments: info = -i, the i-th after the handle (Xsytrs as
   * LAPACK's sytrs counts them: uplo, n, nrhs, A, lda, ipiv, B, ldb). */
  double *da;
  int *dipiv;
  CHECK_CUDA(cudaMalloc(&da, 16 * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dipiv, 4 * sizeof(int)));
  const struct {
    int uplo, n, lda, info;
  } bad[] = {{7, 4, 4, -1},
             {CUBLAS_FILL_MODE_LOWER, -1, 4, -2},
             {CUBLAS_FILL_MODE_UPPER, 4, 3, -4}};
  for (auto &c : bad) {
    EXPECT_STATUS(cusolverDnDsytrf(g_h, (cublasFillMode_t)c.uplo, c.n, da,
                                   c.lda, dipiv, da, 16, g_info),
                  CUSOLVER_STATUS_INVALID_VALUE);
    EXPECT(device_int(g_info) == c.info,
           "Dsytrf: bad argument: info %d, not %d", device_int(g_info), c.info);
  }
  EXPECT_STATUS(cusolverDnXsytrs(g_h, CUBLAS_FILL_MODE_LOWER, 4, 1, CUDA_R_64F,
                                 da, 4, NULL, CUDA_R_64F, da, 3, da, 8, NULL, 0,
                                 g_info),
                CUSOLVER_STATUS_INVALID_VALUE);
  EXPECT(device_int(g_info) == -8, "Xsytrs: ldb < n: info %d",
         device_int(g_info));
  size_t dbytes, hbytes;
  EXPECT_STATUS(cusolverDnXsytrs_bufferSize(g_h, CUBLAS_FILL_MODE_LOWER, 4, 1,
                                            CUDA_R_64F, da, 4, NULL, CUDA_R_32F,
                                            da, 4, &dbytes, &hbytes),
                CUSOLVER_STATUS_NOT_SUPPORTED);
  cudaFree(da);
  cudaFree(dipiv);
}

#endif /* SOLVER_INDEFINITE_H */
