/* cublas_levels.cu: cuBLAS levels 1 and 2 and the other level 3 calls in
 * the style of simpleCUBLAS: axpy, dot, dotc, nrm2, asum, scal, copy,
 * swap, iamax, iamin, rot (with negative increments), gemv, ger, symv,
 * trsv, trmv, geam, dgmm, syrk, symm, trsm, trmm, and a batched LU
 * factorisation, inverse and solve (getrfBatched, getriBatched,
 * getrsBatched) against host references; a dot product returned to device
 * memory; and the errors cuBLAS documents for bad arguments.
 * CUEMU_OPTIONS: -lcublas */
#include <cmath>
#include <cstring>
#include <vector>

#include <cublas_v2.h>

#include "check_libs.h"

template <typename T> static T *to_device(const std::vector<T> &v) {
  T *d;
  CHECK_CUDA(cudaMalloc(&d, v.size() * sizeof(T) + 1));
  CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(T),
                        cudaMemcpyHostToDevice));
  return d;
}

template <typename T> static std::vector<T> to_host(const T *d, size_t n) {
  std::vector<T> v(n);
  CHECK_CUDA(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

static double maxdiff(const std::vector<double> &a,
                      const std::vector<double> &b) {
  double w = 0;
  for (size_t i = 0; i < a.size(); ++i)
    w = std::fmax(w, std::fabs(a[i] - b[i]));
  return w;
}

static void level1(cublasHandle_t h) {
  const int n = 10;
  std::vector<double> x(n), y(2 * n);
  for (int i = 0; i < n; ++i)
    x[i] = i - 3.5;
  for (int i = 0; i < 2 * n; ++i)
    y[i] = 0.25 * i;
  double *dx = to_device(x), *dy = to_device(y);
  /* axpy with incy = -2: y[(n-1-i)*2] += alpha x[i]. */
  double alpha = 2.0;
  EXPECT_STATUS(cublasDaxpy(h, n, &alpha, dx, 1, dy, -2),
                CUBLAS_STATUS_SUCCESS);
  std::vector<double> want = y;
  for (int i = 0; i < n; ++i)
    want[(n - 1 - i) * 2] += alpha * x[i];
  EXPECT(maxdiff(to_host(dy, 2 * n), want) == 0, "daxpy with incy -2");
  cudaMemcpy(dy, y.data(), y.size() * 8, cudaMemcpyHostToDevice);
  /* dot, nrm2, asum, iamax, iamin. */
  double dot = 0, nrm = 0, asum = 0, wdot = 0, wnrm = 0, wasum = 0;
  for (int i = 0; i < n; ++i)
    wdot += x[i] * y[2 * i], wnrm += x[i] * x[i], wasum += std::fabs(x[i]);
  EXPECT_STATUS(cublasDdot(h, n, dx, 1, dy, 2, &dot), CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasDnrm2(h, n, dx, 1, &nrm), CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasDasum(h, n, dx, 1, &asum), CUBLAS_STATUS_SUCCESS);
  EXPECT(std::fabs(dot - wdot) < 1e-12, "ddot %g, expected %g", dot, wdot);
  EXPECT(std::fabs(nrm - std::sqrt(wnrm)) < 1e-12, "dnrm2 %g", nrm);
  EXPECT(std::fabs(asum - wasum) < 1e-12, "dasum %g", asum);
  int imax = -1, imin = -1;
  EXPECT_STATUS(cublasIdamax(h, n, dx, 1, &imax), CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasIdamin(h, n, dx, 1, &imin), CUBLAS_STATUS_SUCCESS);
  /* |x| is largest at i = 9 (5.5), smallest at i = 3 (0.5, first of two). */
  EXPECT(imax == 10 && imin == 4, "idamax %d idamin %d (1-based)", imax,
         imin);
  /* n <= 0 and incx <= 0: the result is 0. */
  imax = 7;
  EXPECT_STATUS(cublasIdamax(h, n, dx, 0, &imax), CUBLAS_STATUS_SUCCESS);
  EXPECT(imax == 0, "idamax with incx 0 gave %d", imax);
  /* scal, copy, swap, rot. */
  double s = -1.0;
  EXPECT_STATUS(cublasDscal(h, n, &s, dx, 1), CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasDcopy(h, n, dx, 1, dy, 1), CUBLAS_STATUS_SUCCESS);
  std::vector<double> neg(n);
  for (int i = 0; i < n; ++i)
    neg[i] = -x[i];
  EXPECT(maxdiff(to_host(dy, n), neg) == 0, "dscal then dcopy");
  double c = 0.6, sn = 0.8;
  std::vector<double> x2 = to_host(dx, n), y2 = to_host(dy, n);
  EXPECT_STATUS(cublasDrot(h, n, dx, 1, dy, 1, &c, &sn), CUBLAS_STATUS_SUCCESS);
  std::vector<double> rx(n), ry(n);
  for (int i = 0; i < n; ++i)
    rx[i] = c * x2[i] + sn * y2[i], ry[i] = c * y2[i] - sn * x2[i];
  EXPECT(maxdiff(to_host(dx, n), rx) < 1e-14 &&
             maxdiff(to_host(dy, n), ry) < 1e-14,
         "drot");
  EXPECT_STATUS(cublasDswap(h, n, dx, 1, dy, 1), CUBLAS_STATUS_SUCCESS);
  EXPECT(maxdiff(to_host(dx, n), ry) < 1e-14, "dswap");
  cudaFree(dx), cudaFree(dy);

  /* Complex: dotc conjugates x, dotu does not; scnrm2; single precision
   * axpy. */
  std::vector<cuComplex> cx = {{1, 2}, {3, -1}, {0, 1}},
                         cy = {{2, 0}, {1, 1}, {-1, 2}};
  cuComplex *dcx = to_device(cx), *dcy = to_device(cy), dotc, dotu;
  EXPECT_STATUS(cublasCdotc(h, 3, dcx, 1, dcy, 1, &dotc),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasCdotu(h, 3, dcx, 1, dcy, 1, &dotu),
                CUBLAS_STATUS_SUCCESS);
  /* conj(x).y = (1-2i)2 + (3+i)(1+i) + (-i)(-1+2i) = 2-4i + 2+4i + 2+i */
  EXPECT(dotc.x == 6 && dotc.y == 1, "cdotc (%g, %g)", dotc.x, dotc.y);
  /* x.y = (1+2i)2 + (3-i)(1+i) + i(-1+2i) = 2+4i + 4+2i - 2-i */
  EXPECT(dotu.x == 4 && dotu.y == 5, "cdotu (%g, %g)", dotu.x, dotu.y);
  float cn = 0;
  EXPECT_STATUS(cublasScnrm2(h, 3, dcx, 1, &cn), CUBLAS_STATUS_SUCCESS);
  EXPECT(std::fabs(cn - 4.0f) < 1e-6f, "scnrm2 %g", cn); /* sqrt(5+10+1) */
  cudaFree(dcx), cudaFree(dcy);

  /* A result to device memory (CUBLAS_POINTER_MODE_DEVICE). */
  std::vector<float> fx = {1, 2, 3, 4};
  float *dfx = to_device(fx), *dres;
  CHECK_CUDA(cudaMalloc(&dres, sizeof(float)));
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
  EXPECT_STATUS(cublasSdot(h, 4, dfx, 1, dfx, 1, dres), CUBLAS_STATUS_SUCCESS);
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
  float res = to_host(dres, 1)[0];
  EXPECT(res == 30.0f, "sdot to device memory %g", res);
  cudaFree(dfx), cudaFree(dres);
}

/* Column-major host helpers. */
static double at(const std::vector<double> &A, int ld, int i, int j) {
  return A[i + (size_t)j * ld];
}

static void level2(cublasHandle_t h) {
  const int m = 5, n = 4, lda = 7;
  std::vector<double> A(lda * n), x(m), y(m);
  for (size_t i = 0; i < A.size(); ++i)
    A[i] = std::cos(0.7 * i);
  for (int i = 0; i < m; ++i)
    x[i] = 1.0 + i, y[i] = NAN; /* beta = 0: y is not read */
  double *dA = to_device(A), *dx = to_device(x), *dy = to_device(y);
  double alpha = 2.0, beta = 0.0;
  /* y(n) = alpha A^T x(m) */
  EXPECT_STATUS(cublasDgemv(h, CUBLAS_OP_T, m, n, &alpha, dA, lda, dx, 1,
                            &beta, dy, 1),
                CUBLAS_STATUS_SUCCESS);
  std::vector<double> want(n);
  for (int j = 0; j < n; ++j) {
    double s = 0;
    for (int i = 0; i < m; ++i)
      s += at(A, lda, i, j) * x[i];
    want[j] = alpha * s;
  }
  EXPECT(maxdiff(to_host(dy, n), want) < 1e-13, "dgemv T with beta 0");
  /* ger: A += alpha x y^T (m x n) */
  std::vector<double> yy = {1, -1, 2, 0.5};
  double *dyy = to_device(yy);
  EXPECT_STATUS(cublasDger(h, m, n, &alpha, dx, 1, dyy, 1, dA, lda),
                CUBLAS_STATUS_SUCCESS);
  std::vector<double> gA = A;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i)
      gA[i + j * lda] += alpha * x[i] * yy[j];
  EXPECT(maxdiff(to_host(dA, A.size()), gA) < 1e-13, "dger");
  /* symv from the lower triangle; trmv and trsv upper, transposed. */
  const int s = 4;
  std::vector<double> S(s * s), v = {1, 2, 3, 4};
  for (int i = 0; i < s * s; ++i)
    S[i] = 0.5 + 0.1 * i;
  for (int i = 0; i < s; ++i)
    S[i + i * s] = 3.0 + i; /* well conditioned */
  double *dS = to_device(S), *dv = to_device(v), *dw;
  CHECK_CUDA(cudaMalloc(&dw, s * 8));
  alpha = 1.0;
  EXPECT_STATUS(cublasDsymv(h, CUBLAS_FILL_MODE_LOWER, s, &alpha, dS, s, dv,
                            1, &beta, dw, 1),
                CUBLAS_STATUS_SUCCESS);
  std::vector<double> sw(s, 0.0);
  for (int i = 0; i < s; ++i)
    for (int j = 0; j < s; ++j)
      sw[i] += (i >= j ? at(S, s, i, j) : at(S, s, j, i)) * v[j];
  EXPECT(maxdiff(to_host(dw, s), sw) < 1e-13, "dsymv lower");
  EXPECT_STATUS(cublasDtrmv(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T,
                            CUBLAS_DIAG_NON_UNIT, s, dS, s, dv, 1),
                CUBLAS_STATUS_SUCCESS);
  std::vector<double> tv(s, 0.0);
  for (int i = 0; i < s; ++i)
    for (int j = 0; j <= i; ++j)
      tv[i] += at(S, s, j, i) * v[j]; /* (U^T)[i][j] = U[j][i], j <= i */
  EXPECT(maxdiff(to_host(dv, s), tv) < 1e-13, "dtrmv upper T");
  EXPECT_STATUS(cublasDtrsv(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T,
                            CUBLAS_DIAG_NON_UNIT, s, dS, s, dv, 1),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(maxdiff(to_host(dv, s), v) < 1e-13, "dtrsv undoes dtrmv");
  cudaFree(dA), cudaFree(dx), cudaFree(dy), cudaFree(dyy);
  cudaFree(dS), cudaFree(dv), cudaFree(dw);
}

static void level3(cublasHandle_t h) {
  const int m = 4, n = 3;
  std::vector<float> A(m * n), B(n * m), C(m * n);
  for (int i = 0; i < m * n; ++i)
    A[i] = (float)i, B[i] = (float)(10 * i);
  float *dA = to_device(A), *dB = to_device(B), *dC = to_device(C);
  /* geam: C = 2 A + 0.5 B^T */
  float alpha = 2.0f, beta = 0.5f;
  EXPECT_STATUS(cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_T, m, n, &alpha, dA, m,
                            &beta, dB, n, dC, m),
                CUBLAS_STATUS_SUCCESS);
  std::vector<float> got = to_host(dC, m * n);
  int bad = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i)
      bad += got[i + j * m] != 2.0f * A[i + j * m] + 0.5f * B[j + i * n];
  EXPECT(bad == 0, "sgeam: %d wrong", bad);
  /* dgmm: C = A diag(x) */
  std::vector<float> x = {1, -2, 3};
  float *dx = to_device(x);
  EXPECT_STATUS(cublasSdgmm(h, CUBLAS_SIDE_RIGHT, m, n, dA, m, dx, 1, dC, m),
                CUBLAS_STATUS_SUCCESS);
  got = to_host(dC, m * n);
  bad = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i)
      bad += got[i + j * m] != A[i + j * m] * x[j];
  EXPECT(bad == 0, "sdgmm: %d wrong", bad);
  /* syrk: the upper triangle of A A^T (m x m); the lower one untouched. */
  float *dS;
  std::vector<float> S(m * m, -7.0f);
  dS = to_device(S);
  alpha = 1.0f, beta = 0.0f;
  EXPECT_STATUS(cublasSsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, m, n,
                            &alpha, dA, m, &beta, dS, m),
                CUBLAS_STATUS_SUCCESS);
  got = to_host(dS, m * m);
  bad = 0;
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) {
      float w = -7.0f;
      if (i <= j) {
        w = 0;
        for (int p = 0; p < n; ++p)
          w += A[i + p * m] * A[j + p * m];
      }
      bad += got[i + j * m] != w;
    }
  EXPECT(bad == 0, "ssyrk upper: %d wrong", bad);
  /* trsm: X L^T = 2 B, right side, L lower (n x n), B m x n. */
  std::vector<double> L = {2, 1, 0.5, 0, 3, -1, 0, 0, 4}; /* column-major */
  std::vector<double> Bm(m * n);
  for (int i = 0; i < m * n; ++i)
    Bm[i] = 1.0 + i;
  double *dL = to_device(L), *dBm = to_device(Bm);
  double two = 2.0;
  EXPECT_STATUS(cublasDtrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER,
                            CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, m, n, &two, dL,
                            n, dBm, m),
                CUBLAS_STATUS_SUCCESS);
  std::vector<double> X = to_host(dBm, m * n);
  /* Check X L^T == 2 B. */
  double worst = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p < n; ++p)
        s += X[i + p * m] * (j >= p ? L[j + p * n] : 0.0); /* L^T[p][j] */
      worst = std::fmax(worst, std::fabs(s - 2.0 * Bm[i + j * m]));
    }
  EXPECT(worst < 1e-12, "dtrsm right lower T: residual %g", worst);
  /* symm: C = A Bm + C with A symmetric from its lower triangle (m x m;
   * the upper triangle holds garbage that must not be read). */
  std::vector<double> As(m * m), Cs(m * n, 1.0);
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i)
      As[i + j * m] = i >= j ? 1.0 + i + 2.0 * j : 1e300;
  double *dAs = to_device(As), *dCs = to_device(Cs), one = 1.0;
  for (int i = 0; i < m * n; ++i)
    Bm[i] = 0.5 * i - 1.0;
  cudaMemcpy(dBm, Bm.data(), m * n * sizeof(double), cudaMemcpyHostToDevice);
  EXPECT_STATUS(cublasDsymm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, m, n,
                            &one, dAs, m, dBm, m, &one, dCs, m),
                CUBLAS_STATUS_SUCCESS);
  std::vector<double> Cg = to_host(dCs, m * n);
  worst = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 1.0;
      for (int p = 0; p < m; ++p)
        s += (i >= p ? As[i + p * m] : As[p + i * m]) * Bm[p + j * m];
      worst = std::fmax(worst, std::fabs(s - Cg[i + j * m]));
    }
  EXPECT(worst < 1e-12, "dsymm left lower: %g", worst);
  /* trmm: C = 2 Bm U^T (right side, U upper n x n = L^T), out of place. */
  std::vector<double> U(n * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      U[i + j * n] = i <= j ? L[j + i * n] : -5.0; /* below: not read */
  double *dU = to_device(U);
  EXPECT_STATUS(cublasDtrmm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER,
                            CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, m, n, &two, dU,
                            n, dBm, m, dCs, m),
                CUBLAS_STATUS_SUCCESS);
  Cg = to_host(dCs, m * n);
  worst = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p < n; ++p)
        s += Bm[i + p * m] * (j <= p ? U[j + p * n] : 0.0); /* U^T[p][j] */
      worst = std::fmax(worst, std::fabs(2.0 * s - Cg[i + j * m]));
    }
  EXPECT(worst < 1e-12, "dtrmm right upper T: %g", worst);
  cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dx), cudaFree(dS);
  cudaFree(dL), cudaFree(dBm), cudaFree(dAs), cudaFree(dCs), cudaFree(dU);
}

/* getrfBatched then getriBatched and getrsBatched: A inv(A) = I and
 * A x = b for each of the batch;
 * the second matrix needs a row interchange (a zero in its corner). */
static void lu_inverse(cublasHandle_t h) {
  const int n = 3, batch = 2;
  std::vector<double> A = {4, 2, 1, 3, 5, 2, 1, 1, 6, /* first, columns */
                           0, 1, 2, 1, 1, 0, 3, 0, 1};
  double *dA = to_device(A), *dC;
  CHECK_CUDA(cudaMalloc(&dC, A.size() * sizeof(double)));
  std::vector<double *> pa = {dA, dA + 9}, pc = {dC, dC + 9};
  double **dpa = to_device(pa), **dpc = to_device(pc);
  int *dP, *dInfo;
  CHECK_CUDA(cudaMalloc(&dP, n * batch * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dInfo, batch * sizeof(int)));
  EXPECT_STATUS(cublasDgetrfBatched(h, n, dpa, n, dP, dInfo, batch),
                CUBLAS_STATUS_SUCCESS);
  std::vector<int> info = to_host(dInfo, batch), piv = to_host(dP, n * batch);
  EXPECT(info[0] == 0 && info[1] == 0, "getrf info %d %d", info[0], info[1]);
  EXPECT(piv[3] != 1, "getrf did not pivot the zero corner (P %d)", piv[3]);
  EXPECT_STATUS(cublasDgetriBatched(h, n, (const double *const *)dpa, n, dP,
                                    dpc, n, dInfo, batch),
                CUBLAS_STATUS_SUCCESS);
  std::vector<double> inv = to_host(dC, A.size());
  double worst = 0;
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int p = 0; p < n; ++p)
          s += A[b * 9 + i + p * n] * inv[b * 9 + p + j * n];
        worst = std::fmax(worst, std::fabs(s - (i == j)));
      }
  EXPECT(worst < 1e-13, "A inv(A) - I: %g", worst);
  /* getrsBatched from the same factors: A x = b and A^T x = b. */
  for (int trans = 0; trans < 2; ++trans) {
    std::vector<double> rhs = {1, 2, 3, -1, 0, 4};
    double *dR = to_device(rhs);
    std::vector<double *> pr = {dR, dR + 3};
    double **dpr = to_device(pr);
    int hinfo = -99;
    EXPECT_STATUS(cublasDgetrsBatched(h, trans ? CUBLAS_OP_T : CUBLAS_OP_N, n,
                                      1, (const double *const *)dpa, n, dP,
                                      dpr, n, &hinfo, batch),
                  CUBLAS_STATUS_SUCCESS);
    EXPECT(hinfo == 0, "getrs info %d", hinfo);
    std::vector<double> x = to_host(dR, 6);
    double res = 0;
    for (int b = 0; b < batch; ++b)
      for (int i = 0; i < n; ++i) {
        double s = 0;
        for (int p = 0; p < n; ++p)
          s += (trans ? A[b * 9 + p + i * n] : A[b * 9 + i + p * n]) *
               x[b * 3 + p];
        res = std::fmax(res, std::fabs(s - rhs[b * 3 + i]));
      }
    EXPECT(res < 1e-13, "getrs trans %d residual %g", trans, res);
    cudaFree(dR), cudaFree(dpr);
  }
  int hinfo = 0;
  EXPECT_STATUS(cublasDgetrsBatched(h, CUBLAS_OP_N, n, 1,
                                    (const double *const *)dpa, n - 1, dP,
                                    dpa, n, &hinfo, batch),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT(hinfo == -6, "getrs info for a bad lda %d", hinfo);
  /* A singular matrix: info names the zero pivot (1-based). */
  std::vector<double> S = {1, 2, 0, 2, 4, 0, 0, 0, 1};
  CHECK_CUDA(cudaMemcpy(dA, S.data(), 9 * sizeof(double),
                        cudaMemcpyHostToDevice));
  EXPECT_STATUS(cublasDgetrfBatched(h, n, dpa, n, dP, dInfo, 1),
                CUBLAS_STATUS_SUCCESS);
  info = to_host(dInfo, 1);
  EXPECT(info[0] == 2, "getrf info of a singular matrix %d", info[0]);
  cudaFree(dA), cudaFree(dC), cudaFree(dpa), cudaFree(dpc), cudaFree(dP);
  cudaFree(dInfo);
}

/* What cuBLAS documents for bad arguments. */
static void errors(cublasHandle_t h) {
  float *d, one = 1.0f;
  CHECK_CUDA(cudaMalloc(&d, 64 * sizeof(float)));
  /* lda < max(1, m) for op N; ldb < max(1, k); ldc < max(1, m). */
  EXPECT_STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 3,
                            d, 4, &one, d, 4),
                CUBLAS_STATUS_INVALID_VALUE);
  /* op T: lda >= k (2), not m (4). */
  EXPECT_STATUS(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, 4, 4, 2, &one, d, 2,
                            d, 2, &one, d, 4),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 4,
                            d, 4, &one, d, 3),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 4, 4, &one, d, 4,
                            d, 4, &one, d, 4),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSgemm(h, (cublasOperation_t)7, CUBLAS_OP_N, 4, 4, 4,
                            &one, d, 4, d, 4, &one, d, 4),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSgemv(h, CUBLAS_OP_N, 4, 4, &one, d, 4, d, 0, &one, d,
                            1),
                CUBLAS_STATUS_INVALID_VALUE); /* incx == 0 */
  EXPECT_STATUS(cublasSetMatrix(4, 4, 4, &one, 3, d, 4),
                CUBLAS_STATUS_INVALID_VALUE); /* lda < rows */
  EXPECT_STATUS(cublasSetVector(4, 0, &one, 1, d, 1),
                CUBLAS_STATUS_INVALID_VALUE); /* elemSize 0 */
  EXPECT_STATUS(cublasSetPointerMode(h, (cublasPointerMode_t)5),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSgemm(nullptr, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one,
                            d, 4, d, 4, &one, d, 4),
                CUBLAS_STATUS_NOT_INITIALIZED);
  EXPECT(std::strcmp(cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE),
                     "CUBLAS_STATUS_INVALID_VALUE") == 0,
         "status name %s", cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE));
  EXPECT(std::strlen(cublasGetStatusString(CUBLAS_STATUS_NOT_SUPPORTED)) > 0,
         "status string");
  /* m == 0: a quick return, nothing read. */
  EXPECT_STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 0, 4, 4, &one,
                            nullptr, 4, nullptr, 4, &one, nullptr, 1),
                CUBLAS_STATUS_SUCCESS);
  cudaFree(d);
}

int main() {
  cublasHandle_t h;
  EXPECT_STATUS(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  level1(h);
  level2(h);
  level3(h);
  lu_inverse(h);
  errors(h);
  EXPECT_STATUS(cublasDestroy(h), CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaDeviceSynchronize());
  return finish();
}
