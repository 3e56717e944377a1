/* sparse_spsv.cu: cusparseSpSV's triangular solves against a host
 * substitution: one square matrix with elements on both sides of its
 * diagonal (those outside the triangle that the fill mode names are
 * ignored), lower and upper, unit and non-unit diagonal, as is and
 * transposed, CSR with 32-bit base-0 indices and COO with 64-bit base-1
 * ones, float and complex double values, and y in place of x; and
 * cusparseSpSM with three right-hand sides given transposed.
 * CUEMU_OPTIONS: -lcusparse */
#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include <cusparse.h>

#include "../cudalibs/check_libs.h"

typedef std::complex<double> cd;

/* The host solve of op(A) y = alpha x with the triangle rules. */
static std::vector<cd> solve(const std::vector<cd> &a, int n, int lower,
                             int unit, int trans, cd alpha,
                             const std::vector<cd> &x) {
  /* e(i, j): element (i, j) of op(A). */
  auto e = [&](int i, int j) { return trans ? a[j * n + i] : a[i * n + j]; };
  int low = trans ? !lower : lower;
  std::vector<cd> y(n);
  for (int s = 0; s < n; ++s) {
    int i = low ? s : n - 1 - s;
    cd v = alpha * x[i];
    for (int j = 0; j < n; ++j)
      if (j != i && (low ? j < i : j > i))
        v -= e(i, j) * y[j];
    y[i] = unit ? v : v / e(i, i);
  }
  return y;
}

int main() {
  const int n = 40;
  cusparseHandle_t h;
  cusparseCreate(&h);
  /* A dense image (row major) of a matrix with a strong diagonal. */
  std::vector<cd> a(n * n);
  std::vector<int> rows(n + 1), cols;
  std::vector<int64_t> ri, ci;
  std::vector<float> fv;
  std::vector<cd> zv;
  unsigned seed = 7;
  for (int i = 0; i < n; ++i) {
    rows[i] = (int)cols.size();
    for (int j = 0; j < n; ++j) {
      seed = seed * 1103515245u + 12345u;
      if (i != j && (seed >> 16) % 4 != 0)
        continue;
      double re = i == j ? 4.0 + i % 3 : ((seed >> 4) % 100) / 100.0 - 0.5;
      double im = i == j ? 0.5 : ((seed >> 12) % 100) / 200.0;
      /* float values are exact in both precisions (multiples of 1/128) */
      re = std::round(re * 128) / 128;
      a[i * n + j] = cd(re, im);
      cols.push_back(j), ri.push_back(i + 1), ci.push_back(j + 1);
      fv.push_back((float)re), zv.push_back(cd(re, im));
    }
  }
  rows[n] = (int)cols.size();
  int nnz = rows[n];
  int *d_rows, *d_cols;
  int64_t *d_ri, *d_ci;
  float *d_fv, *d_fx, *d_fy;
  cd *d_zv, *d_zx, *d_zy;
  CHECK_CUDA(cudaMalloc(&d_rows, (n + 1) * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_cols, nnz * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_ri, nnz * sizeof(int64_t)));
  CHECK_CUDA(cudaMalloc(&d_ci, nnz * sizeof(int64_t)));
  CHECK_CUDA(cudaMalloc(&d_fv, nnz * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_zv, nnz * sizeof(cd)));
  CHECK_CUDA(cudaMalloc(&d_fx, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_fy, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_zx, n * sizeof(cd)));
  CHECK_CUDA(cudaMalloc(&d_zy, n * sizeof(cd)));
  cudaMemcpy(d_rows, rows.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_cols, cols.data(), nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_ri, ri.data(), nnz * sizeof(int64_t), cudaMemcpyHostToDevice);
  cudaMemcpy(d_ci, ci.data(), nnz * sizeof(int64_t), cudaMemcpyHostToDevice);
  cudaMemcpy(d_fv, fv.data(), nnz * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_zv, zv.data(), nnz * sizeof(cd), cudaMemcpyHostToDevice);
  std::vector<cd> x(n);
  std::vector<float> fx(n);
  for (int i = 0; i < n; ++i)
    x[i] = cd(fx[i] = (float)(1 + i % 5), 0.25 * (i % 3));
  cudaMemcpy(d_fx, fx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_zx, x.data(), n * sizeof(cd), cudaMemcpyHostToDevice);

  int cases = 0;
  for (int complex = 0; complex < 2; ++complex)
    for (int lower = 0; lower < 2; ++lower)
      for (int unit = 0; unit < 2; ++unit)
        for (int trans = 0; trans < 2; ++trans) {
          cusparseSpMatDescr_t A;
          if (complex)
            cusparseCreateCoo(&A, n, n, nnz, d_ri, d_ci, d_zv,
                              CUSPARSE_INDEX_64I, CUSPARSE_INDEX_BASE_ONE,
                              CUDA_C_64F);
          else
            cusparseCreateCsr(&A, n, n, nnz, d_rows, d_cols, d_fv,
                              CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                              CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
          cusparseFillMode_t fill =
              lower ? CUSPARSE_FILL_MODE_LOWER : CUSPARSE_FILL_MODE_UPPER;
          cusparseDiagType_t diag =
              unit ? CUSPARSE_DIAG_TYPE_UNIT : CUSPARSE_DIAG_TYPE_NON_UNIT;
          EXPECT_STATUS(cusparseSpMatSetAttribute(A, CUSPARSE_SPMAT_FILL_MODE,
                                                  &fill, sizeof fill),
                        CUSPARSE_STATUS_SUCCESS);
          EXPECT_STATUS(cusparseSpMatSetAttribute(A, CUSPARSE_SPMAT_DIAG_TYPE,
                                                  &diag, sizeof diag),
                        CUSPARSE_STATUS_SUCCESS);
          cudaDataType t = complex ? CUDA_C_64F : CUDA_R_32F;
          /* The complex case solves in place (y is x's copy). */
          void *vx = complex ? (void *)d_zy : (void *)d_fx;
          void *vy = complex ? (void *)d_zy : (void *)d_fy;
          if (complex)
            cudaMemcpy(d_zy, d_zx, n * sizeof(cd), cudaMemcpyDeviceToDevice);
          cusparseDnVecDescr_t X, Y;
          cusparseCreateDnVec(&X, n, vx, t);
          cusparseCreateDnVec(&Y, n, vy, t);
          cd zalpha(1.5, complex ? -0.5 : 0);
          float falpha = 1.5f;
          const void *alpha = complex ? (const void *)&zalpha : &falpha;
          cusparseOperation_t op = trans ? CUSPARSE_OPERATION_TRANSPOSE
                                         : CUSPARSE_OPERATION_NON_TRANSPOSE;
          cusparseSpSVDescr_t d;
          EXPECT_STATUS(cusparseSpSV_createDescr(&d), CUSPARSE_STATUS_SUCCESS);
          size_t size;
          EXPECT_STATUS(cusparseSpSV_bufferSize(h, op, alpha, A, X, Y, t,
                                                CUSPARSE_SPSV_ALG_DEFAULT, d,
                                                &size),
                        CUSPARSE_STATUS_SUCCESS);
          void *buffer;
          CHECK_CUDA(cudaMalloc(&buffer, size + 1));
          EXPECT_STATUS(cusparseSpSV_analysis(h, op, alpha, A, X, Y, t,
                                              CUSPARSE_SPSV_ALG_DEFAULT, d,
                                              buffer),
                        CUSPARSE_STATUS_SUCCESS);
          EXPECT_STATUS(cusparseSpSV_solve(h, op, alpha, A, X, Y, t,
                                           CUSPARSE_SPSV_ALG_DEFAULT, d),
                        CUSPARSE_STATUS_SUCCESS);
          std::vector<cd> want;
          if (complex) {
            want = solve(a, n, lower, unit, trans, zalpha, x);
          } else { /* the real parts only */
            std::vector<cd> ar(a.size()), xr(n);
            for (size_t i = 0; i < a.size(); ++i)
              ar[i] = a[i].real();
            for (int i = 0; i < n; ++i)
              xr[i] = fx[i];
            want = solve(ar, n, lower, unit, trans, 1.5, xr);
          }
          double worst = 0, scale = 0;
          if (complex) {
            std::vector<cd> got(n);
            cudaMemcpy(got.data(), d_zy, n * sizeof(cd), cudaMemcpyDeviceToHost);
            for (int i = 0; i < n; ++i)
              worst = std::fmax(worst, std::abs(got[i] - want[i])),
              scale = std::fmax(scale, std::abs(want[i]));
          } else {
            std::vector<float> got(n);
            cudaMemcpy(got.data(), d_fy, n * sizeof(float),
                       cudaMemcpyDeviceToHost);
            for (int i = 0; i < n; ++i)
              worst = std::fmax(worst, std::abs(cd(got[i]) - want[i])),
              scale = std::fmax(scale, std::abs(want[i]));
          }
          double tol = complex ? 1e-12 : 1e-5;
          EXPECT(worst <= tol * scale,
                 "complex %d lower %d unit %d trans %d: error %g of %g",
                 complex, lower, unit, trans, worst, scale);
          ++cases;
          cusparseSpSV_destroyDescr(d);
          cusparseDestroyDnVec(X);
          cusparseDestroyDnVec(Y);
          cusparseDestroySpMat(A);
          cudaFree(buffer);
        }
  EXPECT(cases == 16, "%d cases", cases);

  /* SpSM: three right-hand sides, B transposed (row major 3 x n read as
   * its n x 3 transpose), C column major; lower, non-unit, float CSR. */
  {
    const int nr = 3;
    std::vector<float> hb(nr * n);
    for (int j = 0; j < nr; ++j)
      for (int i = 0; i < n; ++i)
        hb[j * n + i] = (float)((i + j) % 4 + 1);
    float *d_b, *d_c;
    CHECK_CUDA(cudaMalloc(&d_b, nr * n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&d_c, nr * n * sizeof(float)));
    cudaMemcpy(d_b, hb.data(), nr * n * sizeof(float), cudaMemcpyHostToDevice);
    cusparseSpMatDescr_t A;
    cusparseCreateCsr(&A, n, n, nnz, d_rows, d_cols, d_fv, CUSPARSE_INDEX_32I,
                      CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
    cusparseFillMode_t fill = CUSPARSE_FILL_MODE_LOWER;
    cusparseSpMatSetAttribute(A, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill);
    cusparseDnMatDescr_t B, C;
    cusparseCreateDnMat(&B, nr, n, n, d_b, CUDA_R_32F, CUSPARSE_ORDER_ROW);
    cusparseCreateDnMat(&C, n, nr, n, d_c, CUDA_R_32F, CUSPARSE_ORDER_COL);
    cusparseSpSMDescr_t d;
    EXPECT_STATUS(cusparseSpSM_createDescr(&d), CUSPARSE_STATUS_SUCCESS);
    float alpha = 2;
    size_t size;
    cusparseOperation_t N = CUSPARSE_OPERATION_NON_TRANSPOSE,
                        T = CUSPARSE_OPERATION_TRANSPOSE;
    EXPECT_STATUS(cusparseSpSM_bufferSize(h, N, T, &alpha, A, B, C, CUDA_R_32F,
                                          CUSPARSE_SPSM_ALG_DEFAULT, d, &size),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseSpSM_analysis(h, N, T, &alpha, A, B, C, CUDA_R_32F,
                                        CUSPARSE_SPSM_ALG_DEFAULT, d, NULL),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseSpSM_solve(h, N, T, &alpha, A, B, C, CUDA_R_32F,
                                     CUSPARSE_SPSM_ALG_DEFAULT, d),
                  CUSPARSE_STATUS_SUCCESS);
    std::vector<float> hc(nr * n);
    cudaMemcpy(hc.data(), d_c, nr * n * sizeof(float), cudaMemcpyDeviceToHost);
    std::vector<cd> ar(a.size());
    for (size_t i = 0; i < a.size(); ++i)
      ar[i] = a[i].real();
    double worst = 0, scale = 0;
    for (int j = 0; j < nr; ++j) {
      std::vector<cd> xr(n);
      for (int i = 0; i < n; ++i)
        xr[i] = hb[j * n + i];
      std::vector<cd> want = solve(ar, n, 1, 0, 0, 2.0, xr);
      for (int i = 0; i < n; ++i)
        worst = std::fmax(worst, std::abs(cd(hc[j * n + i]) - want[i])),
        scale = std::fmax(scale, std::abs(want[i]));
    }
    EXPECT(worst <= 1e-5 * scale, "SpSM: error %g of %g", worst, scale);
    cusparseSpSM_destroyDescr(d);
    cusparseDestroyDnMat(B);
    cusparseDestroyDnMat(C);
    cusparseDestroySpMat(A);
  }
  cusparseDestroy(h);
  return finish();
}
