/*
 * cuemu_sparse_sddmm.c: cuSPARSE's sampled dense-dense product,
 * cusparseSDDMM (C = alpha (op(A) op(B)) o spy(C) + beta C: the product of
 * two dense matrices computed at C's stored elements only), with its
 * bufferSize and preprocess calls; C in any sparse format, also strided
 * batches. Computed in
 * double over each element's dot product, in the handle's stream's order
 * (cuemu_sparse.h).
 */
#include "cuemu_sparse.h"

#define E CUEMU_SPARSE_EXPORT

/* Element (i, j) of op(M) for a dense M. */
static cuemu_sparse_value op_at(const cuemu_sparse_dnmat *m, int op, int64_t i,
                                int64_t j) {
  int64_t at = op == CUSPARSE_OPERATION_NON_TRANSPOSE
                   ? cuemu__sparse_dn_at(m, i, j)
                   : cuemu__sparse_dn_at(m, j, i);
  cuemu_sparse_value v = cuemu__sparse_load(m->values, m->type, at);
  if (op == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE)
    v.im = -v.im;
  return v;
}

static void sddmm_element(int64_t row, int64_t col, int64_t k, void *data) {
  cuemu_sparse_op *op = data;
  int64_t inner = op->op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? op->b.cols
                                                               : op->b.rows;
  cuemu_sparse_value dot = {0, 0};
  for (int64_t l = 0; l < inner; ++l)
    dot = cuemu__sparse_add(dot, cuemu__sparse_mul(op_at(&op->b, op->op_a, row, l),
                                                   op_at(&op->c, op->op_b, l, col)));
  cuemu_sparse_value alpha = cuemu__sparse_load(op->scalar[0], op->alg, 0);
  cuemu_sparse_value beta = cuemu__sparse_load(op->scalar[1], op->alg, 0);
  cuemu_sparse_value r = cuemu__sparse_mul(alpha, dot);
  if (beta.re != 0 || beta.im != 0)
    r = cuemu__sparse_add(
        r, cuemu__sparse_mul(beta,
                             cuemu__sparse_load(op->a.values, op->a.type, k)));
  cuemu__sparse_store(op->a.values, op->a.type, k, r);
}

/* For each batch of C: C_i from A_i and B_i (or the one A or B). */
static void run_sddmm(cuemu_sparse_op *op) {
  cuemu_sparse_op one = *op;
  for (int i = 0; i < op->a.batch_count; ++i) {
    one.a = cuemu__sparse_spmat_batch(&op->a, i);
    one.b = cuemu__sparse_dnmat_batch(&op->b, i);
    one.c = cuemu__sparse_dnmat_batch(&op->c, i);
    cuemu__sparse_for_each(&one.a, sddmm_element, &one);
  }
}

static int op_ok(int op) {
  return op >= CUSPARSE_OPERATION_NON_TRANSPOSE &&
         op <= CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
}

static cusparseStatus_t
sddmm_check(cusparseHandle_t h, int op_a, int op_b, const void *alpha,
            const cuemu_sparse_dnmat *a, const cuemu_sparse_dnmat *b,
            const void *beta, const cuemu_sparse_spmat *c, int type, int alg) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!alpha || !beta || !a || !b || !c || !op_ok(op_a) || !op_ok(op_b) ||
      alg != 0 /* CUSPARSE_SDDMM_ALG_DEFAULT */)
    return CUSPARSE_STATUS_INVALID_VALUE;
  int na = op_a == CUSPARSE_OPERATION_NON_TRANSPOSE;
  int nb = op_b == CUSPARSE_OPERATION_NON_TRANSPOSE;
  int64_t m = na ? a->rows : a->cols, k = na ? a->cols : a->rows;
  int64_t bk = nb ? b->rows : b->cols, n = nb ? b->cols : b->rows;
  if (c->rows != m || c->cols != n || bk != k)
    return CUSPARSE_STATUS_INVALID_VALUE;
  /* Batches: C_i from A_i and B_i, with A or B one matrix for every
   * batch. */
  if (!cuemu__sparse_batches_agree(a->batch_count, b->batch_count,
                                   c->batch_count))
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (a->type != type || b->type != type || c->type != type ||
      !cuemu__sparse_value_size(type))
    return cuemu__sparse_unsupported("cusparseSDDMM", "a compute type unlike the values' type or mixed value types");
  return CUSPARSE_STATUS_SUCCESS;
}

E cusparseStatus_t cusparseSDDMM_bufferSize(
    cusparseHandle_t h, int op_a, int op_b, const void *alpha,
    const cuemu_sparse_dnmat *a, const cuemu_sparse_dnmat *b, const void *beta,
    const cuemu_sparse_spmat *c, int type, int alg, size_t *size) {
  cusparseStatus_t s =
      sddmm_check(h, op_a, op_b, alpha, a, b, beta, c, type, alg);
  if (s == CUSPARSE_STATUS_SUCCESS && !size)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (s == CUSPARSE_STATUS_SUCCESS)
    *size = 0; /* cuemu computes in host memory of its own */
  return s;
}

E cusparseStatus_t cusparseSDDMM_preprocess(
    cusparseHandle_t h, int op_a, int op_b, const void *alpha,
    const cuemu_sparse_dnmat *a, const cuemu_sparse_dnmat *b, const void *beta,
    const cuemu_sparse_spmat *c, int type, int alg, void *buffer) {
  (void)buffer;
  return sddmm_check(h, op_a, op_b, alpha, a, b, beta, c, type, alg);
}

E cusparseStatus_t cusparseSDDMM(cusparseHandle_t h, int op_a, int op_b,
                                 const void *alpha, const cuemu_sparse_dnmat *a,
                                 const cuemu_sparse_dnmat *b, const void *beta,
                                 const cuemu_sparse_spmat *c, int type, int alg,
                                 void *buffer) {
  (void)buffer;
  cusparseStatus_t s =
      sddmm_check(h, op_a, op_b, alpha, a, b, beta, c, type, alg);
  if (s != CUSPARSE_STATUS_SUCCESS)
    return s;
  for (int i = 0; i < c->batch_count; ++i) {
    cuemu_sparse_dnmat ai = cuemu__sparse_dnmat_batch(a, i);
    cuemu_sparse_dnmat bi = cuemu__sparse_dnmat_batch(b, i);
    cuemu_sparse_spmat ci = cuemu__sparse_spmat_batch(c, i);
    if (!cuemu__sparse_check_dnmat("cusparseSDDMM", &ai) ||
        !cuemu__sparse_check_dnmat("cusparseSDDMM", &bi) ||
        !cuemu__sparse_check_spmat("cusparseSDDMM", &ci))
      return CUSPARSE_STATUS_SUCCESS;
  }
  cuemu_sparse_op *op = cuemu__sparse_op_new("cusparseSDDMM", run_sddmm);
  if (!op)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  /* The op's slots: C in `a`, A in `b`, B in `c`. */
  op->op_a = op_a, op->op_b = op_b, op->a = *c, op->b = *a, op->c = *b;
  op->alg = type; /* the compute type, which the scalars have */
  cuemu__sparse_op_scalar(h, op, 0, alpha, type);
  cuemu__sparse_op_scalar(h, op, 1, beta, type);
  return cuemu__sparse_submit(h, op);
}
