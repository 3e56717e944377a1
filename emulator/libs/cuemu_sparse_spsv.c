/*
 * cuemu_sparse_spsv.c: cuSPARSE's triangular solve of the generic API,
 * cusparseSpSV (op(A) y = alpha x, A's triangle given by the matrix's fill
 * mode and diagonal type attributes, the elements outside it ignored), and
 * the matrix descriptors of the legacy API that programs still create
 * (cuemu_sparse.h).
 */
#include <stdlib.h>

#include "cuemu_sparse.h"

#define E CUEMU_SPARSE_EXPORT
#define OK CUSPARSE_STATUS_SUCCESS
#define BAD CUSPARSE_STATUS_INVALID_VALUE

/* An SpSV descriptor: whether an analysis was made, and the values that
 * cusparseSpSV_updateMatrix gave (NULL: the matrix's own). */
struct cusparseSpSVDescr {
  int analysed;
  void *values;
};

E cusparseStatus_t cusparseSpSV_createDescr(struct cusparseSpSVDescr **d) {
  if (!d)
    return BAD;
  *d = calloc(1, sizeof **d);
  return *d ? OK : CUSPARSE_STATUS_ALLOC_FAILED;
}

E cusparseStatus_t cusparseSpSV_destroyDescr(struct cusparseSpSVDescr *d) {
  free(d);
  return OK;
}

/* The solve: the triangle of op(A) gathered row by row (CSR of the
 * effective matrix), then substitution forward (lower) or backward. */
typedef struct {
  const cuemu_sparse_op *op;
  int lower;      /* of op(A) */
  int64_t *count; /* elements of each row of op(A) in the triangle */
  int64_t *at;    /* where the next goes, while filling */
  int64_t *col;
  cuemu_sparse_value *val, *diag;
} spsv_walk;

static int in_triangle(const spsv_walk *w, int64_t r, int64_t c) {
  return w->lower ? c <= r : c >= r;
}

static void spsv_count(int64_t row, int64_t col, int64_t k, void *data) {
  spsv_walk *w = data;
  (void)k;
  int64_t r = w->op->op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? row : col;
  int64_t c = w->op->op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? col : row;
  if (r != c && in_triangle(w, r, c))
    ++w->count[r + 1];
}

static void spsv_fill(int64_t row, int64_t col, int64_t k, void *data) {
  spsv_walk *w = data;
  const cuemu_sparse_op *op = w->op;
  int64_t r = op->op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? row : col;
  int64_t c = op->op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? col : row;
  cuemu_sparse_value v = cuemu__sparse_load(op->a.values, op->a.type, k);
  if (op->op_a == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE)
    v.im = -v.im;
  if (r == c) {
    w->diag[r] = cuemu__sparse_add(w->diag[r], v);
  } else if (in_triangle(w, r, c)) {
    w->col[w->at[r]] = c;
    w->val[w->at[r]++] = v;
  }
}

static void run_spsv(cuemu_sparse_op *op) {
  int64_t n = op->a.rows;
  spsv_walk w = {op,
                 0,
                 calloc((size_t)n + 2, sizeof(int64_t)),
                 calloc((size_t)n + 1, sizeof(int64_t)),
                 NULL,
                 NULL,
                 calloc((size_t)n + 1, sizeof(cuemu_sparse_value))};
  int lower = op->a.fill_mode == CUSPARSE_FILL_MODE_LOWER;
  w.lower = op->op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? lower : !lower;
  if (!w.count || !w.at || !w.diag)
    goto out;
  cuemu__sparse_for_each(&op->a, spsv_count, &w);
  for (int64_t i = 0; i < n; ++i)
    w.count[i + 1] += w.count[i];
  w.col = malloc(((size_t)w.count[n] + 1) * sizeof *w.col);
  w.val = malloc(((size_t)w.count[n] + 1) * sizeof *w.val);
  if (!w.col || !w.val)
    goto out;
  for (int64_t i = 0; i < n; ++i)
    w.at[i] = w.count[i];
  cuemu__sparse_for_each(&op->a, spsv_fill, &w);
  cuemu_sparse_value alpha = cuemu__sparse_load(op->scalar[0], op->alg, 0);
  /* y may be x: each x value is read before its y value is written. */
  for (int64_t s = 0; s < n; ++s) {
    int64_t i = w.lower ? s : n - 1 - s;
    cuemu_sparse_value v = cuemu__sparse_mul(
        alpha, cuemu__sparse_load(op->x.values, op->x.type, i));
    for (int64_t k = w.count[i]; k < w.count[i + 1]; ++k) {
      cuemu_sparse_value p = cuemu__sparse_mul(
          w.val[k], cuemu__sparse_load(op->y.values, op->y.type, w.col[k]));
      v.re -= p.re, v.im -= p.im;
    }
    if (op->a.diag_type != CUSPARSE_DIAG_TYPE_UNIT)
      v = cuemu__sparse_div(v, w.diag[i]);
    cuemu__sparse_store(op->y.values, op->y.type, i, v);
  }
out:
  free(w.count), free(w.at), free(w.col), free(w.val), free(w.diag);
}

static cusparseStatus_t spsv_check(cusparseHandle_t h, int op_a,
                                   const void *alpha,
                                   const cuemu_sparse_spmat *a,
                                   const cuemu_sparse_dnvec *x,
                                   const cuemu_sparse_dnvec *y, int type,
                                   const struct cusparseSpSVDescr *d) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!alpha || !a || !x || !y || !d || op_a < 0 || op_a > 2 ||
      a->rows != a->cols || x->size != a->rows || y->size != a->rows)
    return BAD;
  if (a->type != type || x->type != type || y->type != type ||
      !cuemu__sparse_value_size(type) || a->batch_count != 1)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  return OK;
}

E cusparseStatus_t cusparseSpSV_bufferSize(
    cusparseHandle_t h, int op_a, const void *alpha,
    const cuemu_sparse_spmat *a, const cuemu_sparse_dnvec *x,
    const cuemu_sparse_dnvec *y, int type, int alg, struct cusparseSpSVDescr *d,
    size_t *size) {
  (void)alg;
  cusparseStatus_t s = spsv_check(h, op_a, alpha, a, x, y, type, d);
  if (s == OK && !size)
    return BAD;
  if (s == OK)
    *size = 0;
  return s;
}

E cusparseStatus_t cusparseSpSV_analysis(cusparseHandle_t h, int op_a,
                                         const void *alpha,
                                         const cuemu_sparse_spmat *a,
                                         const cuemu_sparse_dnvec *x,
                                         const cuemu_sparse_dnvec *y, int type,
                                         int alg, struct cusparseSpSVDescr *d,
                                         void *buffer) {
  (void)alg, (void)buffer;
  cusparseStatus_t s = spsv_check(h, op_a, alpha, a, x, y, type, d);
  if (s == OK)
    d->analysed = 1, d->values = NULL;
  return s;
}

E cusparseStatus_t cusparseSpSV_solve(cusparseHandle_t h, int op_a,
                                      const void *alpha,
                                      const cuemu_sparse_spmat *a,
                                      const cuemu_sparse_dnvec *x,
                                      const cuemu_sparse_dnvec *y, int type,
                                      int alg, struct cusparseSpSVDescr *d) {
  (void)alg;
  cusparseStatus_t s = spsv_check(h, op_a, alpha, a, x, y, type, d);
  if (s != OK)
    return s;
  if (!d->analysed)
    return BAD;
  cuemu_sparse_spmat m = *a;
  if (d->values)
    m.values = d->values;
  if (!cuemu__sparse_check_spmat("cusparseSpSV_solve", &m) ||
      !cuemu__sparse_check_dnvec("cusparseSpSV_solve", x) ||
      !cuemu__sparse_check_dnvec("cusparseSpSV_solve", y))
    return OK;
  cuemu_sparse_op *op = cuemu__sparse_op_new("cusparseSpSV_solve", run_spsv);
  if (!op)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  op->op_a = op_a, op->a = m, op->x = *x, op->y = *y, op->alg = type;
  cuemu__sparse_op_scalar(h, op, 0, alpha, type);
  return cuemu__sparse_submit(h, op);
}

/* New values of the analysed matrix (CUSPARSE_SPSV_UPDATE_GENERAL: all of
 * them, same structure). A diagonal-only update is not emulated. */
E cusparseStatus_t cusparseSpSV_updateMatrix(cusparseHandle_t h,
                                             struct cusparseSpSVDescr *d,
                                             void *values, int part) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!d || !values || (part != 0 && part != 1))
    return BAD;
  if (part != 0)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  d->values = values;
  return OK;
}

/* ---- The legacy API's matrix descriptor (cuemu_sparse.h) ----------------- */

E cusparseStatus_t cusparseCreateMatDescr(struct cusparseMatDescr **d) {
  if (!d)
    return BAD;
  *d = calloc(1, sizeof **d);
  return *d ? OK : CUSPARSE_STATUS_ALLOC_FAILED;
}
E cusparseStatus_t cusparseDestroyMatDescr(struct cusparseMatDescr *d) {
  free(d);
  return OK;
}
E cusparseStatus_t cusparseSetMatType(struct cusparseMatDescr *d, int type) {
  if (!d || type < 0 || type > 3)
    return BAD;
  d->type = type;
  return OK;
}
E int cusparseGetMatType(const struct cusparseMatDescr *d) {
  return d ? d->type : 0;
}
E cusparseStatus_t cusparseSetMatFillMode(struct cusparseMatDescr *d, int f) {
  if (!d || (f != CUSPARSE_FILL_MODE_LOWER && f != CUSPARSE_FILL_MODE_UPPER))
    return BAD;
  d->fill = f;
  return OK;
}
E int cusparseGetMatFillMode(const struct cusparseMatDescr *d) {
  return d ? d->fill : 0;
}
E cusparseStatus_t cusparseSetMatDiagType(struct cusparseMatDescr *d, int t) {
  if (!d || (t != CUSPARSE_DIAG_TYPE_NON_UNIT && t != CUSPARSE_DIAG_TYPE_UNIT))
    return BAD;
  d->diag = t;
  return OK;
}
E int cusparseGetMatDiagType(const struct cusparseMatDescr *d) {
  return d ? d->diag : 0;
}
E cusparseStatus_t cusparseSetMatIndexBase(struct cusparseMatDescr *d, int b) {
  if (!d || (b != CUSPARSE_INDEX_BASE_ZERO && b != CUSPARSE_INDEX_BASE_ONE))
    return BAD;
  d->base = b;
  return OK;
}
E int cusparseGetMatIndexBase(const struct cusparseMatDescr *d) {
  return d ? d->base : 0;
}
