/*
 * cuemu_solver_orthogonal.c: cuSOLVER's dense QR and spectral calls, S/D/C/Z
 * (and Xgeqrf): geqrf, ormqr/unmqr, orgqr/ungqr, gesvd, syevd/heevd and
 * their buffer sizes. Arguments are checked as LAPACK does; the work runs in
 * the handle's stream order on complex-double copies
 * (cuemu_solver_factor.c, cuemu_solver_spectral.c).
 */
#include <stdlib.h>
#include <string.h>

#include "cuemu_solver.h"

#define MAX1(x) ((x) > 1 ? (x) : 1)

/* ---- Runs in stream order ------------------------------------------------
 */

static void run_geqrf(void *p) {
  cuemu_solver_call *c = p;
  int64_t k = c->m < c->n ? c->m : c->n;
  cuemu_solver_value *a = cuemu__solver_get(c->a, c->type, c->m, c->n, c->lda);
  cuemu_solver_value *tau = malloc((size_t)MAX1(k) * sizeof *tau);
  if (a && tau) {
    cuemu__solver_qr(a, c->m, c->n, tau);
    cuemu__solver_put(c->a, c->type, c->m, c->n, c->lda, a);
    for (int64_t i = 0; i < k; ++i)
      cuemu__solver_store(c->tau, c->type, i, tau[i]);
    if (c->info)
      cuemu__solver_info_set(c->info, 0, 0);
  }
  free(a);
  free(tau);
}

/* ormqr/unmqr: C := op(Q) C or C op(Q); b is C (m x n), A the reflectors
 * (nq x k, nq = m from the left, n from the right). */
static void run_ormqr(void *p) {
  cuemu_solver_call *c = p;
  int64_t nq = c->side == CUEMU_SIDE_LEFT ? c->m : c->n;
  cuemu_solver_value *v = cuemu__solver_get(c->a, c->type, nq, c->k, c->lda);
  cuemu_solver_value *tau = cuemu__solver_get(c->tau, c->type, c->k, 1, c->k);
  cuemu_solver_value *m = cuemu__solver_get(c->b, c->type, c->m, c->n, c->ldb);
  if (v && tau && m) {
    cuemu__solver_apply_q(v, nq, c->k, tau, c->side, c->op, 0, m, c->m, c->n);
    cuemu__solver_put(c->b, c->type, c->m, c->n, c->ldb, m);
    if (c->info)
      cuemu__solver_info_set(c->info, 0, 0);
  }
  free(v);
  free(tau);
  free(m);
}

/* orgqr/ungqr: A := the first n columns of Q = H(1) ... H(k). */
static void run_orgqr(void *p) {
  cuemu_solver_call *c = p;
  cuemu_solver_value *v = cuemu__solver_get(c->a, c->type, c->m, c->k, c->lda);
  cuemu_solver_value *tau = cuemu__solver_get(c->tau, c->type, c->k, 1, c->k);
  cuemu_solver_value *q = calloc((size_t)MAX1(c->m * c->n), sizeof *q);
  if (v && tau && q) {
    for (int64_t i = 0; i < c->n; ++i)
      q[i * c->m + i] = 1;
    cuemu__solver_apply_q(v, c->m, c->k, tau, CUEMU_SIDE_LEFT, CUEMU_OP_N, 0, q,
                          c->m, c->n);
    cuemu__solver_put(c->a, c->type, c->m, c->n, c->lda, q);
    if (c->info)
      cuemu__solver_info_set(c->info, 0, 0);
  }
  free(v);
  free(tau);
  free(q);
}

static void run_gesvd(void *p) {
  cuemu_solver_call *c = p;
  int64_t m = c->m, n = c->n;
  cuemu_solver_value *a = cuemu__solver_get(c->a, c->type, m, n, c->lda);
  cuemu_solver_value *u = malloc((size_t)MAX1(m * m) * sizeof *u);
  cuemu_solver_value *vt = malloc((size_t)MAX1(n * n) * sizeof *vt);
  double *s = malloc((size_t)MAX1(n) * sizeof *s);
  if (a && u && vt && s) {
    int info = cuemu__solver_svd(a, m, n, s, u, vt);
    for (int64_t i = 0; i < n; ++i)
      cuemu__solver_store_real(c->s, c->type, i, s[i]);
    /* jobu: 'A' all m columns, 'S' the first n, 'O' the first n over A. */
    if (c->jobu == 'A' || c->jobu == 'S')
      cuemu__solver_put(c->u, c->type, m, c->jobu == 'A' ? m : n, c->ldu, u);
    else if (c->jobu == 'O')
      cuemu__solver_put(c->a, c->type, m, n, c->lda, u);
    /* jobvt: 'A' and 'S' are both n x n (m >= n); 'O' over A's first n
     * rows. */
    if (c->jobvt == 'A' || c->jobvt == 'S')
      cuemu__solver_put(c->vt, c->type, n, n, c->ldvt, vt);
    else if (c->jobvt == 'O')
      cuemu__solver_put(c->a, c->type, n, n, c->lda, vt);
    /* info > 0: superdiagonals that did not converge (LAPACK's meaning);
     * cuemu reports all of them when its sweeps ran out. */
    if (c->info)
      cuemu__solver_info_set(c->info, 0, info ? (int)(n > 1 ? n - 1 : 1) : 0);
  }
  free(a);
  free(u);
  free(vt);
  free(s);
}

/* One eigen-decomposition: A at a (leading dimension c->lda), W at w,
 * info at *info (NULL for none). */
static void syevd_one(const cuemu_solver_call *c, void *pa, void *pw,
                      int *info) {
  int64_t n = c->n;
  cuemu_solver_value *a = cuemu__solver_get(pa, c->type, n, n, c->lda);
  double *w = malloc((size_t)MAX1(n) * sizeof *w);
  if (a && w) {
    cuemu__solver_hermitian(a, n, c->uplo);
    cuemu_solver_sweeps ctl = {
        .tol = c->tol, .max_sweeps = c->max_sweeps, .unsorted = c->unsorted};
    int bad =
        cuemu__solver_eigh_jacobi(a, n, w, c->vectors, c->jacobi ? &ctl : NULL);
    /* syevdx keeps a part: its eigenvalues in W's first meig, their
     * vectors in A's first meig columns. */
    int64_t first, m = cuemu__solver_range_keep(&c->select, w, n, &first);
    for (int64_t i = 0; i < m; ++i)
      cuemu__solver_store_real(pw, c->type, i, w[i]);
    if (c->vectors)
      cuemu__solver_put(pa, c->type, n, m, c->lda, a + first * n);
    /* syevd: info = n when the sweeps did not converge; syevj: n + 1 (its
     * tolerance and sweeps not met), with its report in the info object
     * (a batched call has none). */
    if (c->jacobi) {
      c->jacobi->residual = ctl.residual;
      c->jacobi->sweeps = ctl.sweeps;
      c->jacobi->batched = c->batch > 0;
    }
    if (info)
      cuemu__solver_info_set(info, 0, bad ? (int)n + (c->jacobi != NULL) : 0);
  }
  free(a);
  free(w);
}

/* syevd and syevj, or syevjBatched's c->batch matrices one after another
 * (lda x n elements apart; W n apart; one info each). */
static void run_syevd(void *p) {
  cuemu_solver_call *c = p;
  int64_t count = c->batch > 0 ? c->batch : 1;
  size_t a_step = (size_t)(c->lda * c->n) * cuemu__solver_size(c->type);
  size_t w_step = (size_t)c->n * cuemu__solver_real_size(c->type);
  for (int64_t b = 0; b < count; ++b)
    syevd_one(c, (char *)c->a + b * a_step, (char *)c->s + b * w_step,
              c->info ? c->info + b : NULL);
}

/* ---- Checks and calls
 * --------------------------------------------------------
 */

static cusolverStatus_t geqrf(cusolverDnHandle_t h, cuemu_solver_type type,
                              int64_t m, int64_t n, void *a, int64_t lda,
                              void *tau, int *info) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (m < 0)
    return cuemu__solver_bad_argument(h, info, 1);
  if (n < 0)
    return cuemu__solver_bad_argument(h, info, 2);
  if (lda < MAX1(m))
    return cuemu__solver_bad_argument(h, info, 4);
  size_t e = cuemu__solver_size(type);
  const char *name = "cusolverDn?geqrf";
  if (!cuemu__solver_check_matrix(name, "A", a, m, n, lda, e) ||
      !cuemu__solver_check_matrix(name, "TAU", tau, m < n ? m : n, 1, MAX1(m),
                                  e) ||
      !cuemu__solver_check_info(name, info))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {.type = type,
                         .m = m,
                         .n = n,
                         .a = a,
                         .lda = lda,
                         .tau = tau,
                         .info = info};
  return cuemu__solver_enqueue(h, run_geqrf, &c);
}

static cusolverStatus_t ormqr(cusolverDnHandle_t h, cuemu_solver_type type,
                              int side, int op, int64_t m, int64_t n, int64_t k,
                              const void *a, int64_t lda, const void *tau,
                              void *cm, int64_t ldc, int *info) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  int64_t nq = side == CUEMU_SIDE_LEFT ? m : n;
  if (side != CUEMU_SIDE_LEFT && side != CUEMU_SIDE_RIGHT)
    return cuemu__solver_bad_argument(h, info, 1);
  if (!cuemu__solver_q_op(type, op))
    return cuemu__solver_bad_argument(h, info, 2);
  if (m < 0)
    return cuemu__solver_bad_argument(h, info, 3);
  if (n < 0)
    return cuemu__solver_bad_argument(h, info, 4);
  if (k < 0 || k > nq)
    return cuemu__solver_bad_argument(h, info, 5);
  if (lda < MAX1(nq))
    return cuemu__solver_bad_argument(h, info, 7);
  if (ldc < MAX1(m))
    return cuemu__solver_bad_argument(h, info, 10);
  size_t e = cuemu__solver_size(type);
  const char *name = "cusolverDn?ormqr";
  if (!cuemu__solver_check_matrix(name, "A", a, nq, k, lda, e) ||
      !cuemu__solver_check_matrix(name, "tau", tau, k, 1, MAX1(k), e) ||
      !cuemu__solver_check_matrix(name, "C", cm, m, n, ldc, e) ||
      !cuemu__solver_check_info(name, info))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {.type = type,
                         .side = side,
                         .op = op,
                         .m = m,
                         .n = n,
                         .k = k,
                         .a = (void *)a,
                         .lda = lda,
                         .tau = (void *)tau,
                         .b = cm,
                         .ldb = ldc,
                         .info = info};
  return cuemu__solver_enqueue(h, run_ormqr, &c);
}

static cusolverStatus_t orgqr(cusolverDnHandle_t h, cuemu_solver_type type,
                              int64_t m, int64_t n, int64_t k, void *a,
                              int64_t lda, const void *tau, int *info) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (m < 0)
    return cuemu__solver_bad_argument(h, info, 1);
  if (n < 0 || n > m)
    return cuemu__solver_bad_argument(h, info, 2);
  if (k < 0 || k > n)
    return cuemu__solver_bad_argument(h, info, 3);
  if (lda < MAX1(m))
    return cuemu__solver_bad_argument(h, info, 5);
  size_t e = cuemu__solver_size(type);
  const char *name = "cusolverDn?orgqr";
  if (!cuemu__solver_check_matrix(name, "A", a, m, n, lda, e) ||
      !cuemu__solver_check_matrix(name, "tau", tau, k, 1, MAX1(k), e) ||
      !cuemu__solver_check_info(name, info))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {.type = type,
                         .m = m,
                         .n = n,
                         .k = k,
                         .a = a,
                         .lda = lda,
                         .tau = (void *)tau,
                         .info = info};
  return cuemu__solver_enqueue(h, run_orgqr, &c);
}

static int is_job(signed char job) {
  return job == 'A' || job == 'S' || job == 'O' || job == 'N';
}

static cusolverStatus_t gesvd(cusolverDnHandle_t h, cuemu_solver_type type,
                              signed char jobu, signed char jobvt, int64_t m,
                              int64_t n, void *a, int64_t lda, void *s, void *u,
                              int64_t ldu, void *vt, int64_t ldvt, int *info) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  /* cuSOLVER's gesvd takes m >= n only, and not both jobs 'O'. */
  if (!is_job(jobu))
    return cuemu__solver_bad_argument(h, info, 1);
  if (!is_job(jobvt) || (jobu == 'O' && jobvt == 'O'))
    return cuemu__solver_bad_argument(h, info, 2);
  if (m < 0)
    return cuemu__solver_bad_argument(h, info, 3);
  if (n < 0 || n > m)
    return cuemu__solver_bad_argument(h, info, 4);
  if (lda < MAX1(m))
    return cuemu__solver_bad_argument(h, info, 6);
  int want_u = jobu == 'A' || jobu == 'S';
  int want_vt = jobvt == 'A' || jobvt == 'S';
  if (ldu < (want_u ? MAX1(m) : 1))
    return cuemu__solver_bad_argument(h, info, 9);
  if (ldvt < (want_vt ? MAX1(n) : 1))
    return cuemu__solver_bad_argument(h, info, 11);
  size_t e = cuemu__solver_size(type);
  const char *name = "cusolverDn?gesvd";
  if (!cuemu__solver_check_matrix(name, "A", a, m, n, lda, e) ||
      !cuemu__solver_check_matrix(name, "S", s, n, 1, MAX1(n),
                                  cuemu__solver_real_size(type)) ||
      (want_u && !cuemu__solver_check_matrix(name, "U", u, m,
                                             jobu == 'A' ? m : n, ldu, e)) ||
      (want_vt && !cuemu__solver_check_matrix(name, "VT", vt, n, n, ldvt, e)) ||
      !cuemu__solver_check_info(name, info))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {.type = type,
                         .jobu = jobu,
                         .jobvt = jobvt,
                         .m = m,
                         .n = n,
                         .a = a,
                         .lda = lda,
                         .s = s,
                         .u = u,
                         .ldu = ldu,
                         .vt = vt,
                         .ldvt = ldvt,
                         .info = info};
  return cuemu__solver_enqueue(h, run_gesvd, &c);
}

cusolverStatus_t cuemu__solver_syevd(cusolverDnHandle_t h,
                                     cuemu_solver_type type, int jobz, int uplo,
                                     int64_t n, void *a, int64_t lda, void *w,
                                     int *info, cuemu_solver_jacobi *jacobi,
                                     int64_t batch,
                                     const cuemu_solver_range *range) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  /* syevdx's range is its second argument; vl, vu, il, iu and meig come
   * after lda. */
  int x = range != NULL, bad = x ? cuemu__solver_range_bad(range, n) : 0;
  if (jobz != CUEMU_EIG_NOVECTOR && jobz != CUEMU_EIG_VECTOR)
    return cuemu__solver_bad_argument(h, info, 1);
  if (bad == 1)
    return cuemu__solver_bad_argument(h, info, 2);
  if (uplo != CUEMU_LOWER && uplo != CUEMU_UPPER)
    return cuemu__solver_bad_argument(h, info, 2 + x);
  if (n < 0)
    return cuemu__solver_bad_argument(h, info, 3 + x);
  if (lda < MAX1(n))
    return cuemu__solver_bad_argument(h, info, 5 + x);
  if (bad)
    return cuemu__solver_bad_argument(h, info, 6 + bad);
  if (x && !range->meig)
    return cuemu__solver_bad_argument(h, info, 11);
  size_t e = cuemu__solver_size(type);
  const char *name = batch && !jacobi ? "cusolverDnXsyevBatched"
                     : batch          ? "cusolverDn?syevjBatched"
                     : jacobi         ? "cusolverDn?syevj"
                     : range          ? "cusolverDn?syevdx"
                                      : "cusolverDn?syevd";
  /* A batch: count matrices lda x n apart, as many W and info. */
  int64_t count = batch > 0 ? batch : 1;
  if (!cuemu__solver_check_matrix(name, "A", a, n, n + (count - 1) * n, lda,
                                  e) ||
      !cuemu__solver_check_matrix(name, "W", w, n * count, 1, MAX1(n * count),
                                  cuemu__solver_real_size(type)) ||
      (info && !cuemu__solver_check(name, "devInfo", info,
                                    (size_t)count * sizeof(int))))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {.type = type,
                         .vectors = jobz == CUEMU_EIG_VECTOR,
                         .uplo = uplo,
                         .n = n,
                         .a = a,
                         .lda = lda,
                         .s = w,
                         .info = info,
                         .jacobi = jacobi,
                         .batch = batch};
  if (range)
    c.select = *range;
  if (jacobi) {
    /* The settings as the call finds them; only a batch may be unsorted,
     * as cuSOLVER's. */
    c.tol = cuemu__solver_jacobi_tolerance(jacobi, type);
    c.max_sweeps = jacobi->max_sweeps;
    c.unsorted = batch > 0 && !jacobi->sort;
  }
  return cuemu__solver_range_enqueue(h, run_syevd, &c);
}

/* ---- The S, D, C and Z entry points
 * --------------------------------------------
 */

/* P the prefix, T the type, OR "or"/"un", SY "sy"/"he". */
#define ORTHOGONAL_API(P, T, OR, SY)                                           \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##geqrf_bufferSize(        \
      cusolverDnHandle_t h, int m, int n, void *a, int lda, int *lwork) {      \
    (void)a;                                                                   \
    return cuemu__solver_work_size(h, m < 0 || n < 0 || lda < MAX1(m), lwork); \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##geqrf(                   \
      cusolverDnHandle_t h, int m, int n, void *a, int lda, void *tau,         \
      void *work, int lwork, int *info) {                                      \
    (void)work, (void)lwork;                                                   \
    return geqrf(h, T, m, n, a, lda, tau, info);                               \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##OR##mqr_bufferSize(      \
      cusolverDnHandle_t h, int side, int op, int m, int n, int k,             \
      const void *a, int lda, const void *tau, const void *c, int ldc,         \
      int *lwork) {                                                            \
    (void)side, (void)op, (void)a, (void)tau, (void)c;                         \
    return cuemu__solver_work_size(                                            \
        h, m < 0 || n < 0 || k < 0 || lda < 1 || ldc < MAX1(m), lwork);        \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##OR##mqr(                 \
      cusolverDnHandle_t h, int side, int op, int m, int n, int k,             \
      const void *a, int lda, const void *tau, void *c, int ldc, void *work,   \
      int lwork, int *info) {                                                  \
    (void)work, (void)lwork;                                                   \
    return ormqr(h, T, side, op, m, n, k, a, lda, tau, c, ldc, info);          \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##OR##gqr_bufferSize(      \
      cusolverDnHandle_t h, int m, int n, int k, const void *a, int lda,       \
      const void *tau, int *lwork) {                                           \
    (void)a, (void)tau;                                                        \
    return cuemu__solver_work_size(                                            \
        h, m < 0 || n < 0 || n > m || k < 0 || k > n || lda < MAX1(m), lwork); \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##OR##gqr(                 \
      cusolverDnHandle_t h, int m, int n, int k, void *a, int lda,             \
      const void *tau, void *work, int lwork, int *info) {                     \
    (void)work, (void)lwork;                                                   \
    return orgqr(h, T, m, n, k, a, lda, tau, info);                            \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##gesvd_bufferSize(        \
      cusolverDnHandle_t h, int m, int n, int *lwork) {                        \
    return cuemu__solver_work_size(h, m < 0 || n < 0, lwork);                  \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##gesvd(                   \
      cusolverDnHandle_t h, signed char jobu, signed char jobvt, int m, int n, \
      void *a, int lda, void *s, void *u, int ldu, void *vt, int ldvt,         \
      void *work, int lwork, void *rwork, int *info) {                         \
    (void)work, (void)lwork, (void)rwork;                                      \
    return gesvd(h, T, jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt, info);  \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##SY##evd_bufferSize(      \
      cusolverDnHandle_t h, int jobz, int uplo, int n, const void *a, int lda, \
      const void *w, int *lwork) {                                             \
    (void)jobz, (void)uplo, (void)a, (void)w;                                  \
    return cuemu__solver_work_size(h, n < 0 || lda < MAX1(n), lwork);          \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##SY##evd(                 \
      cusolverDnHandle_t h, int jobz, int uplo, int n, void *a, int lda,       \
      void *w, void *work, int lwork, int *info) {                             \
    (void)work, (void)lwork;                                                   \
    return cuemu__solver_syevd(h, T, jobz, uplo, n, a, lda, w, info, NULL, 0,  \
                               NULL);                                          \
  }

ORTHOGONAL_API(S, CUEMU_SOLVER_S, or, sy)
ORTHOGONAL_API(D, CUEMU_SOLVER_D, or, sy)
ORTHOGONAL_API(C, CUEMU_SOLVER_C, un, he)
ORTHOGONAL_API(Z, CUEMU_SOLVER_Z, un, he)

/* ---- The 64-bit generic API's QR
 * ------------------------------------------------
 */

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXgeqrf_bufferSize(
    cusolverDnHandle_t h, cusolverDnParams_t params, int64_t m, int64_t n,
    int type_a, const void *a, int64_t lda, int type_tau, const void *tau,
    int compute, size_t *device, size_t *host) {
  (void)params, (void)a, (void)tau;
  if (h && (m < 0 || n < 0 || lda < MAX1(m)))
    return CUSOLVER_STATUS_INVALID_VALUE;
  int t = cuemu__solver_from_data_type(type_a);
  return cuemu__solver_generic_size(
      h, "cusolverDnXgeqrf_bufferSize",
      type_tau == type_a && compute == type_a ? t : -1, device, host);
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXgeqrf(
    cusolverDnHandle_t h, cusolverDnParams_t params, int64_t m, int64_t n,
    int type_a, void *a, int64_t lda, int type_tau, void *tau, int compute,
    void *device_buffer, size_t device_bytes, void *host_buffer,
    size_t host_bytes, int *info) {
  (void)params, (void)device_buffer, (void)device_bytes, (void)host_buffer,
      (void)host_bytes;
  int t = cuemu__solver_from_data_type(type_a);
  if (h && (t < 0 || type_tau != type_a || compute != type_a))
    return cuemu__solver_unsupported("cusolverDnXgeqrf");
  return geqrf(h, t, m, n, a, lda, tau, info);
}

/* ---- The 64-bit generic API's eigen-solver and SVD
 * --------------------------------------------------
 */

int cuemu__solver_spectral_type(int type_a, int type_real, int compute) {
  int t = cuemu__solver_from_data_type(type_a);
  int r = cuemu__solver_from_data_type(type_real);
  if (t < 0 || compute != type_a || r < 0 || cuemu__solver_is_complex(r) ||
      cuemu__solver_real_size(r) != cuemu__solver_real_size(t))
    return -1;
  return t;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXsyevd_bufferSize(
    cusolverDnHandle_t h, cusolverDnParams_t params, int jobz, int uplo,
    int64_t n, int type_a, const void *a, int64_t lda, int type_w,
    const void *w, int compute, size_t *device, size_t *host) {
  (void)params, (void)jobz, (void)uplo, (void)a, (void)w;
  if (h && (n < 0 || lda < MAX1(n)))
    return CUSOLVER_STATUS_INVALID_VALUE;
  return cuemu__solver_generic_size(
      h, "cusolverDnXsyevd_bufferSize",
      cuemu__solver_spectral_type(type_a, type_w, compute), device, host);
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXsyevd(
    cusolverDnHandle_t h, cusolverDnParams_t params, int jobz, int uplo,
    int64_t n, int type_a, void *a, int64_t lda, int type_w, void *w,
    int compute, void *device_buffer, size_t device_bytes, void *host_buffer,
    size_t host_bytes, int *info) {
  (void)params, (void)device_buffer, (void)device_bytes, (void)host_buffer,
      (void)host_bytes;
  int t = cuemu__solver_spectral_type(type_a, type_w, compute);
  if (h && t < 0)
    return cuemu__solver_unsupported("cusolverDnXsyevd");
  return cuemu__solver_syevd(h, t, jobz, uplo, n, a, lda, w, info, NULL, 0,
                             NULL);
}

/* XsyevBatched: syevd's computation on batch_size matrices one after
 * another (A lda x n elements apart, W n, one info each), for any n. */
CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXsyevBatched_bufferSize(
    cusolverDnHandle_t h, cusolverDnParams_t params, int jobz, int uplo,
    int64_t n, int type_a, const void *a, int64_t lda, int type_w,
    const void *w, int compute, size_t *device, size_t *host,
    int64_t batch_size) {
  (void)params, (void)jobz, (void)uplo, (void)a, (void)w;
  if (h && (n < 0 || lda < MAX1(n) || batch_size < 0))
    return CUSOLVER_STATUS_INVALID_VALUE;
  return cuemu__solver_generic_size(
      h, "cusolverDnXsyevBatched_bufferSize",
      cuemu__solver_spectral_type(type_a, type_w, compute), device, host);
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXsyevBatched(
    cusolverDnHandle_t h, cusolverDnParams_t params, int jobz, int uplo,
    int64_t n, int type_a, void *a, int64_t lda, int type_w, void *w,
    int compute, void *device_buffer, size_t device_bytes, void *host_buffer,
    size_t host_bytes, int *info, int64_t batch_size) {
  (void)params, (void)device_buffer, (void)device_bytes, (void)host_buffer,
      (void)host_bytes;
  int t = cuemu__solver_spectral_type(type_a, type_w, compute);
  if (h && t < 0)
    return cuemu__solver_unsupported("cusolverDnXsyevBatched");
  /* The batch's size follows syevd's arguments (and the data types). */
  if (h && batch_size < 0)
    return cuemu__solver_bad_argument(h, info, 6);
  if (h && batch_size == 0)
    return CUSOLVER_STATUS_SUCCESS;
  return cuemu__solver_syevd(h, t, jobz, uplo, n, a, lda, w, info, NULL,
                             batch_size, NULL);
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXgesvd_bufferSize(
    cusolverDnHandle_t h, cusolverDnParams_t params, signed char jobu,
    signed char jobvt, int64_t m, int64_t n, int type_a, const void *a,
    int64_t lda, int type_s, const void *s, int type_u, const void *u,
    int64_t ldu, int type_vt, const void *vt, int64_t ldvt, int compute,
    size_t *device, size_t *host) {
  (void)params, (void)jobu, (void)jobvt, (void)a, (void)s, (void)u, (void)vt,
      (void)ldu, (void)ldvt;
  if (h && (m < 0 || n < 0 || lda < MAX1(m)))
    return CUSOLVER_STATUS_INVALID_VALUE;
  int t = cuemu__solver_spectral_type(type_a, type_s, compute);
  return cuemu__solver_generic_size(
      h, "cusolverDnXgesvd_bufferSize",
      type_u == type_a && type_vt == type_a ? t : -1, device, host);
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXgesvd(
    cusolverDnHandle_t h, cusolverDnParams_t params, signed char jobu,
    signed char jobvt, int64_t m, int64_t n, int type_a, void *a, int64_t lda,
    int type_s, void *s, int type_u, void *u, int64_t ldu, int type_vt,
    void *vt, int64_t ldvt, int compute, void *device_buffer,
    size_t device_bytes, void *host_buffer, size_t host_bytes, int *info) {
  (void)params, (void)device_buffer, (void)device_bytes, (void)host_buffer,
      (void)host_bytes;
  int t = cuemu__solver_spectral_type(type_a, type_s, compute);
  if (h && (t < 0 || type_u != type_a || type_vt != type_a))
    return cuemu__solver_unsupported("cusolverDnXgesvd");
  return gesvd(h, t, jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt, info);
}
