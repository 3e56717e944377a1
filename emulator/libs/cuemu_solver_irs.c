/*
 * cuemu_solver_irs.c: cuSOLVER's mixed-precision iterative-refinement
 * solvers, cusolverDn<T1><T2>gesv (A X = B, A n x n) and
 * cusolverDn<T1><T2>gels (least squares, A m x n with m >= n), with their
 * buffer sizes. T1 is the precision of the inputs and outputs (Z, C, D,
 * S); T2 the lowest precision the factorization may use: T1's own, S or C
 * (single), H or K (half), B or E (bfloat16), X or Y (TF32).
 *
 * As LAPACK's dsgesv does, A is rounded to T2's precision (each part of a
 * complex element on its own), factorized (LU with partial pivoting, or
 * Householder QR) and the solution refined in T1's precision with the
 * residual until the correction is below T1's rounding; an entry that
 * overflows T2's range, a singular factor or no convergence in 50
 * iterations fall back to a factorization in T1's precision, as
 * cuSOLVER's do. Then dA holds that factorization (and dipiv its pivots);
 * after a refinement that converged dA is unchanged. The count of
 * refinement iterations goes to *niters (a host pointer: the call waits
 * for its stream), negative on a fallback (-2: overflow, -3: a singular
 * low-precision factor, -51: no convergence); 0 when T2 is T1 (one
 * factorization, no refinement). dB is never written; dX gets the
 * solution; d_info 0, or i where the main-precision factor's i-th
 * diagonal is zero. The arithmetic is complex double throughout
 * (cuemu_solver_factor.c): what is emulated is the rounding of A, which is
 * what decides whether refinement converges.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "cuemu_solver.h"

#define MAX1(x) ((x) > 1 ? (x) : 1)
#define IRS_MAX_ITERS 50

/* The lowest precision T2: the bits of its significand after the point,
 * its smallest normal and largest exponent; SAME is T1's own. */
typedef struct {
  int same, fraction, emin, emax;
} irs_precision;

/* The precisions of cuemu_solver_low, in its order. */
static const irs_precision precisions[] = {
    {1, 0, 0, 0},         /* T1's own */
    {0, 23, -126, 127},   /* single */
    {0, 10, -14, 15},     /* half */
    {0, 7, -126, 127},    /* bfloat16 */
    {0, 10, -126, 127}};  /* TF32 */

typedef cuemu_solver_irs irs_call;

/* x rounded to nearest (ties to even) in precision p; *overflow set when
 * it is beyond p's range. */
static double round_part(double x, const irs_precision *p, int *overflow) {
  if (x == 0 || !isfinite(x))
    return x;
  int e = ilogb(x);
  if (e > p->emax) {
    *overflow = 1;
    return x;
  }
  double quantum = ldexp(1.0, (e < p->emin ? p->emin : e) - p->fraction);
  double r = nearbyint(x / quantum) * quantum;
  if (fabs(r) >= ldexp(1.0, p->emax + 1))
    *overflow = 1;
  return r;
}

static cuemu_solver_value round_value(cuemu_solver_value v,
                                      const irs_precision *p, int *overflow) {
  return CMPLX(round_part(creal(v), p, overflow),
               round_part(cimag(v), p, overflow));
}

/* The unit roundoff of T1. */
static double main_epsilon(cuemu_solver_type t) {
  return cuemu__solver_real_size(t) == 4 ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
}

static double norm_inf(const cuemu_solver_value *v, int64_t rows,
                       int64_t col) {
  double r = 0;
  for (int64_t i = 0; i < rows; ++i)
    if (cabs(v[col * rows + i]) > r)
      r = cabs(v[col * rows + i]);
  return r;
}

/* A factorization: LU (ipiv) of an n x n matrix or QR (tau) of an m x n
 * one, in f (leading dimension m). */
typedef struct {
  const irs_call *c;
  cuemu_solver_value *f, *tau;
  int64_t *ipiv;
} irs_factor;

/* Factorizes f in place: LAPACK's info (for QR, the first zero of R's
 * diagonal). */
static int factorize(irs_factor *fa) {
  const irs_call *c = fa->c;
  if (!c->gels)
    return cuemu__solver_lu(fa->f, c->n, c->n, fa->ipiv);
  cuemu__solver_qr(fa->f, c->m, c->n, fa->tau);
  for (int64_t i = 0; i < c->n; ++i)
    if (fa->f[i * c->m + i] == 0)
      return (int)(i + 1);
  return 0;
}

/* x (n x nrhs) := the solution for r (m x nrhs, overwritten). */
static void solve(const irs_factor *fa, cuemu_solver_value *r,
                  cuemu_solver_value *x) {
  const irs_call *c = fa->c;
  int64_t m = c->m, n = c->n;
  if (!c->gels) {
    cuemu__solver_lu_solve(fa->f, n, fa->ipiv, CUEMU_OP_N, r, c->nrhs);
    memcpy(x, r, (size_t)(n * c->nrhs) * sizeof *x);
    return;
  }
  cuemu__solver_apply_q(fa->f, m, n, fa->tau, CUEMU_SIDE_LEFT, CUEMU_OP_C,
                        !cuemu__solver_is_complex(c->type), r, m, c->nrhs);
  for (int64_t j = 0; j < c->nrhs; ++j)
    for (int64_t i = n - 1; i >= 0; --i) {
      cuemu_solver_value s = r[j * m + i];
      for (int64_t k = i + 1; k < n; ++k)
        s -= fa->f[k * m + i] * x[j * n + k];
      x[j * n + i] = s / fa->f[i * m + i];
    }
}

/* r := b - A x (m x nrhs). */
static void residual(const irs_call *c, const cuemu_solver_value *a,
                     const cuemu_solver_value *b, const cuemu_solver_value *x,
                     cuemu_solver_value *r) {
  int64_t m = c->m, n = c->n;
  for (int64_t j = 0; j < c->nrhs; ++j)
    for (int64_t i = 0; i < m; ++i) {
      cuemu_solver_value s = b[j * m + i];
      for (int64_t k = 0; k < n; ++k)
        s -= a[k * m + i] * x[j * n + k];
      r[j * m + i] = s;
    }
}

/* Adds the correction dx to x (n x nrhs): the largest of the columns'
 * |dx| / |x| (infinity norms). */
static double add_correction(const irs_call *c, cuemu_solver_value *x,
                             const cuemu_solver_value *dx) {
  int64_t n = c->n;
  double worst = 0;
  for (int64_t j = 0; j < c->nrhs; ++j) {
    for (int64_t i = 0; i < n; ++i)
      x[j * n + i] += dx[j * n + i];
    double xn = norm_inf(x, n, j), d = norm_inf(dx, n, j);
    double rel = xn > 0 ? d / xn : d;
    if (rel > worst)
      worst = rel;
  }
  return worst;
}

/* gels's correction: the augmented system [I A; A^H 0] [dr; dx] = [f; g]
 * solved with the factors of the rounded A = QR (Bjorck's refinement of
 * least squares, which converges to A's solution even where the residual
 * is large): d = Q^H f, R^H h = g, R dx = d(1:n) - h, dr = Q [h; d(n+1:m)].
 * f is overwritten (m x nrhs), dx n x nrhs. */
static void solve_augmented(const irs_factor *fa, cuemu_solver_value *f,
                            const cuemu_solver_value *g, cuemu_solver_value *dr,
                            cuemu_solver_value *dx) {
  const irs_call *c = fa->c;
  int64_t m = c->m, n = c->n;
  int real = !cuemu__solver_is_complex(c->type);
  const cuemu_solver_value *rr = fa->f;
  cuemu__solver_apply_q(rr, m, n, fa->tau, CUEMU_SIDE_LEFT, CUEMU_OP_C, real,
                        f, m, c->nrhs);
  for (int64_t j = 0; j < c->nrhs; ++j) {
    cuemu_solver_value *d = f + j * m, *h = dr + j * m;
    for (int64_t i = 0; i < n; ++i) {
      cuemu_solver_value s = g[j * n + i];
      for (int64_t k = 0; k < i; ++k)
        s -= conj(rr[i * m + k]) * h[k];
      h[i] = s / conj(rr[i * m + i]);
    }
    for (int64_t i = n - 1; i >= 0; --i) {
      cuemu_solver_value s = d[i] - h[i];
      for (int64_t k = i + 1; k < n; ++k)
        s -= rr[k * m + i] * dx[j * n + k];
      dx[j * n + i] = s / rr[i * m + i];
    }
    for (int64_t i = n; i < m; ++i)
      h[i] = d[i];
  }
  cuemu__solver_apply_q(rr, m, n, fa->tau, CUEMU_SIDE_LEFT, CUEMU_OP_N, real,
                        dr, m, c->nrhs);
}

/* Refines x from the low-precision factors until every column's
 * correction is below T1's rounding of it, or stops shrinking once that
 * small that rounding explains it: the iterations made, or
 * -IRS_MAX_ITERS - 1. r, w, dr (m x nrhs), dx and g (n x nrhs) are
 * scratch; w, dr and g only gels's (the augmented system's residual). */
typedef struct {
  cuemu_solver_value *r, *w, *dr, *dx, *g;
} irs_scratch;

static int refine(const irs_factor *fa, const cuemu_solver_value *a,
                  const cuemu_solver_value *b, cuemu_solver_value *x,
                  const irs_scratch *t) {
  cuemu_solver_value *r = t->r, *w = t->w, *dr = t->dr, *dx = t->dx,
                     *g = t->g;
  const irs_call *c = fa->c;
  int64_t m = c->m, n = c->n, nrhs = c->nrhs;
  double eps = main_epsilon(c->type) * sqrt((double)MAX1(n)), last = INFINITY;
  memcpy(r, b, (size_t)(m * nrhs) * sizeof *r);
  solve(fa, r, x);
  if (c->gels)
    residual(c, a, b, x, r); /* r: the least-squares residual */
  int max_iters = c->max_iters > 0 ? c->max_iters : IRS_MAX_ITERS;
  if (c->no_refinement)
    return 0;
  for (int iter = 1; iter <= max_iters; ++iter) {
    if (!c->gels) {
      residual(c, a, b, x, r);
      solve(fa, r, dx);
    } else {
      /* The augmented system's residual: f = b - r - A x (in w) and
       * g = -A^H r. */
      residual(c, a, b, x, w);
      for (int64_t i = 0; i < m * nrhs; ++i)
        w[i] -= r[i];
      for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t k = 0; k < n; ++k) {
          cuemu_solver_value s = 0;
          for (int64_t i = 0; i < m; ++i)
            s += conj(a[k * m + i]) * r[j * m + i];
          g[j * n + k] = -s;
        }
      solve_augmented(fa, w, g, dr, dx);
      for (int64_t i = 0; i < m * nrhs; ++i)
        r[i] += dr[i];
    }
    /* Converged when the correction is below T1's rounding, or when it
     * has stopped shrinking at a size that only rounding can explain
     * (the residual of a least-squares problem is computed with errors
     * of about cond(A) times that rounding). */
    double rel = add_correction(c, x, dx);
    if (rel <= eps || (rel > last / 2 && rel <= sqrt(eps)))
      return iter;
    last = rel;
  }
  return -max_iters - 1;
}

/* The call's work on its copies a and b, with `all` (the factors, tau, x
 * and the scratch) and ipiv allocated. */
static void solve_call(const irs_call *c, const cuemu_solver_value *a,
                       const cuemu_solver_value *b, cuemu_solver_value *all,
                       int64_t *ipiv) {
  int64_t m = c->m, n = c->n, nrhs = c->nrhs;
  size_t mr = (size_t)MAX1(m * nrhs), nr = (size_t)MAX1(n * nrhs);
  irs_factor fa = {c, all, all + MAX1(m * n), ipiv};
  cuemu_solver_value *x = fa.tau + MAX1(n);
  irs_scratch t = {x + nr, x + nr + mr, x + nr + 2 * mr, x + nr + 3 * mr,
                   x + 2 * nr + 3 * mr};
  int iters = 0, info = 0;
  memset(x, 0, nr * sizeof *x);
  if (!precisions[c->low].same) {
    int overflow = 0;
    for (int64_t i = 0; i < m * n; ++i)
      fa.f[i] = round_value(a[i], &precisions[c->low], &overflow);
    if (overflow)
      iters = -2;
    else if (factorize(&fa) != 0)
      iters = -3;
    else
      iters = refine(&fa, a, b, x, &t);
  }
  if (precisions[c->low].same || (iters < 0 && !c->no_fallback)) {
    /* In T1's precision; dA keeps the factors. */
    memcpy(fa.f, a, (size_t)(m * n) * sizeof *a);
    info = factorize(&fa);
    cuemu__solver_put(c->a, c->type, m, n, c->lda, fa.f);
    if (!info) {
      memcpy(t.r, b, (size_t)(m * nrhs) * sizeof *b);
      solve(&fa, t.r, x);
    }
  }
  if (c->pivots && n > 0) {
    for (int64_t i = 0; i < n; ++i)
      c->pivots[i] = (int)ipiv[i];
    cuemu_rt_library_wrote(c->pivots, (size_t)n * sizeof *c->pivots);
  }
  if (!info)
    cuemu__solver_put(c->x, c->type, n, nrhs, c->ldx, x);
  cuemu__solver_info_set(c->info, 0, info);
  *c->niters = iters;
}

static void run_irs(void *p) {
  irs_call *c = p;
  int64_t m = c->m, n = c->n, nrhs = c->nrhs;
  cuemu_solver_value *a = cuemu__solver_get(c->a, c->type, m, n, c->lda);
  cuemu_solver_value *b = cuemu__solver_get(c->b, c->type, m, nrhs, c->ldb);
  size_t count = (size_t)MAX1(m * n) + (size_t)MAX1(n) +
                 3 * (size_t)MAX1(m * nrhs) + 3 * (size_t)MAX1(n * nrhs);
  cuemu_solver_value *all = malloc(count * sizeof *all);
  int64_t *ipiv = malloc((size_t)MAX1(n) * sizeof *ipiv);
  if (a && b && all && ipiv)
    solve_call(c, a, b, all, ipiv);
  free(a);
  free(b);
  free(all);
  free(ipiv);
}

/* Checks the arguments as LAPACK does (d_info = -i for the i-th after the
 * handle), the device memory, enqueues and waits for the stream (niters is
 * the host's). */
cusolverStatus_t cuemu__solver_irs(cusolverDnHandle_t h, const char *name,
                                   irs_call c) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  /* gesv's arguments: n, nrhs, dA, ldda, dipiv, dB, lddb, dX, lddx; gels's:
   * m, n, nrhs, dA, ldda, dB, lddb, dX, lddx. */
  int g = c.gels;
  if (g && c.m < 0)
    return cuemu__solver_bad_argument(h, c.info, 1);
  if (c.n < 0 || (g && c.n > c.m))
    return cuemu__solver_bad_argument(h, c.info, 1 + g);
  if (c.nrhs < 0)
    return cuemu__solver_bad_argument(h, c.info, 2 + g);
  if (c.lda < MAX1(c.m))
    return cuemu__solver_bad_argument(h, c.info, 4 + g);
  if (c.ldb < MAX1(c.m))
    return cuemu__solver_bad_argument(h, c.info, 7);
  if (c.ldx < MAX1(c.n))
    return cuemu__solver_bad_argument(h, c.info, 9);
  if (!c.info || !c.niters || (!g && !c.expert && !c.pivots))
    return CUSOLVER_STATUS_INVALID_VALUE;
  size_t e = cuemu__solver_size(c.type);
  if (!cuemu__solver_check(name, "dA", c.a,
                           cuemu__solver_span(c.m, c.n, c.lda, e)) ||
      !cuemu__solver_check(name, "dB", c.b,
                           cuemu__solver_span(c.m, c.nrhs, c.ldb, e)) ||
      !cuemu__solver_check(name, "dX", c.x,
                           cuemu__solver_span(c.n, c.nrhs, c.ldx, e)) ||
      (c.pivots && !cuemu__solver_check(name, "dipiv", c.pivots,
                                  (size_t)c.n * sizeof(int))) ||
      !cuemu__solver_check(name, "d_info", c.info, sizeof(int)))
    return CUSOLVER_STATUS_SUCCESS;
  irs_call *data = malloc(sizeof *data);
  if (!data)
    return CUSOLVER_STATUS_ALLOC_FAILED;
  *data = c;
  cusolverStatus_t s = cuemu__solver_submit(h, run_irs, data);
  if (s == CUSOLVER_STATUS_SUCCESS && cuemu_rt_stream_synchronize(h->stream))
    s = CUSOLVER_STATUS_EXECUTION_FAILED;
  return s;
}

/* The buffer size: cuemu works on its own copies, so one element of T1
 * (a program's allocation of it is not empty). */
static cusolverStatus_t irs_size(cusolverDnHandle_t h, cuemu_solver_type t,
                                 int bad, size_t *bytes) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (bad || !bytes)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *bytes = cuemu__solver_size(t);
  return CUSOLVER_STATUS_SUCCESS;
}

#define IRS_API(P, T, LOW)                                                     \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##gesv_bufferSize(         \
      cusolverDnHandle_t h, int n, int nrhs, void *a, int lda, int *ipiv,      \
      void *b, int ldb, void *x, int ldx, void *work, size_t *bytes) {         \
    (void)a, (void)ipiv, (void)b, (void)x, (void)work;                         \
    return irs_size(h, T,                                                      \
                    n < 0 || nrhs < 0 || lda < MAX1(n) || ldb < MAX1(n) ||     \
                        ldx < MAX1(n),                                         \
                    bytes);                                                    \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##gesv(                    \
      cusolverDnHandle_t h, int n, int nrhs, void *a, int lda, int *ipiv,      \
      void *b, int ldb, void *x, int ldx, void *work, size_t bytes,            \
      int *niters, int *info) {                                                \
    (void)work, (void)bytes;                                                   \
    return cuemu__solver_irs(h, "cusolverDn" #P "gesv",                                      \
               (irs_call){.type = T, .low = LOW, .m = n, .n = n,               \
                          .nrhs = nrhs, .a = a, .lda = lda, .b = b,            \
                          .ldb = ldb, .x = x, .ldx = ldx, .pivots = ipiv,      \
                          .info = info, .niters = niters});                    \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##gels_bufferSize(         \
      cusolverDnHandle_t h, int m, int n, int nrhs, void *a, int lda, void *b, \
      int ldb, void *x, int ldx, void *work, size_t *bytes) {                  \
    (void)a, (void)b, (void)x, (void)work;                                     \
    return irs_size(h, T,                                                      \
                    m < 0 || n < 0 || n > m || nrhs < 0 || lda < MAX1(m) ||    \
                        ldb < MAX1(m) || ldx < MAX1(n),                        \
                    bytes);                                                    \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##gels(                    \
      cusolverDnHandle_t h, int m, int n, int nrhs, void *a, int lda, void *b, \
      int ldb, void *x, int ldx, void *work, size_t bytes, int *niters,        \
      int *info) {                                                             \
    (void)work, (void)bytes;                                                   \
    return cuemu__solver_irs(h, "cusolverDn" #P "gels",                                      \
               (irs_call){.type = T, .low = LOW, .gels = 1, .m = m, .n = n,    \
                          .nrhs = nrhs, .a = a, .lda = lda, .b = b,            \
                          .ldb = ldb, .x = x, .ldx = ldx, .info = info,        \
                          .niters = niters});                                  \
  }

IRS_API(ZZ, CUEMU_SOLVER_Z, CUEMU_IRS_SAME)
IRS_API(ZC, CUEMU_SOLVER_Z, CUEMU_IRS_SINGLE)
IRS_API(ZK, CUEMU_SOLVER_Z, CUEMU_IRS_HALF)
IRS_API(ZE, CUEMU_SOLVER_Z, CUEMU_IRS_BF16)
IRS_API(ZY, CUEMU_SOLVER_Z, CUEMU_IRS_TF32)
IRS_API(CC, CUEMU_SOLVER_C, CUEMU_IRS_SAME)
IRS_API(CK, CUEMU_SOLVER_C, CUEMU_IRS_HALF)
IRS_API(CE, CUEMU_SOLVER_C, CUEMU_IRS_BF16)
IRS_API(CY, CUEMU_SOLVER_C, CUEMU_IRS_TF32)
IRS_API(DD, CUEMU_SOLVER_D, CUEMU_IRS_SAME)
IRS_API(DS, CUEMU_SOLVER_D, CUEMU_IRS_SINGLE)
IRS_API(DH, CUEMU_SOLVER_D, CUEMU_IRS_HALF)
IRS_API(DB, CUEMU_SOLVER_D, CUEMU_IRS_BF16)
IRS_API(DX, CUEMU_SOLVER_D, CUEMU_IRS_TF32)
IRS_API(SS, CUEMU_SOLVER_S, CUEMU_IRS_SAME)
IRS_API(SH, CUEMU_SOLVER_S, CUEMU_IRS_HALF)
IRS_API(SB, CUEMU_SOLVER_S, CUEMU_IRS_BF16)
IRS_API(SX, CUEMU_SOLVER_S, CUEMU_IRS_TF32)
