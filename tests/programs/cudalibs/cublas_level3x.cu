/* cublas_level3x.cu: the rest of cuBLAS's level 3 and batched solvers
 * against host references: herk, herkx, her2k (double complex), syrkx and
 * syr2k (double and double complex), hemm, trsmBatched, the 3M GEMMs
 * (Cgemm3m, Zgemm3m, Cgemm3mStridedBatched), cublasCgemmEx, and
 * matinvBatched, geqrfBatched and gelsBatched (checked through what they
 * mean: A Ainv = I, Q R = A, the normal equations of least squares); and
 * the arguments cuBLAS refuses.
 * CUEMU_OPTIONS: -lcublas */
#include <cmath>
#include <complex>
#include <type_traits>
#include <vector>

#include <cublas_v2.h>

#include "check_libs.h"
#include "cublas_host.h"

typedef std::complex<float> Cf;

template <typename T>
static double maxdiff(const std::vector<T> &a, const std::vector<T> &b) {
  double w = 0;
  for (size_t i = 0; i < a.size(); ++i)
    w = std::fmax(w, std::abs(a[i] - b[i]));
  return w;
}

/* Element (i, j) of op(X) for a column-major X with leading dimension ld. */
template <typename T>
static T op_at(int op, const std::vector<T> &X, int ld, int i, int j) {
  return op == 0 ? X[i + j * ld] : op == 1 ? X[j + i * ld] : cj(X[j + i * ld]);
}

/* The rank-k updates: C (n x n, uplo triangle) = alpha op(A) op2(B) [+
 * alpha2 op(B) op2(A)] + beta C, op2 the transpose (herm: conjugate
 * transpose) of op; the other triangle unchanged, a Hermitian diagonal
 * real. kind 0: syrkx/herkx, 1: syr2k/her2k. */
template <typename T>
static void rank_k(cublasHandle_t h, bool herm, int kind) {
  const int n = 4, k = 3;
  for (int up = 0; up < 2; ++up)
    for (int tr = 0; tr < 2; ++tr) {
      int op = tr == 0 ? 0 : herm ? 2 : 1;
      int rows = op == 0 ? n : k, cols = op == 0 ? k : n, ld = rows + 1;
      std::vector<T> A = values<T>(ld * cols, 10), B = values<T>(ld * cols, 50),
                     C = values<T>(n * n, 90);
      T alpha = value<T>(3);
      double rbeta = 0.75;
      T beta = T(rbeta);
      std::vector<T> want = C;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          if (up ? i > j : i < j)
            continue;
          T s = 0, s2 = 0;
          for (int l = 0; l < k; ++l) {
            /* op2(Y)(l, j) = op(Y)(j, l) transposed (conjugated). */
            T bj = op_at(op, B, ld, j, l), aj = op_at(op, A, ld, j, l);
            s += op_at(op, A, ld, i, l) * (herm ? cj(bj) : bj);
            s2 += op_at(op, B, ld, i, l) * (herm ? cj(aj) : aj);
          }
          T v = alpha * s + beta * C[i + j * n];
          if (kind == 1)
            v += (herm ? cj(alpha) : alpha) * s2;
          if (herm && i == j)
            v = T(std::real(v));
          want[i + j * n] = v;
        }
      T *dA = dev(A), *dB = dev(B), *dC = dev(C);
      cublasFillMode_t uplo =
          up ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
      cublasOperation_t o = (cublasOperation_t)op;
      cublasStatus_t st;
      if constexpr (std::is_same<T, double>::value)
        st = kind == 0 ? cublasDsyrkx(h, uplo, o, n, k, &alpha, dA, ld, dB, ld,
                                      &rbeta, dC, n)
                       : cublasDsyr2k(h, uplo, o, n, k, &alpha, dA, ld, dB, ld,
                                      &rbeta, dC, n);
      else if (herm)
        st = kind == 0 ? cublasZherkx(h, uplo, o, n, k, cz(&alpha), cz(dA), ld,
                                      cz(dB), ld, &rbeta, cz(dC), n)
                       : cublasZher2k(h, uplo, o, n, k, cz(&alpha), cz(dA), ld,
                                      cz(dB), ld, &rbeta, cz(dC), n);
      else
        st = kind == 0 ? cublasZsyrkx(h, uplo, o, n, k, cz(&alpha), cz(dA), ld,
                                      cz(dB), ld, cz(&beta), cz(dC), n)
                       : cublasZsyr2k(h, uplo, o, n, k, cz(&alpha), cz(dA), ld,
                                      cz(dB), ld, cz(&beta), cz(dC), n);
      EXPECT_STATUS(st, CUBLAS_STATUS_SUCCESS);
      double d = maxdiff(host(dC, n * n), want);
      EXPECT(d < 1e-13, "%s%s uplo %d op %d: max error %g",
             herm ? "her" : "syr", kind == 0 ? "kx" : "2k", up, op, d);
      cudaFree(dA), cudaFree(dB), cudaFree(dC);
    }
}

/* herk: C = alpha op(A) op(A)^H + beta C, alpha and beta real. */
static void herk(cublasHandle_t h) {
  const int n = 3, k = 4;
  for (int op = 0; op < 3; op += 2) {
    int rows = op == 0 ? n : k, cols = op == 0 ? k : n;
    std::vector<Z> A = values<Z>(rows * cols, 7), C = values<Z>(n * n, 30);
    double alpha = -1.5, beta = 2;
    std::vector<Z> want = C;
    for (int j = 0; j < n; ++j)
      for (int i = j; i < n; ++i) {
        Z s = 0;
        for (int l = 0; l < k; ++l)
          s += op_at(op, A, rows, i, l) * std::conj(op_at(op, A, rows, j, l));
        Z v = alpha * s + beta * C[i + j * n];
        want[i + j * n] = i == j ? Z(v.real()) : v;
      }
    Z *dA = dev(A), *dC = dev(C);
    EXPECT_STATUS(cublasZherk(h, CUBLAS_FILL_MODE_LOWER, (cublasOperation_t)op,
                              n, k, &alpha, cz(dA), rows, &beta, cz(dC), n),
                  CUBLAS_STATUS_SUCCESS);
    EXPECT(maxdiff(host(dC, n * n), want) < 1e-13, "zherk op %d", op);
    /* CUBLAS_OP_T is not a Hermitian operation. */
    EXPECT_STATUS(cublasZherk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, n, k,
                              &alpha, cz(dA), rows, &beta, cz(dC), n),
                  CUBLAS_STATUS_INVALID_VALUE);
    cudaFree(dA), cudaFree(dC);
  }
}

/* CherkEx: complex float A and C (C = x x^H of a 1 x 2 A: 6); a complex
 * int8 A is NOT_SUPPORTED. */
static void herk_ex(cublasHandle_t h) {
  cuComplex a[2] = {make_cuComplex(1, 2), make_cuComplex(0, -1)}, c;
  cuComplex *dA, *dC;
  CHECK_CUDA(cudaMalloc(&dA, sizeof a));
  CHECK_CUDA(cudaMalloc(&dC, sizeof c));
  CHECK_CUDA(cudaMemcpy(dA, a, sizeof a, cudaMemcpyHostToDevice));
  float one = 1, zero = 0;
  EXPECT_STATUS(cublasCherkEx(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, 1, 2,
                              &one, dA, CUDA_C_32F, 1, &zero, dC, CUDA_C_32F,
                              1),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(&c, dC, sizeof c, cudaMemcpyDeviceToHost));
  EXPECT(c.x == 6 && c.y == 0, "cherkEx: (%g, %g), expected (6, 0)", c.x, c.y);
  EXPECT_STATUS(cublasCherkEx(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, 1, 2,
                              &one, dA, CUDA_C_8I, 1, &zero, dC, CUDA_C_32F, 1),
                CUBLAS_STATUS_NOT_SUPPORTED);
  CHECK_CUDA(cudaFree(dA));
  CHECK_CUDA(cudaFree(dC));
}

/* hemm: C = alpha A B + beta C (left) or alpha B A + beta C (right), A
 * Hermitian from its uplo triangle (the other triangle garbage). */
static void hemm(cublasHandle_t h) {
  const int m = 3, n = 4;
  for (int side = 0; side < 2; ++side)
    for (int up = 0; up < 2; ++up) {
      int ka = side == 0 ? m : n;
      std::vector<Z> A = values<Z>(ka * ka, 5), B = values<Z>(m * n, 60),
                     C = values<Z>(m * n, 80), H(ka * ka);
      for (int j = 0; j < ka; ++j)
        for (int i = 0; i < ka; ++i) {
          bool stored = up ? i <= j : i >= j;
          H[i + j * ka] = i == j   ? Z(A[i + j * ka].real())
                          : stored ? A[i + j * ka]
                                   : std::conj(A[j + i * ka]);
        }
      Z alpha(0.5, 1), beta(-1, 0.25);
      std::vector<Z> want(m * n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
          Z s = 0;
          for (int l = 0; l < ka; ++l)
            s += side == 0 ? H[i + l * ka] * B[l + j * m]
                           : B[i + l * m] * H[l + j * ka];
          want[i + j * m] = alpha * s + beta * C[i + j * m];
        }
      Z *dA = dev(A), *dB = dev(B), *dC = dev(C);
      EXPECT_STATUS(
          cublasZhemm(h, side ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT,
                      up ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER, m,
                      n, cz(&alpha), cz(dA), ka, cz(dB), m, cz(&beta), cz(dC),
                      m),
          CUBLAS_STATUS_SUCCESS);
      EXPECT(maxdiff(host(dC, m * n), want) < 1e-13, "zhemm side %d uplo %d",
             side, up);
      cudaFree(dA), cudaFree(dB), cudaFree(dC);
    }
}

/* trsmBatched: three lower triangular systems op(A_i) X = alpha B_i. */
static void trsm_batched(cublasHandle_t h) {
  const int m = 4, n = 2, batch = 3;
  std::vector<double *> As(batch), Bs(batch);
  std::vector<std::vector<double>> A(batch), B(batch);
  for (int b = 0; b < batch; ++b) {
    A[b] = values<double>(m * m, 100 * b);
    for (int i = 0; i < m; ++i)
      A[b][i + i * m] += 4;
    B[b] = values<double>(m * n, 100 * b + 50);
    As[b] = dev(A[b]), Bs[b] = dev(B[b]);
  }
  double **dAs = dev(As), **dBs = dev(Bs), alpha = 2;
  EXPECT_STATUS(cublasDtrsmBatched(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                                   CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, m, n,
                                   &alpha, dAs, m, dBs, m, batch),
                CUBLAS_STATUS_SUCCESS);
  for (int b = 0; b < batch; ++b) {
    /* A^T X = 2 B: check A^T X against 2 B (A lower: A^T upper). */
    std::vector<double> X = host(Bs[b], m * n), r(m * n, 0);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        for (int l = i; l < m; ++l)
          r[i + j * m] += A[b][l + i * m] * X[l + j * m];
    for (auto &v : B[b])
      v *= 2;
    EXPECT(maxdiff(r, B[b]) < 1e-13, "dtrsmBatched problem %d", b);
    cudaFree(As[b]), cudaFree(Bs[b]);
  }
  EXPECT_STATUS(cublasDtrsmBatched(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                                   CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, m, n,
                                   &alpha, dAs, m, dBs, m, -1),
                CUBLAS_STATUS_INVALID_VALUE);
  cudaFree(dAs), cudaFree(dBs);
}

/* Cgemm3m, Zgemm3m, Cgemm3mStridedBatched and CgemmEx against the plain
 * GEMM's definition. */
static void gemm3m(cublasHandle_t h) {
  const int m = 3, n = 2, k = 4;
  std::vector<Z> A = values<Z>(m * k, 1), B = values<Z>(k * n, 20), want(m * n);
  Z alpha(1, -0.5), beta(0, 0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      Z s = 0;
      for (int l = 0; l < k; ++l)
        s += A[i + l * m] * B[l + j * k];
      want[i + j * m] = alpha * s;
    }
  Z *dA = dev(A), *dB = dev(B), *dC = dev(std::vector<Z>(m * n));
  EXPECT_STATUS(cublasZgemm3m(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, cz(&alpha),
                              cz(dA), m, cz(dB), k, cz(&beta), cz(dC), m),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(maxdiff(host(dC, m * n), want) < 1e-13, "zgemm3m");
  std::vector<Cf> Af(A.begin(), A.end()), Bf(B.begin(), B.end());
  std::vector<Cf> Af2 = Af, Bf2 = Bf;
  Af2.insert(Af2.end(), Af.begin(), Af.end());
  Bf2.insert(Bf2.end(), Bf.begin(), Bf.end());
  Cf *dAf = dev(Af2), *dBf = dev(Bf2), *dCf = dev(std::vector<Cf>(2 * m * n));
  cuComplex fa = make_cuComplex(1, -0.5), fb = make_cuComplex(0, 0);
  for (int form = 0; form < 3; ++form) {
    CHECK_CUDA(cudaMemset(dCf, 0, 2 * m * n * sizeof(Cf)));
    auto *a = reinterpret_cast<cuComplex *>(dAf);
    auto *b = reinterpret_cast<cuComplex *>(dBf);
    auto *c = reinterpret_cast<cuComplex *>(dCf);
    if (form == 0)
      EXPECT_STATUS(cublasCgemm3m(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &fa, a,
                                  m, b, k, &fb, c, m),
                    CUBLAS_STATUS_SUCCESS);
    else if (form == 1)
      EXPECT_STATUS(cublasCgemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &fa, a,
                                  CUDA_C_32F, m, b, CUDA_C_32F, k, &fb, c,
                                  CUDA_C_32F, m),
                    CUBLAS_STATUS_SUCCESS);
    else
      EXPECT_STATUS(cublasCgemm3mStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m,
                                                n, k, &fa, a, m, m * k, b, k,
                                                k * n, &fb, c, m, m * n, 2),
                    CUBLAS_STATUS_SUCCESS);
    std::vector<Cf> got = host(dCf, (form == 2 ? 2 : 1) * m * n);
    double d = 0;
    for (size_t i = 0; i < got.size(); ++i)
      d = std::fmax(d, std::abs(Z(got[i]) - want[i % (m * n)]));
    EXPECT(d < 1e-5, "complex float 3M/Ex form %d: max error %g", form, d);
  }
  /* CgemmEx takes complex types only. */
  EXPECT_STATUS(cublasCgemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &fa, dAf,
                              CUDA_R_32F, m, dBf, CUDA_C_32F, k, &fb, dCf,
                              CUDA_C_32F, m),
                CUBLAS_STATUS_NOT_SUPPORTED);
  cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dAf), cudaFree(dBf),
      cudaFree(dCf);
}

/* cublasDgemmGroupedBatched and cublasGemmGroupedBatchedEx: group 0 two
 * 2 x 2 x 2 problems (N, N), group 1 one 3 x 1 x 2 problem (T, N), each
 * group with its own scalars; against the GEMM's definition. */
static void grouped(cublasHandle_t h) {
  const int count = 3;
  int M[count] = {2, 2, 3}, N[count] = {2, 2, 1}, K[count] = {2, 2, 2};
  int TA[count] = {0, 0, 1};
  double alpha[2] = {1, -2}, beta[2] = {0, 0.5};
  std::vector<std::vector<double>> A(count), B(count), C(count);
  std::vector<double *> dA(count), dB(count), dC(count);
  for (int p = 0; p < count; ++p) {
    int lda = TA[p] ? K[p] : M[p];
    A[p] = values<double>(lda * (TA[p] ? M[p] : K[p]), 10 * p);
    B[p] = values<double>(K[p] * N[p], 10 * p + 5);
    C[p] = values<double>(M[p] * N[p], 10 * p + 7);
    dA[p] = dev(A[p]), dB[p] = dev(B[p]), dC[p] = dev(C[p]);
  }
  double **dAs = dev(dA), **dBs = dev(dB), **dCs = dev(dC);
  cublasOperation_t ta[2] = {CUBLAS_OP_N, CUBLAS_OP_T},
                    tb[2] = {CUBLAS_OP_N, CUBLAS_OP_N};
  int m[2] = {2, 3}, n[2] = {2, 1}, k[2] = {2, 2}, lda[2] = {2, 2},
      ldb[2] = {2, 2}, ldc[2] = {2, 3}, size[2] = {2, 1};
  for (int form = 0; form < 2; ++form) {
    for (int p = 0; p < count; ++p)
      CHECK_CUDA(cudaMemcpy(dC[p], C[p].data(), C[p].size() * 8,
                            cudaMemcpyHostToDevice));
    if (form == 0)
      EXPECT_STATUS(cublasDgemmGroupedBatched(h, ta, tb, m, n, k, alpha,
                                              (const double *const *)dAs, lda,
                                              (const double *const *)dBs, ldb,
                                              beta, dCs, ldc, 2, size),
                    CUBLAS_STATUS_SUCCESS);
    else
      EXPECT_STATUS(cublasGemmGroupedBatchedEx(
                        h, ta, tb, m, n, k, alpha, (const void *const *)dAs,
                        CUDA_R_64F, lda, (const void *const *)dBs, CUDA_R_64F,
                        ldb, beta, (void *const *)dCs, CUDA_R_64F, ldc, 2, size,
                        CUBLAS_COMPUTE_64F),
                    CUBLAS_STATUS_SUCCESS);
    for (int p = 0; p < count; ++p) {
      int g = p < 2 ? 0 : 1, ld = TA[p] ? K[p] : M[p];
      std::vector<double> want(M[p] * N[p]);
      for (int j = 0; j < N[p]; ++j)
        for (int i = 0; i < M[p]; ++i) {
          double s = 0;
          for (int l = 0; l < K[p]; ++l)
            s += op_at(TA[p], A[p], ld, i, l) * B[p][l + j * K[p]];
          want[i + j * M[p]] = alpha[g] * s + beta[g] * C[p][i + j * M[p]];
        }
      EXPECT(maxdiff(host(dC[p], M[p] * N[p]), want) < 1e-13,
             "grouped GEMM form %d, problem %d", form, p);
    }
  }
  EXPECT_STATUS(cublasDgemmGroupedBatched(
                    h, ta, tb, m, n, k, alpha, (const double *const *)dAs, lda,
                    (const double *const *)dBs, ldb, beta, dCs, ldc, -1, size),
                CUBLAS_STATUS_INVALID_VALUE);
  for (int p = 0; p < count; ++p)
    cudaFree(dA[p]), cudaFree(dB[p]), cudaFree(dC[p]);
  cudaFree(dAs), cudaFree(dBs), cudaFree(dCs);
}

/* matinvBatched (A Ainv = I, a singular matrix's info), geqrfBatched
 * (Q R = A from the reflectors) and gelsBatched (A^H (A X - C) = 0). */
static void solvers(cublasHandle_t h) {
  const int n = 4;
  std::vector<Z> A = values<Z>(n * n, 3), S(n * n, Z(1)); /* S singular */
  Z *dA = dev(A), *dS = dev(S), *dInv = dev(std::vector<Z>(n * n)),
    *dInv2 = dev(std::vector<Z>(n * n));
  std::vector<Z *> in = {dA, dS}, out = {dInv, dInv2};
  Z **din = dev(in), **dout = dev(out);
  int *dinfo = dev(std::vector<int>(2, -7));
  EXPECT_STATUS(cublasZmatinvBatched(h, n, (const cuDoubleComplex *const *)din,
                                     n, (cuDoubleComplex *const *)dout, n,
                                     dinfo, 2),
                CUBLAS_STATUS_SUCCESS);
  std::vector<int> info = host(dinfo, 2);
  std::vector<Z> inv = host(dInv, n * n);
  double err = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      Z s = 0;
      for (int l = 0; l < n; ++l)
        s += A[i + l * n] * inv[l + j * n];
      err = std::fmax(err, std::abs(s - Z(i == j)));
    }
  EXPECT(info[0] == 0 && err < 1e-12 && info[1] == 2,
         "zmatinvBatched: info %d %d, |A Ainv - I| %g", info[0], info[1], err);
  EXPECT(host(dA, n * n) == A, "zmatinvBatched changed A");
  EXPECT_STATUS(cublasZmatinvBatched(h, 33, (const cuDoubleComplex *const *)din,
                                     33, (cuDoubleComplex *const *)dout, 33,
                                     dinfo, 2),
                CUBLAS_STATUS_INVALID_VALUE);

  /* geqrf of a 5 x 3 A: R above the diagonal, Q = H1 H2 H3. */
  const int m = 5, q = 3;
  std::vector<Z> G = values<Z>(m * q, 40);
  Z *dG = dev(G), *dTau = dev(std::vector<Z>(q));
  std::vector<Z *> gs = {dG}, ts = {dTau};
  Z **dgs = dev(gs), **dts = dev(ts);
  int hinfo = -9;
  EXPECT_STATUS(cublasZgeqrfBatched(h, m, q, (cuDoubleComplex *const *)dgs, m,
                                    (cuDoubleComplex *const *)dts, &hinfo, 1),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<Z> QR = host(dG, m * q), tau = host(dTau, q);
  /* Q R: apply H_k = I - tau_k v_k v_k^H to R from the last k down. */
  std::vector<Z> R(m * q, Z(0));
  for (int j = 0; j < q; ++j)
    for (int i = 0; i <= j; ++i)
      R[i + j * m] = QR[i + j * m];
  for (int kk = q - 1; kk >= 0; --kk)
    for (int j = 0; j < q; ++j) {
      Z w = R[kk + j * m];
      for (int i = kk + 1; i < m; ++i)
        w += std::conj(QR[i + kk * m]) * R[i + j * m];
      w *= tau[kk];
      R[kk + j * m] -= w;
      for (int i = kk + 1; i < m; ++i)
        R[i + j * m] -= w * QR[i + kk * m];
    }
  EXPECT(hinfo == 0 && maxdiff(R, G) < 1e-13, "zgeqrfBatched: |Q R - A| %g",
         maxdiff(R, G));
  EXPECT_STATUS(cublasZgeqrfBatched(h, m, q, (cuDoubleComplex *const *)dgs, 2,
                                    (cuDoubleComplex *const *)dts, &hinfo, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT(hinfo == -5, "zgeqrfBatched lda < m: info %d, expected -5", hinfo);

  /* gels: min |A X - C| for a 5 x 3 A, 2 right-hand sides. */
  std::vector<double> L = values<double>(m * q, 70),
                      Cr = values<double>(m * 2, 90);
  double *dL = dev(L), *dCr = dev(Cr);
  std::vector<double *> ls = {dL}, cs = {dCr};
  double **dls = dev(ls), **dcs = dev(cs);
  int *ddev = dev(std::vector<int>(1, -3));
  EXPECT_STATUS(cublasDgelsBatched(h, CUBLAS_OP_N, m, q, 2, dls, m, dcs, m,
                                   &hinfo, ddev, 1),
                CUBLAS_STATUS_SUCCESS);
  std::vector<double> X = host(dCr, m * 2);
  double normal = 0;
  for (int j = 0; j < 2; ++j)
    for (int c = 0; c < q; ++c) {
      /* (A^T (A x_j - c_j))_c */
      double s = 0;
      for (int i = 0; i < m; ++i) {
        double r = -Cr[i + j * m];
        for (int l = 0; l < q; ++l)
          r += L[i + l * m] * X[l + j * m];
        s += L[i + c * m] * r;
      }
      normal = std::fmax(normal, std::fabs(s));
    }
  EXPECT(hinfo == 0 && host(ddev, 1)[0] == 0 && normal < 1e-12,
         "dgelsBatched: normal equations residual %g", normal);
  EXPECT_STATUS(cublasDgelsBatched(h, CUBLAS_OP_N, 2, 3, 1, dls, m, dcs, m,
                                   &hinfo, ddev, 1),
                CUBLAS_STATUS_NOT_SUPPORTED);
  cudaFree(dA), cudaFree(dS), cudaFree(dInv), cudaFree(dInv2), cudaFree(din),
      cudaFree(dout), cudaFree(dinfo), cudaFree(dG), cudaFree(dTau),
      cudaFree(dgs), cudaFree(dts), cudaFree(dL), cudaFree(dCr), cudaFree(dls),
      cudaFree(dcs), cudaFree(ddev);
}

int main() {
  cublasHandle_t h;
  EXPECT_STATUS(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  rank_k<double>(h, false, 0);
  rank_k<double>(h, false, 1);
  rank_k<Z>(h, false, 0);
  rank_k<Z>(h, false, 1);
  rank_k<Z>(h, true, 0);
  rank_k<Z>(h, true, 1);
  herk(h);
  herk_ex(h);
  hemm(h);
  trsm_batched(h);
  gemm3m(h);
  grouped(h);
  solvers(h);
  CHECK_CUDA(cudaDeviceSynchronize());
  cublasDestroy(h);
  return finish();
}
