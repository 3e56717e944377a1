/*
 * cuemu_sparse_gtsv.c: cuSPARSE's tridiagonal solvers for float, double
 * and their complex forms: cusparse?gtsv2 (with pivoting: Gaussian
 * elimination with partial pivoting, as LAPACK's gtsv), cusparse?gtsv2_nopivot
 * and cusparse?gtsv2StridedBatch (without: the Thomas algorithm), with their
 * bufferSizeExt. The solution overwrites the right-hand sides; computed in
 * double in the handle's stream's order (cuemu_sparse.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "cuemu_libs.h"
#include "cuemu_sparse.h"

#define E CUEMU_SPARSE_EXPORT
#define BAD CUSPARSE_STATUS_INVALID_VALUE

typedef cuemu_sparse_value value;

static value sub(value a, value b) {
  value r = {a.re - b.re, a.im - b.im};
  return r;
}

static double modulus(value v) { return hypot(v.re, v.im); }

/* One call: the diagonals dl, d, du of an m x m matrix, the right-hand
 * sides x (n of them, ld apart; or, batched, `batch` systems `stride`
 * apart in every array). */
typedef struct {
  int type, pivot;
  int64_t m, n, ld, batch, stride;
  const void *dl, *d, *du;
  void *x;
} gtsv;

/* Loads one system's diagonals (at offset `at`) into l, d, u; u2, the
 * second superdiagonal that pivoting fills, starts zero. */
static void load(const gtsv *g, int64_t at, value *l, value *d, value *u,
                 value *u2) {
  for (int64_t i = 0; i < g->m; ++i) {
    l[i] = cuemu__sparse_load(g->dl, g->type, at + i);
    d[i] = cuemu__sparse_load(g->d, g->type, at + i);
    u[i] = cuemu__sparse_load(g->du, g->type, at + i);
    u2[i] = (value){0, 0};
  }
}

/* Solves one system, its diagonals at offset `at`, its right-hand sides
 * at x + at + j * ld, in place; l, d, u, u2 and b are m values each. */
static void solve(const gtsv *g, int64_t at, value *l, value *d, value *u,
                  value *u2, value *b) {
  int64_t m = g->m;
  for (int64_t j = 0; j < g->n; ++j) {
    /* The factors are made again for each right-hand side, which keeps
     * the elimination to one loop. */
    load(g, at, l, d, u, u2);
    int64_t xb = at + j * g->ld;
    for (int64_t i = 0; i < m; ++i)
      b[i] = cuemu__sparse_load(g->x, g->type, xb + i);
    /* Elimination: row i + 1 loses its subdiagonal l[i + 1]. With
     * pivoting, rows i and i + 1 swap first when |l[i + 1]| > |d[i]|:
     * row i becomes (l[i + 1], d[i + 1], u[i + 1]), which fills u2[i],
     * and row i + 1 (d[i], u[i], 0). */
    for (int64_t i = 0; i + 1 < m; ++i) {
      value below = l[i + 1], t;
      if (g->pivot && modulus(below) > modulus(d[i])) {
        t = d[i], d[i] = below, below = t;
        t = u[i], u[i] = d[i + 1], d[i + 1] = t;
        if (i + 2 < m) {
          u2[i] = u[i + 1];
          u[i + 1] = (value){0, 0};
        }
        t = b[i], b[i] = b[i + 1], b[i + 1] = t;
      }
      value f = cuemu__sparse_div(below, d[i]);
      d[i + 1] = sub(d[i + 1], cuemu__sparse_mul(f, u[i]));
      if (i + 2 < m)
        u[i + 1] = sub(u[i + 1], cuemu__sparse_mul(f, u2[i]));
      b[i + 1] = sub(b[i + 1], cuemu__sparse_mul(f, b[i]));
    }
    /* Back substitution with the upper band d, u, u2. */
    for (int64_t i = m - 1; i >= 0; --i) {
      value s = b[i];
      if (i + 1 < m)
        s = sub(s, cuemu__sparse_mul(u[i], b[i + 1]));
      if (i + 2 < m)
        s = sub(s, cuemu__sparse_mul(u2[i], b[i + 2]));
      b[i] = cuemu__sparse_div(s, d[i]);
    }
    for (int64_t i = 0; i < m; ++i)
      cuemu__sparse_store(g->x, g->type, xb + i, b[i]);
  }
}

static void run_gtsv(cuemu_sparse_op *op) {
  const gtsv *g = op->extra;
  value *w = malloc((size_t)g->m * 5 * sizeof *w);
  if (!w)
    return;
  for (int64_t k = 0; k < g->batch; ++k)
    solve(g, k * g->stride, w, w + g->m, w + 2 * g->m, w + 3 * g->m,
          w + 4 * g->m);
  free(w);
}

/* The checks: m >= 3 as cuSPARSE's documentation requires, and the
 * arrays' device memory; then the enqueueing. */
static cusparseStatus_t gtsv_call(cusparseHandle_t h, const char *name,
                                  const gtsv *g, int enqueue) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (g->m < 3 || g->n < 0 || g->ld < g->m || g->batch < 0 ||
      g->stride < g->m || !g->dl || !g->d || !g->du || !g->x)
    return BAD;
  if (!enqueue)
    return CUSPARSE_STATUS_SUCCESS;
  size_t e = cuemu__sparse_value_size(g->type);
  /* The diagonals of the last system end at (batch - 1) * stride + m;
   * its right-hand sides at (n - 1) * ld + m past them. */
  size_t diag = g->batch > 0 ? (size_t)((g->batch - 1) * g->stride + g->m) : 0;
  size_t rhs = g->batch > 0 && g->n > 0
                   ? (size_t)((g->batch - 1) * g->stride + (g->n - 1) * g->ld +
                              g->m)
                   : 0;
  if (!cuemu__libs_device_range(name, "dl", g->dl, diag * e) ||
      !cuemu__libs_device_range(name, "d", g->d, diag * e) ||
      !cuemu__libs_device_range(name, "du", g->du, diag * e) ||
      !cuemu__libs_device_range(name, "B", g->x, rhs * e))
    return CUSPARSE_STATUS_SUCCESS;
  return cuemu__sparse_submit_copy(h, name, run_gtsv, g, sizeof *g);
}

/* The buffers: 128 bytes (unused), so that a program's allocation is not
 * empty; a buffer given must be 128-byte aligned, as cuSPARSE's. */
static cusparseStatus_t buffer_size(cusparseHandle_t h, const gtsv *g,
                                    size_t *size) {
  cusparseStatus_t s = gtsv_call(h, NULL, g, 0);
  if (s == CUSPARSE_STATUS_SUCCESS && !size)
    return BAD;
  if (s == CUSPARSE_STATUS_SUCCESS)
    *size = 128;
  return s;
}

static cusparseStatus_t solve_call(cusparseHandle_t h, const char *name,
                                   const gtsv *g, const void *buffer) {
  if (h && ((uintptr_t)buffer % 128 != 0))
    return BAD;
  return gtsv_call(h, name, g, 1);
}

#define GTSV_API(P, T, TYPE)                                                   \
  E cusparseStatus_t cusparse##P##gtsv2_bufferSizeExt(                         \
      cusparseHandle_t h, int m, int n, const T *dl, const T *d, const T *du,  \
      const T *b, int ldb, size_t *size) {                                     \
    gtsv g = {TYPE, 1, m, n, ldb, 1, m, dl, d, du, (void *)b};                 \
    return buffer_size(h, &g, size);                                           \
  }                                                                            \
  E cusparseStatus_t cusparse##P##gtsv2(cusparseHandle_t h, int m, int n,      \
                                        const T *dl, const T *d, const T *du,  \
                                        T *b, int ldb, void *buffer) {         \
    gtsv g = {TYPE, 1, m, n, ldb, 1, m, dl, d, du, b};                         \
    return solve_call(h, "cusparse" #P "gtsv2", &g, buffer);                   \
  }                                                                            \
  E cusparseStatus_t cusparse##P##gtsv2_nopivot_bufferSizeExt(                 \
      cusparseHandle_t h, int m, int n, const T *dl, const T *d, const T *du,  \
      const T *b, int ldb, size_t *size) {                                     \
    gtsv g = {TYPE, 0, m, n, ldb, 1, m, dl, d, du, (void *)b};                 \
    return buffer_size(h, &g, size);                                           \
  }                                                                            \
  E cusparseStatus_t cusparse##P##gtsv2_nopivot(                               \
      cusparseHandle_t h, int m, int n, const T *dl, const T *d, const T *du,  \
      T *b, int ldb, void *buffer) {                                           \
    gtsv g = {TYPE, 0, m, n, ldb, 1, m, dl, d, du, b};                         \
    return solve_call(h, "cusparse" #P "gtsv2_nopivot", &g, buffer);           \
  }                                                                            \
  E cusparseStatus_t cusparse##P##gtsv2StridedBatch_bufferSizeExt(             \
      cusparseHandle_t h, int m, const T *dl, const T *d, const T *du,         \
      const T *x, int batch, int stride, size_t *size) {                       \
    gtsv g = {TYPE, 0, m, 1, m, batch, stride, dl, d, du, (void *)x};          \
    return buffer_size(h, &g, size);                                           \
  }                                                                            \
  E cusparseStatus_t cusparse##P##gtsv2StridedBatch(                           \
      cusparseHandle_t h, int m, const T *dl, const T *d, const T *du, T *x,   \
      int batch, int stride, void *buffer) {                                   \
    gtsv g = {TYPE, 0, m, 1, m, batch, stride, dl, d, du, x};                  \
    return solve_call(h, "cusparse" #P "gtsv2StridedBatch", &g, buffer);       \
  }

GTSV_API(S, float, CUEMU_R_32F)
GTSV_API(D, double, CUEMU_R_64F)
GTSV_API(C, void, CUEMU_C_32F)
GTSV_API(Z, void, CUEMU_C_64F)
