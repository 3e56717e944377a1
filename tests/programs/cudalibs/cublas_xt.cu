/* cublas_xt.cu: the cuBLASXt API on matrices in host memory, as a program
 * that scales level-3 BLAS past one GPU's memory writes it: the handle's
 * calls (device selection, block size, pinning mode, board counts, the
 * hybrid CPU ratio that only gemm takes), then gemm in double (blocks
 * smaller than the matrices) and double complex with A in device memory,
 * syrk and herk (the other triangle untouched), syr2k, symm from the right,
 * trsm (A X = alpha B) and trmm, and spmm on a packed triangle, each
 * against a host reference; cuBLASXt's calls block, so the results are read
 * at once, without a synchronisation.
 * CUEMU_OPTIONS: -lcublas */
#include <cmath>
#include <complex>
#include <vector>

#include <cublasXt.h>

#include "check_libs.h"

typedef std::complex<double> xt_z;

static double xt_val(int i) { return std::sin(i * 0.37 + 0.2); }

/* op(A)(i, j) of a column-major A with leading dimension ld. */
template <typename T>
static T xt_op(const std::vector<T> &a, int ld, bool trans, int i, int j) {
  return trans ? a[j + i * ld] : a[i + j * ld];
}

template <typename T>
static double xt_err(const std::vector<T> &a, const std::vector<T> &b) {
  double e = 0;
  for (size_t i = 0; i < a.size(); ++i)
    e = std::fmax(e, std::abs(a[i] - b[i]));
  return e;
}

static void xt_handle_calls(cublasXtHandle_t h) {
  int boards = 0, devices[1] = {0}, count = 0, block = 0;
  CHECK_CUDA(cudaGetDeviceCount(&count));
  EXPECT_STATUS(cublasXtMaxBoards(&boards), CUBLAS_STATUS_SUCCESS);
  EXPECT(boards >= 1, "cublasXtMaxBoards gave %d", boards);
  EXPECT_STATUS(cublasXtGetNumBoards(1, devices, &boards),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(boards == 1, "cublasXtGetNumBoards gave %d", boards);
  int missing[1] = {count};
  EXPECT_STATUS(cublasXtDeviceSelect(h, 1, missing),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasXtDeviceSelect(h, 1, devices), CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasXtSetBlockDim(h, 32), CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasXtGetBlockDim(h, &block), CUBLAS_STATUS_SUCCESS);
  EXPECT(block == 32, "cublasXtGetBlockDim gave %d", block);
  cublasXtPinnedMemMode_t mode = CUBLASXT_PINNING_DISABLED;
  EXPECT_STATUS(cublasXtSetPinningMemMode(h, CUBLASXT_PINNING_ENABLED),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasXtGetPinningMemMode(h, &mode), CUBLAS_STATUS_SUCCESS);
  EXPECT(mode == CUBLASXT_PINNING_ENABLED, "pinning mode %d", (int)mode);
  EXPECT_STATUS(cublasXtSetCpuRatio(h, CUBLASXT_GEMM, CUBLASXT_DOUBLE, 0.0f),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasXtSetCpuRatio(h, CUBLASXT_SYRK, CUBLASXT_DOUBLE, 0.5f),
                CUBLAS_STATUS_NOT_SUPPORTED);
}

static void xt_gemm(cublasXtHandle_t h) {
  /* C (70 x 50) = 1.5 A^T B - 0.5 C, A 40 x 70, B 40 x 50. */
  const int m = 70, n = 50, k = 40;
  std::vector<double> a(k * m), b(k * n), c(m * n), want(m * n);
  for (int i = 0; i < k * m; ++i)
    a[i] = xt_val(i);
  for (int i = 0; i < k * n; ++i)
    b[i] = xt_val(i + 500);
  for (int i = 0; i < m * n; ++i)
    c[i] = xt_val(i + 900);
  double alpha = 1.5, beta = -0.5;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double s = 0;
      for (int l = 0; l < k; ++l)
        s += xt_op(a, k, true, i, l) * b[l + j * k];
      want[i + j * m] = alpha * s + beta * c[i + j * m];
    }
  EXPECT_STATUS(cublasXtDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha,
                              a.data(), k, b.data(), k, &beta, c.data(), m),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(xt_err(c, want) < 1e-12, "Dgemm error %g", xt_err(c, want));

  /* Zgemm with A in device memory, B and C in host memory. */
  std::vector<xt_z> za(m * k), zb(k * n), zc(m * n, xt_z(0)), zwant(m * n);
  for (int i = 0; i < m * k; ++i)
    za[i] = xt_z(xt_val(i), xt_val(i + 7));
  for (int i = 0; i < k * n; ++i)
    zb[i] = xt_z(xt_val(i + 3), -xt_val(i));
  xt_z zalpha(0.5, 1.0), zbeta(0, 0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      xt_z s = 0;
      for (int l = 0; l < k; ++l)
        s += za[i + l * m] * zb[l + j * k];
      zwant[i + j * m] = zalpha * s;
    }
  xt_z *dza;
  CHECK_CUDA(cudaMalloc(&dza, za.size() * sizeof(xt_z)));
  CHECK_CUDA(cudaMemcpy(dza, za.data(), za.size() * sizeof(xt_z),
                        cudaMemcpyHostToDevice));
  EXPECT_STATUS(
      cublasXtZgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                    reinterpret_cast<cuDoubleComplex *>(&zalpha),
                    reinterpret_cast<cuDoubleComplex *>(dza), m,
                    reinterpret_cast<cuDoubleComplex *>(zb.data()), k,
                    reinterpret_cast<cuDoubleComplex *>(&zbeta),
                    reinterpret_cast<cuDoubleComplex *>(zc.data()), m),
      CUBLAS_STATUS_SUCCESS);
  EXPECT(xt_err(zc, zwant) < 1e-12, "Zgemm error %g", xt_err(zc, zwant));
  CHECK_CUDA(cudaFree(dza));
}

static void xt_rank_k(cublasXtHandle_t h) {
  /* C (30 x 30, lower) = A A^T + 2 C with A 30 x 12; the upper triangle
   * keeps its values. Then syr2k and herk. */
  const int n = 30, k = 12;
  std::vector<double> a(n * k), b(n * k), c(n * n), want;
  for (int i = 0; i < n * k; ++i)
    a[i] = xt_val(i), b[i] = xt_val(i + 77);
  for (int i = 0; i < n * n; ++i)
    c[i] = xt_val(i + 300);
  want = c;
  double one = 1, two = 2;
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) {
      double s = 0;
      for (int l = 0; l < k; ++l)
        s += a[i + l * n] * a[j + l * n];
      want[i + j * n] = s + 2 * c[i + j * n];
    }
  EXPECT_STATUS(cublasXtDsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, k,
                              &one, a.data(), n, &two, c.data(), n),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(xt_err(c, want) < 1e-12, "Dsyrk error %g", xt_err(c, want));
  /* syr2k, upper: C = A B^T + B A^T + 2 C. */
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) {
      double s = 0;
      for (int l = 0; l < k; ++l)
        s += a[i + l * n] * b[j + l * n] + b[i + l * n] * a[j + l * n];
      want[i + j * n] = s + 2 * c[i + j * n];
    }
  EXPECT_STATUS(cublasXtDsyr2k(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, n, k,
                               &one, a.data(), n, b.data(), n, &two, c.data(),
                               n),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(xt_err(c, want) < 1e-12, "Dsyr2k error %g", xt_err(c, want));
  /* herk, upper: C = A^H A with A 12 x 30 (trans C), real scalars. */
  std::vector<xt_z> za(k * n), zc(n * n, xt_z(9, 9)), zwant;
  for (int i = 0; i < k * n; ++i)
    za[i] = xt_z(xt_val(i), xt_val(i + 11));
  zwant = zc;
  double zero = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) {
      xt_z s = 0;
      for (int l = 0; l < k; ++l)
        s += std::conj(za[l + i * k]) * za[l + j * k];
      zwant[i + j * n] = i == j ? xt_z(s.real(), 0) : s;
    }
  EXPECT_STATUS(cublasXtZherk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C, n, k,
                              &one,
                              reinterpret_cast<cuDoubleComplex *>(za.data()),
                              k, &zero,
                              reinterpret_cast<cuDoubleComplex *>(zc.data()),
                              n),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(xt_err(zc, zwant) < 1e-12, "Zherk error %g", xt_err(zc, zwant));
}

static void xt_triangles(cublasXtHandle_t h) {
  /* trsm: A X = 2 B, A 20 x 20 lower with a strong diagonal, B 20 x 7. */
  const int m = 20, n = 7;
  std::vector<double> a(m * m, 0.0), b(m * n), x;
  for (int j = 0; j < m; ++j)
    for (int i = j; i < m; ++i)
      a[i + j * m] = i == j ? 4 + xt_val(i) : xt_val(i * m + j) / m;
  for (int i = 0; i < m * n; ++i)
    b[i] = xt_val(i + 40);
  x = b;
  double two = 2;
  EXPECT_STATUS(cublasXtDtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                              CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, m, n, &two,
                              a.data(), m, x.data(), m),
                CUBLAS_STATUS_SUCCESS);
  double err = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double s = 0;
      for (int l = 0; l <= i; ++l)
        s += a[i + l * m] * x[l + j * m];
      err = std::fmax(err, std::fabs(s - 2 * b[i + j * m]));
    }
  EXPECT(err < 1e-12, "Dtrsm residual %g", err);
  /* trmm: C = A^T B (A's lower triangle), out of place. */
  std::vector<double> c(m * n, 0.0), want(m * n);
  double one = 1;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double s = 0;
      for (int l = i; l < m; ++l)
        s += a[l + i * m] * b[l + j * m];
      want[i + j * m] = s;
    }
  EXPECT_STATUS(cublasXtDtrmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                              CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, m, n, &one,
                              a.data(), m, b.data(), m, c.data(), m),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(xt_err(c, want) < 1e-12, "Dtrmm error %g", xt_err(c, want));
}

static void xt_symmetric(cublasXtHandle_t h) {
  /* symm from the right: C (9 x 6) = B S, S 6 x 6 symmetric from its
   * upper triangle; spmm: the same S packed (upper, column by column). */
  const int m = 9, n = 6;
  std::vector<double> s(n * n), b(m * n), want(m * n), packed;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) {
      s[i + j * n] = s[j + i * n] = xt_val(i * 7 + j);
      packed.push_back(s[i + j * n]);
    }
  for (int i = 0; i < m * n; ++i)
    b[i] = xt_val(i + 11);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double v = 0;
      for (int l = 0; l < n; ++l)
        v += b[i + l * m] * s[l + j * n];
      want[i + j * m] = v;
    }
  std::vector<double> c(m * n, 0.0), c2(m * n, 0.0);
  double one = 1, zero = 0;
  EXPECT_STATUS(cublasXtDsymm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, m,
                              n, &one, s.data(), n, b.data(), m, &zero,
                              c.data(), m),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(xt_err(c, want) < 1e-12, "Dsymm error %g", xt_err(c, want));
  EXPECT_STATUS(cublasXtDspmm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, m,
                              n, &one, packed.data(), b.data(), m, &zero,
                              c2.data(), m),
                CUBLAS_STATUS_SUCCESS);
  EXPECT(xt_err(c2, want) < 1e-12, "Dspmm error %g", xt_err(c2, want));
}

int main() {
  cublasXtHandle_t h;
  EXPECT_STATUS(cublasXtCreate(&h), CUBLAS_STATUS_SUCCESS);
  xt_handle_calls(h);
  xt_gemm(h);
  xt_rank_k(h);
  xt_triangles(h);
  xt_symmetric(h);
  EXPECT_STATUS(cublasXtDestroy(h), CUBLAS_STATUS_SUCCESS);
  return finish();
}
