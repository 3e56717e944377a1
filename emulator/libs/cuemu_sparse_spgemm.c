/*
 * cuemu_sparse_spgemm.c: cuSPARSE's product of two sparse matrices,
 * cusparseSpGEMM (C = alpha A B, CSR, neither transposed), in its
 * workflow: workEstimation and compute are asked for their buffer sizes
 * and called again with buffers; compute makes the product (it waits for
 * the handle's stream: the program reads C's nonzero count with
 * cusparseSpMatGetSize as soon as it returns) and keeps it in the
 * descriptor; copy writes C's offsets, column indices (sorted in each row)
 * and values in the stream's order (cuemu_sparse.h). The memory-saving
 * algorithms' cusparseSpGEMM_estimateMemory gives its sizes (ALG2 and ALG3
 * compute as the others do). The structure-reuse workflow
 * (cusparseSpGEMMreuse_*): workEstimation asks nothing, nnz makes C's
 * pattern (and waits for the stream, as compute does), copy writes C's
 * offsets and columns, and compute, as often as called, C's values
 * alpha op(A) op(B) + beta C from A's and B's values of the time it runs
 * (beta 0: C is not read).
 */
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime_streams.h>

#include "cuemu_sparse.h"

#define E CUEMU_SPARSE_EXPORT
#define OK CUSPARSE_STATUS_SUCCESS
#define BAD CUSPARSE_STATUS_INVALID_VALUE

struct cusparseSpGEMMDescr {
  int made;
  int64_t rows, products, nnz;
  int64_t *offsets, *cols; /* 0-based */
  cuemu_sparse_value *values;
};

static void clear(struct cusparseSpGEMMDescr *d) {
  free(d->offsets), free(d->cols), free(d->values);
  d->offsets = d->cols = NULL, d->values = NULL;
  d->made = 0;
}

E cusparseStatus_t cusparseSpGEMM_createDescr(struct cusparseSpGEMMDescr **d) {
  if (!d)
    return BAD;
  *d = calloc(1, sizeof **d);
  return *d ? OK : CUSPARSE_STATUS_ALLOC_FAILED;
}

E cusparseStatus_t cusparseSpGEMM_destroyDescr(struct cusparseSpGEMMDescr *d) {
  if (d)
    clear(d);
  free(d);
  return OK;
}

static cusparseStatus_t check(cusparseHandle_t h, int op_a, int op_b,
                              const void *alpha, const cuemu_sparse_spmat *a,
                              const cuemu_sparse_spmat *b, const void *beta,
                              const cuemu_sparse_spmat *c, int type,
                              const struct cusparseSpGEMMDescr *d) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!alpha || !beta || !a || !b || !c || !d || a->cols != b->rows ||
      c->rows != a->rows || c->cols != b->cols)
    return BAD;
  if (op_a != CUSPARSE_OPERATION_NON_TRANSPOSE ||
      op_b != CUSPARSE_OPERATION_NON_TRANSPOSE ||
      a->format != CUSPARSE_FORMAT_CSR || b->format != CUSPARSE_FORMAT_CSR ||
      c->format != CUSPARSE_FORMAT_CSR || a->type != type || b->type != type ||
      c->type != type || a->batch_count != 1 || b->batch_count != 1)
    return cuemu__sparse_unsupported(
        "cusparseSpGEMM", "an operation other than NON_TRANSPOSE, a matrix not "
                          "in CSR, mixed value types or a strided batch");
  return OK;
}

/* The product, row by row with a dense accumulator of B's columns. */
static cusparseStatus_t multiply(struct cusparseSpGEMMDescr *d,
                                 const cuemu_sparse_spmat *a,
                                 const cuemu_sparse_spmat *b,
                                 cuemu_sparse_value alpha) {
  clear(d);
  int64_t n = b->cols, cap = 16;
  int64_t *mark = malloc(((size_t)n + 1) * sizeof *mark);
  cuemu_sparse_value *acc = malloc(((size_t)n + 1) * sizeof *acc);
  d->offsets = malloc(((size_t)a->rows + 1) * sizeof *d->offsets);
  d->cols = malloc((size_t)cap * sizeof *d->cols);
  d->values = malloc((size_t)cap * sizeof *d->values);
  if (!mark || !acc || !d->offsets || !d->cols || !d->values) {
    free(mark), free(acc), clear(d);
    return CUSPARSE_STATUS_ALLOC_FAILED;
  }
  for (int64_t j = 0; j < n; ++j)
    mark[j] = -1;
  int64_t nnz = 0, products = 0;
  for (int64_t i = 0; i < a->rows; ++i) {
    d->offsets[i] = nnz;
    int64_t start = nnz;
    int64_t pa = cuemu__sparse_index(a->offsets, a->offset_type, i) - a->base;
    int64_t ea =
        cuemu__sparse_index(a->offsets, a->offset_type, i + 1) - a->base;
    for (; pa < ea; ++pa) {
      int64_t k = cuemu__sparse_index(a->indices, a->index_type, pa) - a->base;
      cuemu_sparse_value av = cuemu__sparse_load(a->values, a->type, pa);
      int64_t pb = cuemu__sparse_index(b->offsets, b->offset_type, k) - b->base;
      int64_t eb =
          cuemu__sparse_index(b->offsets, b->offset_type, k + 1) - b->base;
      for (; pb < eb; ++pb, ++products) {
        int64_t j =
            cuemu__sparse_index(b->indices, b->index_type, pb) - b->base;
        cuemu_sparse_value p =
            cuemu__sparse_mul(av, cuemu__sparse_load(b->values, b->type, pb));
        if (mark[j] < start) {
          if (nnz == cap) {
            cap *= 2;
            int64_t *c2 = realloc(d->cols, (size_t)cap * sizeof *c2);
            if (c2)
              d->cols = c2;
            cuemu_sparse_value *v2 =
                realloc(d->values, (size_t)cap * sizeof *v2);
            if (v2)
              d->values = v2;
            if (!c2 || !v2) {
              free(mark), free(acc), clear(d);
              return CUSPARSE_STATUS_ALLOC_FAILED;
            }
          }
          mark[j] = nnz;
          d->cols[nnz++] = j;
          acc[j] = p;
        } else {
          acc[j] = cuemu__sparse_add(acc[j], p);
        }
      }
    }
    /* The row's columns sorted (insertion sort: rows are short). */
    for (int64_t x = start + 1; x < nnz; ++x)
      for (int64_t y = x; y > start && d->cols[y - 1] > d->cols[y]; --y) {
        int64_t t = d->cols[y];
        d->cols[y] = d->cols[y - 1], d->cols[y - 1] = t;
      }
    for (int64_t x = start; x < nnz; ++x) {
      d->values[x] = cuemu__sparse_mul(alpha, acc[d->cols[x]]);
      mark[d->cols[x]] = -1; /* fresh for the next row */
    }
  }
  d->offsets[a->rows] = nnz;
  d->rows = a->rows, d->nnz = nnz, d->products = products, d->made = 1;
  free(mark), free(acc);
  return OK;
}

E cusparseStatus_t cusparseSpGEMM_workEstimation(
    cusparseHandle_t h, int op_a, int op_b, const void *alpha,
    const cuemu_sparse_spmat *a, const cuemu_sparse_spmat *b, const void *beta,
    cuemu_sparse_spmat *c, int type, int alg, struct cusparseSpGEMMDescr *d,
    size_t *size, void *buffer) {
  (void)alg, (void)buffer;
  cusparseStatus_t s = check(h, op_a, op_b, alpha, a, b, beta, c, type, d);
  if (s == OK && !size)
    return BAD;
  if (s == OK)
    *size = 8; /* unused; a program allocates it */
  return s;
}

E cusparseStatus_t cusparseSpGEMM_compute(
    cusparseHandle_t h, int op_a, int op_b, const void *alpha,
    const cuemu_sparse_spmat *a, const cuemu_sparse_spmat *b, const void *beta,
    cuemu_sparse_spmat *c, int type, int alg, struct cusparseSpGEMMDescr *d,
    size_t *size, void *buffer) {
  (void)alg, (void)buffer;
  cusparseStatus_t s = check(h, op_a, op_b, alpha, a, b, beta, c, type, d);
  if (s != OK)
    return s;
  if (!size)
    return BAD;
  *size = 8;
  if (!cuemu__sparse_check_spmat("cusparseSpGEMM_compute", a) ||
      !cuemu__sparse_check_spmat("cusparseSpGEMM_compute", b))
    return OK;
  /* alpha and the matrices are read once the stream's work is done. */
  if (cuemu_rt_stream_synchronize(h->stream) != 0)
    return CUSPARSE_STATUS_EXECUTION_FAILED;
  s = multiply(d, a, b, cuemu__sparse_load(alpha, type, 0));
  if (s == OK)
    c->nnz = d->nnz;
  return s;
}

E cusparseStatus_t cusparseSpGEMM_getNumProducts(struct cusparseSpGEMMDescr *d,
                                                 int64_t *products) {
  if (!d || !products)
    return BAD;
  *products = d->products;
  return OK;
}

/* Writes C from the descriptor (which may be destroyed before it runs:
 * the operation holds its own copy). */
typedef struct {
  int64_t rows, nnz;
  int64_t *offsets, *cols;
  cuemu_sparse_value *values; /* NULL: the structure only (reuse_copy) */
} result;

static void run_copy(cuemu_sparse_op *op) {
  result *r = op->extra;
  cuemu_sparse_spmat *c = &op->a;
  for (int64_t i = 0; i <= r->rows; ++i)
    cuemu__sparse_set_index(c->offsets, c->offset_type, i,
                            r->offsets[i] + c->base);
  for (int64_t k = 0; k < r->nnz; ++k) {
    cuemu__sparse_set_index(c->indices, c->index_type, k, r->cols[k] + c->base);
    if (r->values)
      cuemu__sparse_store(c->values, c->type, k, r->values[k]);
  }
}

/* Enqueues the writing of C from the descriptor: its structure, and its
 * values unless `structure_only`. */
static cusparseStatus_t copy_result(cusparseHandle_t h, const char *name,
                                    cuemu_sparse_spmat *c,
                                    const struct cusparseSpGEMMDescr *d,
                                    int structure_only) {
  if (!d->made || c->nnz != d->nnz)
    return BAD;
  if (!cuemu__sparse_check_spmat(name, c))
    return OK;
  size_t values = structure_only ? 0 : (size_t)d->nnz * sizeof(cuemu_sparse_value);
  size_t bytes = sizeof(result) + values +
                 ((size_t)d->rows + 1 + (size_t)d->nnz) * sizeof(int64_t);
  result *r = malloc(bytes);
  cuemu_sparse_op *op = cuemu__sparse_op_new(name, run_copy);
  if (!r || !op) {
    free(r), free(op);
    return CUSPARSE_STATUS_ALLOC_FAILED;
  }
  r->rows = d->rows, r->nnz = d->nnz;
  r->values = structure_only ? NULL : (cuemu_sparse_value *)(r + 1);
  r->offsets = (int64_t *)((char *)(r + 1) + values);
  r->cols = r->offsets + d->rows + 1;
  if (r->values)
    memcpy(r->values, d->values, values);
  memcpy(r->offsets, d->offsets, ((size_t)d->rows + 1) * sizeof *r->offsets);
  memcpy(r->cols, d->cols, (size_t)d->nnz * sizeof *r->cols);
  op->extra = r, op->a = *c;
  return cuemu__sparse_submit(h, op);
}

E cusparseStatus_t cusparseSpGEMM_copy(
    cusparseHandle_t h, int op_a, int op_b, const void *alpha,
    const cuemu_sparse_spmat *a, const cuemu_sparse_spmat *b, const void *beta,
    cuemu_sparse_spmat *c, int type, int alg, struct cusparseSpGEMMDescr *d) {
  (void)alg;
  cusparseStatus_t s = check(h, op_a, op_b, alpha, a, b, beta, c, type, d);
  if (s != OK)
    return s;
  return copy_result(h, "cusparseSpGEMM_copy", c, d, 0);
}

/* cusparseSpGEMMAlg_t's ALG3, whose chunks estimateMemory sizes. */
enum { SPGEMM_ALG3 = 5 };

E cusparseStatus_t cusparseSpGEMM_estimateMemory(
    cusparseHandle_t h, int op_a, int op_b, const void *alpha,
    const cuemu_sparse_spmat *a, const cuemu_sparse_spmat *b, const void *beta,
    cuemu_sparse_spmat *c, int type, int alg, struct cusparseSpGEMMDescr *d,
    float chunk_fraction, size_t *size3, void *buffer3, size_t *size2) {
  (void)buffer3;
  cusparseStatus_t s = check(h, op_a, op_b, alpha, a, b, beta, c, type, d);
  if (s == OK && (!size3 || (alg == SPGEMM_ALG3 && !(chunk_fraction > 0 &&
                                                     chunk_fraction <= 1))))
    return BAD;
  if (s != OK)
    return s;
  *size3 = 8; /* unused; a program allocates it */
  if (size2)
    *size2 = 8;
  return OK;
}

/* ---- Structure reuse ------------------------------------------------------
 */

/* The checks of the reuse calls without scalars: check()'s, with C's value
 * type for the compute type. */
static cusparseStatus_t reuse_check(cusparseHandle_t h, int op_a, int op_b,
                                    const cuemu_sparse_spmat *a,
                                    const cuemu_sparse_spmat *b,
                                    const cuemu_sparse_spmat *c,
                                    const struct cusparseSpGEMMDescr *d) {
  static const double one[2] = {1, 0};
  if (h && !c)
    return BAD;
  return check(h, op_a, op_b, one, a, b, one, c, c ? c->type : 0, d);
}

E cusparseStatus_t cusparseSpGEMMreuse_workEstimation(
    cusparseHandle_t h, int op_a, int op_b, const cuemu_sparse_spmat *a,
    const cuemu_sparse_spmat *b, cuemu_sparse_spmat *c, int alg,
    struct cusparseSpGEMMDescr *d, size_t *size1, void *buffer1) {
  (void)alg, (void)buffer1;
  cusparseStatus_t s = reuse_check(h, op_a, op_b, a, b, c, d);
  if (s == OK && !size1)
    return BAD;
  if (s == OK)
    *size1 = 8;
  return s;
}

/* C's pattern, kept in the descriptor once the buffers are given (the
 * call with the last one). */
E cusparseStatus_t cusparseSpGEMMreuse_nnz(
    cusparseHandle_t h, int op_a, int op_b, const cuemu_sparse_spmat *a,
    const cuemu_sparse_spmat *b, cuemu_sparse_spmat *c, int alg,
    struct cusparseSpGEMMDescr *d, size_t *size2, void *buffer2,
    size_t *size3, void *buffer3, size_t *size4, void *buffer4) {
  (void)alg, (void)buffer2, (void)buffer3;
  cusparseStatus_t s = reuse_check(h, op_a, op_b, a, b, c, d);
  if (s == OK && (!size2 || !size3 || !size4))
    return BAD;
  if (s != OK)
    return s;
  *size2 = *size3 = *size4 = 8;
  if (!buffer4)
    return OK;
  if (!cuemu__sparse_check_spmat("cusparseSpGEMMreuse_nnz", a) ||
      !cuemu__sparse_check_spmat("cusparseSpGEMMreuse_nnz", b))
    return OK;
  if (cuemu_rt_stream_synchronize(h->stream) != 0)
    return CUSPARSE_STATUS_EXECUTION_FAILED;
  cuemu_sparse_value one = {1, 0};
  s = multiply(d, a, b, one);
  if (s == OK)
    c->nnz = d->nnz;
  return s;
}

E cusparseStatus_t cusparseSpGEMMreuse_copy(
    cusparseHandle_t h, int op_a, int op_b, const cuemu_sparse_spmat *a,
    const cuemu_sparse_spmat *b, cuemu_sparse_spmat *c, int alg,
    struct cusparseSpGEMMDescr *d, size_t *size5, void *buffer5) {
  (void)alg;
  cusparseStatus_t s = reuse_check(h, op_a, op_b, a, b, c, d);
  if (s == OK && !size5)
    return BAD;
  if (s != OK)
    return s;
  *size5 = 8;
  if (!buffer5)
    return OK;
  return copy_result(h, "cusparseSpGEMMreuse_copy", c, d, 1);
}

/* The three matrices of a reuse compute, as the call found them. */
typedef struct {
  cuemu_sparse_spmat a, b, c;
} operands;

/* C's values on C's pattern: row by row, A's row times B accumulated in
 * a dense row, then alpha times it plus beta times C's value. */
static void run_reuse_compute(cuemu_sparse_op *op) {
  operands *m = op->extra;
  const cuemu_sparse_spmat *a = &m->a, *b = &m->b, *c = &m->c;
  cuemu_sparse_value alpha = cuemu__sparse_load(op->scalar[0], c->type, 0);
  cuemu_sparse_value beta = cuemu__sparse_load(op->scalar[1], c->type, 0);
  cuemu_sparse_value zero = {0, 0};
  cuemu_sparse_value *acc = malloc(((size_t)b->cols + 1) * sizeof *acc);
  if (!acc)
    return;
  for (int64_t i = 0; i < c->rows; ++i) {
    int64_t from = cuemu__sparse_index(c->offsets, c->offset_type, i) - c->base;
    int64_t to = cuemu__sparse_index(c->offsets, c->offset_type, i + 1) - c->base;
    for (int64_t k = from; k < to; ++k)
      acc[cuemu__sparse_index(c->indices, c->index_type, k) - c->base] = zero;
    int64_t pa = cuemu__sparse_index(a->offsets, a->offset_type, i) - a->base;
    int64_t ea = cuemu__sparse_index(a->offsets, a->offset_type, i + 1) - a->base;
    for (; pa < ea; ++pa) {
      int64_t l = cuemu__sparse_index(a->indices, a->index_type, pa) - a->base;
      cuemu_sparse_value av = cuemu__sparse_load(a->values, a->type, pa);
      int64_t pb = cuemu__sparse_index(b->offsets, b->offset_type, l) - b->base;
      int64_t eb = cuemu__sparse_index(b->offsets, b->offset_type, l + 1) - b->base;
      for (; pb < eb; ++pb) {
        int64_t j = cuemu__sparse_index(b->indices, b->index_type, pb) - b->base;
        acc[j] = cuemu__sparse_add(
            acc[j], cuemu__sparse_mul(av, cuemu__sparse_load(b->values, b->type, pb)));
      }
    }
    for (int64_t k = from; k < to; ++k) {
      int64_t j = cuemu__sparse_index(c->indices, c->index_type, k) - c->base;
      cuemu_sparse_value v = cuemu__sparse_mul(alpha, acc[j]);
      if (beta.re != 0 || beta.im != 0)
        v = cuemu__sparse_add(
            v, cuemu__sparse_mul(beta, cuemu__sparse_load(c->values, c->type, k)));
      cuemu__sparse_store(c->values, c->type, k, v);
    }
  }
  free(acc);
}

E cusparseStatus_t cusparseSpGEMMreuse_compute(
    cusparseHandle_t h, int op_a, int op_b, const void *alpha,
    const cuemu_sparse_spmat *a, const cuemu_sparse_spmat *b, const void *beta,
    cuemu_sparse_spmat *c, int type, int alg, struct cusparseSpGEMMDescr *d) {
  static const char name[] = "cusparseSpGEMMreuse_compute";
  (void)alg;
  cusparseStatus_t s = check(h, op_a, op_b, alpha, a, b, beta, c, type, d);
  if (s != OK)
    return s;
  if (!d->made || c->nnz != d->nnz)
    return BAD;
  if (!cuemu__sparse_check_spmat(name, a) ||
      !cuemu__sparse_check_spmat(name, b) ||
      !cuemu__sparse_check_spmat(name, c))
    return OK;
  operands m = {*a, *b, *c};
  cuemu_sparse_op *op = cuemu__sparse_op_new(name, run_reuse_compute);
  operands *copy = malloc(sizeof *copy);
  if (!op || !copy) {
    free(op), free(copy);
    return CUSPARSE_STATUS_ALLOC_FAILED;
  }
  *copy = m;
  op->extra = copy;
  cuemu__sparse_op_scalar(h, op, 0, alpha, type);
  cuemu__sparse_op_scalar(h, op, 1, beta, type);
  return cuemu__sparse_submit(h, op);
}
