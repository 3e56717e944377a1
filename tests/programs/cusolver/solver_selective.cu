/* solver_selective.cu: cuSOLVER's selective eigen-solvers in the four
 * types, on matrices whose eigenvalues the host knows (A = Q diag(L) Q^H
 * with a random unitary Q; the pencils built from it):
 * - syevdx/heevdx, lower and upper (the other triangle junk), for
 *   CUSOLVER_EIG_RANGE_ALL, _I (il..iu) and _V ((vl, vu], one interval
 *   holding no eigenvalue): meig, W[0..meig) against the known values,
 *   ||A V - V W|| and ||V^H V - I|| over A's first meig columns; the same
 *   W without vectors; bad arguments giving info = -i;
 * - sygvdx/hegvdx for the three problem types: meig, W, the residual of
 *   the problem and X^H B X = I (X^H B^-1 X = I for type 3);
 * - cusolverDnXsyevdx (vl and vu by pointer, a 64-bit meig) in D and C;
 * then the checks of solver_indefinite.h (sytrf and Xsytrs),
 * solver_tridiagonal.h (sytrd, orgtr, ormtr), solver_bidiagonal.h
 * (gebrd, orgbr), solver_generic.h (Xtrtri, XsyevBatched),
 * solver_svd_variants.h (Xgesvdp, Xgesvdr, gesvdaStridedBatched) and
 * solver_auxiliary.h (laswp, lauum, Xlarft, the emulation strategy, the
 * logger) and solver_nonsymmetric.h (Xgeev).
 * CUEMU_OPTIONS: -O0 -lcusolver
 * NVCC_OPTIONS: -lcusolver */
#include <cstdint>

#include "solver_host.h"

static cusolverDnHandle_t g_h;
static int *g_info;

#define SELECTIVE_OVERLOADS(P, T, R, SY)                                       \
  static cusolverStatus_t evdx(cusolverDnHandle_t h, cusolverEigMode_t j,      \
                               cusolverEigRange_t r, cublasFillMode_t u,       \
                               int n, T *a, int lda, double vl, double vu,     \
                               int il, int iu, int *meig, R *w, int *info) {   \
    int lw = 1;                                                                \
    cusolverStatus_t s = cusolverDn##P##SY##evdx_bufferSize(                   \
        h, j, r, u, n, a, lda, (R)vl, (R)vu, il, iu, meig, w, &lw);            \
    /* A bad argument's call too, for its info. */                             \
    if (s != CUSOLVER_STATUS_SUCCESS && s != CUSOLVER_STATUS_INVALID_VALUE)    \
      return s;                                                                \
    T *work;                                                                   \
    CHECK_CUDA(cudaMalloc(&work, (lw > 0 ? lw : 1) * sizeof(T)));              \
    s = cusolverDn##P##SY##evdx(h, j, r, u, n, a, lda, (R)vl, (R)vu, il, iu,   \
                                meig, w, work, lw, info);                      \
    cudaFree(work);                                                            \
    return s;                                                                  \
  }                                                                            \
  static cusolverStatus_t gvdx(cusolverDnHandle_t h, cusolverEigType_t it,     \
                               cusolverEigMode_t j, cusolverEigRange_t r,      \
                               cublasFillMode_t u, int n, T *a, int lda, T *b, \
                               int ldb, double vl, double vu, int il, int iu,  \
                               int *meig, R *w, int *info) {                   \
    int lw = 0;                                                                \
    cusolverStatus_t s = cusolverDn##P##SY##gvdx_bufferSize(                   \
        h, it, j, r, u, n, a, lda, b, ldb, (R)vl, (R)vu, il, iu, meig, w,      \
        &lw);                                                                  \
    if (s != CUSOLVER_STATUS_SUCCESS)                                          \
      return s;                                                                \
    T *work;                                                                   \
    CHECK_CUDA(cudaMalloc(&work, (lw > 0 ? lw : 1) * sizeof(T)));              \
    s = cusolverDn##P##SY##gvdx(h, it, j, r, u, n, a, lda, b, ldb, (R)vl,      \
                                (R)vu, il, iu, meig, w, work, lw, info);       \
    cudaFree(work);                                                            \
    return s;                                                                  \
  }

SELECTIVE_OVERLOADS(S, float, float, sy)
SELECTIVE_OVERLOADS(D, double, double, sy)
SELECTIVE_OVERLOADS(C, cuComplex, float, he)
SELECTIVE_OVERLOADS(Z, cuDoubleComplex, double, he)

template <class T> static cudaDataType data_type();
template <> cudaDataType data_type<float>() { return CUDA_R_32F; }
template <> cudaDataType data_type<double>() { return CUDA_R_64F; }
template <> cudaDataType data_type<cuComplex>() { return CUDA_C_32F; }
template <> cudaDataType data_type<cuDoubleComplex>() { return CUDA_C_64F; }

#include "solver_auxiliary.h"
#include "solver_bidiagonal.h"
#include "solver_generic.h"
#include "solver_indefinite.h"
#include "solver_nonsymmetric.h"
#include "solver_svd_variants.h"
#include "solver_tridiagonal.h"

/* The known eigenvalues, ascending and well apart. */
static const int N = 10;
static const double LAMBDA[N] = {-4.5, -3, -2, -1, -0.5, 0.25, 1, 2, 3.5, 5};

/* A random n x n unitary (orthogonal for a real T): Gram-Schmidt, twice,
 * on a random matrix's columns. */
template <class T> static mat unitary(int n) {
  mat q = random_mat<T>(n, n);
  for (int j = 0; j < n; ++j) {
    for (int pass = 0; pass < 2; ++pass)
      for (int k = 0; k < j; ++k) {
        cplx d = 0;
        for (int i = 0; i < n; ++i)
          d += std::conj(q(i, k)) * q(i, j);
        for (int i = 0; i < n; ++i)
          q(i, j) -= d * q(i, k);
      }
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += std::norm(q(i, j));
    for (int i = 0; i < n; ++i)
      q(i, j) /= std::sqrt(s);
  }
  return q;
}

/* Q diag(LAMBDA) Q^H. */
static mat spectral(const mat &q) {
  mat qd = q;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i)
      qd(i, j) *= LAMBDA[j];
  return mul(qd, adjoint(q));
}

/* A copy of a whose triangle other than uplo's holds junk. */
static mat junk_triangle(const mat &a, cublasFillMode_t uplo) {
  mat in = a;
  for (int j = 0; j < a.cols; ++j)
    for (int i = 0; i < a.rows; ++i)
      if (uplo == CUBLAS_FILL_MODE_LOWER ? i < j : i > j)
        in(i, j) = 77.0;
  return in;
}

/* One selection: its range, bounds, and the known answer (the first known
 * eigenvalue kept and their count). */
struct selection {
  cusolverEigRange_t range;
  double vl, vu;
  int il, iu;
  int first, count;
  const char *what;
};
static const selection SELECTIONS[] = {
    {CUSOLVER_EIG_RANGE_ALL, 0, 0, 0, 0, 0, N, "all"},
    {CUSOLVER_EIG_RANGE_I, 0, 0, 3, 7, 2, 5, "I 3..7"},
    {CUSOLVER_EIG_RANGE_I, 0, 0, 10, 10, 9, 1, "I 10..10"},
    {CUSOLVER_EIG_RANGE_V, -1.5, 2.5, 0, 0, 3, 5, "V (-1.5, 2.5]"},
    {CUSOLVER_EIG_RANGE_V, -10, -4, 0, 0, 0, 1, "V (-10, -4]"},
    {CUSOLVER_EIG_RANGE_V, 5.5, 9, 0, 0, 0, 0, "V (5.5, 9] (empty)"},
};

/* W[0..meig) against the known eigenvalues of s. */
template <class R>
static void check_values(const char *call, const selection &s, int meig,
                         const std::vector<R> &w, double tol) {
  EXPECT(meig == s.count, "%s %s: meig %d, expected %d", call, s.what, meig,
         s.count);
  for (int i = 0; i < meig && i < s.count; ++i)
    EXPECT(std::fabs(w[i] - LAMBDA[s.first + i]) < tol * 10,
           "%s %s: W[%d] = %g, expected %g", call, s.what, i, (double)w[i],
           LAMBDA[s.first + i]);
}

template <class T> static void check_syevdx(void) {
  typedef typename real_of<T>::type R;
  const int lda = 12;
  const char *t = type_name<T>();
  char call[32];
  std::snprintf(call, sizeof call, "%s%sevdx", t,
                is_complex<T>() ? "he" : "sy");
  mat a = spectral(unitary<T>(N));
  R *dw;
  CHECK_CUDA(cudaMalloc(&dw, N * sizeof(R)));
  const cublasFillMode_t uplos[] = {CUBLAS_FILL_MODE_LOWER,
                                    CUBLAS_FILL_MODE_UPPER};
  for (cublasFillMode_t uplo : uplos)
    for (const selection &s : SELECTIONS)
      for (int vectors = 0; vectors <= 1; ++vectors) {
        T *da = to_device<T>(junk_triangle(a, uplo), lda);
        int meig = -1;
        EXPECT_STATUS(evdx(g_h,
                           vectors ? CUSOLVER_EIG_MODE_VECTOR
                                   : CUSOLVER_EIG_MODE_NOVECTOR,
                           s.range, uplo, N, da, lda, s.vl, s.vu, s.il, s.iu,
                           &meig, dw, g_info),
                      CUSOLVER_STATUS_SUCCESS);
        EXPECT(device_int(g_info) == 0, "%s %s: info %d", call, s.what,
               device_int(g_info));
        std::vector<R> w(N);
        if (meig > 0)
          CHECK_CUDA(cudaMemcpy(w.data(), dw, meig * sizeof(R),
                                cudaMemcpyDeviceToHost));
        check_values(call, s, meig, w, tolerance<T>());
        if (vectors && meig > 0 && meig <= N) {
          mat v = from_device<T>(da, N, meig, lda), vw = v;
          for (int j = 0; j < meig; ++j)
            for (int i = 0; i < N; ++i)
              vw(i, j) *= (double)w[j];
          double r = diff(mul(a, v), vw) / norm(a);
          double o = diff(mul(v, v, true), eye(meig)) / meig;
          EXPECT(r < tolerance<T>() && o < tolerance<T>(),
                 "%s %s: ||A V - V W|| %g, ||V^H V - I|| %g", call, s.what, r,
                 o);
        }
        cudaFree(da);
      }

  /* Bad arguments: info = -i, the i-th after the handle. */
  T *da = to_device<T>(a, lda);
  int meig = 0;
  struct {
    int range;
    double vl, vu;
    int il, iu, lda;
    bool meig;
    int info;
  } bad[] = {
      {0, 0, 0, 0, 0, lda, true, -2},                         /* range */
      {CUSOLVER_EIG_RANGE_ALL, 0, 0, 0, 0, N - 1, true, -6},  /* lda */
      {CUSOLVER_EIG_RANGE_V, 1, 1, 0, 0, lda, true, -8},      /* vu <= vl */
      {CUSOLVER_EIG_RANGE_I, 0, 0, 0, 3, lda, true, -9},      /* il < 1 */
      {CUSOLVER_EIG_RANGE_I, 0, 0, 4, 3, lda, true, -10},     /* iu < il */
      {CUSOLVER_EIG_RANGE_I, 0, 0, 1, N + 1, lda, true, -10}, /* iu > n */
      {CUSOLVER_EIG_RANGE_ALL, 0, 0, 0, 0, lda, false, -11},  /* meig */
  };
  for (auto &b : bad) {
    R vl = (R)b.vl, vu = (R)b.vu;
    EXPECT_STATUS(evdx(g_h, CUSOLVER_EIG_MODE_VECTOR,
                       (cusolverEigRange_t)b.range, CUBLAS_FILL_MODE_LOWER, N,
                       da, b.lda, vl, vu, b.il, b.iu, b.meig ? &meig : NULL, dw,
                       g_info),
                  CUSOLVER_STATUS_INVALID_VALUE);
    EXPECT(device_int(g_info) == b.info, "%s: bad argument: info %d, not %d",
           call, device_int(g_info), b.info);
  }
  cudaFree(da);
  cudaFree(dw);
}

/* The pencils of the known eigenvalues: with M = D U (D diagonal 1..2.8,
 * U unitary), B = M^H M, and Q diag(LAMBDA) Q^H = S: A = M^H S M for type
 * 1 (A x = w B x), M^-1 S M^-H for types 2 and 3 (A B x = w x,
 * B A x = w x). */
template <class T> static void check_sygvdx(cusolverEigType_t itype) {
  typedef typename real_of<T>::type R;
  const int lda = 11, ldb = 13;
  const char *t = type_name<T>();
  char call[40];
  std::snprintf(call, sizeof call, "%s%sgvdx type %d", t,
                is_complex<T>() ? "he" : "sy", (int)itype);
  mat s = spectral(unitary<T>(N)), u = unitary<T>(N);
  mat m = u, minv = adjoint(u);
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      m(i, j) *= 1 + 0.2 * i;
      minv(i, j) /= 1 + 0.2 * j;
    }
  mat b = mul(m, m, true);
  mat a = itype == CUSOLVER_EIG_TYPE_1 ? mul(mul(m, s, true), m)
                                       : mul(mul(minv, s), adjoint(minv));
  R *dw;
  CHECK_CUDA(cudaMalloc(&dw, N * sizeof(R)));
  cublasFillMode_t uplo = itype == CUSOLVER_EIG_TYPE_2 ? CUBLAS_FILL_MODE_UPPER
                                                       : CUBLAS_FILL_MODE_LOWER;
  for (const selection &sel : SELECTIONS) {
    T *da = to_device<T>(junk_triangle(a, uplo), lda);
    T *db = to_device<T>(junk_triangle(b, uplo), ldb);
    int meig = -1;
    EXPECT_STATUS(gvdx(g_h, itype, CUSOLVER_EIG_MODE_VECTOR, sel.range, uplo, N,
                       da, lda, db, ldb, sel.vl, sel.vu, sel.il, sel.iu, &meig,
                       dw, g_info),
                  CUSOLVER_STATUS_SUCCESS);
    EXPECT(device_int(g_info) == 0, "%s %s: info %d", call, sel.what,
           device_int(g_info));
    std::vector<R> w(N);
    if (meig > 0)
      CHECK_CUDA(
          cudaMemcpy(w.data(), dw, meig * sizeof(R), cudaMemcpyDeviceToHost));
    check_values(call, sel, meig, w, tolerance<T>() * 10);
    if (meig > 0 && meig <= N) {
      mat x = from_device<T>(da, N, meig, lda), xw = x;
      for (int j = 0; j < meig; ++j)
        for (int i = 0; i < N; ++i)
          xw(i, j) *= (double)w[j];
      /* The problem's residual, and X^H B X = I (types 1 and 2) or
       * X^H B^-1 X = I (type 3). */
      mat lhs = itype == CUSOLVER_EIG_TYPE_1   ? mul(a, x)
                : itype == CUSOLVER_EIG_TYPE_2 ? mul(a, mul(b, x))
                                               : mul(b, mul(a, x));
      mat rhs = itype == CUSOLVER_EIG_TYPE_1 ? mul(b, xw) : xw;
      double r = diff(lhs, rhs) / (norm(a) * norm(b) * norm(x));
      mat binv = mul(minv, adjoint(minv));
      mat g = mul(x, mul(itype == CUSOLVER_EIG_TYPE_3 ? binv : b, x), true);
      double o = diff(g, eye(meig)) / meig;
      EXPECT(r < tolerance<T>() && o < tolerance<T>() * 10,
             "%s %s: residual %g, B-orthonormality %g", call, sel.what, r, o);
    }
    cudaFree(da);
    cudaFree(db);
  }
  /* Bad arguments: the range (-3), il (-12), meig (-14). */
  T *da = to_device<T>(a, lda), *db = to_device<T>(b, ldb);
  int meig = 0;
  EXPECT_STATUS(gvdx(g_h, itype, CUSOLVER_EIG_MODE_VECTOR,
                     (cusolverEigRange_t)0, uplo, N, da, lda, db, ldb, 0, 0, 0,
                     0, &meig, dw, g_info),
                CUSOLVER_STATUS_INVALID_VALUE);
  EXPECT(device_int(g_info) == -3, "%s: bad range: info %d", call,
         device_int(g_info));
  EXPECT_STATUS(gvdx(g_h, itype, CUSOLVER_EIG_MODE_VECTOR, CUSOLVER_EIG_RANGE_I,
                     uplo, N, da, lda, db, ldb, 0, 0, N + 1, N, &meig, dw,
                     g_info),
                CUSOLVER_STATUS_INVALID_VALUE);
  EXPECT(device_int(g_info) == -12, "%s: bad il: info %d", call,
         device_int(g_info));
  EXPECT_STATUS(gvdx(g_h, itype, CUSOLVER_EIG_MODE_VECTOR,
                     CUSOLVER_EIG_RANGE_ALL, uplo, N, da, lda, db, ldb, 0, 0, 0,
                     0, NULL, dw, g_info),
                CUSOLVER_STATUS_INVALID_VALUE);
  EXPECT(device_int(g_info) == -14, "%s: no meig: info %d", call,
         device_int(g_info));
  cudaFree(da);
  cudaFree(db);
  cudaFree(dw);
}

template <class T> static void check_xsyevdx(void) {
  typedef typename real_of<T>::type R;
  const int lda = N;
  const char *t = type_name<T>();
  mat a = spectral(unitary<T>(N));
  cusolverDnParams_t params;
  EXPECT_STATUS(cusolverDnCreateParams(&params), CUSOLVER_STATUS_SUCCESS);
  R *dw;
  CHECK_CUDA(cudaMalloc(&dw, N * sizeof(R)));
  for (const selection &s : SELECTIONS) {
    T *da = to_device<T>(a, lda);
    R vl = (R)s.vl, vu = (R)s.vu;
    int64_t meig = -1;
    size_t dbytes = 0, hbytes = 0;
    EXPECT_STATUS(cusolverDnXsyevdx_bufferSize(
                      g_h, params, CUSOLVER_EIG_MODE_VECTOR, s.range,
                      CUBLAS_FILL_MODE_UPPER, N, data_type<T>(), da, lda, &vl,
                      &vu, s.il, s.iu, &meig, data_type<R>(), dw,
                      data_type<T>(), &dbytes, &hbytes),
                  CUSOLVER_STATUS_SUCCESS);
    void *dbuf, *hbuf = std::malloc(hbytes ? hbytes : 1);
    CHECK_CUDA(cudaMalloc(&dbuf, dbytes ? dbytes : 1));
    EXPECT_STATUS(
        cusolverDnXsyevdx(g_h, params, CUSOLVER_EIG_MODE_VECTOR, s.range,
                          CUBLAS_FILL_MODE_UPPER, N, data_type<T>(), da, lda,
                          &vl, &vu, s.il, s.iu, &meig, data_type<R>(), dw,
                          data_type<T>(), dbuf, dbytes, hbuf, hbytes, g_info),
        CUSOLVER_STATUS_SUCCESS);
    EXPECT(device_int(g_info) == 0, "%sXsyevdx %s: info %d", t, s.what,
           device_int(g_info));
    std::vector<R> w(N);
    if (meig > 0 && meig <= N)
      CHECK_CUDA(
          cudaMemcpy(w.data(), dw, meig * sizeof(R), cudaMemcpyDeviceToHost));
    check_values("Xsyevdx", s, (int)meig, w, tolerance<T>());
    if (meig > 0 && meig <= N) {
      mat v = from_device<T>(da, N, (int)meig, lda), vw = v;
      for (int j = 0; j < meig; ++j)
        for (int i = 0; i < N; ++i)
          vw(i, j) *= (double)w[j];
      double r = diff(mul(a, v), vw) / norm(a);
      EXPECT(r < tolerance<T>(), "%sXsyevdx %s: ||A V - V W|| %g", t, s.what,
             r);
    }
    cudaFree(dbuf);
    std::free(hbuf);
    cudaFree(da);
  }
  cudaFree(dw);
  cusolverDnDestroyParams(params);
}

int main(void) {
  if (cusolverDnCreate(&g_h) != CUSOLVER_STATUS_SUCCESS) {
    std::printf("cusolverDnCreate failed\n");
    return 1;
  }
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_CUDA(cudaMalloc(&g_info, sizeof(int)));
  EXPECT_STATUS(cusolverDnSetStream(g_h, stream), CUSOLVER_STATUS_SUCCESS);
  check_syevdx<float>();
  check_syevdx<double>();
  check_syevdx<cuComplex>();
  check_syevdx<cuDoubleComplex>();
  check_sygvdx<float>(CUSOLVER_EIG_TYPE_1);
  check_sygvdx<double>(CUSOLVER_EIG_TYPE_2);
  check_sygvdx<cuComplex>(CUSOLVER_EIG_TYPE_3);
  check_sygvdx<cuDoubleComplex>(CUSOLVER_EIG_TYPE_1);
  check_sygvdx<cuDoubleComplex>(CUSOLVER_EIG_TYPE_2);
  check_sygvdx<double>(CUSOLVER_EIG_TYPE_3);
  check_xsyevdx<double>();
  check_xsyevdx<cuComplex>();
  check_indefinite();
  check_tridiagonal();
  check_bidiagonal();
  check_generic_api();
  check_svd_variants();
  check_auxiliary();
  check_nonsymmetric();
  cudaFree(g_info);
  cusolverDnDestroy(g_h);
  cudaStreamDestroy(stream);
  return finish();
}
