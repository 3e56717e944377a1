/* sparse_ilu.cu: the legacy incomplete factorizations as preconditioned
 * solvers call them (the CUDA samples' conjugateGradientPrecond style):
 * csrilu02 and csric02 with their info objects, bufferSize and analysis,
 * then cusparseSpSV with the factors. On a tridiagonal matrix ILU(0) and
 * IC(0) are the exact LU and Cholesky factors, so the two solves give
 * A^-1 b; on a 2-D Laplacian (where they are not exact) the preconditioned
 * conjugate gradient needs fewer iterations than the plain one. A zero
 * diagonal is reported by cusparseXcsrilu02_zeroPivot, in the matrix's
 * index base (1 here).
 * CUEMU_OPTIONS: -lcusparse */
#define DISABLE_CUSPARSE_DEPRECATED /* csrilu02 and csric02 are deprecated */
#include <cmath>
#include <vector>

#include <cusparse.h>

#include "../cudalibs/check_libs.h"

struct Csr {
  int n;
  std::vector<int> rows, cols;
  std::vector<double> vals;
};

/* The 2-D Laplacian on a g x g grid (g = 1: the tridiagonal 1-D one with
 * n = size). */
static Csr laplacian(int g, int size) {
  Csr a;
  a.n = g == 1 ? size : g * g;
  for (int i = 0; i < a.n; ++i) {
    a.rows.push_back((int)a.cols.size());
    int x = g == 1 ? i : i % g, y = g == 1 ? 0 : i / g;
    int w = g == 1 ? size : g;
    auto add = [&](int j, double v) { a.cols.push_back(j), a.vals.push_back(v); };
    if (y > 0)
      add(i - g, -1);
    if (x > 0)
      add(i - 1, -1);
    add(i, g == 1 ? 3 : 4);
    if (x < w - 1)
      add(i + 1, -1);
    if (y < (g == 1 ? 1 : g) - 1)
      add(i + g, -1);
  }
  a.rows.push_back((int)a.cols.size());
  return a;
}

template <class T> static T *upload(const std::vector<T> &v) {
  T *d;
  CHECK_CUDA(cudaMalloc(&d, v.size() * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(T),
                        cudaMemcpyHostToDevice));
  return d;
}

static cusparseHandle_t h;

/* Factors a copy of a's values (ILU(0) or IC(0)); returns them. */
static double *factor(const Csr &a, int *rows, int *cols, bool cholesky) {
  double *v = upload(a.vals);
  int nnz = (int)a.vals.size();
  cusparseMatDescr_t d;
  cusparseCreateMatDescr(&d);
  cusparseSetMatIndexBase(d, CUSPARSE_INDEX_BASE_ZERO);
  cusparseSetMatType(d, CUSPARSE_MATRIX_TYPE_GENERAL);
  int size = 0, pos = 0;
  void *buffer;
  if (cholesky) {
    csric02Info_t info;
    EXPECT_STATUS(cusparseCreateCsric02Info(&info), CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseDcsric02_bufferSize(h, a.n, nnz, d, v, rows, cols,
                                              info, &size),
                  CUSPARSE_STATUS_SUCCESS);
    CHECK_CUDA(cudaMalloc(&buffer, size));
    EXPECT_STATUS(cusparseDcsric02_analysis(h, a.n, nnz, d, v, rows, cols, info,
                                            CUSPARSE_SOLVE_POLICY_USE_LEVEL,
                                            buffer),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseDcsric02(h, a.n, nnz, d, v, rows, cols, info,
                                   CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseXcsric02_zeroPivot(h, info, &pos),
                  CUSPARSE_STATUS_SUCCESS);
    cusparseDestroyCsric02Info(info);
  } else {
    csrilu02Info_t info;
    EXPECT_STATUS(cusparseCreateCsrilu02Info(&info), CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseDcsrilu02_bufferSize(h, a.n, nnz, d, v, rows, cols,
                                               info, &size),
                  CUSPARSE_STATUS_SUCCESS);
    CHECK_CUDA(cudaMalloc(&buffer, size));
    EXPECT_STATUS(cusparseDcsrilu02_analysis(h, a.n, nnz, d, v, rows, cols,
                                             info,
                                             CUSPARSE_SOLVE_POLICY_USE_LEVEL,
                                             buffer),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseDcsrilu02(h, a.n, nnz, d, v, rows, cols, info,
                                    CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseXcsrilu02_zeroPivot(h, info, &pos),
                  CUSPARSE_STATUS_SUCCESS);
    cusparseDestroyCsrilu02Info(info);
  }
  EXPECT(pos == -1, "zero pivot at %d", pos);
  cudaFree(buffer);
  cusparseDestroyMatDescr(d);
  return v;
}

/* z = M^-1 r with M's factors in v: L (unit for ILU) then U, or L then
 * L^T for IC. */
struct Precond {
  cusparseSpMatDescr_t L, U;
  cusparseSpSVDescr_t sl, su;
  cusparseDnVecDescr_t r, t, z;
  bool cholesky;
};

static void setup(Precond &p, const Csr &a, int *rows, int *cols, double *v,
                  double *r, double *t, double *z, bool cholesky) {
  int nnz = (int)a.vals.size();
  p.cholesky = cholesky;
  cusparseCreateCsr(&p.L, a.n, a.n, nnz, rows, cols, v, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  cusparseCreateCsr(&p.U, a.n, a.n, nnz, rows, cols, v, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  cusparseFillMode_t lower = CUSPARSE_FILL_MODE_LOWER,
                     upper = CUSPARSE_FILL_MODE_UPPER;
  cusparseDiagType_t unit = CUSPARSE_DIAG_TYPE_UNIT,
                     nonunit = CUSPARSE_DIAG_TYPE_NON_UNIT;
  cusparseSpMatSetAttribute(p.L, CUSPARSE_SPMAT_FILL_MODE, &lower, sizeof lower);
  cusparseSpMatSetAttribute(p.L, CUSPARSE_SPMAT_DIAG_TYPE,
                            cholesky ? &nonunit : &unit, sizeof unit);
  cusparseSpMatSetAttribute(p.U, CUSPARSE_SPMAT_FILL_MODE,
                            cholesky ? &lower : &upper, sizeof upper);
  cusparseSpMatSetAttribute(p.U, CUSPARSE_SPMAT_DIAG_TYPE, &nonunit,
                            sizeof nonunit);
  cusparseCreateDnVec(&p.r, a.n, r, CUDA_R_64F);
  cusparseCreateDnVec(&p.t, a.n, t, CUDA_R_64F);
  cusparseCreateDnVec(&p.z, a.n, z, CUDA_R_64F);
  cusparseSpSV_createDescr(&p.sl);
  cusparseSpSV_createDescr(&p.su);
  double one = 1;
  cusparseOperation_t N = CUSPARSE_OPERATION_NON_TRANSPOSE,
                      opu = cholesky ? CUSPARSE_OPERATION_TRANSPOSE : N;
  EXPECT_STATUS(cusparseSpSV_analysis(h, N, &one, p.L, p.r, p.t, CUDA_R_64F,
                                      CUSPARSE_SPSV_ALG_DEFAULT, p.sl, NULL),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT_STATUS(cusparseSpSV_analysis(h, opu, &one, p.U, p.t, p.z, CUDA_R_64F,
                                      CUSPARSE_SPSV_ALG_DEFAULT, p.su, NULL),
                CUSPARSE_STATUS_SUCCESS);
}

static void apply(Precond &p) {
  double one = 1;
  cusparseSpSV_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, p.L, p.r, p.t,
                     CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, p.sl);
  cusparseSpSV_solve(h,
                     p.cholesky ? CUSPARSE_OPERATION_TRANSPOSE
                                : CUSPARSE_OPERATION_NON_TRANSPOSE,
                     &one, p.U, p.t, p.z, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT,
                     p.su);
}

/* A x for the host. */
static std::vector<double> product(const Csr &a, const std::vector<double> &x) {
  std::vector<double> y(a.n);
  for (int i = 0; i < a.n; ++i)
    for (int k = a.rows[i]; k < a.rows[i + 1]; ++k)
      y[i] += a.vals[k] * x[a.cols[k]];
  return y;
}

static double dot(const std::vector<double> &a, const std::vector<double> &b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i)
    s += a[i] * b[i];
  return s;
}

/* Preconditioned CG on the host vectors, M^-1 through the device. */
static int pcg(const Csr &a, Precond *p, double *d_r, double *d_z) {
  std::vector<double> x(a.n, 0), r(a.n, 1.0), z(a.n), q(a.n);
  double r0 = dot(r, r), rz = 0;
  for (int k = 1; k <= 500; ++k) {
    if (p) {
      cudaMemcpy(d_r, r.data(), a.n * sizeof(double), cudaMemcpyHostToDevice);
      apply(*p);
      cudaMemcpy(z.data(), d_z, a.n * sizeof(double), cudaMemcpyDeviceToHost);
    } else {
      z = r;
    }
    double rz1 = dot(r, z);
    for (int i = 0; i < a.n; ++i)
      q[i] = z[i] + (k > 1 ? rz1 / rz : 0) * q[i];
    rz = rz1;
    std::vector<double> aq = product(a, q);
    double alpha = rz / dot(q, aq);
    for (int i = 0; i < a.n; ++i)
      x[i] += alpha * q[i], r[i] -= alpha * aq[i];
    if (dot(r, r) < 1e-20 * r0)
      return k;
  }
  return 501;
}

int main() {
  cusparseCreate(&h);
  for (int cholesky = 0; cholesky < 2; ++cholesky) {
    /* Exact on a tridiagonal matrix. */
    Csr a = laplacian(1, 200);
    int *rows = upload(a.rows), *cols = upload(a.cols);
    double *r, *t, *z;
    CHECK_CUDA(cudaMalloc(&r, a.n * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&t, a.n * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&z, a.n * sizeof(double)));
    double *v = factor(a, rows, cols, cholesky);
    Precond p;
    setup(p, a, rows, cols, v, r, t, z, cholesky);
    std::vector<double> s(a.n), got(a.n);
    for (int i = 0; i < a.n; ++i)
      s[i] = std::cos(0.1 * i);
    std::vector<double> b = product(a, s);
    cudaMemcpy(r, b.data(), a.n * sizeof(double), cudaMemcpyHostToDevice);
    apply(p);
    cudaMemcpy(got.data(), z, a.n * sizeof(double), cudaMemcpyDeviceToHost);
    double worst = 0;
    for (int i = 0; i < a.n; ++i)
      worst = std::fmax(worst, std::fabs(got[i] - s[i]));
    EXPECT(worst < 1e-12, "%s on a tridiagonal matrix: error %g",
           cholesky ? "IC(0)" : "ILU(0)", worst);

    /* A better preconditioner than none on a 2-D Laplacian. */
    Csr g = laplacian(24, 0);
    int *grows = upload(g.rows), *gcols = upload(g.cols);
    double *gr, *gt, *gz;
    CHECK_CUDA(cudaMalloc(&gr, g.n * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&gt, g.n * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&gz, g.n * sizeof(double)));
    double *gv = factor(g, grows, gcols, cholesky);
    Precond gp;
    setup(gp, g, grows, gcols, gv, gr, gt, gz, cholesky);
    int plain = pcg(g, NULL, gr, gz), pre = pcg(g, &gp, gr, gz);
    std::printf("%s: CG %d iterations, preconditioned %d\n",
                cholesky ? "IC(0)" : "ILU(0)", plain, pre);
    EXPECT(pre < plain && plain < 501, "plain %d, preconditioned %d", plain,
           pre);
  }

  /* A zero pivot: row 3 (base 1) has no diagonal element. */
  {
    std::vector<int> rows = {1, 2, 3, 4}, cols = {1, 2, 1};
    std::vector<double> vals = {2, 3, 1};
    int *d_rows = upload(rows), *d_cols = upload(cols);
    double *d_vals = upload(vals);
    cusparseMatDescr_t d;
    cusparseCreateMatDescr(&d);
    cusparseSetMatIndexBase(d, CUSPARSE_INDEX_BASE_ONE);
    csrilu02Info_t info;
    cusparseCreateCsrilu02Info(&info);
    int size, pos = 0;
    cusparseDcsrilu02_bufferSize(h, 3, 3, d, d_vals, d_rows, d_cols, info,
                                 &size);
    cusparseDcsrilu02_analysis(h, 3, 3, d, d_vals, d_rows, d_cols, info,
                               CUSPARSE_SOLVE_POLICY_NO_LEVEL, NULL);
    EXPECT_STATUS(cusparseDcsrilu02(h, 3, 3, d, d_vals, d_rows, d_cols, info,
                                    CUSPARSE_SOLVE_POLICY_NO_LEVEL, NULL),
                  CUSPARSE_STATUS_SUCCESS);
    EXPECT_STATUS(cusparseXcsrilu02_zeroPivot(h, info, &pos),
                  CUSPARSE_STATUS_ZERO_PIVOT);
    EXPECT(pos == 3, "zero pivot at %d, expected 3", pos);
    cusparseDestroyCsrilu02Info(info);
    cusparseDestroyMatDescr(d);
  }
  cusparseDestroy(h);
  return finish();
}
