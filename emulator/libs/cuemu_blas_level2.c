/*
 * cuemu_blas_level2.c: cuBLAS's level 2 (gemv, ger/geru/gerc, symv/hemv,
 * trsv, trmv) for S, D, C and Z, through double complex as level 1.
 */
#include <stdlib.h>

#include "cuemu_blas.h"

enum kind { GEMV, GER, SYMV, TRSV, TRMV };

typedef struct l2_op {
  cuemu_blas_op base;
  enum kind kind;
  int t, uplo, trans, diag, conj;
  int64_t m, n, lda, incx, incy;
  void *A, *x, *y;
  const void *alpha, *beta;
} l2_op;

static int64_t at(int64_t i, int64_t n, int64_t inc) {
  return inc >= 0 ? i * inc : (n - 1 - i) * -inc;
}

/* y = alpha r + beta y (y not read when beta is 0; r not used when alpha
 * is 0, as BLAS then reads neither A nor x: a NaN there does not reach
 * y). */
static void update_y(const l2_op *o, int64_t len, const double complex *r,
                     double complex alpha, double complex beta) {
  for (int64_t i = 0; i < len; ++i) {
    int64_t yi = at(i, len, o->incy);
    double complex v = alpha != 0 ? alpha * r[i] : 0;
    if (beta != 0)
      v += beta * cuemu__blas_load(o->t, o->y, yi);
    cuemu__blas_store(o->t, o->y, yi, v);
  }
}

static void run_l2(cuemu_blas_op *base) {
  l2_op *o = (l2_op *)base;
  int t = o->t;
  int64_t m = o->m, n = o->n, lda = o->lda;
  int64_t xlen = o->kind == GEMV && o->trans == CUBLAS_OP_N ? n
                 : o->kind == GEMV || o->kind == GER        ? m
                                                            : n;
  int64_t ylen = o->kind == GEMV ? (o->trans == CUBLAS_OP_N ? m : n) : n;
  double complex *v =
      malloc((size_t)(xlen > ylen ? xlen : ylen) * 2 * sizeof *v + 16);
  if (!v) {
    cuemu__blas_out_of_memory(base->name);
    return;
  }
  double complex *r = v + (xlen > ylen ? xlen : ylen);
  for (int64_t i = 0; i < xlen; ++i)
    v[i] = cuemu__blas_load(t, o->x, at(i, xlen, o->incx));
  double complex alpha = o->alpha ? cuemu__blas_load(t, o->alpha, 0) : 1;
  double complex beta = o->beta ? cuemu__blas_load(t, o->beta, 0) : 0;
  switch (o->kind) {
  case GEMV:
    for (int64_t i = 0; i < ylen; ++i)
      r[i] = 0;
    if (alpha != 0) {
      if (o->trans == CUBLAS_OP_N) {
        for (int64_t j = 0; j < n; ++j)
          for (int64_t i = 0; i < m; ++i)
            r[i] += cuemu__blas_load(t, o->A, i + j * lda) * v[j];
      } else {
        for (int64_t j = 0; j < n; ++j)
          for (int64_t i = 0; i < m; ++i) {
            double complex a = cuemu__blas_load(t, o->A, i + j * lda);
            r[j] += (o->trans == CUBLAS_OP_C ? conj(a) : a) * v[i];
          }
      }
    }
    update_y(o, ylen, r, alpha, beta);
    break;
  case GER:
    /* BLAS: alpha 0 leaves A as it is (a NaN in x or y does not reach
     * it). */
    for (int64_t j = 0; alpha != 0 && j < n; ++j) {
      double complex yv = cuemu__blas_load(t, o->y, at(j, n, o->incy));
      if (o->conj)
        yv = conj(yv);
      for (int64_t i = 0; i < m; ++i)
        cuemu__blas_store(t, o->A, i + j * lda,
                          cuemu__blas_load(t, o->A, i + j * lda) +
                              alpha * v[i] * yv);
    }
    break;
  case SYMV:
    /* Symmetric (or Hermitian, conj) from the uplo triangle. */
    for (int64_t i = 0; i < n; ++i) {
      double complex s = 0;
      for (int64_t j = 0; j < n; ++j) {
        int stored = o->uplo == CUBLAS_FILL_MODE_UPPER ? i <= j : i >= j;
        double complex a = stored ? cuemu__blas_load(t, o->A, i + j * lda)
                                  : cuemu__blas_load(t, o->A, j + i * lda);
        if (!stored && o->conj)
          a = conj(a);
        if (i == j && o->conj)
          a = creal(a);
        s += a * v[j];
      }
      r[i] = s;
    }
    update_y(o, n, r, alpha, beta);
    break;
  case TRSV:
  case TRMV:
    if (o->kind == TRSV)
      cuemu__blas_tri_solve(o->uplo, o->trans, o->diag, n, t, o->A, lda, v);
    else
      cuemu__blas_tri_multiply(o->uplo, o->trans, o->diag, n, t, o->A, lda, v);
    for (int64_t i = 0; i < n; ++i)
      cuemu__blas_store(t, o->x, at(i, n, o->incx), v[i]);
    break;
  }
  free(v);
}

/* Records, checks device memory and enqueues a checked level 2 call. */
static cublasStatus_t l2(cublasHandle_t h, l2_op *o, const char *name,
                         const void *alpha, const void *beta) {
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  size_t es = cuemu__blas_type_size(o->t);
  int ok = 1;
  if (alpha)
    o->alpha = cuemu__blas_scalar(h, &o->base, 0, alpha, es);
  if (beta)
    o->beta = cuemu__blas_scalar(h, &o->base, 1, beta, es);
  if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE)
    ok = (!alpha || cuemu__libs_device_range(name, "alpha", alpha, es)) &&
         (!beta || cuemu__libs_device_range(name, "beta", beta, es));
  int64_t arows = o->kind == GEMV || o->kind == GER ? o->m : o->n;
  int64_t xlen = o->kind == GEMV && o->trans == CUBLAS_OP_N ? o->n
                 : o->kind == GEMV || o->kind == GER        ? o->m
                                                            : o->n;
  int64_t ylen =
      o->kind == GEMV ? (o->trans == CUBLAS_OP_N ? o->m : o->n) : o->n;
  ok =
      ok &&
      cuemu__libs_device_range(
          name, "A", o->A, cuemu__blas_matrix_bytes(arows, o->n, o->lda, es)) &&
      cuemu__libs_device_range(name, "x", o->x,
                               cuemu__blas_vector_bytes(xlen, o->incx, es)) &&
      (!o->y ||
       cuemu__libs_device_range(name, "y", o->y,
                                cuemu__blas_vector_bytes(ylen, o->incy, es)));
  if (!ok) {
    free(o);
    return CUBLAS_STATUS_SUCCESS;
  }
  return cuemu__blas_submit(h, &o->base);
}

static l2_op *new_l2(const char *name, enum kind kind, int t) {
  l2_op *o = (l2_op *)cuemu__blas_op_new(sizeof(l2_op), name, run_l2);
  if (o)
    o->kind = kind, o->t = t;
  return o;
}

static cublasStatus_t gemv(cublasHandle_t h, const char *name, int t, int trans,
                           int64_t m, int64_t n, const void *alpha,
                           const void *A, int64_t lda, const void *x,
                           int64_t incx, const void *beta, void *y,
                           int64_t incy) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!cuemu__blas_op_valid(trans) || m < 0 || n < 0 || lda < (m > 1 ? m : 1) ||
      incx == 0 || incy == 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!alpha || !beta)
    return CUBLAS_STATUS_INVALID_VALUE;
  l2_op *o = new_l2(name, GEMV, t);
  if (o)
    o->trans = trans, o->m = m, o->n = n, o->A = (void *)A, o->lda = lda,
    o->x = (void *)x, o->incx = incx, o->y = y, o->incy = incy;
  return l2(h, o, name, alpha, beta);
}

#define CUEMU_GEMV_DEF(NAME, I, T, TYPE)                                       \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int trans, I m, I n, const T *alpha, const T *A,       \
      I lda, const T *x, I incx, const T *beta, T *y, I incy) {                \
    return gemv(h, #NAME, TYPE, trans, m, n, alpha, A, lda, x, incx, beta, y,  \
                incy);                                                         \
  }
#define CUEMU_GEMV(...) CUEMU_BLAS_ILP64(CUEMU_GEMV_DEF, __VA_ARGS__)
CUEMU_GEMV(cublasSgemv_v2, float, CUEMU_R_32F)
CUEMU_GEMV(cublasDgemv_v2, double, CUEMU_R_64F)
CUEMU_GEMV(cublasCgemv_v2, float complex, CUEMU_C_32F)
CUEMU_GEMV(cublasZgemv_v2, double complex, CUEMU_C_64F)

static cublasStatus_t ger(cublasHandle_t h, const char *name, int t, int cj,
                          int64_t m, int64_t n, const void *alpha,
                          const void *x, int64_t incx, const void *y,
                          int64_t incy, void *A, int64_t lda) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || incx == 0 || incy == 0 || lda < (m > 1 ? m : 1))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!alpha)
    return CUBLAS_STATUS_INVALID_VALUE;
  l2_op *o = new_l2(name, GER, t);
  if (o)
    o->conj = cj, o->m = m, o->n = n, o->A = A, o->lda = lda, o->x = (void *)x,
    o->incx = incx, o->y = (void *)y, o->incy = incy;
  return l2(h, o, name, alpha, NULL);
}

#define CUEMU_GER_DEF(NAME, I, T, TYPE, CONJ)                                  \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, I m, I n,            \
                                        const T *alpha, const T *x, I incx,    \
                                        const T *y, I incy, T *A, I lda) {     \
    return ger(h, #NAME, TYPE, CONJ, m, n, alpha, x, incx, y, incy, A, lda);   \
  }
#define CUEMU_GER(...) CUEMU_BLAS_ILP64(CUEMU_GER_DEF, __VA_ARGS__)
CUEMU_GER(cublasSger_v2, float, CUEMU_R_32F, 0)
CUEMU_GER(cublasDger_v2, double, CUEMU_R_64F, 0)
CUEMU_GER(cublasCgeru_v2, float complex, CUEMU_C_32F, 0)
CUEMU_GER(cublasCgerc_v2, float complex, CUEMU_C_32F, 1)
CUEMU_GER(cublasZgeru_v2, double complex, CUEMU_C_64F, 0)
CUEMU_GER(cublasZgerc_v2, double complex, CUEMU_C_64F, 1)

static int uplo_valid(int uplo) {
  return uplo == CUBLAS_FILL_MODE_LOWER || uplo == CUBLAS_FILL_MODE_UPPER;
}

static cublasStatus_t symv(cublasHandle_t h, const char *name, int t, int cj,
                           int uplo, int64_t n, const void *alpha,
                           const void *A, int64_t lda, const void *x,
                           int64_t incx, const void *beta, void *y,
                           int64_t incy) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!uplo_valid(uplo) || n < 0 || lda < (n > 1 ? n : 1) || incx == 0 ||
      incy == 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!alpha || !beta)
    return CUBLAS_STATUS_INVALID_VALUE;
  l2_op *o = new_l2(name, SYMV, t);
  if (o)
    o->conj = cj, o->uplo = uplo, o->m = n, o->n = n, o->A = (void *)A,
    o->lda = lda, o->x = (void *)x, o->incx = incx, o->y = y, o->incy = incy;
  return l2(h, o, name, alpha, beta);
}

#define CUEMU_SYMV_DEF(NAME, I, T, TYPE, CONJ)                                 \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int uplo, I n, const T *alpha, const T *A, I lda,      \
      const T *x, I incx, const T *beta, T *y, I incy) {                       \
    return symv(h, #NAME, TYPE, CONJ, uplo, n, alpha, A, lda, x, incx, beta,   \
                y, incy);                                                      \
  }
#define CUEMU_SYMV(...) CUEMU_BLAS_ILP64(CUEMU_SYMV_DEF, __VA_ARGS__)
CUEMU_SYMV(cublasSsymv_v2, float, CUEMU_R_32F, 0)
CUEMU_SYMV(cublasDsymv_v2, double, CUEMU_R_64F, 0)
CUEMU_SYMV(cublasCsymv_v2, float complex, CUEMU_C_32F, 0)
CUEMU_SYMV(cublasZsymv_v2, double complex, CUEMU_C_64F, 0)
CUEMU_SYMV(cublasChemv_v2, float complex, CUEMU_C_32F, 1)
CUEMU_SYMV(cublasZhemv_v2, double complex, CUEMU_C_64F, 1)

static cublasStatus_t triangular(cublasHandle_t h, const char *name, int t,
                                 enum kind kind, int uplo, int trans, int diag,
                                 int64_t n, const void *A, int64_t lda, void *x,
                                 int64_t incx) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!uplo_valid(uplo) || !cuemu__blas_op_valid(trans) ||
      (diag != CUBLAS_DIAG_UNIT && diag != CUBLAS_DIAG_NON_UNIT) || n < 0 ||
      lda < (n > 1 ? n : 1) || incx == 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0)
    return CUBLAS_STATUS_SUCCESS;
  l2_op *o = new_l2(name, kind, t);
  if (o)
    o->uplo = uplo, o->trans = trans, o->diag = diag, o->m = n, o->n = n,
    o->A = (void *)A, o->lda = lda, o->x = x, o->incx = incx;
  return l2(h, o, name, NULL, NULL);
}

#define CUEMU_TRIANGULAR_DEF(NAME, I, KIND, T, TYPE)                           \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, int uplo, int trans, \
                                        int diag, I n, const T *A, I lda,      \
                                        T *x, I incx) {                        \
    return triangular(h, #NAME, TYPE, KIND, uplo, trans, diag, n, A, lda, x,   \
                      incx);                                                   \
  }
#define CUEMU_TRIANGULAR(...)                                                  \
  CUEMU_BLAS_ILP64(CUEMU_TRIANGULAR_DEF, __VA_ARGS__)
CUEMU_TRIANGULAR(cublasStrsv_v2, TRSV, float, CUEMU_R_32F)
CUEMU_TRIANGULAR(cublasDtrsv_v2, TRSV, double, CUEMU_R_64F)
CUEMU_TRIANGULAR(cublasCtrsv_v2, TRSV, float complex, CUEMU_C_32F)
CUEMU_TRIANGULAR(cublasZtrsv_v2, TRSV, double complex, CUEMU_C_64F)
CUEMU_TRIANGULAR(cublasStrmv_v2, TRMV, float, CUEMU_R_32F)
CUEMU_TRIANGULAR(cublasDtrmv_v2, TRMV, double, CUEMU_R_64F)
CUEMU_TRIANGULAR(cublasCtrmv_v2, TRMV, float complex, CUEMU_C_32F)
CUEMU_TRIANGULAR(cublasZtrmv_v2, TRMV, double complex, CUEMU_C_64F)
