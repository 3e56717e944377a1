/* sparse_bsr_legacy.h: the legacy API of the BSR format, as older programs
 * use it, against host references: a 10 x 7 CSR matrix (base 1) turned
 * into 3 x 3 blocks (base 0, the last block row and column padded) by
 * cusparseXcsr2bsrNnz (its count into host memory) and cusparseDcsr2bsr,
 * in both block directions; then cusparseDbsrmv (y = alpha A x + beta y),
 * cusparseDbsrmm with B and with B transposed, and cusparseDbsr2csr back
 * to CSR (every element of every block). check_bsr_legacy() is run by
 * check_formats() of sparse_formats.h, which includes this header after
 * its upload() and download(). */
#ifndef SPARSE_BSR_LEGACY_H
#define SPARSE_BSR_LEGACY_H
#include <cmath>
#include <vector>

#include <cusparse.h>

#include "../cudalibs/check_libs.h"

/* The conversions and bsrmm, which CUDA 13's header marks as deprecated. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static void check_bsr_direction(cusparseHandle_t h, cusparseDirection_t dir) {
  const int m = 10, n = 7, bs = 3, mb = 4, nb = 3;
  /* A's pattern and values (base 1), and its dense image padded to
   * mb x nb blocks (row-major). */
  std::vector<int> rows(1, 1), cols;
  std::vector<double> vals, dense((size_t)mb * bs * nb * bs, 0.0);
  unsigned s = 99u + (unsigned)dir;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      s = s * 1664525u + 1013904223u;
      if ((s >> 24) % 3 == 0) {
        double v = (double)((s >> 8) % 61) / 8.0 - 3.5;
        cols.push_back(j + 1), vals.push_back(v);
        dense[(size_t)i * nb * bs + j] = v;
      }
    }
    rows.push_back((int)cols.size() + 1);
  }
  cusparseMatDescr_t da, db;
  EXPECT_STATUS(cusparseCreateMatDescr(&da), CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseCreateMatDescr(&db), CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseSetMatIndexBase(da, CUSPARSE_INDEX_BASE_ONE),
                CUSPARSE_STATUS_SUCCESS);
  int *d_rows = upload(rows), *d_cols = upload(cols), *d_brows;
  double *d_vals = upload(vals);
  CHECK_CUDA(cudaMalloc(&d_brows, (mb + 1) * sizeof(int)));
  int nnzb = -1;
  EXPECT_STATUS(cusparseXcsr2bsrNnz(h, dir, m, n, da, d_rows, d_cols, bs, db,
                                    d_brows, &nnzb),
                CUSPARSE_STATUS_SUCCESS);
  /* The blocks that hold a stored element (a zero too), on the host. */
  std::vector<int> held((size_t)mb * nb, 0);
  for (int i = 0; i < m; ++i)
    for (int p = rows[i] - 1; p < rows[i + 1] - 1; ++p)
      held[(size_t)(i / bs) * nb + (cols[p] - 1) / bs] = 1;
  int expect = 0;
  for (int v : held)
    expect += v;
  if (nnzb != expect) {
    std::printf("csr2bsrNnz: %d blocks, expected %d\n", nnzb, expect);
    ++g_failures;
    return;
  }
  int *d_bcols;
  double *d_bvals;
  CHECK_CUDA(cudaMalloc(&d_bcols, nnzb * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_bvals, (size_t)nnzb * bs * bs * sizeof(double)));
  EXPECT_STATUS(cusparseDcsr2bsr(h, dir, m, n, da, d_vals, d_rows, d_cols, bs,
                                 db, d_bvals, d_brows, d_bcols),
                CUSPARSE_STATUS_SUCCESS);

  /* y = 2 A x - y. */
  std::vector<double> x(nb * bs), y(mb * bs);
  for (size_t k = 0; k < x.size(); ++k)
    x[k] = 0.5 * (double)k - 2.0;
  for (size_t k = 0; k < y.size(); ++k)
    y[k] = 1.0 + (double)k;
  double *d_x = upload(x), *d_y = upload(y);
  const double two = 2.0, minus = -1.0;
  EXPECT_STATUS(cusparseDbsrmv(h, dir, CUSPARSE_OPERATION_NON_TRANSPOSE, mb, nb,
                               nnzb, &two, db, d_bvals, d_brows, d_bcols, bs,
                               d_x, &minus, d_y),
                CUSPARSE_STATUS_SUCCESS);
  std::vector<double> got = download(d_y, y.size());
  double err = 0;
  for (int i = 0; i < mb * bs; ++i) {
    double sum = 0;
    for (int j = 0; j < nb * bs; ++j)
      sum += dense[(size_t)i * nb * bs + j] * x[j];
    err = std::fmax(err, std::fabs(got[i] - (2 * sum - y[i])));
  }

  /* C = A op(B) with B k x 2 (ldb 10), then as B^T 2 x k (ldb 4). */
  const int k = nb * bs, cn = 2, ldc = mb * bs + 1;
  for (int t = 0; t < 2; ++t) {
    const int ldb = t ? 4 : 10;
    std::vector<double> b((size_t)ldb * (t ? k : cn), 0.0);
    auto at = [&](int r, int c) -> double & {
      return t ? b[(size_t)r * ldb + c] : b[(size_t)c * ldb + r];
    };
    for (int r = 0; r < k; ++r)
      for (int c = 0; c < cn; ++c)
        at(r, c) = 0.25 * (double)(r * cn + c) - 1.0;
    std::vector<double> c0((size_t)ldc * cn, 0.0);
    double *d_b = upload(b), *d_c = upload(c0);
    const double one = 1.0, zero = 0.0;
    EXPECT_STATUS(cusparseDbsrmm(h, dir, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                 t ? CUSPARSE_OPERATION_TRANSPOSE
                                   : CUSPARSE_OPERATION_NON_TRANSPOSE,
                                 mb, cn, nb, nnzb, &one, db, d_bvals, d_brows,
                                 d_bcols, bs, d_b, ldb, &zero, d_c, ldc),
                  CUSPARSE_STATUS_SUCCESS);
    std::vector<double> c = download(d_c, c0.size());
    for (int i = 0; i < mb * bs; ++i)
      for (int j = 0; j < cn; ++j) {
        double sum = 0;
        for (int l = 0; l < k; ++l)
          sum += dense[(size_t)i * nb * bs + l] * at(l, j);
        err = std::fmax(err, std::fabs(c[(size_t)j * ldc + i] - sum));
      }
    cudaFree(d_b), cudaFree(d_c);
  }

  /* Back to CSR (base 1): every element of every block. */
  const int full = nnzb * bs * bs;
  int *d_crows, *d_ccols;
  double *d_cvals;
  CHECK_CUDA(cudaMalloc(&d_crows, (mb * bs + 1) * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_ccols, full * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_cvals, full * sizeof(double)));
  EXPECT_STATUS(cusparseDbsr2csr(h, dir, mb, nb, db, d_bvals, d_brows, d_bcols,
                                 bs, da, d_cvals, d_crows, d_ccols),
                CUSPARSE_STATUS_SUCCESS);
  std::vector<int> cr = download(d_crows, mb * bs + 1),
                   cc = download(d_ccols, full);
  std::vector<double> cv = download(d_cvals, full);
  std::vector<double> back(dense.size(), 0.0);
  int bad = cr[0] != 1 || cr[mb * bs] != full + 1;
  for (int i = 0; i < mb * bs && !bad; ++i)
    for (int p = cr[i] - 1; p < cr[i + 1] - 1; ++p) {
      bad |= p > cr[i] - 1 && cc[p] <= cc[p - 1];
      back[(size_t)i * nb * bs + cc[p] - 1] = cv[p];
    }
  if (bad || back != dense || !(err < 1e-12)) {
    std::printf("BSR legacy (direction %d): error %g, CSR back %s\n", (int)dir,
                err, bad ? "malformed" : back != dense ? "differs" : "same");
    ++g_failures;
  }
  cusparseDestroyMatDescr(da);
  cusparseDestroyMatDescr(db);
  cudaFree(d_rows), cudaFree(d_cols), cudaFree(d_vals), cudaFree(d_brows);
  cudaFree(d_bcols), cudaFree(d_bvals), cudaFree(d_x), cudaFree(d_y);
  cudaFree(d_crows), cudaFree(d_ccols), cudaFree(d_cvals);
}
#pragma GCC diagnostic pop

static void check_bsr_legacy(cusparseHandle_t h) {
  EXPECT_STATUS(cusparseSetPointerMode(h, CUSPARSE_POINTER_MODE_HOST),
                CUSPARSE_STATUS_SUCCESS);
  check_bsr_direction(h, CUSPARSE_DIRECTION_ROW);
  check_bsr_direction(h, CUSPARSE_DIRECTION_COLUMN);
}

#endif /* SPARSE_BSR_LEGACY_H */
