/*
 * cuemu_sparse_ilu.c: the legacy incomplete factorizations that CUDA 13's
 * cusparse.h still declares and preconditioned solvers call: csrilu02
 * (ILU(0), A = L U on A's pattern, L with a unit diagonal) and csric02
 * (IC(0), A = L L^H on the lower triangle), for float, double and their
 * complex forms, with their info objects, bufferSize, analysis, zero pivot
 * and numeric boost. CSR with 32-bit indices sorted within each row, as
 * cuSPARSE requires; computed in double in the handle's stream's order
 * (cuemu_sparse.h).
 */
#include <math.h>
#include <stdlib.h>

#include <cuemu/cuemu_runtime_streams.h>

#include "cuemu_libs.h"
#include "cuemu_sparse.h"

#define E CUEMU_SPARSE_EXPORT
#define OK CUSPARSE_STATUS_SUCCESS
#define BAD CUSPARSE_STATUS_INVALID_VALUE

/* One info object (csrilu02Info_t or csric02Info_t): the first zero
 * pivot found (-1: none; in the matrix's base) and the boost. */
typedef struct {
  int analysed;
  int zero_pivot;
  int boost;
  double tol;
  cuemu_sparse_value boost_value;
} info;

static cusparseStatus_t info_create(info **i) {
  if (!i)
    return BAD;
  *i = calloc(1, sizeof **i);
  if (!*i)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  (*i)->zero_pivot = -1;
  return OK;
}

E cusparseStatus_t cusparseCreateCsrilu02Info(info **i) {
  return info_create(i);
}
E cusparseStatus_t cusparseDestroyCsrilu02Info(info *i) {
  free(i);
  return OK;
}
E cusparseStatus_t cusparseCreateCsric02Info(info **i) {
  return info_create(i);
}
E cusparseStatus_t cusparseDestroyCsric02Info(info *i) {
  free(i);
  return OK;
}

/* The zero pivot: waits for the handle's stream (the factorization that
 * finds it runs there), writes the position and returns ZERO_PIVOT where
 * there is one. */
static cusparseStatus_t zero_pivot(cusparseHandle_t h, info *i, int *position) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!i || !position)
    return BAD;
  if (cuemu_rt_stream_synchronize(h->stream) != 0)
    return CUSPARSE_STATUS_EXECUTION_FAILED;
  *position = i->zero_pivot;
  return i->zero_pivot < 0 ? OK : CUSPARSE_STATUS_ZERO_PIVOT;
}
E cusparseStatus_t cusparseXcsrilu02_zeroPivot(cusparseHandle_t h, info *i,
                                               int *position) {
  return zero_pivot(h, i, position);
}
E cusparseStatus_t cusparseXcsric02_zeroPivot(cusparseHandle_t h, info *i,
                                              int *position) {
  return zero_pivot(h, i, position);
}

/* One factorization queued: the arrays, the info object, the kind. */
typedef struct {
  int m, nnz, base, type, cholesky;
  void *values;
  const int *rows, *cols;
  info *info;
} factor;

static cuemu_sparse_value sub(cuemu_sparse_value a, cuemu_sparse_value b) {
  cuemu_sparse_value r = {a.re - b.re, a.im - b.im};
  return r;
}

static int is_small(const info *i, cuemu_sparse_value v) {
  return hypot(v.re, v.im) <= i->tol;
}

/* ILU(0), row by row (the IKJ order): row i's entries left of the
 * diagonal are divided by their column's pivot and eliminate the entries
 * of row i that row k also holds. */
static void ilu0(factor *f, int64_t *where) {
  for (int i = 0; i < f->m; ++i) {
    int from = f->rows[i] - f->base, to = f->rows[i + 1] - f->base;
    for (int p = from; p < to; ++p)
      where[f->cols[p] - f->base] = p;
    for (int p = from; p < to && f->cols[p] - f->base < i; ++p) {
      int k = f->cols[p] - f->base;
      int64_t d = -1;
      for (int q = f->rows[k] - f->base; q < f->rows[k + 1] - f->base; ++q)
        if (f->cols[q] - f->base == k)
          d = q;
      if (d < 0)
        continue; /* a missing pivot, reported by its row */
      cuemu_sparse_value l =
          cuemu__sparse_div(cuemu__sparse_load(f->values, f->type, p),
                            cuemu__sparse_load(f->values, f->type, d));
      cuemu__sparse_store(f->values, f->type, p, l);
      for (int64_t q = d + 1; q < f->rows[k + 1] - f->base; ++q) {
        int64_t at = where[f->cols[q] - f->base];
        if (at >= from && at < to && f->cols[at] == f->cols[q])
          cuemu__sparse_store(
              f->values, f->type, at,
              sub(cuemu__sparse_load(f->values, f->type, at),
                  cuemu__sparse_mul(
                      l, cuemu__sparse_load(f->values, f->type, q))));
      }
    }
    /* The pivot of row i: missing or zero is the zero pivot (the first);
     * a small one is replaced by the boost where it is enabled. */
    int64_t d = -1;
    for (int p = from; p < to; ++p)
      if (f->cols[p] - f->base == i)
        d = p;
    cuemu_sparse_value v = d >= 0 ? cuemu__sparse_load(f->values, f->type, d)
                                  : (cuemu_sparse_value){0, 0};
    if (d >= 0 && f->info->boost && is_small(f->info, v))
      cuemu__sparse_store(f->values, f->type, d, v = f->info->boost_value);
    if ((d < 0 || (v.re == 0 && v.im == 0)) && f->info->zero_pivot < 0)
      f->info->zero_pivot = i + f->base;
  }
}

/* IC(0) on the lower triangle, row by row: l_ik = (a_ik - sum_j l_ij
 * conj(l_kj)) / l_kk over the columns j < k both rows hold, l_ii =
 * sqrt(a_ii - sum_j |l_ij|^2). The upper triangle is left as it was. */
static void ic0(factor *f, int64_t *where) {
  for (int i = 0; i < f->m; ++i) {
    int from = f->rows[i] - f->base, to = f->rows[i + 1] - f->base;
    for (int p = from; p < to; ++p)
      where[f->cols[p] - f->base] = p;
    int64_t d = -1;
    cuemu_sparse_value diag_sum = {0, 0};
    for (int p = from; p < to && f->cols[p] - f->base <= i; ++p) {
      int k = f->cols[p] - f->base;
      cuemu_sparse_value s = cuemu__sparse_load(f->values, f->type, p);
      if (k == i) {
        d = p;
        break;
      }
      int64_t kd = -1;
      for (int q = f->rows[k] - f->base; q < f->rows[k + 1] - f->base; ++q) {
        int j = f->cols[q] - f->base;
        if (j == k)
          kd = q;
        if (j >= k)
          continue;
        int64_t at = where[j];
        if (at >= from && at < p && f->cols[at] - f->base == j) {
          cuemu_sparse_value b = cuemu__sparse_load(f->values, f->type, q);
          b.im = -b.im;
          s = sub(s, cuemu__sparse_mul(
                         cuemu__sparse_load(f->values, f->type, at), b));
        }
      }
      if (kd < 0)
        continue;
      cuemu_sparse_value l =
          cuemu__sparse_div(s, cuemu__sparse_load(f->values, f->type, kd));
      cuemu__sparse_store(f->values, f->type, p, l);
      diag_sum.re += l.re * l.re + l.im * l.im;
    }
    cuemu_sparse_value v = {0, 0};
    if (d >= 0) {
      v = sub(cuemu__sparse_load(f->values, f->type, d), diag_sum);
      v.re = sqrt(v.re), v.im = 0;
      cuemu__sparse_store(f->values, f->type, d, v);
    }
    if ((d < 0 || v.re == 0) && f->info->zero_pivot < 0)
      f->info->zero_pivot = i + f->base;
  }
}

static void run_factor(cuemu_sparse_op *op) {
  factor *f = op->extra;
  int64_t *where = malloc(((size_t)f->m + 1) * sizeof *where);
  if (!where)
    return;
  f->info->zero_pivot = -1;
  if (f->cholesky)
    ic0(f, where);
  else
    ilu0(f, where);
  free(where);
}

/* The checks that every call of the two makes. */
static cusparseStatus_t check(cusparseHandle_t h, int m, int nnz,
                              const struct cusparseMatDescr *d,
                              const void *values, const int *rows,
                              const int *cols, const info *i) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (m < 0 || nnz < 0 || !d || !i || (nnz > 0 && (!values || !cols)) || !rows)
    return BAD;
  if (d->type != CUSPARSE_MATRIX_TYPE_GENERAL)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  return OK;
}

static cusparseStatus_t buffer_size(cusparseHandle_t h, int m, int nnz,
                                    const struct cusparseMatDescr *d,
                                    const void *values, const int *rows,
                                    const int *cols, const info *i, int *size) {
  cusparseStatus_t s = check(h, m, nnz, d, values, rows, cols, i);
  if (s == OK && !size)
    return BAD;
  if (s == OK)
    *size = 4; /* cuemu needs none; some programs allocate what they get */
  return s;
}

static cusparseStatus_t analysis(cusparseHandle_t h, int m, int nnz,
                                 const struct cusparseMatDescr *d,
                                 const void *values, const int *rows,
                                 const int *cols, info *i) {
  cusparseStatus_t s = check(h, m, nnz, d, values, rows, cols, i);
  if (s == OK)
    i->analysed = 1;
  return s;
}

static cusparseStatus_t factorize(cusparseHandle_t h, const char *name,
                                  int type, int cholesky, int m, int nnz,
                                  const struct cusparseMatDescr *d,
                                  void *values, const int *rows,
                                  const int *cols, info *i) {
  cusparseStatus_t s = check(h, m, nnz, d, values, rows, cols, i);
  if (s != OK)
    return s;
  if (!i->analysed)
    return BAD;
  if (!cuemu__libs_device_range(name, "csrRowPtrA", rows,
                                ((size_t)m + 1) * sizeof(int)) ||
      !cuemu__libs_device_range(name, "csrColIndA", cols,
                                (size_t)nnz * sizeof(int)) ||
      !cuemu__libs_device_range(name, "csrValA", values,
                                (size_t)nnz * cuemu__sparse_value_size(type)))
    return OK;
  cuemu_sparse_op *op = cuemu__sparse_op_new(name, run_factor);
  factor *f = calloc(1, sizeof *f);
  if (!op || !f) {
    free(op), free(f);
    return CUSPARSE_STATUS_ALLOC_FAILED;
  }
  *f = (factor){m, nnz, d->base, type, cholesky, values, rows, cols, i};
  op->extra = f;
  return cuemu__sparse_submit(h, op);
}

/* The numeric boost: tol and the boost value read at the call (host or
 * device memory, which the emulated device shares). */
static cusparseStatus_t boost(cusparseHandle_t h, info *i, int enable,
                              const double *tol, const void *value, int type) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!i || (enable && (!tol || !value)))
    return BAD;
  i->boost = enable != 0;
  if (enable) {
    i->tol = *tol;
    i->boost_value = cuemu__sparse_load(value, type, 0);
  }
  return OK;
}

/* The functions of one precision X (S, D, C, Z) of value type T. (The
 * _bufferSizeExt forms that cusparse.h declares are not in NVIDIA's
 * libcusparse.so, so a program cannot call them.) */
#define CUEMU_SPARSE_ILU(X, T)                                                 \
  E cusparseStatus_t cusparse##X##csrilu02_bufferSize(                         \
      cusparseHandle_t h, int m, int nnz, const struct cusparseMatDescr *d,    \
      void *v, const int *r, const int *c, info *i, int *size) {               \
    return buffer_size(h, m, nnz, d, v, r, c, i, size);                        \
  }                                                                            \
  E cusparseStatus_t cusparse##X##csrilu02_analysis(                           \
      cusparseHandle_t h, int m, int nnz, const struct cusparseMatDescr *d,    \
      const void *v, const int *r, const int *c, info *i, int policy,          \
      void *buffer) {                                                          \
    (void)policy, (void)buffer;                                                \
    return analysis(h, m, nnz, d, v, r, c, i);                                 \
  }                                                                            \
  E cusparseStatus_t cusparse##X##csrilu02(                                    \
      cusparseHandle_t h, int m, int nnz, const struct cusparseMatDescr *d,    \
      void *v, const int *r, const int *c, info *i, int policy,                \
      void *buffer) {                                                          \
    (void)policy, (void)buffer;                                                \
    return factorize(h, "cusparse" #X "csrilu02", T, 0, m, nnz, d, v, r, c,    \
                     i);                                                       \
  }                                                                            \
  E cusparseStatus_t cusparse##X##csrilu02_numericBoost(                       \
      cusparseHandle_t h, info *i, int enable, double *tol, void *value) {     \
    return boost(h, i, enable, tol, value, T);                                 \
  }                                                                            \
  E cusparseStatus_t cusparse##X##csric02_bufferSize(                          \
      cusparseHandle_t h, int m, int nnz, const struct cusparseMatDescr *d,    \
      void *v, const int *r, const int *c, info *i, int *size) {               \
    return buffer_size(h, m, nnz, d, v, r, c, i, size);                        \
  }                                                                            \
  E cusparseStatus_t cusparse##X##csric02_analysis(                            \
      cusparseHandle_t h, int m, int nnz, const struct cusparseMatDescr *d,    \
      const void *v, const int *r, const int *c, info *i, int policy,          \
      void *buffer) {                                                          \
    (void)policy, (void)buffer;                                                \
    return analysis(h, m, nnz, d, v, r, c, i);                                 \
  }                                                                            \
  E cusparseStatus_t cusparse##X##csric02(cusparseHandle_t h, int m, int nnz,  \
                                          const struct cusparseMatDescr *d,    \
                                          void *v, const int *r, const int *c, \
                                          info *i, int policy, void *buffer) { \
    (void)policy, (void)buffer;                                                \
    return factorize(h, "cusparse" #X "csric02", T, 1, m, nnz, d, v, r, c, i); \
  }

CUEMU_SPARSE_ILU(S, CUEMU_R_32F)
CUEMU_SPARSE_ILU(D, CUEMU_R_64F)
CUEMU_SPARSE_ILU(C, CUEMU_C_32F)
CUEMU_SPARSE_ILU(Z, CUEMU_C_64F)
