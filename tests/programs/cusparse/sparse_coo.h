/* sparse_coo.h: a CSR matrix built from coordinates the way cuSPARSE's
 * documentation builds one: unsorted COO triplets (one-based and
 * zero-based) sorted by cusparseXcoosortByRow with a permutation from
 * cusparseCreateIdentityPermutation (with cusparseXcoosort_bufferSizeExt),
 * the values gathered through it (cusparseGather), the row offsets made by
 * cusparseXcoo2csr and back by cusparseXcsr2coo, then an SpMV against a
 * host product; cusparseXcoosortByColumn; cusparseXcsrsort and
 * cusparseXcscsort on rows (columns) whose indices a kernel shuffled, with
 * their permutations. check_formats() (sparse_formats.h) runs it. */
#ifndef SPARSE_COO_H
#define SPARSE_COO_H
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <cusparse.h>

#include "../cudalibs/check_libs.h"

/* Reverses the indices (and the values) of each row of a CSR matrix. */
__global__ void reverse_rows(const int *offsets, int *cols, int m, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m)
    return;
  int from = offsets[i] - base, to = offsets[i + 1] - base - 1;
  while (from < to) {
    int t = cols[from];
    cols[from++] = cols[to];
    cols[to--] = t;
  }
}

struct coo_triplet {
  int row, col;
  double value;
};

static std::vector<int> download_ints(const int *d, size_t n) {
  std::vector<int> v(n);
  CHECK_CUDA(cudaMemcpy(v.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  return v;
}

static int *upload_ints(const std::vector<int> &v) {
  int *d;
  CHECK_CUDA(cudaMalloc(&d, v.size() * sizeof(int) + 4));
  CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(int),
                        cudaMemcpyHostToDevice));
  return d;
}

/* cusparseCreateIdentityPermutation, which CUDA 13's header marks as
 * deprecated (as the coosort family's documentation still uses it). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static cusparseStatus_t identity(cusparseHandle_t h, int n, int *p) {
  return cusparseCreateIdentityPermutation(h, n, p);
}
#pragma GCC diagnostic pop

/* Builds the CSR matrix of m x n random triplets (base 0 or 1) and
 * multiplies it by a vector. */
static void check_coo_to_csr(cusparseHandle_t h, int base) {
  const int m = 37, n = 29, nnz = 160;
  std::vector<coo_triplet> t;
  unsigned s = 77u + base;
  for (int k = 0; k < nnz; ++k) {
    s = s * 1664525u + 1013904223u;
    int row = (s >> 8) % m, col = (s >> 20) % n;
    bool seen = false;
    for (const coo_triplet &e : t)
      seen |= e.row == row && e.col == col;
    if (!seen)
      t.push_back({row, col, 1.0 + k * 0.25});
  }
  const int count = (int)t.size();
  std::vector<int> rows(count), cols(count);
  std::vector<double> vals(count), x(n);
  for (int k = 0; k < count; ++k) {
    rows[k] = t[k].row + base;
    cols[k] = t[k].col + base;
    vals[k] = t[k].value;
  }
  for (int j = 0; j < n; ++j)
    x[j] = 0.5 * j - 3.0;
  int *d_rows = upload_ints(rows), *d_cols = upload_ints(cols), *d_perm,
      *d_offsets, *d_back;
  double *d_vals, *d_sorted, *d_x, *d_y;
  CHECK_CUDA(cudaMalloc(&d_vals, count * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&d_sorted, count * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&d_perm, count * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_offsets, (m + 1) * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_back, count * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_x, n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&d_y, m * sizeof(double)));
  CHECK_CUDA(cudaMemcpy(d_vals, vals.data(), count * sizeof(double),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_x, x.data(), n * sizeof(double),
                        cudaMemcpyHostToDevice));

  size_t size = 1;
  EXPECT_STATUS(cusparseXcoosort_bufferSizeExt(h, m, n, count, d_rows, d_cols,
                                               &size),
                CUSPARSE_STATUS_SUCCESS);
  void *buffer = nullptr;
  CHECK_CUDA(cudaMalloc(&buffer, size + 1));
  EXPECT_STATUS(identity(h, count, d_perm),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseXcoosortByRow(h, m, n, count, d_rows, d_cols, d_perm,
                                      buffer),
                CUSPARSE_STATUS_SUCCESS);
  cusparseSpVecDescr_t permuted;
  cusparseDnVecDescr_t values;
  EXPECT_STATUS(cusparseCreateSpVec(&permuted, count, count, d_perm, d_sorted,
                                    CUSPARSE_INDEX_32I,
                                    CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseCreateDnVec(&values, count, d_vals, CUDA_R_64F),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseGather(h, values, permuted), CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseXcoo2csr(h, d_rows, count, m, d_offsets,
                                 (cusparseIndexBase_t)base),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseXcsr2coo(h, d_offsets, count, m, d_back,
                                 (cusparseIndexBase_t)base),
                CUSPARSE_STATUS_SUCCESS);

  /* The host's sort by (row, column). */
  std::vector<coo_triplet> sorted = t;
  std::sort(sorted.begin(), sorted.end(),
            [](const coo_triplet &a, const coo_triplet &b) {
              return a.row != b.row ? a.row < b.row : a.col < b.col;
            });
  std::vector<int> got_rows = download_ints(d_rows, count),
                   got_cols = download_ints(d_cols, count),
                   got_perm = download_ints(d_perm, count),
                   got_offsets = download_ints(d_offsets, m + 1),
                   got_back = download_ints(d_back, count);
  std::vector<double> got_vals(count);
  CHECK_CUDA(cudaMemcpy(got_vals.data(), d_sorted, count * sizeof(double),
                        cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int k = 0; k < count; ++k) {
    wrong += got_rows[k] != sorted[k].row + base ||
             got_cols[k] != sorted[k].col + base ||
             got_vals[k] != sorted[k].value ||
             got_vals[k] != vals[got_perm[k]] || got_back[k] != got_rows[k];
  }
  int at = 0;
  for (int i = 0; i <= m; ++i) {
    wrong += got_offsets[i] != at + base;
    while (at < count && sorted[at].row == i)
      ++at;
  }
  EXPECT(wrong == 0, "base %d: %d elements or offsets wrong", base, wrong);

  /* y = A x through the CSR matrix. */
  cusparseSpMatDescr_t a;
  cusparseDnVecDescr_t vx, vy;
  EXPECT_STATUS(cusparseCreateCsr(&a, m, n, count, d_offsets, d_cols, d_sorted,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                  (cusparseIndexBase_t)base, CUDA_R_64F),
                CUSPARSE_STATUS_SUCCESS);
  cusparseCreateDnVec(&vx, n, d_x, CUDA_R_64F);
  cusparseCreateDnVec(&vy, m, d_y, CUDA_R_64F);
  double alpha = 1.0, beta = 0.0;
  size_t spmv_size = 0;
  EXPECT_STATUS(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                        &alpha, a, vx, &beta, vy, CUDA_R_64F,
                                        CUSPARSE_SPMV_ALG_DEFAULT, &spmv_size),
                CUSPARSE_STATUS_SUCCESS);
  void *spmv_buffer = nullptr;
  CHECK_CUDA(cudaMalloc(&spmv_buffer, spmv_size + 1));
  EXPECT_STATUS(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a,
                             vx, &beta, vy, CUDA_R_64F,
                             CUSPARSE_SPMV_ALG_DEFAULT, spmv_buffer),
                CUSPARSE_STATUS_SUCCESS);
  std::vector<double> y(m), want(m, 0.0);
  CHECK_CUDA(cudaMemcpy(y.data(), d_y, m * sizeof(double),
                        cudaMemcpyDeviceToHost));
  for (const coo_triplet &e : t)
    want[e.row] += e.value * x[e.col];
  double err = 0;
  for (int i = 0; i < m; ++i)
    err = std::max(err, std::fabs(y[i] - want[i]));
  EXPECT(err < 1e-12, "base %d: SpMV of the built CSR: error %g", base, err);

  /* By column: the columns ascending, each column's rows ascending. */
  EXPECT_STATUS(cusparseXcoosortByColumn(h, m, n, count, d_rows, d_cols,
                                         nullptr, buffer),
                CUSPARSE_STATUS_SUCCESS);
  got_rows = download_ints(d_rows, count);
  got_cols = download_ints(d_cols, count);
  wrong = 0;
  for (int k = 1; k < count; ++k)
    wrong += got_cols[k - 1] > got_cols[k] ||
             (got_cols[k - 1] == got_cols[k] && got_rows[k - 1] >= got_rows[k]);
  EXPECT(wrong == 0, "base %d: coosortByColumn: %d out of order", base, wrong);

  /* csrsort: each row's columns reversed by a kernel, sorted back, the
   * permutation saying where each came from. */
  cusparseMatDescr_t descr;
  cusparseCreateMatDescr(&descr);
  cusparseSetMatIndexBase(descr, (cusparseIndexBase_t)base);
  std::vector<int> csr_cols(count);
  for (int k = 0; k < count; ++k)
    csr_cols[k] = sorted[k].col + base;
  CHECK_CUDA(cudaMemcpy(d_cols, csr_cols.data(), count * sizeof(int),
                        cudaMemcpyHostToDevice));
  reverse_rows<<<(m + 63) / 64, 64>>>(d_offsets, d_cols, m, base);
  std::vector<int> reversed = download_ints(d_cols, count);
  EXPECT_STATUS(cusparseXcsrsort_bufferSizeExt(h, m, n, count, d_offsets,
                                               d_cols, &size),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(identity(h, count, d_perm),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseXcsrsort(h, m, n, count, descr, d_offsets, d_cols,
                                 d_perm, buffer),
                CUSPARSE_STATUS_SUCCESS);
  got_cols = download_ints(d_cols, count);
  got_perm = download_ints(d_perm, count);
  wrong = 0;
  for (int k = 0; k < count; ++k)
    wrong += got_cols[k] != csr_cols[k] || reversed[got_perm[k]] != got_cols[k];
  EXPECT(wrong == 0, "base %d: csrsort: %d wrong", base, wrong);

  /* cscsort: the same matrix read as the CSC of its transpose. */
  reverse_rows<<<(m + 63) / 64, 64>>>(d_offsets, d_cols, m, base);
  EXPECT_STATUS(cusparseXcscsort(h, n, m, count, descr, d_offsets, d_cols,
                                 nullptr, buffer),
                CUSPARSE_STATUS_SUCCESS);
  got_cols = download_ints(d_cols, count);
  EXPECT(got_cols == csr_cols, "base %d: cscsort", base);
  EXPECT_STATUS(cusparseXcsrsort(h, m, n, count, nullptr, d_offsets, d_cols,
                                 nullptr, buffer),
                CUSPARSE_STATUS_INVALID_VALUE);

  cusparseDestroyMatDescr(descr);
  cusparseDestroySpMat(a);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroySpVec(permuted);
  cusparseDestroyDnVec(values);
  cudaFree(spmv_buffer);
  cudaFree(buffer);
  cudaFree(d_rows);
  cudaFree(d_cols);
  cudaFree(d_vals);
  cudaFree(d_sorted);
  cudaFree(d_perm);
  cudaFree(d_offsets);
  cudaFree(d_back);
  cudaFree(d_x);
  cudaFree(d_y);
}

static void check_coo(cusparseHandle_t h) {
  check_coo_to_csr(h, 0);
  check_coo_to_csr(h, 1);
}

#endif /* SPARSE_COO_H */
