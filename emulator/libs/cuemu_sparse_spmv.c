/*
 * cuemu_sparse_spmv.c: cuSPARSE's products of a sparse matrix, cusparseSpMV
 * (y = alpha op(A) x + beta y) and cusparseSpMM (C = alpha op(A) op(B) +
 * beta C, also for strided batches), with their bufferSize and preprocess
 * calls. Every algorithm
 * is accepted and computes the same way: in double precision over the
 * stored elements in their order, in the handle's stream's order
 * (cuemu_sparse.h).
 */
#include <stdlib.h>

#include "cuemu_sparse.h"

#define E CUEMU_SPARSE_EXPORT

static cuemu_sparse_value conj_if(cuemu_sparse_value v, int op) {
  if (op == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE)
    v.im = -v.im;
  return v;
}

/* alpha (0) or beta (1) of an operation, in its compute type. */
static cuemu_sparse_value scalar(const cuemu_sparse_op *op, int slot,
                                 int type) {
  return cuemu__sparse_load(op->scalar[slot], type, 0);
}

/* y = alpha t + beta y over n values (beta 0: y is not read). */
static void combine(void *y, int type, int64_t n, int64_t stride0,
                    int64_t stride1, int64_t cols, const cuemu_sparse_value *t,
                    cuemu_sparse_value alpha, cuemu_sparse_value beta) {
  int beta_zero = beta.re == 0 && beta.im == 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      int64_t at = i * stride0 + j * stride1;
      cuemu_sparse_value r = cuemu__sparse_mul(alpha, t[i * cols + j]);
      if (!beta_zero)
        r = cuemu__sparse_add(
            r, cuemu__sparse_mul(beta, cuemu__sparse_load(y, type, at)));
      cuemu__sparse_store(y, type, at, r);
    }
}

/* ---- SpMV ------------------------------------------------------------------
 */

typedef struct {
  const cuemu_sparse_op *op;
  cuemu_sparse_value *t;
} spmv_walk;

static void spmv_element(int64_t row, int64_t col, int64_t k, void *data) {
  spmv_walk *w = data;
  const cuemu_sparse_op *op = w->op;
  cuemu_sparse_value a =
      conj_if(cuemu__sparse_load(op->a.values, op->a.type, k), op->op_a);
  int64_t out = op->op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? row : col;
  int64_t in = op->op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? col : row;
  w->t[out] = cuemu__sparse_add(
      w->t[out],
      cuemu__sparse_mul(a, cuemu__sparse_load(op->x.values, op->x.type, in)));
}

static void run_spmv(cuemu_sparse_op *op) {
  spmv_walk w = {op, calloc((size_t)op->y.size + 1, sizeof *w.t)};
  if (!w.t)
    return;
  cuemu__sparse_for_each(&op->a, spmv_element, &w);
  combine(op->y.values, op->y.type, op->y.size, 1, 0, 1, w.t,
          scalar(op, 0, op->alg), scalar(op, 1, op->alg));
  free(w.t);
}

static int op_ok(int op) {
  return op >= CUSPARSE_OPERATION_NON_TRANSPOSE &&
         op <= CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
}

/* The checks of SpMV and its bufferSize: cuSPARSE's statuses. */
static cusparseStatus_t
spmv_check(cusparseHandle_t h, int op_a, const void *alpha,
           const cuemu_sparse_spmat *a, const cuemu_sparse_dnvec *x,
           const void *beta, const cuemu_sparse_dnvec *y, int type) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!alpha || !beta || !a || !x || !y || !op_ok(op_a))
    return CUSPARSE_STATUS_INVALID_VALUE;
  int64_t out = op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? a->rows : a->cols;
  int64_t in = op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? a->cols : a->rows;
  if (x->size != in || y->size != out)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (a->type != type || x->type != type || y->type != type ||
      !cuemu__sparse_value_size(type) || a->batch_count != 1)
    return cuemu__sparse_unsupported("cusparseSpMV", "a compute type unlike the values' type, mixed value types or a strided batch");
  return CUSPARSE_STATUS_SUCCESS;
}

E cusparseStatus_t cusparseSpMV_bufferSize(
    cusparseHandle_t h, int op_a, const void *alpha,
    const cuemu_sparse_spmat *a, const cuemu_sparse_dnvec *x, const void *beta,
    const cuemu_sparse_dnvec *y, int type, int alg, size_t *size) {
  (void)alg;
  cusparseStatus_t s = spmv_check(h, op_a, alpha, a, x, beta, y, type);
  if (s == CUSPARSE_STATUS_SUCCESS && !size)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (s == CUSPARSE_STATUS_SUCCESS)
    *size = 0; /* cuemu computes in host memory of its own */
  return s;
}

E cusparseStatus_t cusparseSpMV_preprocess(
    cusparseHandle_t h, int op_a, const void *alpha,
    const cuemu_sparse_spmat *a, const cuemu_sparse_dnvec *x, const void *beta,
    const cuemu_sparse_dnvec *y, int type, int alg, void *buffer) {
  (void)alg, (void)buffer;
  return spmv_check(h, op_a, alpha, a, x, beta, y, type);
}

E cusparseStatus_t cusparseSpMV(cusparseHandle_t h, int op_a, const void *alpha,
                                const cuemu_sparse_spmat *a,
                                const cuemu_sparse_dnvec *x, const void *beta,
                                const cuemu_sparse_dnvec *y, int type, int alg,
                                void *buffer) {
  (void)buffer;
  cusparseStatus_t s = spmv_check(h, op_a, alpha, a, x, beta, y, type);
  if (s != CUSPARSE_STATUS_SUCCESS)
    return s;
  (void)alg;
  if (!cuemu__sparse_check_spmat("cusparseSpMV", a) ||
      !cuemu__sparse_check_dnvec("cusparseSpMV", x) ||
      !cuemu__sparse_check_dnvec("cusparseSpMV", y))
    return CUSPARSE_STATUS_SUCCESS;
  cuemu_sparse_op *op = cuemu__sparse_op_new("cusparseSpMV", run_spmv);
  if (!op)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  op->op_a = op_a, op->a = *a, op->x = *x, op->y = *y;
  op->alg = type; /* the compute type, which the scalars have */
  cuemu__sparse_op_scalar(h, op, 0, alpha, type);
  cuemu__sparse_op_scalar(h, op, 1, beta, type);
  return cuemu__sparse_submit(h, op);
}

/* ---- SpMM ------------------------------------------------------------------
 */

typedef struct {
  const cuemu_sparse_op *op;
  cuemu_sparse_value *t;
  int64_t n;
} spmm_walk;

static void spmm_element(int64_t row, int64_t col, int64_t k, void *data) {
  spmm_walk *w = data;
  const cuemu_sparse_op *op = w->op;
  cuemu_sparse_value a =
      conj_if(cuemu__sparse_load(op->a.values, op->a.type, k), op->op_a);
  int64_t out = op->op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? row : col;
  int64_t in = op->op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? col : row;
  const cuemu_sparse_dnmat *b = &op->b;
  for (int64_t j = 0; j < w->n; ++j) {
    int64_t at = op->op_b == CUSPARSE_OPERATION_NON_TRANSPOSE
                     ? cuemu__sparse_dn_at(b, in, j)
                     : cuemu__sparse_dn_at(b, j, in);
    cuemu_sparse_value v =
        conj_if(cuemu__sparse_load(b->values, b->type, at), op->op_b);
    w->t[out * w->n + j] =
        cuemu__sparse_add(w->t[out * w->n + j], cuemu__sparse_mul(a, v));
  }
}

/* C = alpha op(A) op(B) + beta C for each batch of C (op's own matrices
 * are those of the call; each walk sees one batch's). */
static void run_spmm(cuemu_sparse_op *op) {
  cuemu_sparse_op one = *op;
  const cuemu_sparse_dnmat *c = &one.c;
  spmm_walk w = {&one, malloc(((size_t)(c->rows * c->cols) + 1) * sizeof *w.t),
                 c->cols};
  if (!w.t)
    return;
  for (int i = 0; i < op->c.batch_count; ++i) {
    one.a = cuemu__sparse_spmat_batch(&op->a, i);
    one.b = cuemu__sparse_dnmat_batch(&op->b, i);
    one.c = cuemu__sparse_dnmat_batch(&op->c, i);
    for (int64_t k = 0; k <= c->rows * c->cols; ++k)
      w.t[k] = (cuemu_sparse_value){0, 0};
    cuemu__sparse_for_each(&one.a, spmm_element, &w);
    int col = c->order == CUSPARSE_ORDER_COL;
    combine(c->values, c->type, c->rows, col ? 1 : c->ld, col ? c->ld : 1,
            c->cols, w.t, scalar(op, 0, op->alg), scalar(op, 1, op->alg));
  }
  free(w.t);
}

static cusparseStatus_t
spmm_check(cusparseHandle_t h, int op_a, int op_b, const void *alpha,
           const cuemu_sparse_spmat *a, const cuemu_sparse_dnmat *b,
           const void *beta, const cuemu_sparse_dnmat *c, int type) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!alpha || !beta || !a || !b || !c || !op_ok(op_a) || !op_ok(op_b))
    return CUSPARSE_STATUS_INVALID_VALUE;
  int64_t m = op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? a->rows : a->cols;
  int64_t k = op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? a->cols : a->rows;
  int64_t bk = op_b == CUSPARSE_OPERATION_NON_TRANSPOSE ? b->rows : b->cols;
  int64_t bn = op_b == CUSPARSE_OPERATION_NON_TRANSPOSE ? b->cols : b->rows;
  if (c->rows != m || bk != k || c->cols != bn)
    return CUSPARSE_STATUS_INVALID_VALUE;
  /* cuSPARSE's SpMM takes no Sliced-ELL matrix (it has no algorithm for
   * one). */
  if (a->format == CUSPARSE_FORMAT_SLICED_ELLPACK)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  /* Batches: C_i = A_i B_i, with A or B one matrix for every batch. */
  if (!cuemu__sparse_batches_agree(a->batch_count, b->batch_count,
                                   c->batch_count))
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (a->type != type || b->type != type || c->type != type ||
      !cuemu__sparse_value_size(type))
    return cuemu__sparse_unsupported("cusparseSpMM", "a compute type unlike the values' type or mixed value types");
  return CUSPARSE_STATUS_SUCCESS;
}

E cusparseStatus_t cusparseSpMM_bufferSize(
    cusparseHandle_t h, int op_a, int op_b, const void *alpha,
    const cuemu_sparse_spmat *a, const cuemu_sparse_dnmat *b, const void *beta,
    const cuemu_sparse_dnmat *c, int type, int alg, size_t *size) {
  (void)alg;
  cusparseStatus_t s = spmm_check(h, op_a, op_b, alpha, a, b, beta, c, type);
  if (s == CUSPARSE_STATUS_SUCCESS && !size)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (s == CUSPARSE_STATUS_SUCCESS)
    *size = 0;
  return s;
}

E cusparseStatus_t cusparseSpMM_preprocess(
    cusparseHandle_t h, int op_a, int op_b, const void *alpha,
    const cuemu_sparse_spmat *a, const cuemu_sparse_dnmat *b, const void *beta,
    const cuemu_sparse_dnmat *c, int type, int alg, void *buffer) {
  (void)alg, (void)buffer;
  return spmm_check(h, op_a, op_b, alpha, a, b, beta, c, type);
}

E cusparseStatus_t cusparseSpMM(cusparseHandle_t h, int op_a, int op_b,
                                const void *alpha, const cuemu_sparse_spmat *a,
                                const cuemu_sparse_dnmat *b, const void *beta,
                                const cuemu_sparse_dnmat *c, int type, int alg,
                                void *buffer) {
  (void)alg, (void)buffer;
  cusparseStatus_t s = spmm_check(h, op_a, op_b, alpha, a, b, beta, c, type);
  if (s != CUSPARSE_STATUS_SUCCESS)
    return s;
  for (int i = 0; i < c->batch_count; ++i) {
    cuemu_sparse_spmat ai = cuemu__sparse_spmat_batch(a, i);
    cuemu_sparse_dnmat bi = cuemu__sparse_dnmat_batch(b, i);
    cuemu_sparse_dnmat ci = cuemu__sparse_dnmat_batch(c, i);
    if (!cuemu__sparse_check_spmat("cusparseSpMM", &ai) ||
        !cuemu__sparse_check_dnmat("cusparseSpMM", &bi) ||
        !cuemu__sparse_check_dnmat("cusparseSpMM", &ci))
      return CUSPARSE_STATUS_SUCCESS;
  }
  cuemu_sparse_op *op = cuemu__sparse_op_new("cusparseSpMM", run_spmm);
  if (!op)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  op->op_a = op_a, op->op_b = op_b, op->a = *a, op->b = *b, op->c = *c;
  op->alg = type;
  cuemu__sparse_op_scalar(h, op, 0, alpha, type);
  cuemu__sparse_op_scalar(h, op, 1, beta, type);
  return cuemu__sparse_submit(h, op);
}
