/*
 * cuemu_solver_rf.c: cuSOLVER's refactorization API (cusolverRf.h): the
 * LU factors of a first matrix (cusolverSpXcsrluExtractHost's, or the
 * program's), set up with their permutations P and Q (P A Q^T = L U);
 * then, for each new matrix of the same pattern, a refactorization without
 * pivoting onto that pattern, and solves; one system or a batch.
 *
 * The handle keeps the factors as cuemu_sp_lu (cuemu_solver_sparse_lu.c),
 * in double; the bundled factors M = L + U - I, which
 * cusolverRfAccessBundledFactorsDevice gives, are made when asked, in
 * device memory that the handle owns. Only the CSR format with L's unit
 * diagonal stored or assumed is taken (cusolverRfSetMatrixFormat: CSC and
 * a stored or assumed U diagonal are CUSOLVER_STATUS_NOT_SUPPORTED). The
 * algorithms (cusolverRfSetAlgs) and the fast reset mode are kept and
 * change nothing. Every call runs on the host at once: the device memory
 * a program gives is written by the time it returns.
 */
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>

#include "cuemu_solver_sparse.h"

#define E CUEMU_SOLVER_EXPORT

enum { RF_CSR = 0, RF_STORED_L = 0, RF_ASSUMED_L = 2 };

/* One system of a batch: A's values (its pattern is the handle's) and
 * its factors. */
typedef struct {
  double *a_vals;
  cuemu_sp_lu lu;
  int64_t zero_row;
} rf_system;

typedef struct cusolverRfCommon {
  int format, diag, fact_alg, solve_alg, fast_mode;
  double zero, boost;
  int boosted;
  int n, nnz_a;
  int *a_rows, *a_cols;
  rf_system *systems;
  int batch;
  /* The bundled factors in device memory, for the program to read. */
  int *m_rows, *m_cols;
  double *m_vals;
} * cusolverRfHandle_t;

static void systems_free(cusolverRfHandle_t h) {
  for (int b = 0; b < h->batch; ++b) {
    free(h->systems[b].a_vals);
    cuemu__sp_lu_free(&h->systems[b].lu);
  }
  free(h->systems), free(h->a_rows), free(h->a_cols);
  h->systems = NULL, h->a_rows = h->a_cols = NULL, h->batch = 0;
  if (h->m_rows)
    cuemu_rt_free(h->m_rows), cuemu_rt_free(h->m_cols),
        cuemu_rt_free(h->m_vals);
  h->m_rows = h->m_cols = NULL, h->m_vals = NULL;
}

E cusolverStatus_t cusolverRfCreate(cusolverRfHandle_t *handle) {
  if (!handle)
    return CUSOLVER_STATUS_INVALID_VALUE;
  cusolverRfHandle_t h = calloc(1, sizeof *h);
  if (!h)
    return CUSOLVER_STATUS_ALLOC_FAILED;
  h->format = RF_CSR, h->diag = RF_STORED_L;
  h->fact_alg = 0, h->solve_alg = 1;
  *handle = h;
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverRfDestroy(cusolverRfHandle_t h) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  systems_free(h);
  free(h);
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverRfSetMatrixFormat(cusolverRfHandle_t h, int format,
                                             int diag) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (format < 0 || format > 1 || diag < 0 || diag > 3)
    return CUSOLVER_STATUS_INVALID_VALUE;
  if (format != RF_CSR || (diag != RF_STORED_L && diag != RF_ASSUMED_L))
    return CUSOLVER_STATUS_NOT_SUPPORTED;
  h->format = format, h->diag = diag;
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverRfGetMatrixFormat(cusolverRfHandle_t h, int *format,
                                             int *diag) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!format || !diag)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *format = h->format, *diag = h->diag;
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverRfSetNumericProperties(cusolverRfHandle_t h,
                                                  double zero, double boost) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (zero < 0 || boost < 0)
    return CUSOLVER_STATUS_INVALID_VALUE;
  h->zero = zero, h->boost = boost;
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverRfGetNumericProperties(cusolverRfHandle_t h,
                                                  double *zero, double *boost) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!zero || !boost)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *zero = h->zero, *boost = h->boost;
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverRfGetNumericBoostReport(cusolverRfHandle_t h,
                                                   int *report) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!report)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *report = h->boosted;
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverRfSetAlgs(cusolverRfHandle_t h, int fact_alg,
                                     int solve_alg) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (fact_alg < 0 || fact_alg > 2 || solve_alg < 1 || solve_alg > 3)
    return CUSOLVER_STATUS_INVALID_VALUE;
  h->fact_alg = fact_alg, h->solve_alg = solve_alg;
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverRfGetAlgs(cusolverRfHandle_t h, int *fact_alg,
                                     int *solve_alg) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!fact_alg || !solve_alg)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *fact_alg = h->fact_alg, *solve_alg = h->solve_alg;
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverRfSetResetValuesFastMode(cusolverRfHandle_t h,
                                                    int mode) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (mode != 0 && mode != 1)
    return CUSOLVER_STATUS_INVALID_VALUE;
  h->fast_mode = mode;
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverRfGetResetValuesFastMode(cusolverRfHandle_t h,
                                                    int *mode) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!mode)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *mode = h->fast_mode;
  return CUSOLVER_STATUS_SUCCESS;
}

/* A's pattern and the factors' copies, 0-based: the setup of `batch`
 * systems whose values are vals[b]. L's unit diagonal is stored or not
 * (h->diag); cuemu keeps it stored. */
static cusolverStatus_t
setup(cusolverRfHandle_t h, int batch, int n, int nnz_a, const int *a_rows,
      const int *a_cols, double *const *vals, int nnz_l, const int *l_rows,
      const int *l_cols, const double *l_vals, int nnz_u, const int *u_rows,
      const int *u_cols, const double *u_vals, const int *P, const int *Q) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (batch < 1 || n < 0 || nnz_a < 0 || nnz_l < 0 || nnz_u < 0 || !a_rows ||
      !a_cols || !vals || !l_rows || !l_cols || !l_vals || !u_rows || !u_cols ||
      !u_vals || !P || !Q)
    return CUSOLVER_STATUS_INVALID_VALUE;
  for (int b = 0; b < batch; ++b)
    if (!vals[b])
      return CUSOLVER_STATUS_INVALID_VALUE;
  systems_free(h);
  int stored = h->diag == RF_STORED_L;
  size_t l_count = (size_t)nnz_l + (stored ? 0 : (size_t)n);
  h->systems = calloc((size_t)batch, sizeof *h->systems);
  h->a_rows = malloc(((size_t)n + 1) * sizeof *h->a_rows);
  h->a_cols = malloc(((size_t)nnz_a + 1) * sizeof *h->a_cols);
  int ok = h->systems && h->a_rows && h->a_cols;
  if (ok) {
    h->batch = batch, h->n = n, h->nnz_a = nnz_a;
    memcpy(h->a_rows, a_rows, ((size_t)n + 1) * sizeof *a_rows);
    memcpy(h->a_cols, a_cols, (size_t)nnz_a * sizeof *a_cols);
  }
  for (int b = 0; ok && b < batch; ++b) {
    rf_system *s = &h->systems[b];
    cuemu_sp_lu *lu = &s->lu;
    s->zero_row = -1;
    s->a_vals = malloc(((size_t)nnz_a + 1) * sizeof *s->a_vals);
    lu->n = n;
    lu->P = malloc(((size_t)n + 1) * sizeof *lu->P);
    lu->Q = malloc(((size_t)n + 1) * sizeof *lu->Q);
    lu->l_rows = malloc(((size_t)n + 1) * sizeof *lu->l_rows);
    lu->u_rows = malloc(((size_t)n + 1) * sizeof *lu->u_rows);
    lu->l_cols = malloc((l_count + 1) * sizeof *lu->l_cols);
    lu->l_vals = malloc((l_count + 1) * sizeof *lu->l_vals);
    lu->u_cols = malloc(((size_t)nnz_u + 1) * sizeof *lu->u_cols);
    lu->u_vals = malloc(((size_t)nnz_u + 1) * sizeof *lu->u_vals);
    ok = s->a_vals && lu->P && lu->Q && lu->l_rows && lu->u_rows &&
         lu->l_cols && lu->l_vals && lu->u_cols && lu->u_vals;
    if (!ok)
      break;
    memcpy(s->a_vals, vals[b], (size_t)nnz_a * sizeof *s->a_vals);
    memcpy(lu->P, P, (size_t)n * sizeof *P);
    memcpy(lu->Q, Q, (size_t)n * sizeof *Q);
    int k = 0;
    for (int i = 0; i < n; ++i) {
      lu->l_rows[i] = k;
      for (int q = l_rows[i] - l_rows[0]; q < l_rows[i + 1] - l_rows[0]; ++q)
        if (l_cols[q] - l_rows[0] != i)
          lu->l_cols[k] = l_cols[q] - l_rows[0], lu->l_vals[k++] = l_vals[q];
      lu->l_cols[k] = i, lu->l_vals[k++] = 1;
    }
    lu->l_rows[n] = k;
    for (int i = 0; i <= n; ++i)
      lu->u_rows[i] = u_rows[i] - u_rows[0];
    for (int q = 0; q < nnz_u; ++q)
      lu->u_cols[q] = u_cols[q] - u_rows[0], lu->u_vals[q] = u_vals[q];
  }
  if (!ok) {
    systems_free(h);
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverRfSetupHost(int n, int nnz_a, int *a_rows,
                                       int *a_cols, double *a_vals, int nnz_l,
                                       int *l_rows, int *l_cols, double *l_vals,
                                       int nnz_u, int *u_rows, int *u_cols,
                                       double *u_vals, int *P, int *Q,
                                       cusolverRfHandle_t h) {
  return setup(h, 1, n, nnz_a, a_rows, a_cols, &a_vals, nnz_l, l_rows, l_cols,
               l_vals, nnz_u, u_rows, u_cols, u_vals, P, Q);
}

E cusolverStatus_t cusolverRfSetupDevice(int n, int nnz_a, int *a_rows,
                                         int *a_cols, double *a_vals, int nnz_l,
                                         int *l_rows, int *l_cols,
                                         double *l_vals, int nnz_u, int *u_rows,
                                         int *u_cols, double *u_vals, int *P,
                                         int *Q, cusolverRfHandle_t h) {
  cuemu_rt_device_synchronize();
  return setup(h, 1, n, nnz_a, a_rows, a_cols, &a_vals, nnz_l, l_rows, l_cols,
               l_vals, nnz_u, u_rows, u_cols, u_vals, P, Q);
}

E cusolverStatus_t cusolverRfBatchSetupHost(
    int batch, int n, int nnz_a, int *a_rows, int *a_cols, double *a_vals[],
    int nnz_l, int *l_rows, int *l_cols, double *l_vals, int nnz_u, int *u_rows,
    int *u_cols, double *u_vals, int *P, int *Q, cusolverRfHandle_t h) {
  return setup(h, batch, n, nnz_a, a_rows, a_cols, a_vals, nnz_l, l_rows,
               l_cols, l_vals, nnz_u, u_rows, u_cols, u_vals, P, Q);
}

static cusolverStatus_t analyze(cusolverRfHandle_t h) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  return h->batch ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_INVALID_VALUE;
}
E cusolverStatus_t cusolverRfAnalyze(cusolverRfHandle_t h) {
  return analyze(h);
}
E cusolverStatus_t cusolverRfBatchAnalyze(cusolverRfHandle_t h) {
  return analyze(h);
}

/* New values of A (device memory: the pattern, P and Q are the setup's). */
static cusolverStatus_t reset(cusolverRfHandle_t h, int batch, int n, int nnz_a,
                              double *const *vals) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!h->batch || batch != h->batch || n != h->n || nnz_a != h->nnz_a || !vals)
    return CUSOLVER_STATUS_INVALID_VALUE;
  cuemu_rt_device_synchronize();
  for (int b = 0; b < batch; ++b) {
    if (!vals[b])
      return CUSOLVER_STATUS_INVALID_VALUE;
    memcpy(h->systems[b].a_vals, vals[b], (size_t)nnz_a * sizeof(double));
  }
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverRfResetValues(int n, int nnz_a, int *a_rows,
                                         int *a_cols, double *a_vals, int *P,
                                         int *Q, cusolverRfHandle_t h) {
  (void)a_rows, (void)a_cols, (void)P, (void)Q;
  return reset(h, h ? h->batch : 0, n, nnz_a, &a_vals);
}

E cusolverStatus_t cusolverRfBatchResetValues(int batch, int n, int nnz_a,
                                              int *a_rows, int *a_cols,
                                              double *a_vals[], int *P, int *Q,
                                              cusolverRfHandle_t h) {
  (void)a_rows, (void)a_cols, (void)P, (void)Q;
  return reset(h, batch, n, nnz_a, a_vals);
}

/* Each system's LU onto the setup's pattern. */
static cusolverStatus_t refactor(cusolverRfHandle_t h) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!h->batch)
    return CUSOLVER_STATUS_INVALID_VALUE;
  int any_zero = 0;
  h->boosted = 0;
  for (int b = 0; b < h->batch; ++b) {
    rf_system *s = &h->systems[b];
    cuemu_sp_csr a = {h->n,      h->n,      h->nnz_a,       h->a_rows,
                      h->a_cols, s->a_vals, CUEMU_SOLVER_D, 0};
    int boosted = 0;
    s->zero_row =
        cuemu__sp_lu_refactor(&a, &s->lu, h->zero, h->boost, &boosted);
    h->boosted |= boosted;
    any_zero |= s->zero_row >= 0 && !boosted;
  }
  return any_zero ? (cusolverStatus_t)10 /* CUSOLVER_STATUS_ZERO_PIVOT */
                  : CUSOLVER_STATUS_SUCCESS;
}
E cusolverStatus_t cusolverRfRefactor(cusolverRfHandle_t h) {
  return refactor(h);
}
E cusolverStatus_t cusolverRfBatchRefactor(cusolverRfHandle_t h) {
  return refactor(h);
}

E cusolverStatus_t cusolverRfBatchZeroPivot(cusolverRfHandle_t h,
                                            int *position) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!h->batch || !position)
    return CUSOLVER_STATUS_INVALID_VALUE;
  int any = 0;
  for (int b = 0; b < h->batch; ++b) {
    position[b] = (int)h->systems[b].zero_row;
    any |= position[b] >= 0;
  }
  return any ? (cusolverStatus_t)10 : CUSOLVER_STATUS_SUCCESS;
}

/* x = A^-1 b for each of nrhs columns of XF (device memory, in place);
 * Temp is cuSOLVER's workspace, unused. */
static cusolverStatus_t solve(cusolverRfHandle_t h, int nrhs, int ldxf,
                              double *const *xf) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!h->batch || nrhs < 1 || ldxf < h->n || !xf)
    return CUSOLVER_STATUS_INVALID_VALUE;
  cuemu_rt_device_synchronize();
  for (int b = 0; b < h->batch; ++b)
    for (int r = 0; r < nrhs && xf[b]; ++r) {
      double *col = xf[b] + (size_t)r * ldxf;
      cuemu__sp_lu_solve(&h->systems[b].lu, CUEMU_SOLVER_D, col, col);
    }
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverRfSolve(cusolverRfHandle_t h, int *P, int *Q,
                                   int nrhs, double *temp, int ldt, double *xf,
                                   int ldxf) {
  (void)P, (void)Q, (void)temp, (void)ldt;
  if (h && h->batch != 1)
    return CUSOLVER_STATUS_INVALID_VALUE;
  return solve(h, nrhs, ldxf, &xf);
}

E cusolverStatus_t cusolverRfBatchSolve(cusolverRfHandle_t h, int *P, int *Q,
                                        int nrhs, double *temp, int ldt,
                                        double *xf[], int ldxf) {
  (void)P, (void)Q, (void)temp, (void)ldt;
  return solve(h, nrhs, ldxf, xf);
}

/* M = L + U - I of the first system, in CSR: arrays from `alloc`. */
static cusolverStatus_t bundle(cusolverRfHandle_t h, int device, int *nnz,
                               int **rows, int **cols, double **vals) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!h->batch || !nnz || !rows || !cols || !vals)
    return CUSOLVER_STATUS_INVALID_VALUE;
  const cuemu_sp_lu *lu = &h->systems[0].lu;
  int n = (int)lu->n, count = lu->l_rows[n] - n + lu->u_rows[n];
  int *r = NULL, *c = NULL;
  double *v = NULL;
  if (device) {
    if (h->m_rows)
      cuemu_rt_free(h->m_rows), cuemu_rt_free(h->m_cols),
          cuemu_rt_free(h->m_vals);
    h->m_rows = h->m_cols = NULL, h->m_vals = NULL;
    if (cuemu_rt_malloc((void **)&r, ((size_t)n + 1) * sizeof *r) != 0 ||
        cuemu_rt_malloc((void **)&c, ((size_t)count + 1) * sizeof *c) != 0 ||
        cuemu_rt_malloc((void **)&v, ((size_t)count + 1) * sizeof *v) != 0)
      return CUSOLVER_STATUS_ALLOC_FAILED;
    h->m_rows = r, h->m_cols = c, h->m_vals = v;
  } else {
    r = malloc(((size_t)n + 1) * sizeof *r);
    c = malloc(((size_t)count + 1) * sizeof *c);
    v = malloc(((size_t)count + 1) * sizeof *v);
    if (!r || !c || !v) {
      free(r), free(c), free(v);
      return CUSOLVER_STATUS_ALLOC_FAILED;
    }
  }
  int k = 0;
  for (int i = 0; i < n; ++i) {
    r[i] = k;
    for (int q = lu->l_rows[i]; q < lu->l_rows[i + 1]; ++q)
      if (lu->l_cols[q] != i)
        c[k] = lu->l_cols[q], v[k++] = creal(lu->l_vals[q]);
    for (int q = lu->u_rows[i]; q < lu->u_rows[i + 1]; ++q)
      c[k] = lu->u_cols[q], v[k++] = creal(lu->u_vals[q]);
  }
  r[n] = k;
  *nnz = k, *rows = r, *cols = c, *vals = v;
  return CUSOLVER_STATUS_SUCCESS;
}

E cusolverStatus_t cusolverRfAccessBundledFactorsDevice(cusolverRfHandle_t h,
                                                        int *nnz, int **rows,
                                                        int **cols,
                                                        double **vals) {
  return bundle(h, 1, nnz, rows, cols, vals);
}

E cusolverStatus_t cusolverRfExtractBundledFactorsHost(cusolverRfHandle_t h,
                                                       int *nnz, int **rows,
                                                       int **cols,
                                                       double **vals) {
  return bundle(h, 0, nnz, rows, cols, vals);
}

/* L (its unit diagonal stored) and U, in new host arrays. */
E cusolverStatus_t cusolverRfExtractSplitFactorsHost(
    cusolverRfHandle_t h, int *nnz_l, int **l_rows, int **l_cols,
    double **l_vals, int *nnz_u, int **u_rows, int **u_cols, double **u_vals) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!h->batch || !nnz_l || !l_rows || !l_cols || !l_vals || !nnz_u ||
      !u_rows || !u_cols || !u_vals)
    return CUSOLVER_STATUS_INVALID_VALUE;
  const cuemu_sp_lu *lu = &h->systems[0].lu;
  int n = (int)lu->n, nl = lu->l_rows[n], nu = lu->u_rows[n];
  *l_rows = malloc(((size_t)n + 1) * sizeof(int));
  *l_cols = malloc(((size_t)nl + 1) * sizeof(int));
  *l_vals = malloc(((size_t)nl + 1) * sizeof(double));
  *u_rows = malloc(((size_t)n + 1) * sizeof(int));
  *u_cols = malloc(((size_t)nu + 1) * sizeof(int));
  *u_vals = malloc(((size_t)nu + 1) * sizeof(double));
  if (!*l_rows || !*l_cols || !*l_vals || !*u_rows || !*u_cols || !*u_vals)
    return CUSOLVER_STATUS_ALLOC_FAILED;
  memcpy(*l_rows, lu->l_rows, ((size_t)n + 1) * sizeof(int));
  memcpy(*l_cols, lu->l_cols, (size_t)nl * sizeof(int));
  memcpy(*u_rows, lu->u_rows, ((size_t)n + 1) * sizeof(int));
  memcpy(*u_cols, lu->u_cols, (size_t)nu * sizeof(int));
  for (int k = 0; k < nl; ++k)
    (*l_vals)[k] = creal(lu->l_vals[k]);
  for (int k = 0; k < nu; ++k)
    (*u_vals)[k] = creal(lu->u_vals[k]);
  *nnz_l = nl, *nnz_u = nu;
  return CUSOLVER_STATUS_SUCCESS;
}
