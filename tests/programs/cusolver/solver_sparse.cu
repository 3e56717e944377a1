/* solver_sparse.cu: cuSOLVER's sparse API in the style of the samples'
 * cuSolverSp_LinearSolver, _LowlevelCholesky and _LowlevelQR: a 2D
 * Laplacian (30 x 30 grid, 900 unknowns, CSR) and a nonsymmetric
 * convection-diffusion matrix of the same grid solved by csrlsvchol and
 * csrlsvqr on the device and on the host, csrlsvlu on the host, after the
 * orderings (symrcm, symamd, metisnd: valid permutations) and csrperm
 * applied to the matrix (checked against a host permutation); the
 * low-level Cholesky and QR (with a shift mu) on the host and the device;
 * csrqrsvBatched of three systems; a Hermitian matrix in double complex by
 * csrlsvchol; csrissym; singular and indefinite matrices reported by
 * singularity; the host LU (csrluFactorHost) with its factors extracted
 * (P A Q^T = L U checked densely) and given to cusolverRf, as the samples'
 * cuSolverRf does, which refactors a second matrix of the same pattern and
 * solves it; each solution checked by its residual.
 * CUEMU_OPTIONS: -lcusolver -lcusparse */
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include <cusolverRf.h>
#include <cusolverSp.h>
#include <cusolverSp_LOWLEVEL_PREVIEW.h>
#include <cusparse.h>

#include "solver_host.h"

typedef std::complex<double> sp_z;

/* A CSR matrix on the host, 0-based. */
template <typename T> struct sp_csr {
  int n = 0;
  std::vector<int> rows, cols;
  std::vector<T> vals;
};

/* The grid's matrix: 4 on the diagonal, -1 - c and -1 + c to the west and
 * east neighbours (c 0: the symmetric Laplacian), -1 north and south;
 * with `hermitian`, i / 2 to the east and -i / 2 to the west as well, and
 * 5 on the diagonal (positive definite by Gershgorin's circles). */
template <typename T>
static sp_csr<T> sp_grid(int g, double c, bool hermitian = false) {
  sp_csr<T> a;
  a.n = g * g;
  a.rows.push_back(0);
  for (int y = 0; y < g; ++y)
    for (int x = 0; x < g; ++x) {
      int i = y * g + x;
      auto add = [&](int j, T v) { a.cols.push_back(j), a.vals.push_back(v); };
      T west = T(-1 - c), east = T(-1 + c);
      if constexpr (!std::is_same<T, double>::value)
        if (hermitian)
          west += T(0, -0.5), east += T(0, 0.5);
      if (y > 0)
        add(i - g, T(-1));
      if (x > 0)
        add(i - 1, west);
      add(i, T(hermitian ? 5 : 4));
      if (x < g - 1)
        add(i + 1, east);
      if (y < g - 1)
        add(i + g, T(-1));
      a.rows.push_back((int)a.cols.size());
    }
  return a;
}

template <typename T>
static double sp_residual(const sp_csr<T> &a, const std::vector<T> &x,
                          const std::vector<T> &b) {
  double r = 0, nb = 0;
  for (int i = 0; i < a.n; ++i) {
    T s = 0;
    for (int k = a.rows[i]; k < a.rows[i + 1]; ++k)
      s += a.vals[k] * x[a.cols[k]];
    r = std::fmax(r, std::abs(s - b[i]));
    nb = std::fmax(nb, std::abs(b[i]));
  }
  return r / nb;
}

template <typename T> static T *sp_dev(const std::vector<T> &v) {
  T *d;
  CHECK_CUDA(cudaMalloc(&d, v.size() * sizeof(T) + 8));
  CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(T),
                        cudaMemcpyHostToDevice));
  return d;
}

template <typename T> static std::vector<T> sp_host(const T *d, int n) {
  std::vector<T> v(n);
  CHECK_CUDA(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

static cusparseMatDescr_t sp_descr(cusparseIndexBase_t base) {
  cusparseMatDescr_t d;
  cusparseCreateMatDescr(&d);
  cusparseSetMatType(d, CUSPARSE_MATRIX_TYPE_GENERAL);
  cusparseSetMatIndexBase(d, base);
  return d;
}

static bool sp_is_permutation(const std::vector<int> &p) {
  std::vector<int> seen(p.size(), 0);
  for (int v : p)
    if (v < 0 || v >= (int)p.size() || seen[v]++)
      return false;
  return true;
}

/* The high-level solvers on the Laplacian (Cholesky, QR) and on the
 * convection-diffusion matrix (QR, LU), base 0 and 1. */
static void sp_high_level(cusolverSpHandle_t h) {
  const int g = 30;
  sp_csr<double> lap = sp_grid<double>(g, 0), conv = sp_grid<double>(g, 0.4);
  int n = lap.n, sing = 7;
  std::vector<double> b(n), x(n);
  for (int i = 0; i < n; ++i)
    b[i] = std::sin(0.1 * i) + 0.5;
  cusparseMatDescr_t d0 = sp_descr(CUSPARSE_INDEX_BASE_ZERO);
  /* Host: Cholesky, QR, LU; each ordering. */
  for (int reorder = 0; reorder < 4; ++reorder) {
    EXPECT_STATUS(cusolverSpDcsrlsvcholHost(h, n, (int)lap.vals.size(), d0,
                                            lap.vals.data(), lap.rows.data(),
                                            lap.cols.data(), b.data(), 1e-12,
                                            reorder, x.data(), &sing),
                  CUSOLVER_STATUS_SUCCESS);
    EXPECT(sing == -1 && sp_residual(lap, x, b) < 1e-12,
           "csrlsvcholHost (reorder %d): singularity %d residual %g", reorder,
           sing, sp_residual(lap, x, b));
  }
  EXPECT_STATUS(cusolverSpDcsrlsvqrHost(h, n, (int)conv.vals.size(), d0,
                                        conv.vals.data(), conv.rows.data(),
                                        conv.cols.data(), b.data(), 1e-12, 1,
                                        x.data(), &sing),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(sing == -1 && sp_residual(conv, x, b) < 1e-12,
         "csrlsvqrHost: singularity %d residual %g", sing,
         sp_residual(conv, x, b));
  EXPECT_STATUS(cusolverSpDcsrlsvluHost(h, n, (int)conv.vals.size(), d0,
                                        conv.vals.data(), conv.rows.data(),
                                        conv.cols.data(), b.data(), 1e-12, 2,
                                        x.data(), &sing),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(sing == -1 && sp_residual(conv, x, b) < 1e-12,
         "csrlsvluHost: singularity %d residual %g", sing,
         sp_residual(conv, x, b));
  /* Device, base 1: Cholesky and QR. */
  cusparseMatDescr_t d1 = sp_descr(CUSPARSE_INDEX_BASE_ONE);
  for (int pass = 0; pass < 2; ++pass) {
    sp_csr<double> &a = pass ? conv : lap;
    std::vector<int> rows1 = a.rows, cols1 = a.cols;
    for (int &v : rows1)
      ++v;
    for (int &v : cols1)
      ++v;
    int *dr = sp_dev(rows1), *dc = sp_dev(cols1);
    double *dv = sp_dev(a.vals), *db = sp_dev(b), *dx;
    CHECK_CUDA(cudaMalloc(&dx, n * sizeof(double)));
    if (pass == 0)
      EXPECT_STATUS(cusolverSpDcsrlsvchol(h, n, (int)a.vals.size(), d1, dv, dr,
                                          dc, db, 1e-12, 1, dx, &sing),
                    CUSOLVER_STATUS_SUCCESS);
    else
      EXPECT_STATUS(cusolverSpDcsrlsvqr(h, n, (int)a.vals.size(), d1, dv, dr,
                                        dc, db, 1e-12, 0, dx, &sing),
                    CUSOLVER_STATUS_SUCCESS);
    x = sp_host(dx, n);
    EXPECT(sing == -1 && sp_residual(a, x, b) < 1e-12,
           "%s on the device: singularity %d residual %g",
           pass ? "csrlsvqr" : "csrlsvchol", sing, sp_residual(a, x, b));
    cudaFree(dr), cudaFree(dc), cudaFree(dv), cudaFree(db), cudaFree(dx);
  }
  /* A singular matrix (row 5 zero) and an indefinite one (a negative
   * diagonal at 3). */
  sp_csr<double> bad = lap;
  for (int k = bad.rows[5]; k < bad.rows[6]; ++k)
    bad.vals[k] = 0;
  EXPECT_STATUS(cusolverSpDcsrlsvqrHost(h, n, (int)bad.vals.size(), d0,
                                        bad.vals.data(), bad.rows.data(),
                                        bad.cols.data(), b.data(), 1e-12, 0,
                                        x.data(), &sing),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(sing >= 0, "a singular matrix: singularity %d", sing);
  sp_csr<double> indefinite = lap;
  for (int k = indefinite.rows[3]; k < indefinite.rows[4]; ++k)
    if (indefinite.cols[k] == 3)
      indefinite.vals[k] = -4;
  EXPECT_STATUS(cusolverSpDcsrlsvcholHost(
                    h, n, (int)indefinite.vals.size(), d0,
                    indefinite.vals.data(), indefinite.rows.data(),
                    indefinite.cols.data(), b.data(), 0, 0, x.data(), &sing),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(sing >= 0, "an indefinite matrix: singularity %d", sing);
  /* A descriptor that is not GENERAL. */
  cusparseMatDescr_t sym = sp_descr(CUSPARSE_INDEX_BASE_ZERO);
  cusparseSetMatType(sym, CUSPARSE_MATRIX_TYPE_SYMMETRIC);
  EXPECT_STATUS(cusolverSpDcsrlsvcholHost(h, n, (int)lap.vals.size(), sym,
                                          lap.vals.data(), lap.rows.data(),
                                          lap.cols.data(), b.data(), 0, 0,
                                          x.data(), &sing),
                CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED);
  cusparseDestroyMatDescr(sym);
  /* Double complex, Hermitian positive definite. */
  sp_csr<sp_z> herm = sp_grid<sp_z>(g, 0, true);
  std::vector<sp_z> zb(n), zx(n);
  for (int i = 0; i < n; ++i)
    zb[i] = sp_z(std::cos(0.2 * i), 0.3);
  EXPECT_STATUS(cusolverSpZcsrlsvcholHost(
                    h, n, (int)herm.vals.size(), d0,
                    reinterpret_cast<cuDoubleComplex *>(herm.vals.data()),
                    herm.rows.data(), herm.cols.data(),
                    reinterpret_cast<cuDoubleComplex *>(zb.data()), 1e-12, 0,
                    reinterpret_cast<cuDoubleComplex *>(zx.data()), &sing),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(sing == -1 && sp_residual(herm, zx, zb) < 1e-12,
         "Zcsrlsvchol: singularity %d residual %g", sing,
         sp_residual(herm, zx, zb));
  cusparseDestroyMatDescr(d0), cusparseDestroyMatDescr(d1);
}

/* The orderings, csrperm and csrissym. */
static void sp_orderings(cusolverSpHandle_t h) {
  sp_csr<double> a = sp_grid<double>(12, 0.2);
  int n = a.n, nnz = (int)a.vals.size();
  cusparseMatDescr_t d = sp_descr(CUSPARSE_INDEX_BASE_ZERO);
  std::vector<int> p(n);
  EXPECT_STATUS(cusolverSpXcsrsymrcmHost(h, n, nnz, d, a.rows.data(),
                                         a.cols.data(), p.data()),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(sp_is_permutation(p), "symrcm: not a permutation");
  EXPECT_STATUS(cusolverSpXcsrsymamdHost(h, n, nnz, d, a.rows.data(),
                                         a.cols.data(), p.data()),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(sp_is_permutation(p), "symamd: not a permutation");
  EXPECT_STATUS(cusolverSpXcsrmetisndHost(h, n, nnz, d, a.rows.data(),
                                          a.cols.data(), nullptr, p.data()),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(sp_is_permutation(p), "metisnd: not a permutation");
  /* B = P A P^T with map, against the dense permutation. */
  std::vector<int> rows = a.rows, cols = a.cols, map(nnz);
  for (int k = 0; k < nnz; ++k)
    map[k] = k;
  size_t bytes = 0;
  EXPECT_STATUS(cusolverSpXcsrperm_bufferSizeHost(h, n, n, nnz, d, rows.data(),
                                                  cols.data(), p.data(),
                                                  p.data(), &bytes),
                CUSOLVER_STATUS_SUCCESS);
  std::vector<char> buffer(bytes);
  EXPECT_STATUS(cusolverSpXcsrpermHost(h, n, n, nnz, d, rows.data(),
                                       cols.data(), p.data(), p.data(),
                                       map.data(), buffer.data()),
                CUSOLVER_STATUS_SUCCESS);
  std::vector<double> dense(n * n, 0.0);
  for (int i = 0; i < n; ++i)
    for (int k = a.rows[i]; k < a.rows[i + 1]; ++k)
      dense[i * n + a.cols[k]] = a.vals[k];
  bool same = rows[n] == nnz;
  for (int i = 0; i < n && same; ++i)
    for (int k = rows[i]; k < rows[i + 1]; ++k)
      same = same && dense[p[i] * n + p[cols[k]]] == a.vals[map[k]] &&
             (k == rows[i] || cols[k - 1] < cols[k]);
  EXPECT(same, "csrperm: B differs from P A P^T");
  int issym = -1;
  std::vector<int> ends(a.rows.begin() + 1, a.rows.end());
  EXPECT_STATUS(cusolverSpXcsrissymHost(h, n, nnz, d, a.rows.data(),
                                        ends.data(), a.cols.data(), &issym),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(issym == 1, "csrissym: %d for a symmetric pattern", issym);
  std::vector<int> lower_rows = {0, 1, 3}, lower_cols = {0, 0, 1};
  std::vector<int> lower_ends = {1, 3};
  EXPECT_STATUS(cusolverSpXcsrissymHost(h, 2, 3, d, lower_rows.data(),
                                        lower_ends.data(), lower_cols.data(),
                                        &issym),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(issym == 0, "csrissym: %d for a triangle", issym);
  cusparseDestroyMatDescr(d);
}

/* The low-level Cholesky (host and device) and QR with a shift (host and
 * device), and csrqrsvBatched. */
static void sp_low_level(cusolverSpHandle_t h) {
  sp_csr<double> lap = sp_grid<double>(20, 0), conv = sp_grid<double>(20, 0.3);
  int n = lap.n, nnz = (int)lap.vals.size(), pos = 7;
  std::vector<double> b(n), x(n);
  for (int i = 0; i < n; ++i)
    b[i] = 1.0 / (1 + i % 7);
  cusparseMatDescr_t d = sp_descr(CUSPARSE_INDEX_BASE_ZERO);
  size_t internal = 0, work = 0;
  csrcholInfoHost_t ch;
  EXPECT_STATUS(cusolverSpCreateCsrcholInfoHost(&ch), CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverSpXcsrcholAnalysisHost(h, n, nnz, d, lap.rows.data(),
                                               lap.cols.data(), ch),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverSpDcsrcholBufferInfoHost(
                    h, n, nnz, d, lap.vals.data(), lap.rows.data(),
                    lap.cols.data(), ch, &internal, &work),
                CUSOLVER_STATUS_SUCCESS);
  std::vector<char> buffer(work + 1);
  EXPECT_STATUS(cusolverSpDcsrcholFactorHost(h, n, nnz, d, lap.vals.data(),
                                             lap.rows.data(), lap.cols.data(),
                                             ch, buffer.data()),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverSpDcsrcholZeroPivotHost(h, ch, 1e-14, &pos),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverSpDcsrcholSolveHost(h, n, b.data(), x.data(), ch,
                                            buffer.data()),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(pos == -1 && sp_residual(lap, x, b) < 1e-12,
         "low-level Cholesky on the host: pivot %d residual %g", pos,
         sp_residual(lap, x, b));
  cusolverSpDestroyCsrcholInfoHost(ch);
  /* The device's Cholesky. */
  int *dr = sp_dev(lap.rows), *dc = sp_dev(lap.cols);
  double *dv = sp_dev(lap.vals), *db = sp_dev(b), *dx;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(double)));
  csrcholInfo_t cd;
  cusolverSpCreateCsrcholInfo(&cd);
  cusolverSpXcsrcholAnalysis(h, n, nnz, d, dr, dc, cd);
  EXPECT_STATUS(cusolverSpDcsrcholBufferInfo(h, n, nnz, d, dv, dr, dc, cd,
                                             &internal, &work),
                CUSOLVER_STATUS_SUCCESS);
  void *dbuf;
  CHECK_CUDA(cudaMalloc(&dbuf, work + 1));
  EXPECT_STATUS(cusolverSpDcsrcholFactor(h, n, nnz, d, dv, dr, dc, cd, dbuf),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverSpDcsrcholZeroPivot(h, cd, 1e-14, &pos),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverSpDcsrcholSolve(h, n, db, dx, cd, dbuf),
                CUSOLVER_STATUS_SUCCESS);
  x = sp_host(dx, n);
  EXPECT(pos == -1 && sp_residual(lap, x, b) < 1e-12,
         "low-level Cholesky on the device: pivot %d residual %g", pos,
         sp_residual(lap, x, b));
  cusolverSpDestroyCsrcholInfo(cd);
  cudaFree(dr), cudaFree(dc), cudaFree(dv), cudaFree(dbuf);
  /* QR of (A - mu I) on the host: csrqrFactor also solves. */
  const double mu = 0.25;
  sp_csr<double> shifted = conv;
  for (int i = 0; i < n; ++i)
    for (int k = conv.rows[i]; k < conv.rows[i + 1]; ++k)
      if (conv.cols[k] == i)
        shifted.vals[k] -= mu;
  int cnnz = (int)conv.vals.size();
  csrqrInfoHost_t qh;
  cusolverSpCreateCsrqrInfoHost(&qh);
  EXPECT_STATUS(cusolverSpXcsrqrAnalysisHost(h, n, n, cnnz, d, conv.rows.data(),
                                             conv.cols.data(), qh),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverSpDcsrqrSetupHost(h, n, n, cnnz, d, conv.vals.data(),
                                          conv.rows.data(), conv.cols.data(),
                                          mu, qh),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverSpDcsrqrBufferInfoHost(
                    h, n, n, cnnz, d, conv.vals.data(), conv.rows.data(),
                    conv.cols.data(), qh, &internal, &work),
                CUSOLVER_STATUS_SUCCESS);
  buffer.resize(work + 1);
  std::vector<double> bq = b;
  EXPECT_STATUS(cusolverSpDcsrqrFactorHost(h, n, n, cnnz, bq.data(), x.data(),
                                           qh, buffer.data()),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverSpDcsrqrZeroPivotHost(h, qh, 1e-14, &pos),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(pos == -1 && sp_residual(shifted, x, b) < 1e-12,
         "low-level QR on the host (factor and solve): pivot %d residual %g",
         pos, sp_residual(shifted, x, b));
  std::fill(x.begin(), x.end(), 0.0);
  EXPECT_STATUS(cusolverSpDcsrqrSolveHost(h, n, n, bq.data(), x.data(), qh,
                                          buffer.data()),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(sp_residual(shifted, x, b) < 1e-12,
         "low-level QR on the host (solve): residual %g",
         sp_residual(shifted, x, b));
  cusolverSpDestroyCsrqrInfoHost(qh);
  /* The same on the device. */
  dr = sp_dev(conv.rows), dc = sp_dev(conv.cols), dv = sp_dev(conv.vals);
  csrqrInfo_t qd;
  cusolverSpCreateCsrqrInfo(&qd);
  cusolverSpXcsrqrAnalysis(h, n, n, cnnz, d, dr, dc, qd);
  cusolverSpDcsrqrSetup(h, n, n, cnnz, d, dv, dr, dc, mu, qd);
  cusolverSpDcsrqrBufferInfo(h, n, n, cnnz, d, dv, dr, dc, qd, &internal,
                             &work);
  CHECK_CUDA(cudaMalloc(&dbuf, work + 1));
  EXPECT_STATUS(cusolverSpDcsrqrFactor(h, n, n, cnnz, nullptr, nullptr, qd,
                                       dbuf),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverSpDcsrqrSolve(h, n, n, db, dx, qd, dbuf),
                CUSOLVER_STATUS_SUCCESS);
  x = sp_host(dx, n);
  EXPECT(sp_residual(shifted, x, b) < 1e-12,
         "low-level QR on the device: residual %g",
         sp_residual(shifted, x, b));
  cusolverSpDestroyCsrqrInfo(qd);
  cudaFree(dbuf);
  /* Three systems of one pattern in one call. */
  const int batch = 3;
  std::vector<double> vals, bs, xs(batch * n);
  for (int s = 0; s < batch; ++s) {
    for (int k = 0; k < cnnz; ++k)
      vals.push_back(conv.vals[k] * (1 + 0.1 * s));
    for (int i = 0; i < n; ++i)
      bs.push_back(b[i] + s);
  }
  double *dvals = sp_dev(vals), *dbs = sp_dev(bs), *dxs;
  CHECK_CUDA(cudaMalloc(&dxs, batch * n * sizeof(double)));
  csrqrInfo_t qb;
  cusolverSpCreateCsrqrInfo(&qb);
  EXPECT_STATUS(cusolverSpXcsrqrAnalysisBatched(h, n, n, cnnz, d, dr, dc, qb),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverSpDcsrqrBufferInfoBatched(h, n, n, cnnz, d, dvals, dr,
                                                  dc, batch, qb, &internal,
                                                  &work),
                CUSOLVER_STATUS_SUCCESS);
  CHECK_CUDA(cudaMalloc(&dbuf, work + 1));
  EXPECT_STATUS(cusolverSpDcsrqrsvBatched(h, n, n, cnnz, d, dvals, dr, dc, dbs,
                                          dxs, batch, qb, dbuf),
                CUSOLVER_STATUS_SUCCESS);
  xs = sp_host(dxs, batch * n);
  double worst = 0;
  for (int s = 0; s < batch; ++s) {
    sp_csr<double> one = conv;
    one.vals.assign(vals.begin() + s * cnnz, vals.begin() + (s + 1) * cnnz);
    std::vector<double> xi(xs.begin() + s * n, xs.begin() + (s + 1) * n),
        bi(bs.begin() + s * n, bs.begin() + (s + 1) * n);
    worst = std::fmax(worst, sp_residual(one, xi, bi));
  }
  EXPECT(worst < 1e-12, "csrqrsvBatched: residual %g", worst);
  cusolverSpDestroyCsrqrInfo(qb);
  cudaFree(dr), cudaFree(dc), cudaFree(dv), cudaFree(db), cudaFree(dx);
  cudaFree(dvals), cudaFree(dbs), cudaFree(dxs), cudaFree(dbuf);
  cusparseDestroyMatDescr(d);
}

/* csrluFactorHost, its factors extracted, then cusolverRf on a second
 * matrix of the same pattern. */
static void sp_refactor(cusolverSpHandle_t h) {
  sp_csr<double> a = sp_grid<double>(15, 0.35);
  int n = a.n, nnz = (int)a.vals.size(), pos = 7;
  cusparseMatDescr_t d = sp_descr(CUSPARSE_INDEX_BASE_ZERO);
  csrluInfoHost_t info;
  cusolverSpCreateCsrluInfoHost(&info);
  size_t internal = 0, work = 0;
  EXPECT_STATUS(cusolverSpXcsrluAnalysisHost(h, n, nnz, d, a.rows.data(),
                                             a.cols.data(), info),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverSpDcsrluBufferInfoHost(h, n, nnz, d, a.vals.data(),
                                               a.rows.data(), a.cols.data(),
                                               info, &internal, &work),
                CUSOLVER_STATUS_SUCCESS);
  std::vector<char> buffer(work + 1);
  EXPECT_STATUS(cusolverSpDcsrluFactorHost(h, n, nnz, d, a.vals.data(),
                                           a.rows.data(), a.cols.data(), info,
                                           1.0, buffer.data()),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverSpDcsrluZeroPivotHost(h, info, 1e-14, &pos),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(pos == -1, "csrluZeroPivotHost: %d", pos);
  int nnz_l = 0, nnz_u = 0;
  EXPECT_STATUS(cusolverSpXcsrluNnzHost(h, &nnz_l, &nnz_u, info),
                CUSOLVER_STATUS_SUCCESS);
  std::vector<int> P(n), Q(n), lr(n + 1), lc(nnz_l), ur(n + 1), uc(nnz_u);
  std::vector<double> lv(nnz_l), uv(nnz_u);
  cusparseMatDescr_t dl = sp_descr(CUSPARSE_INDEX_BASE_ZERO),
                     du = sp_descr(CUSPARSE_INDEX_BASE_ZERO);
  cusparseSetMatFillMode(dl, CUSPARSE_FILL_MODE_LOWER);
  cusparseSetMatDiagType(dl, CUSPARSE_DIAG_TYPE_UNIT);
  cusparseSetMatFillMode(du, CUSPARSE_FILL_MODE_UPPER);
  EXPECT_STATUS(cusolverSpDcsrluExtractHost(h, P.data(), Q.data(), dl,
                                            lv.data(), lr.data(), lc.data(),
                                            du, uv.data(), ur.data(),
                                            uc.data(), info, buffer.data()),
                CUSOLVER_STATUS_SUCCESS);
  /* P A Q^T = L U, densely. */
  std::vector<double> lu(n * n, 0.0), pa(n * n, 0.0), dl_(n * n, 0.0),
      du_(n * n, 0.0);
  for (int i = 0; i < n; ++i) {
    for (int q = lr[i]; q < lr[i + 1]; ++q)
      dl_[i * n + lc[q]] = lv[q];
    for (int q = ur[i]; q < ur[i + 1]; ++q)
      du_[i * n + uc[q]] = uv[q];
  }
  std::vector<int> qinv(n);
  for (int j = 0; j < n; ++j)
    qinv[Q[j]] = j;
  for (int i = 0; i < n; ++i)
    for (int k = a.rows[P[i]]; k < a.rows[P[i] + 1]; ++k)
      pa[i * n + qinv[a.cols[k]]] = a.vals[k];
  double err = 0;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k)
      if (dl_[i * n + k] != 0)
        for (int j = k; j < n; ++j)
          lu[i * n + j] += dl_[i * n + k] * du_[k * n + j];
  for (int i = 0; i < n * n; ++i)
    err = std::fmax(err, std::fabs(lu[i] - pa[i]));
  EXPECT(err < 1e-12, "csrluExtractHost: |P A Q^T - L U| = %g", err);
  /* The refactorization: a second matrix of the same pattern. */
  sp_csr<double> a2 = a;
  for (int i = 0; i < n; ++i)
    for (int k = a.rows[i]; k < a.rows[i + 1]; ++k)
      a2.vals[k] = a.cols[k] == i ? 5.0 + 0.01 * (i % 9) : a.vals[k] * 0.9;
  cusolverRfHandle_t rf;
  EXPECT_STATUS(cusolverRfCreate(&rf), CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverRfSetNumericProperties(rf, 0.0, 0.0),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverRfSetAlgs(rf, CUSOLVERRF_FACTORIZATION_ALG0,
                                  CUSOLVERRF_TRIANGULAR_SOLVE_ALG1),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverRfSetMatrixFormat(rf, CUSOLVERRF_MATRIX_FORMAT_CSR,
                                          CUSOLVERRF_UNIT_DIAGONAL_STORED_L),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverRfSetupHost(n, nnz, a.rows.data(), a.cols.data(),
                                    a.vals.data(), nnz_l, lr.data(),
                                    lc.data(), lv.data(), nnz_u, ur.data(),
                                    uc.data(), uv.data(), P.data(), Q.data(),
                                    rf),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverRfAnalyze(rf), CUSOLVER_STATUS_SUCCESS);
  int *d_rows = sp_dev(a2.rows), *d_cols = sp_dev(a2.cols), *d_P = sp_dev(P),
      *d_Q = sp_dev(Q);
  double *d_vals = sp_dev(a2.vals), *d_x, *d_t;
  std::vector<double> b(n);
  for (int i = 0; i < n; ++i)
    b[i] = std::cos(0.3 * i);
  d_x = sp_dev(b);
  CHECK_CUDA(cudaMalloc(&d_t, n * sizeof(double)));
  EXPECT_STATUS(cusolverRfResetValues(n, nnz, d_rows, d_cols, d_vals, d_P, d_Q,
                                      rf),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverRfRefactor(rf), CUSOLVER_STATUS_SUCCESS);
  EXPECT_STATUS(cusolverRfSolve(rf, d_P, d_Q, 1, d_t, n, d_x, n),
                CUSOLVER_STATUS_SUCCESS);
  std::vector<double> x = sp_host(d_x, n);
  EXPECT(sp_residual(a2, x, b) < 1e-12, "cusolverRf: residual %g",
         sp_residual(a2, x, b));
  int nnz_m = 0, *m_rows, *m_cols;
  double *m_vals;
  EXPECT_STATUS(cusolverRfAccessBundledFactorsDevice(rf, &nnz_m, &m_rows,
                                                     &m_cols, &m_vals),
                CUSOLVER_STATUS_SUCCESS);
  EXPECT(nnz_m == nnz_l - n + nnz_u, "bundled factors: %d entries", nnz_m);
  cusolverRfDestroy(rf);
  cusolverSpDestroyCsrluInfoHost(info);
  cusparseDestroyMatDescr(d), cusparseDestroyMatDescr(dl);
  cusparseDestroyMatDescr(du);
  cudaFree(d_rows), cudaFree(d_cols), cudaFree(d_P), cudaFree(d_Q);
  cudaFree(d_vals), cudaFree(d_x), cudaFree(d_t);
}

int main() {
  cusolverSpHandle_t h;
  EXPECT_STATUS(cusolverSpCreate(&h), CUSOLVER_STATUS_SUCCESS);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  EXPECT_STATUS(cusolverSpSetStream(h, stream), CUSOLVER_STATUS_SUCCESS);
  sp_high_level(h);
  sp_orderings(h);
  sp_low_level(h);
  sp_refactor(h);
  EXPECT_STATUS(cusolverSpDestroy(h), CUSOLVER_STATUS_SUCCESS);
  cudaStreamDestroy(stream);
  return finish();
}
