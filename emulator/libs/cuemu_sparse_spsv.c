/*
 * cuemu_sparse_spsv.c: cuSPARSE's triangular solves of the generic API,
 * cusparseSpSV (op(A) y = alpha x) and cusparseSpSM (op(A) C = alpha
 * op(B), column by column), A's triangle given by the matrix's fill mode
 * and diagonal type attributes (the elements outside it ignored); and the
 * matrix descriptors of the legacy API that programs still create
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

/* Gathers the triangle of op(A) (spsv_walk); 0 when out of memory. */
static int gather(const cuemu_sparse_op *op, spsv_walk *w) {
  int64_t n = op->a.rows;
  *w = (spsv_walk){op,
                   0,
                   calloc((size_t)n + 2, sizeof(int64_t)),
                   calloc((size_t)n + 1, sizeof(int64_t)),
                   NULL,
                   NULL,
                   calloc((size_t)n + 1, sizeof(cuemu_sparse_value))};
  int lower = op->a.fill_mode == CUSPARSE_FILL_MODE_LOWER;
  w->lower = op->op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? lower : !lower;
  if (!w->count || !w->at || !w->diag)
    return 0;
  cuemu__sparse_for_each(&op->a, spsv_count, w);
  for (int64_t i = 0; i < n; ++i)
    w->count[i + 1] += w->count[i];
  w->col = malloc(((size_t)w->count[n] + 1) * sizeof *w->col);
  w->val = malloc(((size_t)w->count[n] + 1) * sizeof *w->val);
  if (!w->col || !w->val)
    return 0;
  for (int64_t i = 0; i < n; ++i)
    w->at[i] = w->count[i];
  cuemu__sparse_for_each(&op->a, spsv_fill, w);
  return 1;
}

static void release(spsv_walk *w) {
  free(w->count), free(w->at), free(w->col), free(w->val), free(w->diag);
}

/* One solve: x's element i at x[x0 + i xs], y's at y[y0 + i ys]. y may be
 * x: each x value is read before its y value is written. */
static void solve(const spsv_walk *w, cuemu_sparse_value alpha, const void *x,
                  int64_t x0, int64_t xs, void *y, int64_t y0, int64_t ys,
                  int type) {
  int64_t n = w->op->a.rows;
  for (int64_t s = 0; s < n; ++s) {
    int64_t i = w->lower ? s : n - 1 - s;
    cuemu_sparse_value v =
        cuemu__sparse_mul(alpha, cuemu__sparse_load(x, type, x0 + i * xs));
    for (int64_t k = w->count[i]; k < w->count[i + 1]; ++k) {
      cuemu_sparse_value p = cuemu__sparse_mul(
          w->val[k], cuemu__sparse_load(y, type, y0 + w->col[k] * ys));
      v.re -= p.re, v.im -= p.im;
    }
    if (w->op->a.diag_type != CUSPARSE_DIAG_TYPE_UNIT)
      v = cuemu__sparse_div(v, w->diag[i]);
    cuemu__sparse_store(y, type, y0 + i * ys, v);
  }
}

static void run_spsv(cuemu_sparse_op *op) {
  spsv_walk w;
  if (gather(op, &w))
    solve(&w, cuemu__sparse_load(op->scalar[0], op->alg, 0), op->x.values, 0, 1,
          op->y.values, 0, 1, op->alg);
  release(&w);
}

/* SpSM: one solve per column j of C, its right-hand side column j of
 * op(B). */
static void run_spsm(cuemu_sparse_op *op) {
  spsv_walk w;
  if (gather(op, &w)) {
    const cuemu_sparse_dnmat *b = &op->b, *c = &op->c;
    int trans = op->op_b != CUSPARSE_OPERATION_NON_TRANSPOSE;
    int bcol = (b->order == CUSPARSE_ORDER_COL) != trans;
    int ccol = c->order == CUSPARSE_ORDER_COL;
    cuemu_sparse_value alpha = cuemu__sparse_load(op->scalar[0], op->alg, 0);
    for (int64_t j = 0; j < c->cols; ++j)
      solve(&w, alpha, b->values, bcol ? j * b->ld : j, bcol ? 1 : b->ld,
            c->values, ccol ? j * c->ld : j, ccol ? 1 : c->ld, op->alg);
  }
  release(&w);
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
    return cuemu__sparse_unsupported("cusparseSpSV", "a compute type unlike the values' type, mixed value types or a strided batch");
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
    return cuemu__sparse_unsupported("cusparseSpSV/SpSM_updateMatrix",
                                     "the diagonal-only update");
  d->values = values;
  return OK;
}

/* ---- SpSM: the same with several right-hand sides --------------------- */

struct cusparseSpSMDescr {
  int analysed;
  void *values;
};

E cusparseStatus_t cusparseSpSM_createDescr(struct cusparseSpSMDescr **d) {
  if (!d)
    return BAD;
  *d = calloc(1, sizeof **d);
  return *d ? OK : CUSPARSE_STATUS_ALLOC_FAILED;
}

E cusparseStatus_t cusparseSpSM_destroyDescr(struct cusparseSpSMDescr *d) {
  free(d);
  return OK;
}

static cusparseStatus_t spsm_check(cusparseHandle_t h, int op_a, int op_b,
                                   const void *alpha,
                                   const cuemu_sparse_spmat *a,
                                   const cuemu_sparse_dnmat *b,
                                   const cuemu_sparse_dnmat *c, int type,
                                   const struct cusparseSpSMDescr *d) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!alpha || !a || !b || !c || !d || op_a < 0 || op_a > 2 || op_b < 0 ||
      op_b > 1 || a->rows != a->cols)
    return BAD;
  int64_t brows = op_b == CUSPARSE_OPERATION_NON_TRANSPOSE ? b->rows : b->cols;
  int64_t bcols = op_b == CUSPARSE_OPERATION_NON_TRANSPOSE ? b->cols : b->rows;
  if (brows != a->rows || c->rows != a->rows || c->cols != bcols)
    return BAD;
  if (a->type != type || b->type != type || c->type != type ||
      !cuemu__sparse_value_size(type) || a->batch_count != 1 ||
      b->batch_count != 1 || c->batch_count != 1)
    return cuemu__sparse_unsupported("cusparseSpSM", "a compute type unlike the values' type, mixed value types or a strided batch");
  return OK;
}

E cusparseStatus_t cusparseSpSM_bufferSize(
    cusparseHandle_t h, int op_a, int op_b, const void *alpha,
    const cuemu_sparse_spmat *a, const cuemu_sparse_dnmat *b,
    const cuemu_sparse_dnmat *c, int type, int alg, struct cusparseSpSMDescr *d,
    size_t *size) {
  (void)alg;
  cusparseStatus_t s = spsm_check(h, op_a, op_b, alpha, a, b, c, type, d);
  if (s == OK && !size)
    return BAD;
  if (s == OK)
    *size = 0;
  return s;
}

E cusparseStatus_t cusparseSpSM_analysis(cusparseHandle_t h, int op_a, int op_b,
                                         const void *alpha,
                                         const cuemu_sparse_spmat *a,
                                         const cuemu_sparse_dnmat *b,
                                         const cuemu_sparse_dnmat *c, int type,
                                         int alg, struct cusparseSpSMDescr *d,
                                         void *buffer) {
  (void)alg, (void)buffer;
  cusparseStatus_t s = spsm_check(h, op_a, op_b, alpha, a, b, c, type, d);
  if (s == OK)
    d->analysed = 1, d->values = NULL;
  return s;
}

E cusparseStatus_t cusparseSpSM_solve(cusparseHandle_t h, int op_a, int op_b,
                                      const void *alpha,
                                      const cuemu_sparse_spmat *a,
                                      const cuemu_sparse_dnmat *b,
                                      const cuemu_sparse_dnmat *c, int type,
                                      int alg, struct cusparseSpSMDescr *d) {
  (void)alg;
  cusparseStatus_t s = spsm_check(h, op_a, op_b, alpha, a, b, c, type, d);
  if (s != OK)
    return s;
  if (!d->analysed)
    return BAD;
  cuemu_sparse_spmat m = *a;
  if (d->values)
    m.values = d->values;
  if (!cuemu__sparse_check_spmat("cusparseSpSM_solve", &m) ||
      !cuemu__sparse_check_dnmat("cusparseSpSM_solve", b) ||
      !cuemu__sparse_check_dnmat("cusparseSpSM_solve", c))
    return OK;
  cuemu_sparse_op *op = cuemu__sparse_op_new("cusparseSpSM_solve", run_spsm);
  if (!op)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  op->op_a = op_a, op->op_b = op_b, op->a = m, op->b = *b, op->c = *c;
  op->alg = type;
  cuemu__sparse_op_scalar(h, op, 0, alpha, type);
  return cuemu__sparse_submit(h, op);
}

E cusparseStatus_t cusparseSpSM_updateMatrix(cusparseHandle_t h,
                                             struct cusparseSpSMDescr *d,
                                             void *values, int part) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!d || !values || (part != 0 && part != 1))
    return BAD;
  if (part != 0)
    return cuemu__sparse_unsupported("cusparseSpSV/SpSM_updateMatrix",
                                     "the diagonal-only update");
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
