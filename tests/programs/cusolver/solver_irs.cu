/* solver_irs.cu: cuSOLVER's iterative-refinement solvers,
 * cusolverDn<T1><T2>gesv and cusolverDn<T1><T2>gels (a trial of
 * computational-finance code called DDgesv and DDgels for its regressions,
 * which cuemu did not have). A diagonally dominant 40 x 40 system with two
 * right-hand sides is solved in every main precision with its own and
 * lower factorization precisions: the residual must be at T1's rounding,
 * niters 0 when T2 is T1 and > 0 when refinement was used, dA unchanged
 * after a refinement that converged and dB never written. An entry beyond
 * half's range makes DHgesv fall back (niters -2) and still solve; a
 * least-squares problem with a large residual (60 x 5) must give the
 * normal equations' solution with DDgels, DSgels, DXgels and ZCgels;
 * bad arguments give d_info = -i, a zero matrix d_info = 1. The expert
 * interface (IRSParams, IRSInfos, IRSXgesv, IRSXgels) the same, and
 * CUSOLVER_IRS_REFINE_NONE one solve in the lowest precision.
 * CUEMU_OPTIONS: -O0 -lcusolver
 * NVCC_OPTIONS: -lcusolver */
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <vector>

#include <cusolverDn.h>

#include "../cudalibs/check_libs.h"

typedef std::complex<double> cd;

/* A T1 array on the device from complex doubles (the real part for a real
 * T1), and back. */
template <typename T> struct Elem;
template <> struct Elem<double> {
  static double from(cd v) { return v.real(); }
  static cd to(double v) { return v; }
  static constexpr double eps = 1.1e-16;
};
template <> struct Elem<float> {
  static float from(cd v) { return (float)v.real(); }
  static cd to(float v) { return v; }
  static constexpr double eps = 6e-8;
};
template <> struct Elem<cuDoubleComplex> {
  static cuDoubleComplex from(cd v) { return make_cuDoubleComplex(v.real(), v.imag()); }
  static cd to(cuDoubleComplex v) { return cd(v.x, v.y); }
  static constexpr double eps = 1.1e-16;
};
template <> struct Elem<cuComplex> {
  static cuComplex from(cd v) { return make_cuComplex((float)v.real(), (float)v.imag()); }
  static cd to(cuComplex v) { return cd(v.x, v.y); }
  static constexpr double eps = 6e-8;
};

template <typename T> static T *upload(const std::vector<cd> &v) {
  std::vector<T> h(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    h[i] = Elem<T>::from(v[i]);
  T *d;
  CHECK_CUDA(cudaMalloc(&d, sizeof(T) * (v.size() ? v.size() : 1)));
  CHECK_CUDA(cudaMemcpy(d, h.data(), sizeof(T) * v.size(), cudaMemcpyHostToDevice));
  return d;
}

template <typename T> static std::vector<cd> download(const T *d, size_t n) {
  std::vector<T> h(n);
  CHECK_CUDA(cudaMemcpy(h.data(), d, sizeof(T) * n, cudaMemcpyDeviceToHost));
  std::vector<cd> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = Elem<T>::to(h[i]);
  return v;
}

static unsigned g_seed = 12345;
static double uniform() {
  g_seed = g_seed * 1103515245u + 12345u;
  return ((g_seed >> 8) & 0xffff) / 65536.0 - 0.5;
}

/* max_j |b_j - A x_j| / (|A| |x_j|), infinity norms, A m x n. */
static double residual(const std::vector<cd> &a, const std::vector<cd> &x,
                       const std::vector<cd> &b, int m, int n, int nrhs) {
  double an = 0, worst = 0;
  for (int i = 0; i < m; ++i) {
    double s = 0;
    for (int k = 0; k < n; ++k)
      s += std::abs(a[(size_t)k * m + i]);
    an = s > an ? s : an;
  }
  for (int j = 0; j < nrhs; ++j) {
    double r = 0, xn = 0;
    for (int k = 0; k < n; ++k)
      xn = std::fmax(xn, std::abs(x[(size_t)j * n + k]));
    for (int i = 0; i < m; ++i) {
      cd s = b[(size_t)j * m + i];
      for (int k = 0; k < n; ++k)
        s -= a[(size_t)k * m + i] * x[(size_t)j * n + k];
      r = std::fmax(r, std::abs(s));
    }
    worst = std::fmax(worst, r / (an * xn));
  }
  return worst;
}

typedef cusolverStatus_t (*gesv_size_fn)(cusolverDnHandle_t, int, int, void *, int, int *,
                                         void *, int, void *, int, void *, size_t *);

/* Solves with one gesv: want_iters 0 (T2 is T1), 1 (refined: > 0) or the
 * exact negative count of a fallback. */
template <typename T, typename Fn, typename SizeFn>
static void gesv(const char *name, cusolverDnHandle_t h, Fn fn, SizeFn size,
                 const std::vector<cd> &a, int n, int nrhs, int want_iters) {
  std::vector<cd> b((size_t)n * nrhs);
  for (auto &v : b)
    v = cd(uniform(), Elem<T>::to(Elem<T>::from(cd(0, 1))).imag() * uniform());
  T *da = upload<T>(a), *db = upload<T>(b), *dx = upload<T>(std::vector<cd>((size_t)n * nrhs));
  int *ipiv, *info;
  CHECK_CUDA(cudaMalloc(&ipiv, sizeof(int) * n));
  CHECK_CUDA(cudaMalloc(&info, sizeof(int)));
  size_t bytes = 0;
  EXPECT_STATUS(size(h, n, nrhs, da, n, ipiv, db, n, dx, n, nullptr, &bytes),
                CUSOLVER_STATUS_SUCCESS);
  void *work;
  CHECK_CUDA(cudaMalloc(&work, bytes));
  int iters = 12345;
  EXPECT_STATUS(fn(h, n, nrhs, da, n, ipiv, db, n, dx, n, work, bytes, &iters, info),
                CUSOLVER_STATUS_SUCCESS);
  int hinfo = -1;
  CHECK_CUDA(cudaMemcpy(&hinfo, info, sizeof hinfo, cudaMemcpyDeviceToHost));
  std::vector<cd> x = download(dx, (size_t)n * nrhs);
  std::vector<cd> a_after = download(da, a.size()), b_after = download(db, b.size());
  std::vector<cd> a_t(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    a_t[i] = Elem<T>::to(Elem<T>::from(a[i]));
  for (auto &v : b)
    v = Elem<T>::to(Elem<T>::from(v));
  double r = residual(a_t, x, b, n, n, nrhs);
  std::printf("%-16s n = %d: niters %3d, info %d, residual %.2e\n", name, n, iters, hinfo, r);
  EXPECT(hinfo == 0, "%s: info %d", name, hinfo);
  EXPECT(r < 20 * Elem<T>::eps, "%s: residual %g", name, r);
  EXPECT(want_iters == 1 ? iters > 0 : iters == want_iters, "%s: niters %d, expected %d", name,
         iters, want_iters);
  EXPECT(b_after == b, "%s: dB was written", name);
  if (iters > 0)
    EXPECT(a_after == a_t, "%s: dA changed after a refinement that converged", name);
  else
    EXPECT(a_after != a_t, "%s: dA does not hold the factors", name);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dx);
  cudaFree(ipiv);
  cudaFree(info);
  cudaFree(work);
}

/* Least squares, m x n, one right-hand side, against the normal
 * equations solved on the host (Gaussian elimination, n small). */
template <typename T, typename Fn, typename SizeFn>
static void gels(const char *name, cusolverDnHandle_t h, Fn fn, SizeFn size, int m, int n,
                 bool complex_values) {
  std::vector<cd> a((size_t)m * n), b(m);
  for (int i = 0; i < m; ++i) {
    double t = (i + 0.5) / m;
    for (int k = 0; k < n; ++k)
      a[(size_t)k * m + i] = cd(std::pow(t, k) + 0.1 * uniform(), complex_values ? 0.1 * uniform() : 0);
    b[i] = cd(std::sin(6 * t) + uniform(), complex_values ? uniform() : 0); /* large residual */
  }
  for (auto &v : a)
    v = Elem<T>::to(Elem<T>::from(v));
  for (auto &v : b)
    v = Elem<T>::to(Elem<T>::from(v));
  /* Normal equations: (A^H A) x = A^H b. */
  std::vector<cd> g((size_t)n * (n + 1));
  for (int p = 0; p < n; ++p) {
    for (int q = 0; q < n; ++q) {
      cd s = 0;
      for (int i = 0; i < m; ++i)
        s += std::conj(a[(size_t)p * m + i]) * a[(size_t)q * m + i];
      g[(size_t)p * (n + 1) + q] = s;
    }
    cd s = 0;
    for (int i = 0; i < m; ++i)
      s += std::conj(a[(size_t)p * m + i]) * b[i];
    g[(size_t)p * (n + 1) + n] = s;
  }
  for (int p = 0; p < n; ++p)
    for (int r = p + 1; r < n; ++r) {
      cd f = g[(size_t)r * (n + 1) + p] / g[(size_t)p * (n + 1) + p];
      for (int q = p; q <= n; ++q)
        g[(size_t)r * (n + 1) + q] -= f * g[(size_t)p * (n + 1) + q];
    }
  std::vector<cd> want(n);
  for (int p = n - 1; p >= 0; --p) {
    cd s = g[(size_t)p * (n + 1) + n];
    for (int q = p + 1; q < n; ++q)
      s -= g[(size_t)p * (n + 1) + q] * want[q];
    want[p] = s / g[(size_t)p * (n + 1) + p];
  }
  T *da = upload<T>(a), *db = upload<T>(b), *dx = upload<T>(std::vector<cd>(n));
  int *info;
  CHECK_CUDA(cudaMalloc(&info, sizeof(int)));
  size_t bytes = 0;
  EXPECT_STATUS(size(h, m, n, 1, da, m, db, m, dx, n, nullptr, &bytes), CUSOLVER_STATUS_SUCCESS);
  void *work;
  CHECK_CUDA(cudaMalloc(&work, bytes));
  int iters = 12345;
  EXPECT_STATUS(fn(h, m, n, 1, da, m, db, m, dx, n, work, bytes, &iters, info),
                CUSOLVER_STATUS_SUCCESS);
  int hinfo = -1;
  CHECK_CUDA(cudaMemcpy(&hinfo, info, sizeof hinfo, cudaMemcpyDeviceToHost));
  std::vector<cd> x = download(dx, n);
  double err = 0, xn = 0;
  for (int k = 0; k < n; ++k) {
    err = std::fmax(err, std::abs(x[k] - want[k]));
    xn = std::fmax(xn, std::abs(want[k]));
  }
  std::printf("%-16s %d x %d: niters %3d, info %d, |x - x_normal| / |x| %.2e\n", name, m, n,
              iters, hinfo, err / xn);
  EXPECT(hinfo == 0, "%s: info %d", name, hinfo);
  EXPECT(err / xn < 1e5 * Elem<T>::eps, "%s: error %g", name, err / xn);
  EXPECT(iters >= 0, "%s: niters %d", name, iters);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dx);
  cudaFree(info);
  cudaFree(work);
}

int main(void) {
  cusolverDnHandle_t h;
  cudaStream_t stream;
  EXPECT_STATUS(cusolverDnCreate(&h), CUSOLVER_STATUS_SUCCESS);
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  EXPECT_STATUS(cusolverDnSetStream(h, stream), CUSOLVER_STATUS_SUCCESS);

  const int n = 40, nrhs = 2;
  std::vector<cd> real_a((size_t)n * n), complex_a((size_t)n * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double d = i == j ? n : 0.0;
      real_a[(size_t)j * n + i] = cd(d + uniform(), 0);
      complex_a[(size_t)j * n + i] = cd(d + uniform(), uniform());
    }
  gesv<double>("DDgesv", h, cusolverDnDDgesv, cusolverDnDDgesv_bufferSize, real_a, n, nrhs, 0);
  gesv<double>("DSgesv", h, cusolverDnDSgesv, cusolverDnDSgesv_bufferSize, real_a, n, nrhs, 1);
  gesv<double>("DHgesv", h, cusolverDnDHgesv, cusolverDnDHgesv_bufferSize, real_a, n, nrhs, 1);
  gesv<double>("DBgesv", h, cusolverDnDBgesv, cusolverDnDBgesv_bufferSize, real_a, n, nrhs, 1);
  gesv<double>("DXgesv", h, cusolverDnDXgesv, cusolverDnDXgesv_bufferSize, real_a, n, nrhs, 1);
  gesv<float>("SSgesv", h, cusolverDnSSgesv, cusolverDnSSgesv_bufferSize, real_a, n, nrhs, 0);
  gesv<float>("SHgesv", h, cusolverDnSHgesv, cusolverDnSHgesv_bufferSize, real_a, n, nrhs, 1);
  gesv<cuDoubleComplex>("ZZgesv", h, cusolverDnZZgesv, cusolverDnZZgesv_bufferSize, complex_a,
                        n, nrhs, 0);
  gesv<cuDoubleComplex>("ZCgesv", h, cusolverDnZCgesv, cusolverDnZCgesv_bufferSize, complex_a,
                        n, nrhs, 1);
  gesv<cuComplex>("CKgesv", h, cusolverDnCKgesv, cusolverDnCKgesv_bufferSize, complex_a, n,
                  nrhs, 1);
  /* 1e6 is beyond half's range: the factorization falls back to double. */
  std::vector<cd> big = real_a;
  big[0] = 1e6;
  gesv<double>("DHgesv overflow", h, cusolverDnDHgesv, cusolverDnDHgesv_bufferSize, big, n,
               nrhs, -2);

  gels<double>("DDgels", h, cusolverDnDDgels, cusolverDnDDgels_bufferSize, 60, 5, false);
  gels<double>("DSgels", h, cusolverDnDSgels, cusolverDnDSgels_bufferSize, 60, 5, false);
  gels<double>("DXgels", h, cusolverDnDXgels, cusolverDnDXgels_bufferSize, 60, 5, false);
  gels<cuDoubleComplex>("ZCgels", h, cusolverDnZCgels, cusolverDnZCgels_bufferSize, 60, 5,
                        true);

  /* The expert interface: IRSXgesv as DSgesv and as a single solve
   * without refinement, IRSXgels as ZCgels. */
  {
    cusolverDnIRSParams_t params;
    cusolverDnIRSInfos_t infos;
    EXPECT_STATUS(cusolverDnIRSParamsCreate(&params), CUSOLVER_STATUS_SUCCESS);
    EXPECT_STATUS(cusolverDnIRSInfosCreate(&infos), CUSOLVER_STATUS_SUCCESS);
    EXPECT_STATUS(cusolverDnIRSParamsSetSolverPrecisions(params, CUSOLVER_R_64F, CUSOLVER_R_32F),
                  CUSOLVER_STATUS_SUCCESS);
    size_t bytes = 0;
    /* A not representable in single precision, so that one solve without
     * refinement shows single's rounding. No refinement solver set yet. */
    std::vector<cd> third = real_a;
    for (auto &v : third)
      v /= 3.0;
    double *da = upload<double>(third), *dx = upload<double>(std::vector<cd>(n));
    std::vector<cd> b(n);
    for (auto &v : b)
      v = uniform();
    double *db = upload<double>(b);
    int *info, iters = 0, max_iters = 0, hinfo = -1;
    CHECK_CUDA(cudaMalloc(&info, sizeof(int)));
    EXPECT_STATUS(cusolverDnIRSXgesv(h, params, infos, n, 1, da, n, db, n, dx, n, nullptr, 0,
                                     &iters, info),
                  CUSOLVER_STATUS_INVALID_VALUE);
    EXPECT_STATUS(cusolverDnIRSParamsSetRefinementSolver(params, CUSOLVER_IRS_REFINE_CLASSICAL),
                  CUSOLVER_STATUS_SUCCESS);
    EXPECT_STATUS(cusolverDnIRSParamsSetMaxIters(params, 20), CUSOLVER_STATUS_SUCCESS);
    EXPECT_STATUS(cusolverDnIRSXgesv_bufferSize(h, params, n, 1, &bytes), CUSOLVER_STATUS_SUCCESS);
    EXPECT_STATUS(cusolverDnIRSXgesv(h, params, infos, n, 1, da, n, db, n, dx, n, nullptr, 0,
                                     &iters, info),
                  CUSOLVER_STATUS_SUCCESS);
    CHECK_CUDA(cudaMemcpy(&hinfo, info, sizeof hinfo, cudaMemcpyDeviceToHost));
    int got_iters = -1;
    EXPECT_STATUS(cusolverDnIRSInfosGetNiters(infos, &got_iters), CUSOLVER_STATUS_SUCCESS);
    EXPECT_STATUS(cusolverDnIRSInfosGetMaxIters(infos, &max_iters), CUSOLVER_STATUS_SUCCESS);
    double r = residual(third, download(dx, n), b, n, n, 1);
    std::printf("IRSXgesv 64F/32F  n = %d: niters %d (infos %d, max %d), residual %.2e\n", n,
                iters, got_iters, max_iters, r);
    EXPECT(hinfo == 0 && iters > 0 && got_iters == iters && max_iters == 20 && r < 2e-15,
           "IRSXgesv: info %d, niters %d, infos %d, max %d, residual %g", hinfo, iters, got_iters,
           max_iters, r);
    EXPECT_STATUS(cusolverDnIRSParamsSetRefinementSolver(params, CUSOLVER_IRS_REFINE_NONE),
                  CUSOLVER_STATUS_SUCCESS);
    EXPECT_STATUS(cusolverDnIRSXgesv(h, params, infos, n, 1, da, n, db, n, dx, n, nullptr, 0,
                                     &iters, info),
                  CUSOLVER_STATUS_SUCCESS);
    r = residual(third, download(dx, n), b, n, n, 1);
    std::printf("IRSXgesv no refinement: niters %d, residual %.2e\n", iters, r);
    EXPECT(iters == 0 && r > 1e-12 && r < 1e-6, "IRSXgesv REFINE_NONE: niters %d, residual %g",
           iters, r);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dx);
    cudaFree(info);
    EXPECT_STATUS(cusolverDnIRSParamsSetSolverPrecisions(params, CUSOLVER_C_64F, CUSOLVER_C_32F),
                  CUSOLVER_STATUS_SUCCESS);
    EXPECT_STATUS(cusolverDnIRSParamsSetRefinementSolver(params, CUSOLVER_IRS_REFINE_GMRES),
                  CUSOLVER_STATUS_SUCCESS);
    auto xgels = [&](cusolverDnHandle_t hh, int m, int nn, int nrhs, cuDoubleComplex *a, int lda,
                     cuDoubleComplex *bb, int ldb, cuDoubleComplex *x, int ldx, void *work,
                     size_t lwork, int *it, int *inf) {
      return cusolverDnIRSXgels(hh, params, infos, m, nn, nrhs, a, lda, bb, ldb, x, ldx, work,
                                lwork, it, inf);
    };
    auto xgels_size = [&](cusolverDnHandle_t hh, int m, int nn, int nrhs, cuDoubleComplex *,
                          int, cuDoubleComplex *, int, cuDoubleComplex *, int, void *,
                          size_t *lwork) {
      return cusolverDnIRSXgels_bufferSize(hh, params, m, nn, nrhs, lwork);
    };
    gels<cuDoubleComplex>("IRSXgels C64/C32", h, xgels, xgels_size, 60, 5, true);
    EXPECT_STATUS(cusolverDnIRSInfosDestroy(infos), CUSOLVER_STATUS_SUCCESS);
    EXPECT_STATUS(cusolverDnIRSParamsDestroy(params), CUSOLVER_STATUS_SUCCESS);
  }

  /* Bad arguments and a singular matrix. */
  double *da, *db, *dx;
  int *ipiv, *info, iters = 0, hinfo = 0;
  CHECK_CUDA(cudaMalloc(&da, sizeof(double) * 16));
  CHECK_CUDA(cudaMalloc(&db, sizeof(double) * 4));
  CHECK_CUDA(cudaMalloc(&dx, sizeof(double) * 4));
  CHECK_CUDA(cudaMalloc(&ipiv, sizeof(int) * 4));
  CHECK_CUDA(cudaMalloc(&info, sizeof(int)));
  CHECK_CUDA(cudaMemset(da, 0, sizeof(double) * 16));
  CHECK_CUDA(cudaMemset(db, 0, sizeof(double) * 4));
  EXPECT_STATUS(cusolverDnDDgesv(h, 4, 1, da, 3, ipiv, db, 4, dx, 4, nullptr, 0, &iters, info),
                CUSOLVER_STATUS_INVALID_VALUE);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaMemcpy(&hinfo, info, sizeof hinfo, cudaMemcpyDeviceToHost));
  EXPECT(hinfo == -4, "DDgesv lda 3 < n 4: d_info %d", hinfo);
  EXPECT_STATUS(cusolverDnDDgels(h, 2, 4, 1, da, 4, db, 4, dx, 4, nullptr, 0, &iters, info),
                CUSOLVER_STATUS_INVALID_VALUE);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaMemcpy(&hinfo, info, sizeof hinfo, cudaMemcpyDeviceToHost));
  EXPECT(hinfo == -2, "DDgels n 4 > m 2: d_info %d", hinfo);
  EXPECT_STATUS(cusolverDnDSgesv(h, 4, 1, da, 4, ipiv, db, 4, dx, 4, nullptr, 0, &iters, info),
                CUSOLVER_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(&hinfo, info, sizeof hinfo, cudaMemcpyDeviceToHost));
  std::printf("DSgesv of zeros: niters %d, info %d\n", iters, hinfo);
  EXPECT(hinfo == 1 && iters < 0, "DSgesv of a zero matrix: info %d, niters %d", hinfo, iters);

  cudaFree(da);
  cudaFree(db);
  cudaFree(dx);
  cudaFree(ipiv);
  cudaFree(info);
  cusolverDnDestroy(h);
  cudaStreamDestroy(stream);
  return finish();
}
