/* cublas_packed.cu: cuBLAS's level 2 in band and packed storage and its
 * rank updates: gbmv, sbmv/hbmv, spmv/hpmv, tbmv, tbsv, tpmv, tpsv, syr,
 * her, syr2, her2, spr, hpr, spr2, hpr2, in double and double complex
 * (and a few float and complex float forms), for both triangles, every
 * operation and diagonal, against a host reference on the dense matrix
 * the storage describes; gemvBatched and gemvStridedBatched; tpttr and
 * trttp; and the arguments cuBLAS refuses.
 * CUEMU_OPTIONS: -lcublas */
#include <cmath>
#include <complex>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include <cublas_v2.h>

#include "check_libs.h"
#include "cublas_host.h"

template <typename T>
static bool close(const std::vector<T> &a, const std::vector<T> &b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (std::abs(a[i] - b[i]) > 1e-12 * (1 + std::abs(b[i])))
      return false;
  return true;
}

/* op(D) x for a dense m x n D. */
template <typename T>
static std::vector<T> dense_mv(int op, int m, int n, const std::vector<T> &D,
                               const std::vector<T> &x) {
  std::vector<T> r(op == 0 ? m : n, T(0));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      T a = D[i + j * m];
      if (op == 0)
        r[i] += a * x[j];
      else
        r[j] += (op == 2 ? cj(a) : a) * x[i];
    }
  return r;
}

/* The packed offset of (i, j) of the uplo triangle of an n x n matrix. */
static int packed(bool upper, int n, int i, int j) {
  return upper ? i + j * (j + 1) / 2 : i - j + j * (2 * n - j + 1) / 2;
}

template <typename T> static void banded_general(cublasHandle_t h) {
  const int m = 6, n = 5, kl = 1, ku = 2, lda = kl + ku + 2;
  std::vector<T> band(lda * n), D(m * n, T(0));
  for (int j = 0; j < n; ++j)
    for (int r = 0; r < lda; ++r) {
      band[r + j * lda] = value<T>(r + 7 * j);
      int i = r - ku + j;
      if (r <= kl + ku && i >= 0 && i < m)
        D[i + j * m] = band[r + j * lda];
    }
  for (int op = 0; op < 3; ++op) {
    int xl = op == 0 ? n : m, yl = op == 0 ? m : n;
    std::vector<T> x(xl), y(2 * yl);
    for (int i = 0; i < xl; ++i)
      x[i] = value<T>(100 + i);
    for (int i = 0; i < 2 * yl; ++i)
      y[i] = value<T>(200 + i);
    T alpha = value<T>(3), beta = value<T>(4);
    T *dA = dev(band), *dx = dev(x), *dy = dev(y);
    EXPECT_STATUS(CALL(cublasDgbmv, cublasZgbmv, h, (cublasOperation_t)op, m, n,
                       kl, ku, cz(&alpha), cz(dA), lda, cz(dx), 1, cz(&beta),
                       cz(dy), 2),
                  CUBLAS_STATUS_SUCCESS);
    std::vector<T> r = dense_mv(op, m, n, D, x), want = y;
    for (int i = 0; i < yl; ++i)
      want[2 * i] = alpha * r[i] + beta * y[2 * i];
    EXPECT(close(host(dy, 2 * yl), want), "gbmv op %d (%s)", op,
           sizeof(T) == 8 ? "D" : "Z");
    /* Arguments cuBLAS refuses: lda below kl + ku + 1, a negative kl. */
    EXPECT_STATUS(CALL(cublasDgbmv, cublasZgbmv, h, (cublasOperation_t)op, m, n,
                       kl, ku, cz(&alpha), cz(dA), kl + ku, cz(dx), 1,
                       cz(&beta), cz(dy), 2),
                  CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(CALL(cublasDgbmv, cublasZgbmv, h, (cublasOperation_t)op, m, n,
                       -1, ku, cz(&alpha), cz(dA), lda, cz(dx), 1, cz(&beta),
                       cz(dy), 2),
                  CUBLAS_STATUS_INVALID_VALUE);
    cudaFree(dA), cudaFree(dx), cudaFree(dy);
  }
}

/* A symmetric (Hermitian for complex T) n x n matrix D and its uplo
 * triangle in band (k off-diagonals, leading dimension ldb) and packed
 * storage; full storage is D itself, garbage outside the triangle. */
template <typename T> struct Sym {
  int n, k, ldb;
  bool upper;
  std::vector<T> D, band, pack, full;
  Sym(int n_, int k_, bool up, bool banded)
      : n(n_), k(k_), ldb(k_ + 2), upper(up) {
    D.assign(n * n, T(0));
    full.assign(n * n, T(0));
    band.assign(ldb * n, T(0));
    pack.assign(n * (n + 1) / 2, T(0));
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        full[i + j * n] = value<T>(1000 + i + 10 * j);
        bool stored = up ? i <= j : i >= j;
        if (!stored || (banded && std::abs(i - j) > k))
          continue;
        T v = full[i + j * n];
        if (i == j)
          v = re(v); /* a Hermitian diagonal is real; cuBLAS ignores its
                        imaginary part anyway */
        D[i + j * n] = v;
        D[j + i * n] = cj(v);
        band[(up ? k + i - j : i - j) + j * ldb] = full[i + j * n];
        pack[packed(up, n, i, j)] = full[i + j * n];
      }
    for (int i = 0; i < ldb * n; ++i)
      if (band[i] == T(0))
        band[i] = value<T>(5000 + i); /* outside the band: never read */
  }
};

template <typename T> static void symmetric_mv(cublasHandle_t h) {
  const int n = 6, k = 2;
  for (int up = 0; up < 2; ++up)
    for (int form = 0; form < 2; ++form) {
      /* form 0: band (sbmv/hbmv), 1: packed (spmv/hpmv). */
      Sym<T> s(n, k, up, form == 0);
      std::vector<T> x(n), y(n);
      for (int i = 0; i < n; ++i)
        x[i] = value<T>(300 + i), y[i] = value<T>(400 + i);
      T alpha = value<T>(5), beta = value<T>(6);
      T *dA = dev(form == 0 ? s.band : s.pack), *dx = dev(x), *dy = dev(y);
      cublasFillMode_t uplo =
          up ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
      if (form == 0)
        EXPECT_STATUS(CALL(cublasDsbmv, cublasZhbmv, h, uplo, n, k, cz(&alpha),
                           cz(dA), s.ldb, cz(dx), -1, cz(&beta), cz(dy), 1),
                      CUBLAS_STATUS_SUCCESS);
      else
        EXPECT_STATUS(CALL(cublasDspmv, cublasZhpmv, h, uplo, n, cz(&alpha),
                           cz(dA), cz(dx), -1, cz(&beta), cz(dy), 1),
                      CUBLAS_STATUS_SUCCESS);
      /* incx -1: x read from its end. */
      std::vector<T> xr(x.rbegin(), x.rend());
      std::vector<T> r = dense_mv(0, n, n, s.D, xr), want(n);
      for (int i = 0; i < n; ++i)
        want[i] = alpha * r[i] + beta * y[i];
      EXPECT(close(host(dy, n), want), "%s uplo %d (%s)",
             form == 0 ? "sbmv/hbmv" : "spmv/hpmv", up,
             sizeof(T) == 8 ? "D" : "Z");
      if (form == 0)
        EXPECT_STATUS(CALL(cublasDsbmv, cublasZhbmv, h, uplo, n, k, cz(&alpha),
                           cz(dA), k, cz(dx), 1, cz(&beta), cz(dy), 1),
                      CUBLAS_STATUS_INVALID_VALUE);
      cudaFree(dA), cudaFree(dx), cudaFree(dy);
    }
}

template <typename T> static void triangular(cublasHandle_t h) {
  const int n = 6, k = 2;
  for (int up = 0; up < 2; ++up)
    for (int form = 0; form < 2; ++form)
      for (int op = 0; op < 3; ++op)
        for (int unit = 0; unit < 2; ++unit) {
          Sym<T> s(n, k, up, form == 0);
          /* The triangle as a dense triangular matrix, a well-conditioned
           * diagonal. */
          std::vector<T> D(n * n, T(0));
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
              bool stored = up ? i <= j : i >= j;
              if (stored && (form == 1 || std::abs(i - j) <= k))
                D[i + j * n] = s.full[i + j * n];
            }
          for (int i = 0; i < n; ++i) {
            T d = value<T>(i) + T(3);
            D[i + i * n] = unit ? T(1) : d;
            if (form == 0)
              s.band[(up ? k : 0) + i * s.ldb] = d;
            else
              s.pack[packed(up, n, i, i)] = d;
          }
          std::vector<T> x(n);
          for (int i = 0; i < n; ++i)
            x[i] = value<T>(600 + i);
          T *dA = dev(form == 0 ? s.band : s.pack), *dx = dev(x);
          cublasFillMode_t uplo =
              up ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
          cublasOperation_t tr = (cublasOperation_t)op;
          cublasDiagType_t diag =
              unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
          /* Multiply, then solve back: x -> op(D) x -> x. */
          if (form == 0)
            EXPECT_STATUS(CALL(cublasDtbmv, cublasZtbmv, h, uplo, tr, diag, n,
                               k, cz(dA), s.ldb, cz(dx), 1),
                          CUBLAS_STATUS_SUCCESS);
          else
            EXPECT_STATUS(CALL(cublasDtpmv, cublasZtpmv, h, uplo, tr, diag, n,
                               cz(dA), cz(dx), 1),
                          CUBLAS_STATUS_SUCCESS);
          std::vector<T> got = host(dx, n);
          EXPECT(close(got, dense_mv(op, n, n, D, x)),
                 "%s uplo %d op %d unit %d (%s)", form == 0 ? "tbmv" : "tpmv",
                 up, op, unit, sizeof(T) == 8 ? "D" : "Z");
          if (form == 0)
            EXPECT_STATUS(CALL(cublasDtbsv, cublasZtbsv, h, uplo, tr, diag, n,
                               k, cz(dA), s.ldb, cz(dx), 1),
                          CUBLAS_STATUS_SUCCESS);
          else
            EXPECT_STATUS(CALL(cublasDtpsv, cublasZtpsv, h, uplo, tr, diag, n,
                               cz(dA), cz(dx), 1),
                          CUBLAS_STATUS_SUCCESS);
          EXPECT(close(host(dx, n), x), "%s uplo %d op %d unit %d (%s)",
                 form == 0 ? "tbsv" : "tpsv", up, op, unit,
                 sizeof(T) == 8 ? "D" : "Z");
          cudaFree(dA), cudaFree(dx);
        }
}

/* syr/her, syr2/her2 (full) and spr/hpr, spr2/hpr2 (packed): the stored
 * triangle against the dense update; nothing else written. */
template <typename T> static void rank_updates(cublasHandle_t h) {
  const int n = 5;
  const bool complex_type = !std::is_same<T, double>::value;
  for (int up = 0; up < 2; ++up)
    for (int form = 0; form < 2; ++form)
      for (int two = 0; two < 2; ++two) {
        Sym<T> s(n, n, up, false);
        std::vector<T> x(n), y(n);
        for (int i = 0; i < n; ++i)
          x[i] = value<T>(700 + i), y[i] = value<T>(800 + i);
        T alpha = value<T>(9);
        double ralpha = re(alpha);
        /* The dense update of D (Hermitian: alpha real for her, hpr). */
        std::vector<T> D = s.D;
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i)
            D[i + j * n] +=
                two ? alpha * x[i] * cj(y[j]) + cj(alpha) * y[i] * cj(x[j])
                    : ralpha * x[i] * cj(x[j]);
        T *dA = dev(form == 0 ? s.full : s.pack), *dx = dev(x), *dy = dev(y);
        cublasFillMode_t uplo =
            up ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
        cublasStatus_t st;
        if (form == 0 && !two)
          st = CALL(cublasDsyr, cublasZher, h, uplo, n, &ralpha, cz(dx), 1,
                    cz(dA), n);
        else if (form == 0)
          st = CALL(cublasDsyr2, cublasZher2, h, uplo, n, cz(&alpha), cz(dx), 1,
                    cz(dy), 1, cz(dA), n);
        else if (!two)
          st = CALL(cublasDspr, cublasZhpr, h, uplo, n, &ralpha, cz(dx), 1,
                    cz(dA));
        else
          st = CALL(cublasDspr2, cublasZhpr2, h, uplo, n, cz(&alpha), cz(dx), 1,
                    cz(dy), 1, cz(dA));
        EXPECT_STATUS(st, CUBLAS_STATUS_SUCCESS);
        std::vector<T> got = host(dA, form == 0 ? n * n : n * (n + 1) / 2);
        std::vector<T> want = form == 0 ? s.full : s.pack;
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i)
            if (up ? i <= j : i >= j)
              want[form == 0 ? i + j * n : packed(up, n, i, j)] = D[i + j * n];
        EXPECT(close(got, want), "%s%s uplo %d (%s)",
               form == 0 ? (complex_type ? "her" : "syr")
                         : (complex_type ? "hpr" : "spr"),
               two ? "2" : "", up, sizeof(T) == 8 ? "D" : "Z");
        cudaFree(dA), cudaFree(dx), cudaFree(dy);
      }
}

/* Complex symmetric (not Hermitian) syr and syr2, and a few S and C forms. */
static void other_forms(cublasHandle_t h) {
  const int n = 3;
  Z x[n] = {Z(1, 2), Z(-1, 0.5), Z(0, 1)}, A[n * n] = {}, alpha(0.5, -1);
  Z *dx = dev(std::vector<Z>(x, x + n)),
    *dA = dev(std::vector<Z>(A, A + n * n));
  EXPECT_STATUS(cublasZsyr(h, CUBLAS_FILL_MODE_LOWER, n, cz(&alpha), cz(dx), 1,
                           cz(dA), n),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasZsyr2(h, CUBLAS_FILL_MODE_LOWER, n, cz(&alpha), cz(dx), 1,
                            cz(dx), 1, cz(dA), n),
                CUBLAS_STATUS_SUCCESS);
  std::vector<Z> got = host(dA, n * n);
  bool ok = true;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      Z want = i >= j ? 3.0 * alpha * x[i] * x[j] : Z(0);
      ok = ok && std::abs(got[i + j * n] - want) < 1e-12;
    }
  EXPECT(ok, "zsyr + zsyr2 (x, x): 3 alpha x x^T on the lower triangle");
  /* Sspr on a 2 x 2 upper packed matrix, Chpr2 and Stpsv, Ctbmv. */
  float sx[2] = {1, 2}, sp[3] = {0, 0, 0}, salpha = 2;
  float *dsx = dev(std::vector<float>(sx, sx + 2)),
        *dsp = dev(std::vector<float>(sp, sp + 3));
  EXPECT_STATUS(cublasSspr(h, CUBLAS_FILL_MODE_UPPER, 2, &salpha, dsx, 1, dsp),
                CUBLAS_STATUS_SUCCESS);
  std::vector<float> g = host(dsp, 3);
  EXPECT(g[0] == 2 && g[1] == 4 && g[2] == 8, "sspr: %g %g %g", g[0], g[1],
         g[2]);
  EXPECT_STATUS(cublasStpsv(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                            CUBLAS_DIAG_NON_UNIT, 2, dsp, dsx, 1),
                CUBLAS_STATUS_SUCCESS);
  g = host(dsx, 2);
  /* [2 4; 0 8] v = (1, 2): v = (0.5 - 0.5, 0.25) = (0, 0.25). */
  EXPECT(g[0] == 0 && g[1] == 0.25f, "stpsv: %g %g", g[0], g[1]);
  cuComplex cx[2] = {make_cuComplex(1, 1), make_cuComplex(0, 2)},
            cb[2] = {make_cuComplex(2, 0), make_cuComplex(0, 0)};
  cuComplex *dcx, *dcb;
  CHECK_CUDA(cudaMalloc(&dcx, sizeof cx));
  CHECK_CUDA(cudaMalloc(&dcb, sizeof cb));
  CHECK_CUDA(cudaMemcpy(dcx, cx, sizeof cx, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dcb, cb, sizeof cb, cudaMemcpyHostToDevice));
  /* A diagonal band (k 0) of (2, 0): x = (2 (1 + i), 0). */
  EXPECT_STATUS(cublasCtbmv(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_C,
                            CUBLAS_DIAG_NON_UNIT, 2, 0, dcb, 1, dcx, 1),
                CUBLAS_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(cx, dcx, sizeof cx, cudaMemcpyDeviceToHost));
  EXPECT(cx[0].x == 2 && cx[0].y == 2 && cx[1].x == 0 && cx[1].y == 0,
         "ctbmv k 0: (%g, %g) (%g, %g)", cx[0].x, cx[0].y, cx[1].x, cx[1].y);
  /* Errors: NULL handle, an unknown fill mode, incx 0, n < 0. */
  EXPECT_STATUS(
      cublasSspr(nullptr, CUBLAS_FILL_MODE_UPPER, 2, &salpha, dsx, 1, dsp),
      CUBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_STATUS(cublasSspr(h, (cublasFillMode_t)7, 2, &salpha, dsx, 1, dsp),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSspr(h, CUBLAS_FILL_MODE_UPPER, 2, &salpha, dsx, 0, dsp),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasStpsv(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                            CUBLAS_DIAG_NON_UNIT, -1, dsp, dsx, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasStbsv(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                            CUBLAS_DIAG_NON_UNIT, 2, 1, dsp, 1, dsx, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  cudaFree(dx), cudaFree(dA), cudaFree(dsx), cudaFree(dsp), cudaFree(dcx),
      cudaFree(dcb);
}

/* gemvBatched and gemvStridedBatched against gemv's definition, and
 * tpttr/trttp through a round trip. */
static void batches_and_conversions(cublasHandle_t h) {
  const int m = 3, n = 2, batch = 3;
  std::vector<double> A(m * n * batch), x(n * batch), y(m * batch);
  for (size_t i = 0; i < A.size(); ++i)
    A[i] = value<double>(900 + (int)i);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = value<double>(950 + (int)i);
  for (size_t i = 0; i < y.size(); ++i)
    y[i] = value<double>(980 + (int)i);
  double alpha = 1.5, beta = -0.5;
  std::vector<double> want = y;
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < m; ++i) {
      double s = 0;
      for (int j = 0; j < n; ++j)
        s += A[b * m * n + i + j * m] * x[b * n + j];
      want[b * m + i] = alpha * s + beta * y[b * m + i];
    }
  double *dA = dev(A), *dx = dev(x), *dy = dev(y);
  EXPECT_STATUS(cublasDgemvStridedBatched(h, CUBLAS_OP_N, m, n, &alpha, dA, m,
                                          m * n, dx, 1, n, &beta, dy, 1, m,
                                          batch),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(close(host(dy, m * batch), want), "dgemvStridedBatched");
  CHECK_CUDA(cudaMemcpy(dy, y.data(), y.size() * 8, cudaMemcpyHostToDevice));
  std::vector<const double *> As, xs;
  std::vector<double *> ys;
  for (int b = 0; b < batch; ++b)
    As.push_back(dA + b * m * n), xs.push_back(dx + b * n),
        ys.push_back(dy + b * m);
  const double **dAs = dev(As), **dxs = dev(xs);
  double **dys = dev(ys);
  EXPECT_STATUS(cublasDgemvBatched(h, CUBLAS_OP_N, m, n, &alpha, dAs, m, dxs, 1,
                                   &beta, dys, 1, batch),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(close(host(dy, m * batch), want), "dgemvBatched");
  EXPECT_STATUS(cublasDgemvBatched(h, CUBLAS_OP_N, m, n, &alpha, dAs, m, dxs, 1,
                                   &beta, dys, 1, -1),
                CUBLAS_STATUS_INVALID_VALUE);
  /* trttp then tpttr: the triangle round trips, the rest of A stays. */
  const int k = 4;
  for (int up = 0; up < 2; ++up) {
    Sym<Z> s(k, k, up, false);
    Z *dF = dev(s.full), *dP = dev(std::vector<Z>(k * (k + 1) / 2)),
      *dF2 = dev(std::vector<Z>(k * k, Z(7)));
    cublasFillMode_t uplo =
        up ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    EXPECT_STATUS(cublasZtrttp(h, uplo, k, cz(dF), k, cz(dP)),
                  CUBLAS_STATUS_SUCCESS);
    EXPECT(host(dP, k * (k + 1) / 2) == s.pack, "ztrttp uplo %d", up);
    EXPECT_STATUS(cublasZtpttr(h, uplo, k, cz(dP), cz(dF2), k),
                  CUBLAS_STATUS_SUCCESS);
    std::vector<Z> got = host(dF2, k * k);
    bool ok = true;
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < k; ++i)
        ok = ok && got[i + j * k] ==
                       ((up ? i <= j : i >= j) ? s.full[i + j * k] : Z(7));
    EXPECT(ok, "ztpttr uplo %d", up);
    EXPECT_STATUS(cublasZtpttr(h, uplo, k, cz(dP), cz(dF2), k - 1),
                  CUBLAS_STATUS_INVALID_VALUE);
    cudaFree(dF), cudaFree(dP), cudaFree(dF2);
  }
  cudaFree(dA), cudaFree(dx), cudaFree(dy), cudaFree(dAs), cudaFree(dxs),
      cudaFree(dys);
}

int main() {
  cublasHandle_t h;
  EXPECT_STATUS(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  banded_general<double>(h);
  banded_general<Z>(h);
  symmetric_mv<double>(h);
  symmetric_mv<Z>(h);
  triangular<double>(h);
  triangular<Z>(h);
  rank_updates<double>(h);
  rank_updates<Z>(h);
  other_forms(h);
  batches_and_conversions(h);
  CHECK_CUDA(cudaDeviceSynchronize());
  cublasDestroy(h);
  return finish();
}
