/* sparse_products.cu: cusparseSpMV and cusparseSpMM against a host
 * reference and cuBLAS's dense gemm: a random matrix in CSR (32-bit,
 * base 0), COO (64-bit, base 1) and CSC (CSR's arrays read as the CSC of
 * the transpose); all three operations on A (the
 * conjugate transpose with complex values), B transposed, row and column
 * orders; alpha and beta from the host and from the device
 * (CUSPARSE_POINTER_MODE_DEVICE); cusparseSpGEMM against a host product,
 * estimateMemory's sizes and the structure-reuse workflow (SpGEMMreuse_*:
 * one pattern, values computed twice with B changed between);
 * cusparseSparseToDense into the matrix that cublasDgemm multiplies; cusparseDenseToSparse back to CSR; and
 * cusparseAxpby, cusparseGather, cusparseScatter and cusparseSpVV on a
 * sparse vector.
 * CUEMU_OPTIONS: -lcusparse -lcublas */
#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include <cublas_v2.h>
#define DISABLE_CUSPARSE_DEPRECATED /* cusparseAxpby and SpVV are deprecated */
#include <cusparse.h>

#include "../cudalibs/check_libs.h"

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

static unsigned seed = 12345;
static double rnd() {
  seed = seed * 1103515245u + 12345u;
  return ((seed >> 8) & 0xffff) / 65536.0 - 0.5;
}

int main() {
  const int m = 37, k = 23, n = 5;
  cusparseHandle_t h;
  EXPECT_STATUS(cusparseCreate(&h), CUSPARSE_STATUS_SUCCESS);

  /* A random m x k matrix with about a fifth of its elements, row by row. */
  std::vector<int> rows(m + 1), cols;
  std::vector<int64_t> coo_r, coo_c;
  std::vector<double> vals;
  std::vector<cd> zvals;
  std::vector<double> dense(m * k, 0.0); /* column major */
  std::vector<cd> zdense(m * k, 0.0);
  for (int i = 0; i < m; ++i) {
    rows[i] = (int)cols.size();
    for (int j = 0; j < k; ++j)
      if (rnd() > 0.3) {
        double v = rnd();
        cd z(rnd(), rnd());
        cols.push_back(j), vals.push_back(v), zvals.push_back(z);
        coo_r.push_back(i + 1), coo_c.push_back(j + 1);
        dense[j * m + i] = v, zdense[j * m + i] = z;
      }
  }
  const int nnz = (int)cols.size();
  rows[m] = nnz;
  int *d_rows = upload(rows), *d_cols = upload(cols);
  int64_t *d_coo_r = upload(coo_r), *d_coo_c = upload(coo_c);
  double *d_vals = upload(vals);
  cd *d_zvals = upload(zvals);

  cusparseSpMatDescr_t csr, coo, zcsr;
  EXPECT_STATUS(cusparseCreateCsr(&csr, m, k, nnz, d_rows, d_cols, d_vals,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseCreateCoo(&coo, m, k, nnz, d_coo_r, d_coo_c, d_vals,
                                  CUSPARSE_INDEX_64I, CUSPARSE_INDEX_BASE_ONE,
                                  CUDA_R_64F),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseCreateCsr(&zcsr, m, k, nnz, d_rows, d_cols, d_zvals,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_BASE_ZERO, CUDA_C_64F),
                CUSPARSE_STATUS_SUCCESS);

  /* SpMV, real, every operation and both formats: y = 2 op(A) x + 0.5 y. */
  std::vector<double> xs(m > k ? m : k), y0(m > k ? m : k);
  for (size_t i = 0; i < xs.size(); ++i)
    xs[i] = rnd(), y0[i] = rnd();
  double *d_x = upload(xs), *d_y = upload(y0);
  double alpha = 2, beta = 0.5;
  for (int form = 0; form < 2; ++form)
    for (int op = 0; op < 2; ++op) {
      int out = op ? k : m, in = op ? m : k;
      cusparseDnVecDescr_t vx, vy;
      cusparseCreateDnVec(&vx, in, d_x, CUDA_R_64F);
      cusparseCreateDnVec(&vy, out, d_y, CUDA_R_64F);
      CHECK_CUDA(cudaMemcpy(d_y, y0.data(), y0.size() * sizeof(double),
                            cudaMemcpyHostToDevice));
      size_t size = 7;
      EXPECT_STATUS(cusparseSpMV_bufferSize(h, (cusparseOperation_t)op, &alpha,
                                            form ? coo : csr, vx, &beta, vy,
                                            CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT,
                                            &size),
                    CUSPARSE_STATUS_SUCCESS);
      EXPECT_STATUS(cusparseSpMV(h, (cusparseOperation_t)op, &alpha,
                                 form ? coo : csr, vx, &beta, vy, CUDA_R_64F,
                                 form ? CUSPARSE_SPMV_COO_ALG2
                                      : CUSPARSE_SPMV_CSR_ALG2,
                                 NULL),
                    CUSPARSE_STATUS_SUCCESS);
      std::vector<double> got = download(d_y, out);
      double worst = 0;
      for (int i = 0; i < out; ++i) {
        double want = 0.5 * y0[i];
        for (int j = 0; j < in; ++j)
          want += 2 * (op ? dense[i * m + j] : dense[j * m + i]) * xs[j];
        worst = std::fmax(worst, std::fabs(got[i] - want));
      }
      EXPECT(worst < 1e-12, "SpMV format %d op %d: error %g", form, op, worst);
      cusparseDestroyDnVec(vx);
      cusparseDestroyDnVec(vy);
    }

  /* CSR's arrays as the CSC of A^T (k x m): SpMV gives A^T x. */
  {
    cusparseSpMatDescr_t csc;
    EXPECT_STATUS(cusparseCreateCsc(&csc, k, m, nnz, d_rows, d_cols, d_vals,
                                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                    CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                  CUSPARSE_STATUS_SUCCESS);
    cusparseDnVecDescr_t vx, vy;
    cusparseCreateDnVec(&vx, m, d_x, CUDA_R_64F);
    cusparseCreateDnVec(&vy, k, d_y, CUDA_R_64F);
    double one = 1, zero = 0;
    EXPECT_STATUS(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, csc,
                               vx, &zero, vy, CUDA_R_64F,
                               CUSPARSE_SPMV_ALG_DEFAULT, NULL),
                  CUSPARSE_STATUS_SUCCESS);
    std::vector<double> got = download(d_y, k);
    double worst = 0;
    for (int j = 0; j < k; ++j) {
      double want = 0;
      for (int i = 0; i < m; ++i)
        want += dense[j * m + i] * xs[i];
      worst = std::fmax(worst, std::fabs(got[j] - want));
    }
    EXPECT(worst < 1e-12, "CSC SpMV: error %g", worst);
    cusparseDestroyDnVec(vx);
    cusparseDestroyDnVec(vy);
    cusparseDestroySpMat(csc);
  }

  /* SpMV, complex, conjugate transpose, alpha and beta on the device. */
  {
    std::vector<cd> zx(m), zy(k);
    for (int i = 0; i < m; ++i)
      zx[i] = cd(rnd(), rnd());
    for (int i = 0; i < k; ++i)
      zy[i] = cd(rnd(), rnd());
    std::vector<cd> ab = {cd(1, 2), cd(0, -1)};
    cd *d_zx = upload(zx), *d_zy = upload(zy), *d_ab = upload(ab);
    cusparseDnVecDescr_t vx, vy;
    cusparseCreateDnVec(&vx, m, d_zx, CUDA_C_64F);
    cusparseCreateDnVec(&vy, k, d_zy, CUDA_C_64F);
    EXPECT_STATUS(cusparseSetPointerMode(h, CUSPARSE_POINTER_MODE_DEVICE),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseSpMV(h, CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE,
                               d_ab, zcsr, vx, d_ab + 1, vy, CUDA_C_64F,
                               CUSPARSE_SPMV_ALG_DEFAULT, NULL),
                  CUSPARSE_STATUS_SUCCESS);
    cusparsePointerMode_t mode;
    cusparseGetPointerMode(h, &mode);
    EXPECT(mode == CUSPARSE_POINTER_MODE_DEVICE, "pointer mode %d", mode);
    cusparseSetPointerMode(h, CUSPARSE_POINTER_MODE_HOST);
    std::vector<cd> got = download(d_zy, k);
    double worst = 0;
    for (int j = 0; j < k; ++j) {
      cd want = ab[1] * zy[j];
      for (int i = 0; i < m; ++i)
        want += ab[0] * std::conj(zdense[j * m + i]) * zx[i];
      worst = std::fmax(worst, std::abs(got[j] - want));
    }
    EXPECT(worst < 1e-12, "complex SpMV: error %g", worst);
    cusparseDestroyDnVec(vx);
    cusparseDestroyDnVec(vy);
  }

  /* SpMM C = A B against a host product, B as is and transposed, C in both
   * orders; then SparseToDense and cublasDgemm give the same C. */
  std::vector<double> bs(k * n);
  for (auto &v : bs)
    v = rnd();
  double *d_b = upload(bs), *d_c, *d_c2, *d_dense;
  CHECK_CUDA(cudaMalloc(&d_c, m * n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&d_c2, m * n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&d_dense, m * k * sizeof(double)));
  for (int tb = 0; tb < 2; ++tb)
    for (int order = 1; order <= 2; ++order) {
      cusparseDnMatDescr_t B, C;
      /* B k x n column major; transposed, the same memory read as n x k row
       * major of which op(B) is the transpose. */
      if (tb)
        cusparseCreateDnMat(&B, n, k, k, d_b, CUDA_R_64F, CUSPARSE_ORDER_ROW);
      else
        cusparseCreateDnMat(&B, k, n, k, d_b, CUDA_R_64F, CUSPARSE_ORDER_COL);
      cusparseCreateDnMat(&C, m, n, order == 1 ? m : n, d_c, CUDA_R_64F,
                          (cusparseOrder_t)order);
      double one = 1, zero = 0;
      size_t size;
      cusparseOperation_t ob = tb ? CUSPARSE_OPERATION_TRANSPOSE
                                  : CUSPARSE_OPERATION_NON_TRANSPOSE;
      EXPECT_STATUS(cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                            ob, &one, coo, B, &zero, C,
                                            CUDA_R_64F, CUSPARSE_SPMM_ALG_DEFAULT,
                                            &size),
                    CUSPARSE_STATUS_SUCCESS);
      EXPECT_STATUS(cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, ob, &one,
                                 tb ? coo : csr, B, &zero, C, CUDA_R_64F,
                                 CUSPARSE_SPMM_CSR_ALG2, NULL),
                    CUSPARSE_STATUS_SUCCESS);
      std::vector<double> got = download(d_c, m * n);
      double worst = 0;
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          double want = 0;
          for (int l = 0; l < k; ++l)
            want += dense[l * m + i] * bs[j * k + l];
          double g = order == 1 ? got[j * m + i] : got[i * n + j];
          worst = std::fmax(worst, std::fabs(g - want));
        }
      EXPECT(worst < 1e-12, "SpMM opB %d order %d: error %g", tb, order, worst);
      cusparseDestroyDnMat(B);
      cusparseDestroyDnMat(C);
    }
  {
    cusparseDnMatDescr_t D;
    cusparseCreateDnMat(&D, m, k, m, d_dense, CUDA_R_64F, CUSPARSE_ORDER_COL);
    size_t size;
    EXPECT_STATUS(cusparseSparseToDense_bufferSize(
                      h, coo, D, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, &size),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseSparseToDense(h, coo, D,
                                        CUSPARSE_SPARSETODENSE_ALG_DEFAULT,
                                        NULL),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT(download(d_dense, m * k) == dense, "SparseToDense differs");
    cublasHandle_t blas;
    cublasCreate(&blas);
    double one = 1, zero = 0;
    cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, d_dense, m, d_b,
                k, &zero, d_c2, m);
    cusparseDnMatDescr_t B, C;
    cusparseCreateDnMat(&B, k, n, k, d_b, CUDA_R_64F, CUSPARSE_ORDER_COL);
    cusparseCreateDnMat(&C, m, n, m, d_c, CUDA_R_64F, CUSPARSE_ORDER_COL);
    cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                 CUSPARSE_OPERATION_NON_TRANSPOSE, &one, csr, B, &zero, C,
                 CUDA_R_64F, CUSPARSE_SPMM_ALG_DEFAULT, NULL);
    std::vector<double> c1 = download(d_c, m * n), c2 = download(d_c2, m * n);
    double worst = 0;
    for (int i = 0; i < m * n; ++i)
      worst = std::fmax(worst, std::fabs(c1[i] - c2[i]));
    EXPECT(worst < 1e-12, "SpMM vs cublasDgemm: %g", worst);
    cublasDestroy(blas);

    /* DenseToSparse: the dense matrix back to CSR, base 1, 64-bit. */
    int64_t *d_offsets;
    CHECK_CUDA(cudaMalloc(&d_offsets, (m + 1) * sizeof(int64_t)));
    cusparseSpMatDescr_t S;
    EXPECT_STATUS(cusparseCreateCsr(&S, m, k, 0, d_offsets, NULL, NULL,
                                    CUSPARSE_INDEX_64I, CUSPARSE_INDEX_64I,
                                    CUSPARSE_INDEX_BASE_ONE, CUDA_R_64F),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseDenseToSparse_bufferSize(
                      h, D, S, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, &size),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseDenseToSparse_analysis(
                      h, D, S, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, NULL),
                  CUSPARSE_STATUS_SUCCESS);
    int64_t r, c, z;
    cusparseSpMatGetSize(S, &r, &c, &z);
    EXPECT(z == nnz, "DenseToSparse counted %lld, expected %d", (long long)z,
           nnz);
    int64_t *d_ind;
    double *d_v;
    CHECK_CUDA(cudaMalloc(&d_ind, z * sizeof(int64_t)));
    CHECK_CUDA(cudaMalloc(&d_v, z * sizeof(double)));
    EXPECT_STATUS(cusparseCsrSetPointers(S, d_offsets, d_ind, d_v),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseDenseToSparse_convert(
                      h, D, S, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, NULL),
                  CUSPARSE_STATUS_SUCCESS);
    std::vector<int64_t> off = download(d_offsets, m + 1),
                         ind = download(d_ind, z);
    std::vector<double> v = download(d_v, z);
    int same = v == vals;
    for (int i = 0; i <= m; ++i)
      same &= off[i] == rows[i] + 1;
    for (int i = 0; i < nnz; ++i)
      same &= ind[i] == cols[i] + 1;
    EXPECT(same, "DenseToSparse's CSR differs from the original");
    cusparseDestroySpMat(S);
    cusparseDestroyDnMat(D);
    cusparseDestroyDnMat(B);
    cusparseDestroyDnMat(C);
  }

  /* SpGEMM: C = 2 A B with B a random k x n CSR matrix, in the workflow
   * of cuSPARSE's documentation (sizes asked, then buffers given). */
  {
    std::vector<int> br(k + 1), bc;
    std::vector<double> bv, bd(k * n, 0.0);
    for (int i = 0; i < k; ++i) {
      br[i] = (int)bc.size();
      for (int j = 0; j < n; ++j)
        if (rnd() > 0.1) {
          double v = rnd();
          bc.push_back(j), bv.push_back(v), bd[i * n + j] = v;
        }
    }
    br[k] = (int)bc.size();
    int *d_br = upload(br), *d_bc = upload(bc), *d_cr;
    double *d_bv = upload(bv);
    CHECK_CUDA(cudaMalloc(&d_cr, (m + 1) * sizeof(int)));
    cusparseSpMatDescr_t B, C;
    cusparseCreateCsr(&B, k, n, (int64_t)bc.size(), d_br, d_bc, d_bv,
                      CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                      CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
    cusparseCreateCsr(&C, m, n, 0, d_cr, NULL, NULL, CUSPARSE_INDEX_32I,
                      CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
    double two = 2, zero = 0;
    cusparseOperation_t N = CUSPARSE_OPERATION_NON_TRANSPOSE;
    cusparseSpGEMMDescr_t g;
    EXPECT_STATUS(cusparseSpGEMM_createDescr(&g), CUSPARSE_STATUS_SUCCESS);
    size_t s1 = 0, s2 = 0;
    void *b1 = NULL, *b2 = NULL;
    EXPECT_STATUS(cusparseSpGEMM_workEstimation(h, N, N, &two, csr, B, &zero, C,
                                                CUDA_R_64F,
                                                CUSPARSE_SPGEMM_DEFAULT, g, &s1,
                                                NULL),
                  CUSPARSE_STATUS_SUCCESS);
    CHECK_CUDA(cudaMalloc(&b1, s1));
    EXPECT_STATUS(cusparseSpGEMM_workEstimation(h, N, N, &two, csr, B, &zero, C,
                                                CUDA_R_64F,
                                                CUSPARSE_SPGEMM_DEFAULT, g, &s1,
                                                b1),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseSpGEMM_compute(h, N, N, &two, csr, B, &zero, C,
                                         CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT,
                                         g, &s2, NULL),
                  CUSPARSE_STATUS_SUCCESS);
    CHECK_CUDA(cudaMalloc(&b2, s2));
    EXPECT_STATUS(cusparseSpGEMM_compute(h, N, N, &two, csr, B, &zero, C,
                                         CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT,
                                         g, &s2, b2),
                  CUSPARSE_STATUS_SUCCESS);
    int64_t cr, cc, cnnz;
    cusparseSpMatGetSize(C, &cr, &cc, &cnnz);
    int *d_cc;
    double *d_cv;
    CHECK_CUDA(cudaMalloc(&d_cc, cnnz * sizeof(int) + 1));
    CHECK_CUDA(cudaMalloc(&d_cv, cnnz * sizeof(double) + 1));
    cusparseCsrSetPointers(C, d_cr, d_cc, d_cv);
    EXPECT_STATUS(cusparseSpGEMM_copy(h, N, N, &two, csr, B, &zero, C,
                                      CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT, g),
                  CUSPARSE_STATUS_SUCCESS);
    cusparseSpGEMM_destroyDescr(g);
    std::vector<int> hr = download(d_cr, m + 1), hc = download(d_cc, cnnz);
    std::vector<double> hv = download(d_cv, cnnz);
    /* The dense image of C against 2 A B. */
    std::vector<double> got(m * n, 0.0);
    int sorted = 1;
    for (int i = 0; i < m; ++i)
      for (int p = hr[i]; p < hr[i + 1]; ++p) {
        got[i * n + hc[p]] = hv[p];
        sorted &= p == hr[i] || hc[p] > hc[p - 1];
      }
    double worst = 0;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double want = 0;
        for (int l = 0; l < k; ++l)
          want += 2 * dense[l * m + i] * bd[l * n + j];
        worst = std::fmax(worst, std::fabs(got[i * n + j] - want));
      }
    EXPECT(worst < 1e-12 && sorted && hr[m] == cnnz,
           "SpGEMM: error %g, sorted %d, %d of %lld", worst, sorted, hr[m],
           (long long)cnnz);

    /* The memory-saving algorithm's estimate (ALG3: a chunk fraction in
     * (0, 1]). */
    cusparseSpGEMMDescr_t g3;
    EXPECT_STATUS(cusparseSpGEMM_createDescr(&g3), CUSPARSE_STATUS_SUCCESS);
    size_t s3 = 0, s2b = 0;
    EXPECT_STATUS(cusparseSpGEMM_estimateMemory(
                      h, N, N, &two, csr, B, &zero, C, CUDA_R_64F,
                      CUSPARSE_SPGEMM_ALG3, g3, 0.25f, &s3, NULL, &s2b),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT(s3 > 0, "SpGEMM_estimateMemory: no size");
    EXPECT_STATUS(cusparseSpGEMM_estimateMemory(
                      h, N, N, &two, csr, B, &zero, C, CUDA_R_64F,
                      CUSPARSE_SPGEMM_ALG3, g3, 0.0f, &s3, NULL, &s2b),
                  CUSPARSE_STATUS_INVALID_VALUE);
    cusparseSpGEMM_destroyDescr(g3);

    /* The structure-reuse workflow into a second C: its pattern once, then
     * its values twice, C = 2 A B, then C = A (3 B) + C = 5 A B with B's
     * values changed in between. */
    int *d_rr;
    CHECK_CUDA(cudaMalloc(&d_rr, (m + 1) * sizeof(int)));
    cusparseSpMatDescr_t R;
    cusparseCreateCsr(&R, m, n, 0, d_rr, NULL, NULL, CUSPARSE_INDEX_32I,
                      CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
    cusparseSpGEMMDescr_t gr;
    EXPECT_STATUS(cusparseSpGEMM_createDescr(&gr), CUSPARSE_STATUS_SUCCESS);
    const cusparseSpGEMMAlg_t alg = CUSPARSE_SPGEMM_DEFAULT;
    size_t r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0;
    void *rb1, *rb2, *rb3, *rb4, *rb5;
    EXPECT_STATUS(cusparseSpGEMMreuse_workEstimation(h, N, N, csr, B, R, alg,
                                                     gr, &r1, NULL),
                  CUSPARSE_STATUS_SUCCESS);
    CHECK_CUDA(cudaMalloc(&rb1, r1));
    EXPECT_STATUS(cusparseSpGEMMreuse_workEstimation(h, N, N, csr, B, R, alg,
                                                     gr, &r1, rb1),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseSpGEMMreuse_nnz(h, N, N, csr, B, R, alg, gr, &r2,
                                          NULL, &r3, NULL, &r4, NULL),
                  CUSPARSE_STATUS_SUCCESS);
    CHECK_CUDA(cudaMalloc(&rb2, r2));
    CHECK_CUDA(cudaMalloc(&rb3, r3));
    CHECK_CUDA(cudaMalloc(&rb4, r4));
    EXPECT_STATUS(cusparseSpGEMMreuse_nnz(h, N, N, csr, B, R, alg, gr, &r2,
                                          rb2, &r3, rb3, &r4, rb4),
                  CUSPARSE_STATUS_SUCCESS);
    int64_t rr, rc, rnnz;
    cusparseSpMatGetSize(R, &rr, &rc, &rnnz);
    int *d_rc;
    double *d_rv;
    CHECK_CUDA(cudaMalloc(&d_rc, rnnz * sizeof(int) + 1));
    CHECK_CUDA(cudaMalloc(&d_rv, rnnz * sizeof(double) + 1));
    cusparseCsrSetPointers(R, d_rr, d_rc, d_rv);
    EXPECT_STATUS(cusparseSpGEMMreuse_copy(h, N, N, csr, B, R, alg, gr, &r5,
                                           NULL),
                  CUSPARSE_STATUS_SUCCESS);
    CHECK_CUDA(cudaMalloc(&rb5, r5));
    EXPECT_STATUS(cusparseSpGEMMreuse_copy(h, N, N, csr, B, R, alg, gr, &r5,
                                           rb5),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseSpGEMMreuse_compute(h, N, N, &two, csr, B, &zero, R,
                                              CUDA_R_64F, alg, gr),
                  CUSPARSE_STATUS_SUCCESS);
    std::vector<double> first = download(d_rv, rnnz);
    std::vector<double> tripled(bv);
    for (double &v : tripled)
      v *= 3;
    CHECK_CUDA(cudaMemcpy(d_bv, tripled.data(), tripled.size() * sizeof(double),
                          cudaMemcpyHostToDevice));
    double one = 1;
    EXPECT_STATUS(cusparseSpGEMMreuse_compute(h, N, N, &one, csr, B, &one, R,
                                              CUDA_R_64F, alg, gr),
                  CUSPARSE_STATUS_SUCCESS);
    std::vector<int> rrh = download(d_rr, m + 1), rch = download(d_rc, rnnz);
    std::vector<double> rvh = download(d_rv, rnnz);
    int same = rnnz == cnnz && rrh == hr && rch == hc;
    double reuse_err = 0;
    for (int64_t p = 0; same && p < rnnz; ++p) {
      reuse_err = std::fmax(reuse_err, std::fabs(first[p] - hv[p]));
      reuse_err = std::fmax(reuse_err, std::fabs(rvh[p] - 2.5 * hv[p]));
    }
    EXPECT(same && reuse_err < 1e-12,
           "SpGEMMreuse: pattern %s, error %g", same ? "same" : "differs",
           reuse_err);
    cusparseSpGEMM_destroyDescr(gr);
    cusparseDestroySpMat(R);
    cudaFree(rb1), cudaFree(rb2), cudaFree(rb3), cudaFree(rb4), cudaFree(rb5);
    cudaFree(d_rr), cudaFree(d_rc), cudaFree(d_rv);
    cusparseDestroySpMat(B);
    cusparseDestroySpMat(C);
  }

  /* Sparse vector calls, single precision, base 1. */
  {
    std::vector<int> idx = {2, 5, 9};
    std::vector<float> xv = {1, 2, 3}, yv(10);
    for (int i = 0; i < 10; ++i)
      yv[i] = (float)i;
    int *d_idx = upload(idx);
    float *d_xv = upload(xv), *d_yv = upload(yv);
    cusparseSpVecDescr_t sv;
    cusparseDnVecDescr_t dv;
    EXPECT_STATUS(cusparseCreateSpVec(&sv, 10, 3, d_idx, d_xv,
                                      CUSPARSE_INDEX_32I,
                                      CUSPARSE_INDEX_BASE_ONE, CUDA_R_32F),
                  CUSPARSE_STATUS_SUCCESS);
    cusparseCreateDnVec(&dv, 10, d_yv, CUDA_R_32F);
    float a = 10, b = 2;
    EXPECT_STATUS(cusparseAxpby(h, &a, sv, &b, dv), CUSPARSE_STATUS_SUCCESS);
    std::vector<float> got = download(d_yv, 10);
    std::vector<float> want = {0, 12, 4, 6, 28, 10, 12, 14, 46, 18};
    EXPECT(got == want, "Axpby: y[1] %g y[8] %g", got[1], got[8]);
    EXPECT_STATUS(cusparseGather(h, dv, sv), CUSPARSE_STATUS_SUCCESS);
    std::vector<float> g = download(d_xv, 3);
    EXPECT(g[0] == 12 && g[1] == 28 && g[2] == 46, "Gather: %g %g %g", g[0],
           g[1], g[2]);
    CHECK_CUDA(cudaMemset(d_yv, 0, 10 * sizeof(float)));
    EXPECT_STATUS(cusparseScatter(h, sv, dv), CUSPARSE_STATUS_SUCCESS);
    got = download(d_yv, 10);
    EXPECT(got[1] == 12 && got[4] == 28 && got[8] == 46 && got[0] == 0,
           "Scatter");
    float dot = 0;
    size_t vv;
    EXPECT_STATUS(cusparseSpVV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                          sv, dv, &dot, CUDA_R_32F, &vv),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseSpVV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, sv, dv,
                               &dot, CUDA_R_32F, NULL),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT(dot == 3044, "SpVV %g", dot);
    cusparseDestroySpVec(sv);
    cusparseDestroyDnVec(dv);
  }
  cusparseDestroySpMat(csr);
  cusparseDestroySpMat(coo);
  cusparseDestroySpMat(zcsr);
  cusparseDestroy(h);
  return finish();
}
