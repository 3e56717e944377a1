/* sparse_formats.h: checks of cuSPARSE's conversions, sampled products, tridiagonal
 * solvers and blocked formats, each against a host reference:
 * - cusparseCsr2cscEx2 (+_bufferSize): numeric in double (base 0) and
 *   symbolic in cuComplex (base 1, the values left alone);
 * - cusparseSDDMM (+_bufferSize, _preprocess): C = alpha (A B) o spy(C) +
 *   beta C with C in CSR, A row-major, then op(A) transposed;
 * - cusparse?gtsv2 (a system that needs pivoting), gtsv2_nopivot (two
 *   right-hand sides, ldb > m), gtsv2StridedBatch (three systems), with
 *   their bufferSizeExt, by residuals;
 * - BSR (cusparseCreateBsr, 2 x 3 blocks in both orders) and Blocked-ELL
 *   (cusparseCreateBlockedEll, an empty block) in SpMV and SpMM,
 *   cusparseBlockedEllGet, SparseToDense of Blocked-ELL and DenseToSparse
 *   back into its block columns, and DenseToSparse into BSR refused (not
 *   supported);
 * - Sliced-ELL (cusparseCreateSlicedEll, 64-bit column indices, slices of
 *   3 rows with padding, the last slice short) in SpMV, and a lower
 *   triangle in SpSV; SpMM refuses it (not supported, as cuSPARSE's);
 * - cusparseRot, a Givens rotation of a sparse and a dense vector;
 * - strided batches: SpMM of three CSR matrices (each its own row
 *   offsets, then offsets shared, stride 0) by three B, of a COO batch by
 *   one B for all (broadcast), SDDMM into a batch of two CSR matrices, and
 *   batch counts that do not agree refused;
 * - a CSR matrix built from COO triplets with the sorts and index
 *   conversions of sparse_coo.h;
 * - the legacy csrgeam2, nnz and gemvi of sparse_legacy.h, and the legacy
 *   BSR conversions and products of sparse_bsr_legacy.h;
 * - the interleaved batched banded solvers of sparse_interleaved.h.
 * sparse_errors.cu runs these checks first (one program, so that the
 * test builds once), before its host array makes the context's error
 * sticky. */
#ifndef SPARSE_FORMATS_H
#define SPARSE_FORMATS_H
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <vector>

#include <cusparse.h>

#include "../cudalibs/check_libs.h"
#include "sparse_coo.h"

typedef std::complex<double> cd;

template <class T> static T *upload(const std::vector<T> &v) {
  T *d;
  CHECK_CUDA(cudaMalloc(&d, v.size() * sizeof(T) + 1));
  CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(T),
                        cudaMemcpyHostToDevice));
  return d;
}
template <class T> static std::vector<T> download(const T *d, size_t n) {
  std::vector<T> v(n);
  CHECK_CUDA(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

/* The legacy calls' checks, which use upload() and download(). */
#include "sparse_bsr_legacy.h"
#include "sparse_interleaved.h"
#include "sparse_legacy.h"

static unsigned seed = 4242;
static double rnd() {
  seed = seed * 1103515245u + 12345u;
  return ((seed >> 8) & 0xffff) / 65536.0 - 0.5;
}

static cusparseHandle_t g_h;

/* The larger of two errors; a NaN wins (std::fmax would drop it). */
static double worse(double a, double b) { return a > b || a != a ? a : b; }

/* A random m x n CSR pattern, about a third full, with values. */
struct csr {
  int m, n;
  std::vector<int> rows, cols;
  std::vector<double> vals;
};
static csr random_csr(int m, int n) {
  csr a{m, n, std::vector<int>(m + 1), {}, {}};
  for (int i = 0; i < m; ++i) {
    a.rows[i] = (int)a.cols.size();
    for (int j = 0; j < n; ++j)
      if (rnd() > 0.2)
        a.cols.push_back(j), a.vals.push_back(rnd());
  }
  a.rows[m] = (int)a.cols.size();
  return a;
}

static void check_csr2csc(void) {
  const int m = 9, n = 13;
  csr a = random_csr(m, n);
  int nnz = (int)a.cols.size();
  int *d_rows = upload(a.rows), *d_cols = upload(a.cols), *d_cptr, *d_rind;
  double *d_vals = upload(a.vals), *d_cval;
  CHECK_CUDA(cudaMalloc(&d_cptr, (n + 1) * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_rind, nnz * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_cval, nnz * sizeof(double)));
  size_t bytes = 1;
  EXPECT_STATUS(cusparseCsr2cscEx2_bufferSize(
                    g_h, m, n, nnz, d_vals, d_rows, d_cols, d_cval, d_cptr,
                    d_rind, CUDA_R_64F, CUSPARSE_ACTION_NUMERIC,
                    CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &bytes),
                CUSPARSE_STATUS_SUCCESS);
  void *buffer;
  CHECK_CUDA(cudaMalloc(&buffer, bytes + 1));
  EXPECT_STATUS(cusparseCsr2cscEx2(g_h, m, n, nnz, d_vals, d_rows, d_cols,
                                   d_cval, d_cptr, d_rind, CUDA_R_64F,
                                   CUSPARSE_ACTION_NUMERIC,
                                   CUSPARSE_INDEX_BASE_ZERO,
                                   CUSPARSE_CSR2CSC_ALG1, buffer),
                CUSPARSE_STATUS_SUCCESS);
  /* The host's transposition, rows ascending within each column. */
  std::vector<int> cptr(n + 1, 0), rind;
  std::vector<double> cval;
  for (int j = 0; j < n; ++j) {
    cptr[j] = (int)rind.size();
    for (int i = 0; i < m; ++i)
      for (int k = a.rows[i]; k < a.rows[i + 1]; ++k)
        if (a.cols[k] == j)
          rind.push_back(i), cval.push_back(a.vals[k]);
  }
  cptr[n] = nnz;
  EXPECT(download(d_cptr, n + 1) == cptr && download(d_rind, nnz) == rind &&
             download(d_cval, nnz) == cval,
         "Csr2cscEx2: CSC differs from the host's transposition");

  /* Symbolic, complex values, base one: the values are not written. */
  std::vector<int> rows1 = a.rows, cols1 = a.cols;
  for (int &r : rows1)
    ++r;
  for (int &c : cols1)
    ++c;
  int *d_rows1 = upload(rows1), *d_cols1 = upload(cols1);
  std::vector<cuComplex> sentinel(nnz, make_cuComplex(7, 7));
  cuComplex *d_zval = upload(sentinel), *d_zcsc = upload(sentinel);
  EXPECT_STATUS(cusparseCsr2cscEx2(g_h, m, n, nnz, d_zval, d_rows1, d_cols1,
                                   d_zcsc, d_cptr, d_rind, CUDA_C_32F,
                                   CUSPARSE_ACTION_SYMBOLIC,
                                   CUSPARSE_INDEX_BASE_ONE,
                                   CUSPARSE_CSR2CSC_ALG1, buffer),
                CUSPARSE_STATUS_SUCCESS);
  std::vector<int> cptr1 = cptr, rind1 = rind;
  for (int &c : cptr1)
    ++c;
  for (int &r : rind1)
    ++r;
  std::vector<cuComplex> z = download(d_zcsc, nnz);
  bool untouched = true;
  for (const cuComplex &v : z)
    untouched = untouched && v.x == 7 && v.y == 7;
  EXPECT(download(d_cptr, n + 1) == cptr1 && download(d_rind, nnz) == rind1 &&
             untouched,
         "Csr2cscEx2 symbolic base one: CSC differs");
  cudaFree(d_rows), cudaFree(d_cols), cudaFree(d_vals), cudaFree(d_cptr);
  cudaFree(d_rind), cudaFree(d_cval), cudaFree(buffer), cudaFree(d_rows1);
  cudaFree(d_cols1), cudaFree(d_zval), cudaFree(d_zcsc);
}

static void check_sddmm(bool transpose_a) {
  const int m = 7, k = 5, n = 6;
  csr c = random_csr(m, n);
  int nnz = (int)c.cols.size();
  /* A is m x k (row-major), or k x m (row-major) read transposed; B is
   * k x n (column-major). */
  std::vector<double> a(m * k), b(k * n);
  for (double &v : a)
    v = rnd();
  for (double &v : b)
    v = rnd();
  int *d_rows = upload(c.rows), *d_cols = upload(c.cols);
  double *d_vals = upload(c.vals), *d_a = upload(a), *d_b = upload(b);
  cusparseSpMatDescr_t mc;
  cusparseDnMatDescr_t ma, mb;
  EXPECT_STATUS(cusparseCreateCsr(&mc, m, n, nnz, d_rows, d_cols, d_vals,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                CUSPARSE_STATUS_SUCCESS);
  int ar = transpose_a ? k : m, ac = transpose_a ? m : k;
  EXPECT_STATUS(cusparseCreateDnMat(&ma, ar, ac, ac, d_a, CUDA_R_64F,
                                    CUSPARSE_ORDER_ROW),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseCreateDnMat(&mb, k, n, k, d_b, CUDA_R_64F,
                                    CUSPARSE_ORDER_COL),
                CUSPARSE_STATUS_SUCCESS);
  cusparseOperation_t op_a = transpose_a ? CUSPARSE_OPERATION_TRANSPOSE
                                         : CUSPARSE_OPERATION_NON_TRANSPOSE;
  double alpha = 2, beta = 0.5;
  size_t bytes = 1;
  EXPECT_STATUS(cusparseSDDMM_bufferSize(
                    g_h, op_a, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, ma, mb,
                    &beta, mc, CUDA_R_64F, CUSPARSE_SDDMM_ALG_DEFAULT, &bytes),
                CUSPARSE_STATUS_SUCCESS);
  void *buffer;
  CHECK_CUDA(cudaMalloc(&buffer, bytes + 1));
  EXPECT_STATUS(cusparseSDDMM_preprocess(
                    g_h, op_a, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, ma, mb,
                    &beta, mc, CUDA_R_64F, CUSPARSE_SDDMM_ALG_DEFAULT, buffer),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseSDDMM(g_h, op_a, CUSPARSE_OPERATION_NON_TRANSPOSE,
                              &alpha, ma, mb, &beta, mc, CUDA_R_64F,
                              CUSPARSE_SDDMM_ALG_DEFAULT, buffer),
                CUSPARSE_STATUS_SUCCESS);
  std::vector<double> got = download(d_vals, nnz);
  double err = 0;
  for (int i = 0; i < m; ++i)
    for (int q = c.rows[i]; q < c.rows[i + 1]; ++q) {
      int j = c.cols[q];
      double dot = 0;
      for (int l = 0; l < k; ++l)
        dot += (transpose_a ? a[l * m + i] : a[i * k + l]) * b[j * k + l];
      err = worse(std::fabs(got[q] - (alpha * dot + beta * c.vals[q])), err);
    }
  EXPECT(err < 1e-13, "SDDMM op(A) %s: error %g", transpose_a ? "T" : "N",
         err);
  /* A size that does not agree. */
  cusparseDnMatDescr_t wrong;
  EXPECT_STATUS(cusparseCreateDnMat(&wrong, k + 1, n, k + 1, d_b, CUDA_R_64F,
                                    CUSPARSE_ORDER_COL),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseSDDMM(g_h, op_a, CUSPARSE_OPERATION_NON_TRANSPOSE,
                              &alpha, ma, wrong, &beta, mc, CUDA_R_64F,
                              CUSPARSE_SDDMM_ALG_DEFAULT, buffer),
                CUSPARSE_STATUS_INVALID_VALUE);
  cusparseDestroyDnMat(wrong);
  cusparseDestroySpMat(mc), cusparseDestroyDnMat(ma), cusparseDestroyDnMat(mb);
  cudaFree(d_rows), cudaFree(d_cols), cudaFree(d_vals), cudaFree(d_a);
  cudaFree(d_b), cudaFree(buffer);
}

/* max |A x - b| / max |b| for a tridiagonal A (dl, d, du). */
template <class T>
static double tri_residual(const std::vector<T> &dl, const std::vector<T> &d,
                           const std::vector<T> &du, const T *x, const T *b,
                           int m) {
  double r = 0, s = 0;
  for (int i = 0; i < m; ++i) {
    T ax = d[i] * x[i];
    if (i > 0)
      ax += dl[i] * x[i - 1];
    if (i + 1 < m)
      ax += du[i] * x[i + 1];
    r = worse(std::abs(ax - b[i]), r);
    s = std::fmax(s, std::abs(b[i]));
  }
  return r / s;
}

static void check_gtsv(void) {
  const int m = 12;
  /* gtsv2 (double): d[0] = 0 and small diagonals, so that it pivots. */
  std::vector<double> dl(m), d(m), du(m), b(m);
  for (int i = 0; i < m; ++i)
    dl[i] = i ? 1 + rnd() : 0, d[i] = i ? 0.1 * rnd() : 0,
    du[i] = i + 1 < m ? 1 + rnd() : 0, b[i] = rnd();
  double *d_dl = upload(dl), *d_d = upload(d), *d_du = upload(du),
         *d_b = upload(b);
  size_t bytes = 0;
  EXPECT_STATUS(cusparseDgtsv2_bufferSizeExt(g_h, m, 1, d_dl, d_d, d_du, d_b, m,
                                             &bytes),
                CUSPARSE_STATUS_SUCCESS);
  void *buffer;
  CHECK_CUDA(cudaMalloc(&buffer, bytes + 128));
  EXPECT_STATUS(cusparseDgtsv2(g_h, m, 1, d_dl, d_d, d_du, d_b, m, buffer),
                CUSPARSE_STATUS_SUCCESS);
  std::vector<double> x = download(d_b, m);
  double r = tri_residual(dl, d, du, x.data(), b.data(), m);
  EXPECT(r < 1e-12, "Dgtsv2 (pivoting): residual %g", r);
  /* A buffer not aligned to 128 bytes is refused, as cuSPARSE's. */
  EXPECT_STATUS(cusparseDgtsv2(g_h, m, 1, d_dl, d_d, d_du, d_b, m,
                               (char *)buffer + 8),
                CUSPARSE_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cusparseDgtsv2(g_h, 2, 1, d_dl, d_d, d_du, d_b, m, buffer),
                CUSPARSE_STATUS_INVALID_VALUE);

  /* gtsv2_nopivot (cuDoubleComplex): diagonally dominant, two right-hand
   * sides, ldb = m + 3. */
  const int ldb = m + 3;
  std::vector<cd> zl(m), zd(m), zu(m), zb(ldb * 2, cd(9, 9));
  for (int i = 0; i < m; ++i) {
    zl[i] = i ? cd(rnd(), rnd()) : 0.0;
    zu[i] = i + 1 < m ? cd(rnd(), rnd()) : 0.0;
    zd[i] = cd(4 + rnd(), rnd());
    zb[i] = cd(rnd(), rnd()), zb[ldb + i] = cd(rnd(), rnd());
  }
  cd *d_zl = upload(zl), *d_zd = upload(zd), *d_zu = upload(zu),
     *d_zb = upload(zb);
  EXPECT_STATUS(cusparseZgtsv2_nopivot_bufferSizeExt(
                    g_h, m, 2, (cuDoubleComplex *)d_zl, (cuDoubleComplex *)d_zd,
                    (cuDoubleComplex *)d_zu, (cuDoubleComplex *)d_zb, ldb,
                    &bytes),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseZgtsv2_nopivot(
                    g_h, m, 2, (cuDoubleComplex *)d_zl, (cuDoubleComplex *)d_zd,
                    (cuDoubleComplex *)d_zu, (cuDoubleComplex *)d_zb, ldb,
                    buffer),
                CUSPARSE_STATUS_SUCCESS);
  std::vector<cd> zx = download(d_zb, ldb * 2);
  for (int j = 0; j < 2; ++j) {
    double rz = tri_residual(zl, zd, zu, zx.data() + j * ldb,
                             zb.data() + j * ldb, m);
    EXPECT(rz < 1e-12, "Zgtsv2_nopivot rhs %d: residual %g", j, rz);
  }
  EXPECT(zx[m] == cd(9, 9), "Zgtsv2_nopivot wrote past m rows");

  /* gtsv2StridedBatch (float): three systems, stride m + 2. */
  const int batch = 3, stride = m + 2;
  std::vector<float> sl(batch * stride), sd(batch * stride),
      su(batch * stride), sx(batch * stride);
  for (int q = 0; q < batch; ++q)
    for (int i = 0; i < m; ++i) {
      int at = q * stride + i;
      sl[at] = i ? (float)rnd() : 0.0f;
      su[at] = i + 1 < m ? (float)rnd() : 0.0f;
      sd[at] = 3.0f + (float)rnd();
      sx[at] = (float)rnd();
    }
  float *d_sl = upload(sl), *d_sd = upload(sd), *d_su = upload(su),
        *d_sx = upload(sx);
  EXPECT_STATUS(cusparseSgtsv2StridedBatch_bufferSizeExt(
                    g_h, m, d_sl, d_sd, d_su, d_sx, batch, stride, &bytes),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseSgtsv2StridedBatch(g_h, m, d_sl, d_sd, d_su, d_sx,
                                           batch, stride, buffer),
                CUSPARSE_STATUS_SUCCESS);
  std::vector<float> sol = download(d_sx, batch * stride);
  for (int q = 0; q < batch; ++q) {
    std::vector<float> l(sl.begin() + q * stride, sl.begin() + q * stride + m),
        dd(sd.begin() + q * stride, sd.begin() + q * stride + m),
        u(su.begin() + q * stride, su.begin() + q * stride + m);
    double rs = tri_residual(l, dd, u, sol.data() + q * stride,
                             sx.data() + q * stride, m);
    EXPECT(rs < 1e-5, "Sgtsv2StridedBatch system %d: residual %g", q, rs);
  }
  cudaFree(d_dl), cudaFree(d_d), cudaFree(d_du), cudaFree(d_b);
  cudaFree(d_zl), cudaFree(d_zd), cudaFree(d_zu), cudaFree(d_zb);
  cudaFree(d_sl), cudaFree(d_sd), cudaFree(d_su), cudaFree(d_sx);
  cudaFree(buffer);
}

/* y = A x and C = A B for a sparse A against the host's dense A (rows x
 * cols, row-major). */
static void check_products(const char *what, cusparseSpMatDescr_t a,
                           const std::vector<double> &dense, int rows,
                           int cols) {
  const int n = 3;
  std::vector<double> x(cols), bm(cols * n);
  for (double &v : x)
    v = rnd();
  for (double &v : bm)
    v = rnd();
  double *d_x = upload(x), *d_y, *d_bm = upload(bm), *d_c;
  CHECK_CUDA(cudaMalloc(&d_y, rows * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&d_c, rows * n * sizeof(double)));
  cusparseDnVecDescr_t vx, vy;
  cusparseDnMatDescr_t mb, mc;
  cusparseCreateDnVec(&vx, cols, d_x, CUDA_R_64F);
  cusparseCreateDnVec(&vy, rows, d_y, CUDA_R_64F);
  cusparseCreateDnMat(&mb, cols, n, cols, d_bm, CUDA_R_64F, CUSPARSE_ORDER_COL);
  cusparseCreateDnMat(&mc, rows, n, rows, d_c, CUDA_R_64F, CUSPARSE_ORDER_COL);
  double one = 1, zero = 0;
  size_t bytes = 0;
  EXPECT_STATUS(cusparseSpMV_bufferSize(g_h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                        &one, a, vx, &zero, vy, CUDA_R_64F,
                                        CUSPARSE_SPMV_ALG_DEFAULT, &bytes),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseSpMV(g_h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a,
                             vx, &zero, vy, CUDA_R_64F,
                             CUSPARSE_SPMV_ALG_DEFAULT, nullptr),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseSpMM(g_h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                             CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, mb,
                             &zero, mc, CUDA_R_64F, CUSPARSE_SPMM_ALG_DEFAULT,
                             nullptr),
                CUSPARSE_STATUS_SUCCESS);
  std::vector<double> y = download(d_y, rows), c = download(d_c, rows * n);
  double err = 0;
  for (int i = 0; i < rows; ++i) {
    double s = 0;
    for (int j = 0; j < cols; ++j)
      s += dense[i * cols + j] * x[j];
    err = worse(std::fabs(y[i] - s), err);
    for (int q = 0; q < n; ++q) {
      double t = 0;
      for (int j = 0; j < cols; ++j)
        t += dense[i * cols + j] * bm[q * cols + j];
      err = worse(std::fabs(c[q * rows + i] - t), err);
    }
  }
  EXPECT(err < 1e-13, "%s: SpMV/SpMM error %g", what, err);
  cusparseDestroyDnVec(vx), cusparseDestroyDnVec(vy);
  cusparseDestroyDnMat(mb), cusparseDestroyDnMat(mc);
  cudaFree(d_x), cudaFree(d_y), cudaFree(d_bm), cudaFree(d_c);
}

static void check_bsr(cusparseOrder_t order) {
  /* 3 x 4 blocks of 2 x 3: block row 0 holds block columns 1 and 3, row 1
   * none, row 2 columns 0, 2 and 3 (base one, 64-bit offsets). */
  const int rb = 2, cb = 3, brows = 3, bcols = 4;
  std::vector<int64_t> offsets = {1, 3, 3, 6};
  std::vector<int> bcol = {2, 4, 1, 3, 4};
  int bnnz = (int)bcol.size(), rows = brows * rb, cols = bcols * cb;
  std::vector<double> vals(bnnz * rb * cb), dense(rows * cols, 0.0);
  for (double &v : vals)
    v = rnd();
  for (int bi = 0; bi < brows; ++bi)
    for (int q = (int)offsets[bi] - 1; q < offsets[bi + 1] - 1; ++q)
      for (int r = 0; r < rb; ++r)
        for (int c = 0; c < cb; ++c)
          dense[(bi * rb + r) * cols + (bcol[q] - 1) * cb + c] =
              vals[q * rb * cb +
                   (order == CUSPARSE_ORDER_ROW ? r * cb + c : c * rb + r)];
  int64_t *d_off = upload(offsets);
  int *d_col = upload(bcol);
  double *d_val = upload(vals);
  cusparseSpMatDescr_t a;
  EXPECT_STATUS(cusparseCreateBsr(&a, brows, bcols, bnnz, rb, cb, d_off, d_col,
                                  d_val, CUSPARSE_INDEX_64I, CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_BASE_ONE, CUDA_R_64F, order),
                CUSPARSE_STATUS_SUCCESS);
  cusparseFormat_t format;
  EXPECT_STATUS(cusparseSpMatGetFormat(a, &format), CUSPARSE_STATUS_SUCCESS);
  EXPECT(format == CUSPARSE_FORMAT_BSR, "BSR: format %d", (int)format);
  check_products(order == CUSPARSE_ORDER_ROW ? "BSR row-major blocks"
                                             : "BSR column-major blocks",
                 a, dense, rows, cols);
  /* DenseToSparse does not write BSR here. */
  double *d_dense;
  CHECK_CUDA(cudaMalloc(&d_dense, rows * cols * sizeof(double)));
  cusparseDnMatDescr_t md;
  cusparseCreateDnMat(&md, rows, cols, cols, d_dense, CUDA_R_64F,
                      CUSPARSE_ORDER_ROW);
  size_t bytes;
  EXPECT_STATUS(cusparseDenseToSparse_bufferSize(
                    g_h, md, a, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, &bytes),
                CUSPARSE_STATUS_NOT_SUPPORTED);
  cusparseDestroyDnMat(md);
  cusparseDestroySpMat(a);
  cudaFree(d_off), cudaFree(d_col), cudaFree(d_val), cudaFree(d_dense);
}

static void check_blocked_ell(void) {
  /* 6 x 8 with 2 x 2 blocks, two block columns per block row; block row 1
   * has an empty block (-1). */
  const int rows = 6, cols = 8, bs = 2, ell_cols = 4;
  std::vector<int> bcol = {0, 2, 3, -1, 1, 3};
  std::vector<double> vals(rows * ell_cols), dense(rows * cols, 0.0);
  for (double &v : vals)
    v = rnd();
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < ell_cols; ++c) {
      int b = bcol[(r / bs) * (ell_cols / bs) + c / bs];
      if (b >= 0)
        dense[r * cols + b * bs + c % bs] = vals[r * ell_cols + c];
    }
  int *d_col = upload(bcol);
  double *d_val = upload(vals);
  cusparseSpMatDescr_t a;
  EXPECT_STATUS(cusparseCreateBlockedEll(&a, rows, cols, bs, ell_cols, d_col,
                                         d_val, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                CUSPARSE_STATUS_SUCCESS);
  int64_t r, c, b, e;
  void *ci, *v;
  cusparseIndexType_t it;
  cusparseIndexBase_t base;
  cudaDataType type;
  EXPECT_STATUS(cusparseBlockedEllGet(a, &r, &c, &b, &e, &ci, &v, &it, &base,
                                      &type),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT(r == rows && c == cols && b == bs && e == ell_cols && ci == d_col &&
             v == d_val && it == CUSPARSE_INDEX_32I &&
             base == CUSPARSE_INDEX_BASE_ZERO && type == CUDA_R_64F,
         "BlockedEllGet: fields differ");
  check_products("Blocked-ELL", a, dense, rows, cols);
  /* SparseToDense. */
  double *d_dense;
  CHECK_CUDA(cudaMalloc(&d_dense, rows * cols * sizeof(double)));
  cusparseDnMatDescr_t md;
  cusparseCreateDnMat(&md, rows, cols, cols, d_dense, CUDA_R_64F,
                      CUSPARSE_ORDER_ROW);
  size_t bytes = 0;
  EXPECT_STATUS(cusparseSparseToDense_bufferSize(
                    g_h, a, md, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, &bytes),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseSparseToDense(g_h, a, md,
                                      CUSPARSE_SPARSETODENSE_ALG_DEFAULT,
                                      nullptr),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT(download(d_dense, rows * cols) == dense,
         "Blocked-ELL SparseToDense differs");
  /* DenseToSparse back into the same block columns: every stored value,
   * those of the empty block zero. */
  double *d_back;
  CHECK_CUDA(cudaMalloc(&d_back, rows * ell_cols * sizeof(double)));
  CHECK_CUDA(cudaMemset(d_back, 0xff, rows * ell_cols * sizeof(double)));
  cusparseSpMatDescr_t back;
  cusparseCreateBlockedEll(&back, rows, cols, bs, ell_cols, d_col, d_back,
                           CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                           CUDA_R_64F);
  EXPECT_STATUS(cusparseDenseToSparse_bufferSize(
                    g_h, md, back, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, &bytes),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseDenseToSparse_analysis(
                    g_h, md, back, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseDenseToSparse_convert(
                    g_h, md, back, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr),
                CUSPARSE_STATUS_SUCCESS);
  std::vector<double> want = vals;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < ell_cols; ++c)
      if (bcol[(r / bs) * (ell_cols / bs) + c / bs] < 0)
        want[r * ell_cols + c] = 0;
  EXPECT(download(d_back, rows * ell_cols) == want,
         "Blocked-ELL DenseToSparse differs");
  cusparseDestroySpMat(back);
  cudaFree(d_back);
  cusparseDestroyDnMat(md);
  cusparseDestroySpMat(a);
  cudaFree(d_col), cudaFree(d_val), cudaFree(d_dense);
}

/* The Sliced-ELL storage of a dense matrix (rows x cols, row-major) in
 * slices of `slice` rows: each slice padded to its longest row (column -1,
 * value 0) and stored column by column. */
struct sliced {
  std::vector<int> offsets;
  std::vector<int64_t> columns;
  std::vector<double> values;
  int nnz = 0;
};
static sliced make_sliced(const std::vector<double> &dense, int rows, int cols,
                          int slice) {
  sliced m;
  m.offsets.push_back(0);
  for (int first = 0; first < rows; first += slice) {
    std::vector<std::vector<int>> in_row;
    size_t width = 0;
    for (int r = first; r < first + slice; ++r) {
      in_row.emplace_back();
      for (int c = 0; r < rows && c < cols; ++c)
        if (dense[r * cols + c] != 0)
          in_row.back().push_back(c);
      width = std::max(width, in_row.back().size());
      m.nnz += (int)in_row.back().size();
    }
    for (size_t slot = 0; slot < width; ++slot)
      for (int r = 0; r < slice; ++r) {
        bool real = slot < in_row[r].size();
        m.columns.push_back(real ? in_row[r][slot] : -1);
        m.values.push_back(real ? dense[(first + r) * cols + in_row[r][slot]]
                                : 0.0);
      }
    m.offsets.push_back((int)m.values.size());
  }
  return m;
}

static void check_sliced_ell(void) {
  /* 7 x 6, about half of it nonzero, in slices of 3: the last holds one
   * row. */
  const int rows = 7, cols = 6, slice = 3;
  std::vector<double> dense(rows * cols, 0.0);
  for (double &v : dense)
    v = rnd() < 0.5 ? 0.0 : rnd() + 0.25;
  sliced m = make_sliced(dense, rows, cols, slice);
  int *d_off = upload(m.offsets);
  int64_t *d_col = upload(m.columns);
  double *d_val = upload(m.values);
  cusparseSpMatDescr_t a;
  EXPECT_STATUS(cusparseCreateSlicedEll(&a, rows, cols, m.nnz,
                                        (int64_t)m.values.size(), slice, d_off,
                                        d_col, d_val, CUSPARSE_INDEX_32I,
                                        CUSPARSE_INDEX_64I,
                                        CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                CUSPARSE_STATUS_SUCCESS);
  cusparseFormat_t format;
  EXPECT_STATUS(cusparseSpMatGetFormat(a, &format), CUSPARSE_STATUS_SUCCESS);
  EXPECT(format == CUSPARSE_FORMAT_SLICED_ELLPACK, "Sliced-ELL: format %d",
         (int)format);
  int64_t r, c, nnz;
  EXPECT_STATUS(cusparseSpMatGetSize(a, &r, &c, &nnz), CUSPARSE_STATUS_SUCCESS);
  EXPECT(r == rows && c == cols && nnz == m.nnz, "Sliced-ELL: size %lld %lld %lld",
         (long long)r, (long long)c, (long long)nnz);
  /* y = A x. */
  std::vector<double> x(cols);
  for (double &v : x)
    v = rnd();
  double *d_x = upload(x), *d_y, one = 1, zero = 0;
  CHECK_CUDA(cudaMalloc(&d_y, rows * sizeof(double)));
  cusparseDnVecDescr_t vx, vy;
  cusparseCreateDnVec(&vx, cols, d_x, CUDA_R_64F);
  cusparseCreateDnVec(&vy, rows, d_y, CUDA_R_64F);
  size_t bytes = 1;
  EXPECT_STATUS(cusparseSpMV_bufferSize(g_h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                        &one, a, vx, &zero, vy, CUDA_R_64F,
                                        CUSPARSE_SPMV_SELL_ALG1, &bytes),
                CUSPARSE_STATUS_SUCCESS);
  void *buffer;
  CHECK_CUDA(cudaMalloc(&buffer, bytes + 1));
  EXPECT_STATUS(cusparseSpMV(g_h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a,
                             vx, &zero, vy, CUDA_R_64F, CUSPARSE_SPMV_SELL_ALG1,
                             buffer),
                CUSPARSE_STATUS_SUCCESS);
  std::vector<double> y = download(d_y, rows);
  double err = 0;
  for (int i = 0; i < rows; ++i) {
    double sum = 0;
    for (int j = 0; j < cols; ++j)
      sum += dense[i * cols + j] * x[j];
    err = worse(std::fabs(y[i] - sum), err);
  }
  EXPECT(err < 1e-13, "Sliced-ELL SpMV error %g", err);
  /* cuSPARSE's SpMM has no Sliced-ELL algorithm. */
  double *d_b, *d_c;
  CHECK_CUDA(cudaMalloc(&d_b, cols * 2 * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&d_c, rows * 2 * sizeof(double)));
  cusparseDnMatDescr_t mb, mc;
  cusparseCreateDnMat(&mb, cols, 2, cols, d_b, CUDA_R_64F, CUSPARSE_ORDER_COL);
  cusparseCreateDnMat(&mc, rows, 2, rows, d_c, CUDA_R_64F, CUSPARSE_ORDER_COL);
  EXPECT_STATUS(cusparseSpMM_bufferSize(g_h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                        CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                        a, mb, &zero, mc, CUDA_R_64F,
                                        CUSPARSE_SPMM_ALG_DEFAULT, &bytes),
                CUSPARSE_STATUS_NOT_SUPPORTED);
  cusparseDestroyDnMat(mb), cusparseDestroyDnMat(mc);
  cusparseDestroySpMat(a);
  cudaFree(d_off), cudaFree(d_col), cudaFree(d_val), cudaFree(d_b);
  cudaFree(d_c);

  /* A lower triangle (6 x 6, a strong diagonal) solved by SpSV:
   * A y = alpha x. */
  const int n = 6;
  std::vector<double> tri(n * n, 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j)
      tri[i * n + j] = j == i ? 2.0 + rnd() : (rnd() < 0.5 ? 0.0 : rnd());
  sliced t = make_sliced(tri, n, n, 4);
  d_off = upload(t.offsets);
  d_col = upload(t.columns);
  d_val = upload(t.values);
  EXPECT_STATUS(cusparseCreateSlicedEll(&a, n, n, t.nnz,
                                        (int64_t)t.values.size(), 4, d_off,
                                        d_col, d_val, CUSPARSE_INDEX_32I,
                                        CUSPARSE_INDEX_64I,
                                        CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                CUSPARSE_STATUS_SUCCESS);
  cusparseFillMode_t lower = CUSPARSE_FILL_MODE_LOWER;
  cusparseDiagType_t non_unit = CUSPARSE_DIAG_TYPE_NON_UNIT;
  cusparseSpMatSetAttribute(a, CUSPARSE_SPMAT_FILL_MODE, &lower, sizeof lower);
  cusparseSpMatSetAttribute(a, CUSPARSE_SPMAT_DIAG_TYPE, &non_unit,
                            sizeof non_unit);
  std::vector<double> rhs(n);
  for (double &v : rhs)
    v = rnd();
  double *d_rhs = upload(rhs), *d_sol, alpha = 1.5;
  CHECK_CUDA(cudaMalloc(&d_sol, n * sizeof(double)));
  cusparseDnVecDescr_t vr, vs;
  cusparseCreateDnVec(&vr, n, d_rhs, CUDA_R_64F);
  cusparseCreateDnVec(&vs, n, d_sol, CUDA_R_64F);
  cusparseSpSVDescr_t sv;
  EXPECT_STATUS(cusparseSpSV_createDescr(&sv), CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseSpSV_bufferSize(g_h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                        &alpha, a, vr, vs, CUDA_R_64F,
                                        CUSPARSE_SPSV_ALG_DEFAULT, sv, &bytes),
                CUSPARSE_STATUS_SUCCESS);
  void *sv_buffer;
  CHECK_CUDA(cudaMalloc(&sv_buffer, bytes + 1));
  EXPECT_STATUS(cusparseSpSV_analysis(g_h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                      &alpha, a, vr, vs, CUDA_R_64F,
                                      CUSPARSE_SPSV_ALG_DEFAULT, sv,
                                      sv_buffer),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseSpSV_solve(g_h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                   &alpha, a, vr, vs, CUDA_R_64F,
                                   CUSPARSE_SPSV_ALG_DEFAULT, sv),
                CUSPARSE_STATUS_SUCCESS);
  std::vector<double> sol = download(d_sol, n), want(n);
  err = 0;
  for (int i = 0; i < n; ++i) {
    double sum = alpha * rhs[i];
    for (int j = 0; j < i; ++j)
      sum -= tri[i * n + j] * want[j];
    want[i] = sum / tri[i * n + i];
    err = worse(std::fabs(sol[i] - want[i]), err);
  }
  EXPECT(err < 1e-12, "Sliced-ELL SpSV error %g", err);
  cusparseSpSV_destroyDescr(sv);
  cusparseDestroyDnVec(vx), cusparseDestroyDnVec(vy);
  cusparseDestroyDnVec(vr), cusparseDestroyDnVec(vs);
  cusparseDestroySpMat(a);
  cudaFree(d_off), cudaFree(d_col), cudaFree(d_val), cudaFree(d_x);
  cudaFree(d_y), cudaFree(buffer), cudaFree(d_rhs), cudaFree(d_sol);
  cudaFree(sv_buffer);
}

/* cusparseRot: x = c x + s y, y = c y - s x at x's indices, in float. */
static void check_rot(void) {
  const int size = 9, nnz = 4;
  std::vector<int> idx = {0, 3, 4, 8};
  std::vector<float> xv(nnz), yv(size);
  for (float &v : xv)
    v = (float)rnd();
  for (float &v : yv)
    v = (float)rnd();
  int *d_idx = upload(idx);
  float *d_xv = upload(xv), *d_y = upload(yv), c = 0.6f, s = 0.8f;
  cusparseSpVecDescr_t vx;
  cusparseDnVecDescr_t vy;
  cusparseCreateSpVec(&vx, size, nnz, d_idx, d_xv, CUSPARSE_INDEX_32I,
                      CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  cusparseCreateDnVec(&vy, size, d_y, CUDA_R_32F);
  EXPECT_STATUS(cusparseRot(g_h, &c, &s, vx, vy), CUSPARSE_STATUS_SUCCESS);
  std::vector<float> x_out = download(d_xv, nnz), y_out = download(d_y, size);
  std::vector<float> want_y = yv;
  double err = 0;
  for (int k = 0; k < nnz; ++k) {
    float want_x = c * xv[k] + s * yv[idx[k]];
    want_y[idx[k]] = c * yv[idx[k]] - s * xv[k];
    err = worse(std::fabs(x_out[k] - want_x), err);
  }
  for (int i = 0; i < size; ++i)
    err = worse(std::fabs(y_out[i] - want_y[i]), err);
  EXPECT(err < 1e-6, "cusparseRot error %g", err);
  cusparseDestroySpVec(vx), cusparseDestroyDnVec(vy);
  cudaFree(d_idx), cudaFree(d_xv), cudaFree(d_y);
}

/* A batch of `count` CSR matrices (rows x cols, row-major dense copies),
 * each with the same number of nonzeros, in strided arrays; with `shared`,
 * one pattern (one offsets array) for all. */
struct csr_batch {
  std::vector<int> offsets, columns;
  std::vector<double> values, dense;
  int nnz = 0;
};
static csr_batch make_csr_batch(int count, int rows, int cols, bool shared) {
  csr_batch b;
  std::vector<int> pattern_cols, pattern_offsets = {0};
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c)
      if ((r * 7 + c * 3) % 4 != 0)
        pattern_cols.push_back(c);
    pattern_offsets.push_back((int)pattern_cols.size());
  }
  b.nnz = (int)pattern_cols.size();
  for (int i = 0; i < count; ++i) {
    /* Batch i's pattern: the shared one, or its columns rotated by i. */
    for (int r = 0; r < rows && (!shared || i == 0); ++r)
      b.offsets.push_back(pattern_offsets[r]);
    if (!shared || i == 0)
      b.offsets.push_back(b.nnz);
    std::vector<double> dense(rows * cols, 0.0);
    for (int r = 0; r < rows; ++r)
      for (int k = pattern_offsets[r]; k < pattern_offsets[r + 1]; ++k) {
        int c = shared ? pattern_cols[k]
                       : pattern_cols[pattern_offsets[r] +
                                      (k - pattern_offsets[r] + i) %
                                          (pattern_offsets[r + 1] -
                                           pattern_offsets[r])];
        double v = rnd() + 0.5;
        b.columns.push_back(c);
        b.values.push_back(v);
        dense[r * cols + c] = v;
      }
    b.dense.insert(b.dense.end(), dense.begin(), dense.end());
  }
  return b;
}

/* C_i = A_i B_i (or A_i B with one B) against the host; B and C
 * column-major, their batches k x n and rows x n apart. */
static double batch_error(const std::vector<double> &dense_a, int count,
                          int rows, int k, int n, const std::vector<double> &b,
                          bool one_b, const std::vector<double> &c) {
  double err = 0;
  for (int i = 0; i < count; ++i)
    for (int r = 0; r < rows; ++r)
      for (int q = 0; q < n; ++q) {
        double sum = 0;
        for (int l = 0; l < k; ++l)
          sum += dense_a[(i * rows + r) * k + l] *
                 b[(one_b ? 0 : i * k * n) + q * k + l];
        err = worse(std::fabs(c[i * rows * n + q * rows + r] - sum), err);
      }
  return err;
}

static void check_batches(void) {
  const int count = 3, rows = 4, k = 5, n = 3;
  double one = 1, zero = 0;
  for (int shared = 0; shared < 2; ++shared) {
    csr_batch a = make_csr_batch(count, rows, k, shared);
    std::vector<double> b(count * k * n);
    for (double &v : b)
      v = rnd();
    int *d_off = upload(a.offsets), *d_col = upload(a.columns);
    double *d_val = upload(a.values), *d_b = upload(b), *d_c;
    CHECK_CUDA(cudaMalloc(&d_c, count * rows * n * sizeof(double)));
    cusparseSpMatDescr_t ma;
    cusparseDnMatDescr_t mb, mc;
    cusparseCreateCsr(&ma, rows, k, a.nnz, d_off, d_col, d_val,
                      CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                      CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
    EXPECT_STATUS(cusparseCsrSetStridedBatch(ma, count, shared ? 0 : rows + 1,
                                             a.nnz),
                  CUSPARSE_STATUS_SUCCESS);
    cusparseCreateDnMat(&mb, k, n, k, d_b, CUDA_R_64F, CUSPARSE_ORDER_COL);
    cusparseCreateDnMat(&mc, rows, n, rows, d_c, CUDA_R_64F, CUSPARSE_ORDER_COL);
    cusparseDnMatSetStridedBatch(mb, count, k * n);
    cusparseDnMatSetStridedBatch(mc, count, rows * n);
    size_t bytes = 1;
    EXPECT_STATUS(cusparseSpMM_bufferSize(g_h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                          CUSPARSE_OPERATION_NON_TRANSPOSE,
                                          &one, ma, mb, &zero, mc, CUDA_R_64F,
                                          CUSPARSE_SPMM_CSR_ALG1, &bytes),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseSpMM(g_h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                               CUSPARSE_OPERATION_NON_TRANSPOSE, &one, ma, mb,
                               &zero, mc, CUDA_R_64F, CUSPARSE_SPMM_CSR_ALG1,
                               nullptr),
                  CUSPARSE_STATUS_SUCCESS);
    double err = batch_error(a.dense, count, rows, k, n, b, false,
                             download(d_c, count * rows * n));
    EXPECT(err < 1e-13, "batched CSR SpMM (%s offsets): error %g",
           shared ? "shared" : "own", err);
    /* SDDMM into the batch: C_i = (X_i Y_i) o spy(C_i), X rows x 2 and Y
     * 2 x k, row-major. */
    if (!shared) {
      std::vector<double> x(count * rows * 2), y(count * 2 * k);
      for (double &v : x)
        v = rnd();
      for (double &v : y)
        v = rnd();
      double *d_x = upload(x), *d_y = upload(y);
      cusparseDnMatDescr_t mx, my;
      cusparseCreateDnMat(&mx, rows, 2, 2, d_x, CUDA_R_64F, CUSPARSE_ORDER_ROW);
      cusparseCreateDnMat(&my, 2, k, k, d_y, CUDA_R_64F, CUSPARSE_ORDER_ROW);
      cusparseDnMatSetStridedBatch(mx, count, rows * 2);
      cusparseDnMatSetStridedBatch(my, count, 2 * k);
      EXPECT_STATUS(cusparseSDDMM(g_h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                  CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mx,
                                  my, &zero, ma, CUDA_R_64F,
                                  CUSPARSE_SDDMM_ALG_DEFAULT, nullptr),
                    CUSPARSE_STATUS_SUCCESS);
      std::vector<double> got = download(d_val, a.values.size());
      err = 0;
      for (int i = 0; i < count; ++i)
        for (int r = 0; r < rows; ++r)
          for (int q = a.offsets[i * (rows + 1) + r];
               q < a.offsets[i * (rows + 1) + r + 1]; ++q) {
            int c = a.columns[i * a.nnz + q];
            double want = x[(i * rows + r) * 2] * y[i * 2 * k + c] +
                          x[(i * rows + r) * 2 + 1] * y[i * 2 * k + k + c];
            err = worse(std::fabs(got[i * a.nnz + q] - want), err);
          }
      EXPECT(err < 1e-13, "batched SDDMM: error %g", err);
      cusparseDestroyDnMat(mx), cusparseDestroyDnMat(my);
      cudaFree(d_x), cudaFree(d_y);
    }
    /* A batch of 3 with a C of 2: refused. */
    cusparseDnMatSetStridedBatch(mc, 2, rows * n);
    EXPECT_STATUS(cusparseSpMM(g_h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                               CUSPARSE_OPERATION_NON_TRANSPOSE, &one, ma, mb,
                               &zero, mc, CUDA_R_64F, CUSPARSE_SPMM_CSR_ALG1,
                               nullptr),
                  CUSPARSE_STATUS_INVALID_VALUE);
    cusparseDestroySpMat(ma);
    cusparseDestroyDnMat(mb), cusparseDestroyDnMat(mc);
    cudaFree(d_off), cudaFree(d_col), cudaFree(d_val), cudaFree(d_b);
    cudaFree(d_c);
  }
  /* COO, one B for every batch. */
  csr_batch a = make_csr_batch(count, rows, k, false);
  std::vector<int> coo_rows;
  for (int i = 0; i < count; ++i)
    for (int r = 0; r < rows; ++r)
      for (int q = a.offsets[i * (rows + 1) + r];
           q < a.offsets[i * (rows + 1) + r + 1]; ++q)
        coo_rows.push_back(r);
  std::vector<double> b(k * n);
  for (double &v : b)
    v = rnd();
  int *d_row = upload(coo_rows), *d_col = upload(a.columns);
  double *d_val = upload(a.values), *d_b = upload(b), *d_c;
  CHECK_CUDA(cudaMalloc(&d_c, count * rows * n * sizeof(double)));
  cusparseSpMatDescr_t ma;
  cusparseDnMatDescr_t mb, mc;
  cusparseCreateCoo(&ma, rows, k, a.nnz, d_row, d_col, d_val,
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  EXPECT_STATUS(cusparseCooSetStridedBatch(ma, count, a.nnz),
                CUSPARSE_STATUS_SUCCESS);
  cusparseCreateDnMat(&mb, k, n, k, d_b, CUDA_R_64F, CUSPARSE_ORDER_COL);
  cusparseCreateDnMat(&mc, rows, n, rows, d_c, CUDA_R_64F, CUSPARSE_ORDER_COL);
  cusparseDnMatSetStridedBatch(mc, count, rows * n);
  EXPECT_STATUS(cusparseSpMM(g_h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                             CUSPARSE_OPERATION_NON_TRANSPOSE, &one, ma, mb,
                             &zero, mc, CUDA_R_64F, CUSPARSE_SPMM_COO_ALG4,
                             nullptr),
                CUSPARSE_STATUS_SUCCESS);
  double err = batch_error(a.dense, count, rows, k, n, b, true,
                           download(d_c, count * rows * n));
  EXPECT(err < 1e-13, "batched COO SpMM by one B: error %g", err);
  cusparseDestroySpMat(ma);
  cusparseDestroyDnMat(mb), cusparseDestroyDnMat(mc);
  cudaFree(d_row), cudaFree(d_col), cudaFree(d_val), cudaFree(d_b);
  cudaFree(d_c);
}

static void check_formats(void) {
  EXPECT_STATUS(cusparseCreate(&g_h), CUSPARSE_STATUS_SUCCESS);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  EXPECT_STATUS(cusparseSetStream(g_h, stream), CUSPARSE_STATUS_SUCCESS);
  check_csr2csc();
  check_sddmm(false);
  check_sddmm(true);
  check_gtsv();
  check_bsr(CUSPARSE_ORDER_ROW);
  check_bsr(CUSPARSE_ORDER_COL);
  check_blocked_ell();
  check_sliced_ell();
  check_rot();
  check_batches();
  check_coo(g_h);
  check_legacy(g_h);
  check_bsr_legacy(g_h);
  check_interleaved(g_h);
  cusparseDestroy(g_h);
  cudaStreamDestroy(stream);
}

#endif /* SPARSE_FORMATS_H */
