/*
 * cuemu_sparse_convert.c: cuSPARSE's sparse vector calls (cusparseAxpby,
 * cusparseGather, cusparseScatter, cusparseRot, cusparseSpVV) and its
 * conversions between
 * dense and sparse matrices (cusparseSparseToDense, cusparseDenseToSparse), in
 * the handle's stream's order (cuemu_sparse.h).
 */
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "cuemu_libs.h"

#include "cuemu_sparse.h"

#define E CUEMU_SPARSE_EXPORT
#define OK CUSPARSE_STATUS_SUCCESS

/* ---- Sparse vectors --------------------------------------------------------
 */

/* y = alpha x + beta y, x sparse. */
static void run_axpby(cuemu_sparse_op *op) {
  cuemu_sparse_value alpha = cuemu__sparse_load(op->scalar[0], op->y.type, 0);
  cuemu_sparse_value beta = cuemu__sparse_load(op->scalar[1], op->y.type, 0);
  for (int64_t i = 0; i < op->y.size; ++i)
    cuemu__sparse_store(
        op->y.values, op->y.type, i,
        cuemu__sparse_mul(beta,
                          cuemu__sparse_load(op->y.values, op->y.type, i)));
  for (int64_t k = 0; k < op->sv.nnz; ++k) {
    int64_t i =
        cuemu__sparse_index(op->sv.indices, op->sv.index_type, k) - op->sv.base;
    cuemu_sparse_value v = cuemu__sparse_add(
        cuemu__sparse_load(op->y.values, op->y.type, i),
        cuemu__sparse_mul(alpha,
                          cuemu__sparse_load(op->sv.values, op->sv.type, k)));
    cuemu__sparse_store(op->y.values, op->y.type, i, v);
  }
}

/* Gather: x's values from y at x's indices. */
static void run_gather(cuemu_sparse_op *op) {
  for (int64_t k = 0; k < op->sv.nnz; ++k) {
    int64_t i =
        cuemu__sparse_index(op->sv.indices, op->sv.index_type, k) - op->sv.base;
    cuemu__sparse_store(op->sv.values, op->sv.type, k,
                        cuemu__sparse_load(op->y.values, op->y.type, i));
  }
}

/* Scatter: y at x's indices from x's values. */
static void run_scatter(cuemu_sparse_op *op) {
  for (int64_t k = 0; k < op->sv.nnz; ++k) {
    int64_t i =
        cuemu__sparse_index(op->sv.indices, op->sv.index_type, k) - op->sv.base;
    cuemu__sparse_store(op->y.values, op->y.type, i,
                        cuemu__sparse_load(op->sv.values, op->sv.type, k));
  }
}

/* Rot, a Givens rotation of x and y at x's indices, from the old values:
 * x = c x + s y, y = c y - s x. */
static void run_rot(cuemu_sparse_op *op) {
  cuemu_sparse_value c = cuemu__sparse_load(op->scalar[0], op->y.type, 0);
  cuemu_sparse_value s = cuemu__sparse_load(op->scalar[1], op->y.type, 0);
  cuemu_sparse_value minus_s = {-s.re, -s.im};
  for (int64_t k = 0; k < op->sv.nnz; ++k) {
    int64_t i =
        cuemu__sparse_index(op->sv.indices, op->sv.index_type, k) - op->sv.base;
    cuemu_sparse_value x = cuemu__sparse_load(op->sv.values, op->sv.type, k);
    cuemu_sparse_value y = cuemu__sparse_load(op->y.values, op->y.type, i);
    cuemu__sparse_store(
        op->sv.values, op->sv.type, k,
        cuemu__sparse_add(cuemu__sparse_mul(c, x), cuemu__sparse_mul(s, y)));
    cuemu__sparse_store(op->y.values, op->y.type, i,
                        cuemu__sparse_add(cuemu__sparse_mul(c, y),
                                          cuemu__sparse_mul(minus_s, x)));
  }
}

/* The checks of the four and the enqueueing. */
static cusparseStatus_t vector_op(cusparseHandle_t h, const char *name,
                                  void (*run)(cuemu_sparse_op *),
                                  const void *alpha, const void *beta,
                                  const cuemu_sparse_spvec *x,
                                  const cuemu_sparse_dnvec *y, int scalars) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!x || !y || (scalars && (!alpha || !beta)) || x->size != y->size)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (x->type != y->type)
    return cuemu__sparse_unsupported(name, "mixed value types");
  if (!cuemu__sparse_check_spvec(name, x) ||
      !cuemu__sparse_check_dnvec(name, y))
    return OK;
  cuemu_sparse_op *op = cuemu__sparse_op_new(name, run);
  if (!op)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  op->sv = *x, op->y = *y;
  if (scalars) {
    cuemu__sparse_op_scalar(h, op, 0, alpha, y->type);
    cuemu__sparse_op_scalar(h, op, 1, beta, y->type);
  }
  return cuemu__sparse_submit(h, op);
}

E cusparseStatus_t cusparseAxpby(cusparseHandle_t h, const void *alpha,
                                 const cuemu_sparse_spvec *x, const void *beta,
                                 const cuemu_sparse_dnvec *y) {
  return vector_op(h, "cusparseAxpby", run_axpby, alpha, beta, x, y, 1);
}
E cusparseStatus_t cusparseRot(cusparseHandle_t h, const void *c,
                               const void *s, cuemu_sparse_spvec *x,
                               cuemu_sparse_dnvec *y) {
  return vector_op(h, "cusparseRot", run_rot, c, s, x, y, 1);
}
E cusparseStatus_t cusparseGather(cusparseHandle_t h,
                                  const cuemu_sparse_dnvec *y,
                                  const cuemu_sparse_spvec *x) {
  return vector_op(h, "cusparseGather", run_gather, NULL, NULL, x, y, 0);
}
E cusparseStatus_t cusparseScatter(cusparseHandle_t h,
                                   const cuemu_sparse_spvec *x,
                                   const cuemu_sparse_dnvec *y) {
  return vector_op(h, "cusparseScatter", run_scatter, NULL, NULL, x, y, 0);
}

/* SpVV: result = op(x) . y (op NON_TRANSPOSE or CONJUGATE_TRANSPOSE:
 * x's values conjugated), in the compute type. */
static void run_spvv(cuemu_sparse_op *op) {
  cuemu_sparse_value sum = {0, 0};
  for (int64_t k = 0; k < op->sv.nnz; ++k) {
    int64_t i =
        cuemu__sparse_index(op->sv.indices, op->sv.index_type, k) - op->sv.base;
    cuemu_sparse_value x = cuemu__sparse_load(op->sv.values, op->sv.type, k);
    if (op->op_a == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE)
      x.im = -x.im;
    sum = cuemu__sparse_add(
        sum,
        cuemu__sparse_mul(x, cuemu__sparse_load(op->y.values, op->y.type, i)));
  }
  cuemu__sparse_store((void *)op->scalar[0], op->alg, 0, sum);
}

static cusparseStatus_t spvv_check(cusparseHandle_t h, int op_x,
                                   const cuemu_sparse_spvec *x,
                                   const cuemu_sparse_dnvec *y,
                                   const void *result, int type) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!x || !y || !result || x->size != y->size ||
      (op_x != CUSPARSE_OPERATION_NON_TRANSPOSE &&
       op_x != CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE))
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (x->type != y->type || x->type != type)
    return cuemu__sparse_unsupported(
        "cusparseSpVV", "a compute type unlike the values' type or mixed value "
                        "types");
  return OK;
}

E cusparseStatus_t cusparseSpVV_bufferSize(cusparseHandle_t h, int op_x,
                                           const cuemu_sparse_spvec *x,
                                           const cuemu_sparse_dnvec *y,
                                           const void *result, int type,
                                           size_t *size) {
  cusparseStatus_t s = spvv_check(h, op_x, x, y, result, type);
  if (s == OK && !size)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (s == OK)
    *size = 0;
  return s;
}

/* With CUSPARSE_POINTER_MODE_HOST the call returns once the result is
 * written (it waits for the stream, unless the stream captures a graph:
 * cuemu__sparse_wait_result), as cuSPARSE's. */
E cusparseStatus_t cusparseSpVV(cusparseHandle_t h, int op_x,
                                const cuemu_sparse_spvec *x,
                                const cuemu_sparse_dnvec *y, void *result,
                                int type, void *buffer) {
  (void)buffer;
  cusparseStatus_t s = spvv_check(h, op_x, x, y, result, type);
  if (s != OK)
    return s;
  if (!cuemu__sparse_check_spvec("cusparseSpVV", x) ||
      !cuemu__sparse_check_dnvec("cusparseSpVV", y))
    return OK;
  cuemu_sparse_op *op = cuemu__sparse_op_new("cusparseSpVV", run_spvv);
  if (!op)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  op->sv = *x, op->y = *y, op->op_a = op_x, op->alg = type;
  op->scalar[0] = result;
  s = cuemu__sparse_submit(h, op);
  if (s == OK && h->pointer_mode == CUSPARSE_POINTER_MODE_HOST)
    return cuemu__sparse_wait_result(h);
  return s;
}

/* ---- Sparse to dense -------------------------------------------------------
 */

static void to_dense_element(int64_t row, int64_t col, int64_t k, void *data) {
  cuemu_sparse_op *op = data;
  int64_t at = cuemu__sparse_dn_at(&op->b, row, col);
  /* Duplicates add up, as in a product with the matrix. */
  cuemu__sparse_store(
      op->b.values, op->b.type, at,
      cuemu__sparse_add(cuemu__sparse_load(op->b.values, op->b.type, at),
                        cuemu__sparse_load(op->a.values, op->a.type, k)));
}

static void run_to_dense(cuemu_sparse_op *op) {
  cuemu_sparse_value zero = {0, 0};
  for (int64_t i = 0; i < op->b.rows; ++i)
    for (int64_t j = 0; j < op->b.cols; ++j)
      cuemu__sparse_store(op->b.values, op->b.type,
                          cuemu__sparse_dn_at(&op->b, i, j), zero);
  cuemu__sparse_for_each(&op->a, to_dense_element, op);
}

static cusparseStatus_t to_dense_check(cusparseHandle_t h,
                                       const cuemu_sparse_spmat *a,
                                       const cuemu_sparse_dnmat *b, int alg) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!a || !b || alg != 0 || a->rows != b->rows || a->cols != b->cols)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (a->type != b->type)
    return cuemu__sparse_unsupported("cusparseSparseToDense",
                                     "a change of value type");
  return OK;
}

E cusparseStatus_t cusparseSparseToDense_bufferSize(cusparseHandle_t h,
                                                    const cuemu_sparse_spmat *a,
                                                    const cuemu_sparse_dnmat *b,
                                                    int alg, size_t *size) {
  cusparseStatus_t s = to_dense_check(h, a, b, alg);
  if (s == OK && !size)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (s == OK)
    *size = 0;
  return s;
}

E cusparseStatus_t cusparseSparseToDense(cusparseHandle_t h,
                                         const cuemu_sparse_spmat *a,
                                         const cuemu_sparse_dnmat *b, int alg,
                                         void *buffer) {
  (void)buffer;
  cusparseStatus_t s = to_dense_check(h, a, b, alg);
  if (s != OK)
    return s;
  if (!cuemu__sparse_check_spmat("cusparseSparseToDense", a) ||
      !cuemu__sparse_check_dnmat("cusparseSparseToDense", b))
    return OK;
  cuemu_sparse_op *op =
      cuemu__sparse_op_new("cusparseSparseToDense", run_to_dense);
  if (!op)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  op->a = *a, op->b = *b;
  return cuemu__sparse_submit(h, op);
}

/* ---- Dense to sparse
 * --------------------------------------------------------- The analysis counts
 * the nonzeros (it waits for the stream: the program reads the count with
 * cusparseSpMatGetSize as soon as it returns) and writes CSR's or CSC's
 * offsets; the conversion writes indices and values in the stream's order. */

static int is_zero(cuemu_sparse_value v) { return v.re == 0 && v.im == 0; }

/* The dense matrix's element (i, j) of line l, position p, of the sparse
 * format's lines (rows for CSR and COO, columns for CSC). */
static cuemu_sparse_value line_at(const cuemu_sparse_dnmat *m, int format,
                                  int64_t l, int64_t p, int64_t *row,
                                  int64_t *col) {
  *row = format == CUSPARSE_FORMAT_CSC ? p : l;
  *col = format == CUSPARSE_FORMAT_CSC ? l : p;
  return cuemu__sparse_load(m->values, m->type,
                            cuemu__sparse_dn_at(m, *row, *col));
}

/* Into Blocked-ELL, whose block columns the program gives: each stored
 * element from the dense matrix, those of an empty block (-1) zero. */
static void run_to_blocked_ell(cuemu_sparse_op *op) {
  cuemu_sparse_spmat *s = &op->a;
  int64_t bs = s->block_rows, per_row = s->ell_cols / bs;
  cuemu_sparse_value zero = {0, 0};
  for (int64_t r = 0; r < s->rows; ++r)
    for (int64_t c = 0; c < s->ell_cols; ++c) {
      int64_t bj =
          cuemu__sparse_index(s->indices, s->index_type, r / bs * per_row + c / bs);
      cuemu__sparse_store(
          s->values, s->type, r * s->ell_cols + c,
          bj == -1 ? zero
                   : cuemu__sparse_load(op->b.values, op->b.type,
                                        cuemu__sparse_dn_at(
                                            &op->b, r,
                                            (bj - s->base) * bs + c % bs)));
    }
}

static void run_to_sparse(cuemu_sparse_op *op) {
  cuemu_sparse_spmat *s = &op->a;
  if (s->format == CUSPARSE_FORMAT_BLOCKED_ELL) {
    run_to_blocked_ell(op);
    return;
  }
  int64_t lines = s->format == CUSPARSE_FORMAT_CSC ? s->cols : s->rows;
  int64_t len = s->format == CUSPARSE_FORMAT_CSC ? s->rows : s->cols;
  int64_t k = 0;
  for (int64_t l = 0; l < lines; ++l)
    for (int64_t p = 0; p < len; ++p) {
      int64_t row, col;
      cuemu_sparse_value v = line_at(&op->b, s->format, l, p, &row, &col);
      if (is_zero(v) || k >= s->nnz)
        continue;
      if (s->format == CUSPARSE_FORMAT_COO)
        cuemu__sparse_set_index(s->offsets, s->offset_type, k, row + s->base);
      cuemu__sparse_set_index(s->indices, s->index_type, k,
                              (s->format == CUSPARSE_FORMAT_CSC ? row : col) +
                                  s->base);
      cuemu__sparse_store(s->values, s->type, k++, v);
    }
}

static cusparseStatus_t to_sparse_check(cusparseHandle_t h,
                                        const cuemu_sparse_dnmat *a,
                                        const cuemu_sparse_spmat *b, int alg) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!a || !b || alg != 0 || a->rows != b->rows || a->cols != b->cols)
    return CUSPARSE_STATUS_INVALID_VALUE;
  /* cuemu writes CSR, CSC, COO and Blocked-ELL (whose pattern the
   * program gives), not BSR or Sliced-ELL. */
  if (cuemu__sparse_is_blocked(b) && b->format != CUSPARSE_FORMAT_BLOCKED_ELL)
    return cuemu__sparse_unsupported("cusparseDenseToSparse",
                                     "a BSR or Sliced-ELL result");
  if (a->type != b->type)
    return cuemu__sparse_unsupported("cusparseDenseToSparse",
                                     "a change of value type");
  return OK;
}

E cusparseStatus_t cusparseDenseToSparse_bufferSize(cusparseHandle_t h,
                                                    const cuemu_sparse_dnmat *a,
                                                    const cuemu_sparse_spmat *b,
                                                    int alg, size_t *size) {
  cusparseStatus_t s = to_sparse_check(h, a, b, alg);
  if (s == OK && !size)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (s == OK)
    *size = 0;
  return s;
}

E cusparseStatus_t cusparseDenseToSparse_analysis(cusparseHandle_t h,
                                                  const cuemu_sparse_dnmat *a,
                                                  cuemu_sparse_spmat *b,
                                                  int alg, void *buffer) {
  (void)buffer;
  cusparseStatus_t s = to_sparse_check(h, a, b, alg);
  if (s != OK)
    return s;
  const char *name = "cusparseDenseToSparse_analysis";
  /* Blocked-ELL's pattern is the program's: nothing to count. */
  if (b->format == CUSPARSE_FORMAT_BLOCKED_ELL)
    return OK;
  int offsets = b->format != CUSPARSE_FORMAT_COO;
  int64_t lines = b->format == CUSPARSE_FORMAT_CSC ? b->cols : b->rows;
  int64_t len = b->format == CUSPARSE_FORMAT_CSC ? b->rows : b->cols;
  if (!cuemu__sparse_check_dnmat(name, a) ||
      (offsets &&
       !cuemu__libs_device_range(
           name, "the sparse matrix's offsets", b->offsets,
           (size_t)(lines + 1) * cuemu__sparse_index_size(b->offset_type))))
    return OK;
  if (cuemu_rt_stream_synchronize(h->stream) != 0)
    return CUSPARSE_STATUS_EXECUTION_FAILED;
  int64_t nnz = 0;
  for (int64_t l = 0; l < lines; ++l) {
    if (offsets)
      cuemu__sparse_set_index(b->offsets, b->offset_type, l, nnz + b->base);
    for (int64_t p = 0; p < len; ++p) {
      int64_t row, col;
      nnz += !is_zero(line_at(a, b->format, l, p, &row, &col));
    }
  }
  if (offsets)
    cuemu__sparse_set_index(b->offsets, b->offset_type, lines, nnz + b->base);
  b->nnz = nnz;
  return OK;
}

E cusparseStatus_t cusparseDenseToSparse_convert(cusparseHandle_t h,
                                                 const cuemu_sparse_dnmat *a,
                                                 const cuemu_sparse_spmat *b,
                                                 int alg, void *buffer) {
  (void)buffer;
  cusparseStatus_t s = to_sparse_check(h, a, b, alg);
  if (s != OK)
    return s;
  if (!cuemu__sparse_check_dnmat("cusparseDenseToSparse_convert", a) ||
      !cuemu__sparse_check_spmat("cusparseDenseToSparse_convert", b))
    return OK;
  cuemu_sparse_op *op =
      cuemu__sparse_op_new("cusparseDenseToSparse_convert", run_to_sparse);
  if (!op)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  op->a = *b, op->b = *a;
  return cuemu__sparse_submit(h, op);
}
