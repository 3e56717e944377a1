/* sparse_legacy.h: cuSPARSE's legacy calls that programs written for older
 * toolkits still make, each against a host reference:
 * - the sum of two CSR matrices as cuSPARSE's documentation does it:
 *   cusparseXcsrgeam2Nnz (C's row offsets and count, into host memory, then
 *   into device memory), cusparse?csrgeam2_bufferSizeExt and
 *   cusparse?csrgeam2, in double (A base 0, B base 1, C base 0) and in
 *   cuComplex (base 1, alpha and beta in device memory); C's pattern is the
 *   union of A's and B's, its columns sorted;
 * - cusparse?nnz: the non-zeros of a dense matrix (lda > m) per row and per
 *   column, and their total;
 * - cusparse?gemvi (+_bufferSize): a dense matrix times a sparse vector,
 *   op N and T, base 1, beta 0 over a y holding NaN;
 * - cusparse?nnz_compress and csr2csr_compress: small values dropped, in
 *   float and in cuDoubleComplex (by modulus, tol's real part).
 * check_legacy() is run by check_formats() of sparse_formats.h, which
 * includes this header after its upload() and download(). */
#ifndef SPARSE_LEGACY_H
#define SPARSE_LEGACY_H
#include <cmath>
#include <complex>
#include <vector>

#include <cuComplex.h>
#include <cusparse.h>

#include "../cudalibs/check_libs.h"

/* A random m x n pattern (about half full) with values, in `base`. */
template <class T>
static void legacy_csr(int m, int n, int base, unsigned seed,
                       std::vector<int> &rows, std::vector<int> &cols,
                       std::vector<T> &vals) {
  rows.assign(1, base);
  cols.clear();
  vals.clear();
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      seed = seed * 1103515245u + 12345u;
      if ((seed >> 16) % 2) {
        cols.push_back(j + base);
        vals.push_back(T((double)((seed >> 8) % 97) / 16.0 - 3.0));
      }
    }
    rows.push_back((int)cols.size() + base);
  }
}

/* The dense m x n matrix (row-major) of a CSR matrix. */
template <class T>
static std::vector<T> legacy_dense(int m, int n, int base,
                                   const std::vector<int> &rows,
                                   const std::vector<int> &cols,
                                   const std::vector<T> &vals) {
  std::vector<T> d((size_t)m * n, T(0));
  for (int i = 0; i < m; ++i)
    for (int k = rows[i] - base; k < rows[i + 1] - base; ++k)
      d[(size_t)i * n + cols[k] - base] += vals[k];
  return d;
}

/* C = alpha A + beta B in double: C's count through a host pointer. */
static void check_geam_double(cusparseHandle_t h) {
  const int m = 9, n = 11;
  std::vector<int> ra, ca, rb, cb;
  std::vector<double> va, vb;
  legacy_csr(m, n, 0, 11u, ra, ca, va);
  legacy_csr(m, n, 1, 29u, rb, cb, vb);
  cusparseMatDescr_t da, db, dc;
  EXPECT_STATUS(cusparseCreateMatDescr(&da), CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseCreateMatDescr(&db), CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseCreateMatDescr(&dc), CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseSetMatIndexBase(db, CUSPARSE_INDEX_BASE_ONE),
                CUSPARSE_STATUS_SUCCESS);
  int *d_ra = upload(ra), *d_ca = upload(ca),
      *d_rb = upload(rb), *d_cb = upload(cb), *d_rc;
  double *d_va = upload(va), *d_vb = upload(vb);
  CHECK_CUDA(cudaMalloc(&d_rc, (m + 1) * sizeof(int)));
  const double alpha = 2.0, beta = -0.5;
  const int nnz_a = (int)ca.size(), nnz_b = (int)cb.size();
  size_t size = 0;
  EXPECT_STATUS(cusparseDcsrgeam2_bufferSizeExt(
                    h, m, n, &alpha, da, nnz_a, d_va, d_ra, d_ca, &beta, db,
                    nnz_b, d_vb, d_rb, d_cb, dc, nullptr, d_rc, nullptr, &size),
                CUSPARSE_STATUS_SUCCESS);
  void *buffer;
  CHECK_CUDA(cudaMalloc(&buffer, size));
  EXPECT_STATUS(cusparseSetPointerMode(h, CUSPARSE_POINTER_MODE_HOST),
                CUSPARSE_STATUS_SUCCESS);
  int nnz_c = -1;
  EXPECT_STATUS(cusparseXcsrgeam2Nnz(h, m, n, da, nnz_a, d_ra, d_ca, db, nnz_b,
                                     d_rb, d_cb, dc, d_rc, &nnz_c, buffer),
                CUSPARSE_STATUS_SUCCESS);
  /* The union of the patterns, counted on the host. */
  std::vector<double> a = legacy_dense(m, n, 0, ra, ca, va),
                      b = legacy_dense(m, n, 1, rb, cb, vb);
  std::vector<int> mark((size_t)m * n, 0);
  for (int i = 0; i < m; ++i) {
    for (int k = ra[i]; k < ra[i + 1]; ++k)
      mark[(size_t)i * n + ca[k]] = 1;
    for (int k = rb[i] - 1; k < rb[i + 1] - 1; ++k)
      mark[(size_t)i * n + cb[k] - 1] = 1;
  }
  int expect = 0;
  for (int v : mark)
    expect += v;
  if (nnz_c != expect) {
    std::printf("csrgeam2Nnz: %d non-zeros, expected %d\n", nnz_c, expect);
    ++g_failures;
    return;
  }
  int *d_cc;
  double *d_vc;
  CHECK_CUDA(cudaMalloc(&d_cc, nnz_c * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_vc, nnz_c * sizeof(double)));
  EXPECT_STATUS(cusparseDcsrgeam2(h, m, n, &alpha, da, nnz_a, d_va, d_ra, d_ca,
                                  &beta, db, nnz_b, d_vb, d_rb, d_cb, dc, d_vc,
                                  d_rc, d_cc, buffer),
                CUSPARSE_STATUS_SUCCESS);
  std::vector<int> rc = download(d_rc, m + 1),
                   cc = download(d_cc, nnz_c);
  std::vector<double> vc = download(d_vc, nnz_c);
  int bad = rc[0] != 0 || rc[m] != nnz_c;
  for (int i = 0; i < m && !bad; ++i)
    for (int k = rc[i]; k < rc[i + 1]; ++k) {
      double want = alpha * a[(size_t)i * n + cc[k]] +
                    beta * b[(size_t)i * n + cc[k]];
      bad |= !mark[(size_t)i * n + cc[k]] ||
             (k > rc[i] && cc[k] <= cc[k - 1]) || std::fabs(vc[k] - want) > 1e-12;
    }
  if (bad) {
    std::printf("csrgeam2 (double): C differs from alpha A + beta B\n");
    ++g_failures;
  }
  cusparseDestroyMatDescr(da);
  cusparseDestroyMatDescr(db);
  cusparseDestroyMatDescr(dc);
  cudaFree(d_ra), cudaFree(d_ca), cudaFree(d_rb), cudaFree(d_cb);
  cudaFree(d_rc), cudaFree(d_cc), cudaFree(d_va), cudaFree(d_vb);
  cudaFree(d_vc), cudaFree(buffer);
}

/* The same in cuComplex, base 1 everywhere, with the count and the
 * scalars in device memory. */
static void check_geam_complex(cusparseHandle_t h) {
  const int m = 6, n = 5;
  typedef std::complex<float> cf;
  std::vector<int> ra, ca, rb, cb;
  std::vector<cf> va, vb;
  legacy_csr(m, n, 1, 5u, ra, ca, va);
  legacy_csr(m, n, 1, 8u, rb, cb, vb);
  for (size_t k = 0; k < vb.size(); ++k)
    vb[k] = cf(vb[k].real(), 0.25f * (float)k);
  cusparseMatDescr_t d;
  EXPECT_STATUS(cusparseCreateMatDescr(&d), CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseSetMatIndexBase(d, CUSPARSE_INDEX_BASE_ONE),
                CUSPARSE_STATUS_SUCCESS);
  const cuComplex scalars[2] = {make_cuComplex(1.0f, 1.0f),
                                make_cuComplex(0.0f, -2.0f)};
  cuComplex *d_scalars = upload(std::vector<cuComplex>(scalars, scalars + 2));
  int *d_ra = upload(ra), *d_ca = upload(ca),
      *d_rb = upload(rb), *d_cb = upload(cb), *d_rc, *d_total;
  cuComplex *d_va = (cuComplex *)upload(va),
            *d_vb = (cuComplex *)upload(vb);
  CHECK_CUDA(cudaMalloc(&d_rc, (m + 1) * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_total, sizeof(int)));
  EXPECT_STATUS(cusparseSetPointerMode(h, CUSPARSE_POINTER_MODE_DEVICE),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseXcsrgeam2Nnz(h, m, n, d, (int)ca.size(), d_ra, d_ca, d,
                                     (int)cb.size(), d_rb, d_cb, d, d_rc,
                                     d_total, nullptr),
                CUSPARSE_STATUS_SUCCESS);
  int nnz_c = 0;
  CHECK_CUDA(cudaMemcpy(&nnz_c, d_total, sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> rc = download(d_rc, m + 1);
  if (rc[m] - rc[0] != nnz_c || rc[0] != 1) {
    std::printf("csrgeam2Nnz (device count): %d, offsets %d..%d\n", nnz_c,
                rc[0], rc[m]);
    ++g_failures;
    return;
  }
  int *d_cc;
  cuComplex *d_vc;
  CHECK_CUDA(cudaMalloc(&d_cc, nnz_c * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_vc, nnz_c * sizeof(cuComplex)));
  EXPECT_STATUS(cusparseCcsrgeam2(h, m, n, d_scalars, d, (int)ca.size(), d_va,
                                  d_ra, d_ca, d_scalars + 1, d, (int)cb.size(),
                                  d_vb, d_rb, d_cb, d, d_vc, d_rc, d_cc,
                                  nullptr),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseSetPointerMode(h, CUSPARSE_POINTER_MODE_HOST),
                CUSPARSE_STATUS_SUCCESS);
  std::vector<cf> a = legacy_dense(m, n, 1, ra, ca, va),
                  b = legacy_dense(m, n, 1, rb, cb, vb);
  std::vector<int> cc = download(d_cc, nnz_c);
  std::vector<cuComplex> vc = download(d_vc, nnz_c);
  std::vector<cf> sum((size_t)m * n, cf(0));
  const cf alpha(1.0f, 1.0f), beta(0.0f, -2.0f);
  double err = 0;
  for (int i = 0; i < m; ++i)
    for (int k = rc[i] - 1; k < rc[i + 1] - 1; ++k)
      sum[(size_t)i * n + cc[k] - 1] = cf(vc[k].x, vc[k].y);
  for (size_t k = 0; k < sum.size(); ++k)
    err = std::fmax(err, std::abs(sum[k] - (alpha * a[k] + beta * b[k])));
  if (!(err < 1e-5)) {
    std::printf("csrgeam2 (cuComplex): error %g\n", err);
    ++g_failures;
  }
  cusparseDestroyMatDescr(d);
  cudaFree(d_ra), cudaFree(d_ca), cudaFree(d_rb), cudaFree(d_cb);
  cudaFree(d_rc), cudaFree(d_cc), cudaFree(d_va), cudaFree(d_vb);
  cudaFree(d_vc), cudaFree(d_total), cudaFree(d_scalars);
}

/* nnz per row and per column of a 5 x 4 column-major matrix (lda 7). */
static void check_nnz(cusparseHandle_t h) {
  const int m = 5, n = 4, lda = 7;
  std::vector<float> a((size_t)lda * n, 9.0f);
  std::vector<int> rows(m, 0), cols(n, 0);
  int total = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      float v = (i + 2 * j) % 3 == 0 ? 0.0f : (float)(i - j);
      a[(size_t)j * lda + i] = v;
      if (v != 0)
        ++rows[i], ++cols[j], ++total;
    }
  float *d_a = upload(a);
  int *d_counts;
  CHECK_CUDA(cudaMalloc(&d_counts, 8 * sizeof(int)));
  cusparseMatDescr_t d;
  EXPECT_STATUS(cusparseCreateMatDescr(&d), CUSPARSE_STATUS_SUCCESS);
  for (int dir = 0; dir < 2; ++dir) {
    int got_total = -1;
    EXPECT_STATUS(cusparseSnnz(h, dir ? CUSPARSE_DIRECTION_COLUMN
                                      : CUSPARSE_DIRECTION_ROW,
                               m, n, d, d_a, lda, d_counts, &got_total),
                  CUSPARSE_STATUS_SUCCESS);
    std::vector<int> got = download(d_counts, dir ? n : m);
    if (got != (dir ? cols : rows) || got_total != total) {
      std::printf("nnz per %s: total %d, expected %d\n",
                  dir ? "column" : "row", got_total, total);
      ++g_failures;
    }
  }
  cusparseDestroyMatDescr(d);
  cudaFree(d_a);
  cudaFree(d_counts);
}

/* y = alpha op(A) x + beta y, A 6 x 4 (lda 8), x sparse in base 1 (gemvi,
 * which CUDA 13's header marks as deprecated). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static void check_gemvi(cusparseHandle_t h) {
  const int m = 6, n = 4, lda = 8;
  std::vector<double> a((size_t)lda * n);
  for (size_t k = 0; k < a.size(); ++k)
    a[k] = 0.5 * (double)(k % 7) - 1.0;
  double *d_a = upload(a);
  for (int t = 0; t < 2; ++t) {
    const cusparseOperation_t op =
        t ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
    const int len = t ? m : n, rows = t ? n : m;
    std::vector<int> index = {1, len};
    if (len > 2)
      index.insert(index.begin() + 1, 3);
    std::vector<double> values = {2.0, -1.5, 0.75};
    values.resize(index.size());
    std::vector<double> y(rows, t ? NAN : 1.0);
    int *d_index = upload(index);
    double *d_values = upload(values), *d_y = upload(y);
    int size = -1;
    EXPECT_STATUS(cusparseDgemvi_bufferSize(h, op, m, n, (int)index.size(),
                                            &size),
                  CUSPARSE_STATUS_SUCCESS);
    void *buffer;
    CHECK_CUDA(cudaMalloc(&buffer, size > 0 ? size : 1));
    const double alpha = 1.5, beta = t ? 0.0 : -2.0;
    EXPECT_STATUS(cusparseDgemvi(h, op, m, n, &alpha, d_a, lda,
                                 (int)index.size(), d_values, d_index, &beta,
                                 d_y, CUSPARSE_INDEX_BASE_ONE, buffer),
                  CUSPARSE_STATUS_SUCCESS);
    std::vector<double> got = download(d_y, rows);
    double err = 0;
    for (int r = 0; r < rows; ++r) {
      double s = 0;
      for (size_t k = 0; k < index.size(); ++k) {
        int c = index[k] - 1;
        s += (t ? a[(size_t)r * lda + c] : a[(size_t)c * lda + r]) * values[k];
      }
      double want = alpha * s + (t ? 0.0 : beta * y[r]);
      err = std::fmax(err, std::fabs(got[r] - want));
      if (got[r] != got[r])
        err = INFINITY;
    }
    if (!(err < 1e-12)) {
      std::printf("gemvi (op %d): error %g\n", t, err);
      ++g_failures;
    }
    cudaFree(d_index), cudaFree(d_values), cudaFree(d_y), cudaFree(buffer);
  }
  cudaFree(d_a);
}
#pragma GCC diagnostic pop

/* Dropping small values: nnz_compress counts the elements whose modulus
 * is above tol, csr2csr_compress copies them (float, base 1; and
 * cuDoubleComplex, base 0, whose tol is its real part and whose elements
 * are kept by modulus). */
template <class T, class Host>
static void check_compress_one(cusparseHandle_t h, int base, T tol,
                               double tol_re) {
  const int m = 6, n = 8;
  std::vector<int> rows, cols;
  std::vector<Host> vals;
  legacy_csr(m, n, base, 13u, rows, cols, vals);
  for (size_t k = 0; k < vals.size(); ++k) {
    vals[k] = Host(0.125 * (double)(k % 9)) * (k % 2 ? Host(1) : Host(-1));
    /* Complex elements whose real part alone is below tol but whose
     * modulus is not. */
    if constexpr (sizeof(Host) > sizeof(float))
      vals[k] += Host(0.0, 0.5 * (double)(k % 3 == 0));
  }
  cusparseMatDescr_t d;
  EXPECT_STATUS(cusparseCreateMatDescr(&d), CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseSetMatIndexBase(d, (cusparseIndexBase_t)base),
                CUSPARSE_STATUS_SUCCESS);
  int *d_rows = upload(rows), *d_cols = upload(cols), *d_per_row, *d_crows;
  T *d_vals = (T *)upload(vals);
  CHECK_CUDA(cudaMalloc(&d_per_row, m * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_crows, (m + 1) * sizeof(int)));
  int total = -1;
  cusparseStatus_t s1, s2 = CUSPARSE_STATUS_SUCCESS;
  if constexpr (sizeof(T) == sizeof(float))
    s1 = cusparseSnnz_compress(h, m, d, (const float *)d_vals, d_rows,
                               d_per_row, &total, tol);
  else
    s1 = cusparseZnnz_compress(h, m, d, (const cuDoubleComplex *)d_vals,
                               d_rows, d_per_row, &total, tol);
  EXPECT_STATUS(s1, CUSPARSE_STATUS_SUCCESS);
  std::vector<int> want_rows(1, base), want_cols;
  std::vector<Host> want_vals;
  for (int i = 0; i < m; ++i) {
    for (int k = rows[i] - base; k < rows[i + 1] - base; ++k)
      if (std::abs(vals[k]) > tol_re)
        want_cols.push_back(cols[k]), want_vals.push_back(vals[k]);
    want_rows.push_back((int)want_cols.size() + base);
  }
  if (total != (int)want_cols.size()) {
    std::printf("nnz_compress: %d kept, expected %zu\n", total,
                want_cols.size());
    ++g_failures;
    return;
  }
  int *d_ccols;
  T *d_cvals;
  CHECK_CUDA(cudaMalloc(&d_ccols, total * sizeof(int) + 4));
  CHECK_CUDA(cudaMalloc(&d_cvals, total * sizeof(T) + 8));
  if constexpr (sizeof(T) == sizeof(float))
    s2 = cusparseScsr2csr_compress(h, m, n, d, (const float *)d_vals, d_cols,
                                   d_rows, (int)cols.size(), d_per_row,
                                   (float *)d_cvals, d_ccols, d_crows, tol);
  else
    s2 = cusparseZcsr2csr_compress(
        h, m, n, d, (const cuDoubleComplex *)d_vals, d_cols, d_rows,
        (int)cols.size(), d_per_row, (cuDoubleComplex *)d_cvals, d_ccols,
        d_crows, tol);
  EXPECT_STATUS(s2, CUSPARSE_STATUS_SUCCESS);
  std::vector<int> got_rows = download(d_crows, m + 1),
                   got_cols = download(d_ccols, total);
  std::vector<Host> got_vals = download((Host *)d_cvals, total);
  if (got_rows != want_rows || got_cols != want_cols || got_vals != want_vals) {
    std::printf("csr2csr_compress (base %d): C differs\n", base);
    ++g_failures;
  }
  cusparseDestroyMatDescr(d);
  cudaFree(d_rows), cudaFree(d_cols), cudaFree(d_vals), cudaFree(d_per_row);
  cudaFree(d_crows), cudaFree(d_ccols), cudaFree(d_cvals);
}

static void check_compress(cusparseHandle_t h) {
  EXPECT_STATUS(cusparseSetPointerMode(h, CUSPARSE_POINTER_MODE_HOST),
                CUSPARSE_STATUS_SUCCESS);
  check_compress_one<float, float>(h, 1, 0.3f, 0.3);
  /* tol's imaginary part is not read (cuSPARSE's documentation). */
  check_compress_one<cuDoubleComplex, std::complex<double>>(
      h, 0, make_cuDoubleComplex(0.4, 5.0), 0.4);
}

static void check_legacy(cusparseHandle_t h) {
  check_compress(h);
  check_geam_double(h);
  check_geam_complex(h);
  check_nnz(h);
  check_gemvi(h);
}

#endif /* SPARSE_LEGACY_H */
