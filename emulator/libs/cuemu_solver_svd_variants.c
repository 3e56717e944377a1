/*
 * cuemu_solver_svd_variants.c: cuSOLVER's other SVDs, each computed as
 * the full SVD (one-sided Jacobi, cuemu_solver_spectral.c; on A^H for a
 * wide A) of which it keeps a part: cusolverDnXgesvdp (the SVD by polar
 * decomposition: all of it, full or economy), cusolverDnXgesvdr (the
 * randomized SVD: the k largest singular triplets, exactly rather than
 * approximately) and cusolverDn?gesvdaStridedBatched (the approximate SVD
 * of rank `rank` of each matrix of a strided batch), with their buffer
 * sizes. The residual norms they report to the host (Xgesvdp's
 * h_err_sigma, gesvdaStridedBatched's h_R_nrmF) are ||A - U S V^H||_F of
 * what they kept, so those calls wait for the handle's stream.
 */
#include <math.h>
#include <stdlib.h>

#include <cuemu/cuemu_runtime_streams.h>

#include "cuemu_solver.h"

#define MAX1(x) ((x) > 1 ? (x) : 1)

/* One call: `batch` matrices (1 but for gesvdaStridedBatched), each
 * `*_step` elements after the one before; the first scount singular values
 * and ucols and vcols columns of U and V written (0: none); residual (the
 * host's, one per matrix, NULL for none) gets ||A - U S V^H||_F over the
 * first `kept` triplets. */
typedef struct {
  cuemu_solver_type type;
  int64_t m, n, batch;
  int64_t scount, ucols, vcols, kept;
  const void *a;
  int64_t lda, a_step;
  void *s, *u, *v;
  int64_t s_step, ldu, u_step, ldv, v_step;
  int *info;
  double *residual;
} svd_call;

/* ---- The computation
 * ---------------------------------------------------------
 */

/* A = U S V^H for any m x n a: s (min(m, n)) descending, u m x m and v
 * n x n unitary; nonzero when the sweeps did not converge. */
static int full_svd(const cuemu_solver_value *a, int64_t m, int64_t n,
                    double *s, cuemu_solver_value *u, cuemu_solver_value *v) {
  if (m >= n) {
    cuemu_solver_value *vt = malloc((size_t)MAX1(n * n) * sizeof *vt);
    if (!vt)
      return 1;
    int bad = cuemu__solver_svd(a, m, n, s, u, vt);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i)
        v[j * n + i] = conj(vt[i * n + j]);
    free(vt);
    return bad;
  }
  /* A^H = U' S V'^H: U = V', V = U'. */
  cuemu_solver_value *b = malloc((size_t)MAX1(m * n) * sizeof *b);
  cuemu_solver_value *vt = malloc((size_t)MAX1(m * m) * sizeof *vt);
  int bad = 1;
  if (b && vt) {
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i)
        b[i * n + j] = conj(a[j * m + i]);
    bad = cuemu__solver_svd(b, n, m, s, v, vt);
    for (int64_t j = 0; j < m; ++j)
      for (int64_t i = 0; i < m; ++i)
        u[j * m + i] = conj(vt[i * m + j]);
  }
  free(b);
  free(vt);
  return bad;
}

/* ||A - U_k S_k V_k^H||_F over the first `kept` triplets. */
static double residual(const cuemu_solver_value *a, int64_t m, int64_t n,
                       const double *s, const cuemu_solver_value *u,
                       const cuemu_solver_value *v, int64_t kept) {
  double r = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      cuemu_solver_value x = a[j * m + i];
      for (int64_t l = 0; l < kept; ++l)
        x -= u[l * m + i] * s[l] * conj(v[l * n + j]);
      r = hypot(r, cabs(x));
    }
  return r;
}

static void run_svd(void *p) {
  svd_call *c = p;
  int64_t m = c->m, n = c->n, k = m < n ? m : n;
  size_t e = cuemu__solver_size(c->type);
  size_t real = cuemu__solver_real_size(c->type);
  cuemu_solver_value *u = malloc((size_t)MAX1(m * m) * sizeof *u);
  cuemu_solver_value *v = malloc((size_t)MAX1(n * n) * sizeof *v);
  double *s = malloc((size_t)MAX1(k) * sizeof *s);
  for (int64_t b = 0; u && v && s && b < c->batch; ++b) {
    cuemu_solver_value *a =
        cuemu__solver_get((const char *)c->a + (size_t)(b * c->a_step) * e,
                          c->type, m, n, c->lda);
    if (!a)
      break;
    int bad = k > 0 ? full_svd(a, m, n, s, u, v) : 0;
    for (int64_t i = 0; i < c->scount; ++i)
      cuemu__solver_store_real((char *)c->s + (size_t)(b * c->s_step) * real,
                               c->type, i, s[i]);
    if (c->ucols)
      cuemu__solver_put((char *)c->u + (size_t)(b * c->u_step) * e, c->type, m,
                        c->ucols, c->ldu, u);
    if (c->vcols)
      cuemu__solver_put((char *)c->v + (size_t)(b * c->v_step) * e, c->type, n,
                        c->vcols, c->ldv, v);
    if (c->residual)
      c->residual[b] = k > 0 ? residual(a, m, n, s, u, v, c->kept) : 0;
    /* min(m, n) + 1 when the sweeps did not converge, as gesvdj. */
    if (c->info)
      cuemu__solver_info_set(c->info, b, bad ? (int)k + 1 : 0);
    free(a);
  }
  free(u);
  free(v);
  free(s);
}

/* ---- Checks and calls
 * --------------------------------------------------------
 */

/* The bytes of `count` matrices rows x cols (leading dimension ld) `step`
 * elements apart. */
static size_t batch_span(int64_t rows, int64_t cols, int64_t ld, int64_t step,
                         int64_t count, size_t e) {
  size_t one = cuemu__solver_span(rows, cols, ld, e);
  return one && count > 0 ? (size_t)((count - 1) * step) * e + one : 0;
}

/* Checks c's device memory, enqueues it and, when it reports to the host,
 * waits for the stream. */
static cusolverStatus_t submit(cusolverDnHandle_t h, const char *name,
                               const svd_call *c) {
  size_t e = cuemu__solver_size(c->type);
  size_t real = cuemu__solver_real_size(c->type);
  if (!cuemu__solver_check(
          name, "A", c->a,
          batch_span(c->m, c->n, c->lda, c->a_step, c->batch, e)) ||
      !cuemu__solver_check(name, "S", c->s,
                           batch_span(c->scount, 1, MAX1(c->scount), c->s_step,
                                      c->batch, real)) ||
      (c->ucols && !cuemu__solver_check(name, "U", c->u,
                                        batch_span(c->m, c->ucols, c->ldu,
                                                   c->u_step, c->batch, e))) ||
      (c->vcols && !cuemu__solver_check(name, "V", c->v,
                                        batch_span(c->n, c->vcols, c->ldv,
                                                   c->v_step, c->batch, e))) ||
      (c->info && !cuemu__solver_check(name, "info", c->info,
                                       (size_t)c->batch * sizeof(int))))
    return CUSOLVER_STATUS_SUCCESS;
  svd_call *data = malloc(sizeof *data);
  if (!data)
    return CUSOLVER_STATUS_ALLOC_FAILED;
  *data = *c;
  cusolverStatus_t s = cuemu__solver_submit(h, run_svd, data);
  if (s == CUSOLVER_STATUS_SUCCESS && c->residual &&
      cuemu_rt_stream_synchronize(h->stream))
    s = CUSOLVER_STATUS_EXECUTION_FAILED;
  return s;
}

/* U's and V's types must be A's too. */
static int svd_type(int type_a, int type_s, int type_u, int type_v,
                    int compute) {
  int t = cuemu__solver_spectral_type(type_a, type_s, compute);
  return type_u == type_a && type_v == type_a ? t : -1;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXgesvdp_bufferSize(
    cusolverDnHandle_t h, cusolverDnParams_t params, int jobz, int econ,
    int64_t m, int64_t n, int type_a, const void *a, int64_t lda, int type_s,
    const void *s, int type_u, const void *u, int64_t ldu, int type_v,
    const void *v, int64_t ldv, int compute, size_t *device, size_t *host) {
  (void)params, (void)jobz, (void)econ, (void)a, (void)s, (void)u, (void)ldu,
      (void)v, (void)ldv;
  if (h && (m < 0 || n < 0 || lda < MAX1(m)))
    return CUSOLVER_STATUS_INVALID_VALUE;
  return cuemu__solver_generic_size(
      h, "cusolverDnXgesvdp_bufferSize",
      svd_type(type_a, type_s, type_u, type_v, compute), device, host);
}

/* Its arguments count as gesvdj's (jobz 1, econ 2, m 3, n 4, lda 6, ldu 9,
 * ldv 11). */
CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXgesvdp(
    cusolverDnHandle_t h, cusolverDnParams_t params, int jobz, int econ,
    int64_t m, int64_t n, int type_a, void *a, int64_t lda, int type_s, void *s,
    int type_u, void *u, int64_t ldu, int type_v, void *v, int64_t ldv,
    int compute, void *device_buffer, size_t device_bytes, void *host_buffer,
    size_t host_bytes, int *info, double *err_sigma) {
  (void)params, (void)device_buffer, (void)device_bytes, (void)host_buffer,
      (void)host_bytes;
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  int t = svd_type(type_a, type_s, type_u, type_v, compute);
  if (t < 0)
    return cuemu__solver_unsupported("cusolverDnXgesvdp");
  int vectors = jobz == CUEMU_EIG_VECTOR;
  if (!vectors && jobz != CUEMU_EIG_NOVECTOR)
    return cuemu__solver_bad_argument(h, info, 1);
  if (econ != 0 && econ != 1)
    return cuemu__solver_bad_argument(h, info, 2);
  if (m < 0)
    return cuemu__solver_bad_argument(h, info, 3);
  if (n < 0)
    return cuemu__solver_bad_argument(h, info, 4);
  if (lda < MAX1(m))
    return cuemu__solver_bad_argument(h, info, 6);
  if (vectors && ldu < MAX1(m))
    return cuemu__solver_bad_argument(h, info, 9);
  if (vectors && ldv < MAX1(n))
    return cuemu__solver_bad_argument(h, info, 11);
  int64_t k = m < n ? m : n;
  svd_call c = {.type = t,
                .m = m,
                .n = n,
                .batch = 1,
                .scount = k,
                .ucols = vectors ? (econ ? k : m) : 0,
                .vcols = vectors ? (econ ? k : n) : 0,
                .kept = k,
                .a = a,
                .lda = lda,
                .s = s,
                .u = u,
                .ldu = ldu,
                .v = v,
                .ldv = ldv,
                .info = info,
                .residual = err_sigma};
  return submit(h, "cusolverDnXgesvdp", &c);
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXgesvdr_bufferSize(
    cusolverDnHandle_t h, cusolverDnParams_t params, signed char jobu,
    signed char jobv, int64_t m, int64_t n, int64_t k, int64_t p,
    int64_t niters, int type_a, const void *a, int64_t lda, int type_s,
    const void *s, int type_u, const void *u, int64_t ldu, int type_v,
    const void *v, int64_t ldv, int compute, size_t *device, size_t *host) {
  (void)params, (void)jobu, (void)jobv, (void)k, (void)p, (void)niters, (void)a,
      (void)s, (void)u, (void)ldu, (void)v, (void)ldv;
  if (h && (m < 0 || n < 0 || lda < MAX1(m)))
    return CUSOLVER_STATUS_INVALID_VALUE;
  return cuemu__solver_generic_size(
      h, "cusolverDnXgesvdr_bufferSize",
      svd_type(type_a, type_s, type_u, type_v, compute), device, host);
}

/* jobu and jobv 'S' (U's and V's first k columns) or 'N'; p and niters
 * (the randomized method's oversampling and power iterations) are checked,
 * not used. Its arguments count in their order (jobu 1 ... ldVrand 14). */
CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXgesvdr(
    cusolverDnHandle_t h, cusolverDnParams_t params, signed char jobu,
    signed char jobv, int64_t m, int64_t n, int64_t k, int64_t p,
    int64_t niters, int type_a, void *a, int64_t lda, int type_s, void *s,
    int type_u, void *u, int64_t ldu, int type_v, void *v, int64_t ldv,
    int compute, void *device_buffer, size_t device_bytes, void *host_buffer,
    size_t host_bytes, int *info) {
  (void)params, (void)device_buffer, (void)device_bytes, (void)host_buffer,
      (void)host_bytes;
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  int t = svd_type(type_a, type_s, type_u, type_v, compute);
  if (t < 0)
    return cuemu__solver_unsupported("cusolverDnXgesvdr");
  int want_u = jobu == 'S' || jobu == 's', want_v = jobv == 'S' || jobv == 's';
  if (!want_u && jobu != 'N' && jobu != 'n')
    return cuemu__solver_bad_argument(h, info, 1);
  if (!want_v && jobv != 'N' && jobv != 'n')
    return cuemu__solver_bad_argument(h, info, 2);
  if (m < 0)
    return cuemu__solver_bad_argument(h, info, 3);
  if (n < 0)
    return cuemu__solver_bad_argument(h, info, 4);
  if (k < 1 || k > (m < n ? m : n))
    return cuemu__solver_bad_argument(h, info, 5);
  if (p < 0)
    return cuemu__solver_bad_argument(h, info, 6);
  if (niters < 0)
    return cuemu__solver_bad_argument(h, info, 7);
  if (lda < MAX1(m))
    return cuemu__solver_bad_argument(h, info, 9);
  if (want_u && ldu < MAX1(m))
    return cuemu__solver_bad_argument(h, info, 12);
  if (want_v && ldv < MAX1(n))
    return cuemu__solver_bad_argument(h, info, 14);
  svd_call c = {.type = t,
                .m = m,
                .n = n,
                .batch = 1,
                .scount = k,
                .ucols = want_u ? k : 0,
                .vcols = want_v ? k : 0,
                .a = a,
                .lda = lda,
                .s = s,
                .u = u,
                .ldu = ldu,
                .v = v,
                .ldv = ldv,
                .info = info};
  return submit(h, "cusolverDnXgesvdr", &c);
}

/* gesvdaStridedBatched's checks (its arguments count in their order: jobz
 * 1, rank 2, m 3, n 4, lda 6, strideA 7, strideS 9, ldu 11, strideU 12,
 * ldv 14, strideV 15, batchSize 20): the argument that is wrong, 0 when
 * they are right. */
static int gesvda_bad(int jobz, int64_t rank, int64_t m, int64_t n, int64_t lda,
                      int64_t stride_a, int64_t stride_s, int64_t ldu,
                      int64_t stride_u, int64_t ldv, int64_t stride_v,
                      int64_t batch) {
  int vectors = jobz == CUEMU_EIG_VECTOR;
  if (!vectors && jobz != CUEMU_EIG_NOVECTOR)
    return 1;
  if (m < 0)
    return 3;
  if (n < 0)
    return 4;
  if (rank < 1 || rank > (m < n ? m : n))
    return 2;
  if (lda < MAX1(m))
    return 6;
  if (stride_a < lda * n)
    return 7;
  if (stride_s < rank)
    return 9;
  if (vectors && ldu < MAX1(m))
    return 11;
  if (vectors && stride_u < ldu * rank)
    return 12;
  if (vectors && ldv < MAX1(n))
    return 14;
  if (vectors && stride_v < ldv * rank)
    return 15;
  return batch < 0 ? 20 : 0;
}

/* P the prefix, T the type. */
#define SVD_VARIANTS_API(P, T)                                                 \
  CUEMU_SOLVER_EXPORT cusolverStatus_t                                         \
      cusolverDn##P##gesvdaStridedBatched_bufferSize(                          \
          cusolverDnHandle_t h, int jobz, int rank, int m, int n,              \
          const void *a, int lda, long long stride_a, const void *s,           \
          long long stride_s, const void *u, int ldu, long long stride_u,      \
          const void *v, int ldv, long long stride_v, int *lwork, int batch) { \
    (void)a, (void)s, (void)u, (void)v;                                        \
    return cuemu__solver_work_size(h,                                          \
                                   gesvda_bad(jobz, rank, m, n, lda, stride_a, \
                                              stride_s, ldu, stride_u, ldv,    \
                                              stride_v, batch),                \
                                   lwork);                                     \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##gesvdaStridedBatched(    \
      cusolverDnHandle_t h, int jobz, int rank, int m, int n, const void *a,   \
      int lda, long long stride_a, void *s, long long stride_s, void *u,       \
      int ldu, long long stride_u, void *v, int ldv, long long stride_v,       \
      void *work, int lwork, int *info, double *r_nrmf, int batch) {           \
    (void)work, (void)lwork;                                                   \
    if (!h)                                                                    \
      return CUSOLVER_STATUS_NOT_INITIALIZED;                                  \
    int bad = gesvda_bad(jobz, rank, m, n, lda, stride_a, stride_s, ldu,       \
                         stride_u, ldv, stride_v, batch);                      \
    if (bad)                                                                   \
      return cuemu__solver_bad_argument(h, info, bad);                         \
    int vectors = jobz == CUEMU_EIG_VECTOR;                                    \
    svd_call c = {.type = T,                                                   \
                  .m = m,                                                      \
                  .n = n,                                                      \
                  .batch = batch,                                              \
                  .scount = rank,                                              \
                  .ucols = vectors ? rank : 0,                                 \
                  .vcols = vectors ? rank : 0,                                 \
                  .kept = rank,                                                \
                  .a = a,                                                      \
                  .lda = lda,                                                  \
                  .a_step = stride_a,                                          \
                  .s = s,                                                      \
                  .s_step = stride_s,                                          \
                  .u = u,                                                      \
                  .ldu = ldu,                                                  \
                  .u_step = stride_u,                                          \
                  .v = v,                                                      \
                  .ldv = ldv,                                                  \
                  .v_step = stride_v,                                          \
                  .info = info,                                                \
                  .residual = r_nrmf};                                         \
    return batch ? submit(h, "cusolverDn?gesvdaStridedBatched", &c)            \
                 : CUSOLVER_STATUS_SUCCESS;                                    \
  }

SVD_VARIANTS_API(S, CUEMU_SOLVER_S)
SVD_VARIANTS_API(D, CUEMU_SOLVER_D)
SVD_VARIANTS_API(C, CUEMU_SOLVER_C)
SVD_VARIANTS_API(Z, CUEMU_SOLVER_Z)
