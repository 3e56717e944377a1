/*
 * cuemu_blas_level2.c: cuBLAS's level 2 for S, D, C and Z, through double
 * complex as level 1, in full, band and packed storage (cuemu_blas_shape):
 * - products with a general matrix: gemv, gbmv;
 * - with a symmetric or Hermitian one: symv, sbmv, spmv, hemv, hbmv, hpmv;
 * - triangular products and solves: trmv, tbmv, tpmv, trsv, tbsv, tpsv;
 * - rank-1 and rank-2 updates: ger (geru, gerc), syr, her, spr, hpr, syr2,
 *   her2, spr2, hpr2;
 * - batches of gemv: gemvBatched, gemvStridedBatched.
 * Each family is one routine over the stored elements of its shape, and
 * each entry point one line of a table.
 */
#include <stdlib.h>

#include "cuemu_blas.h"

enum kind { GENERAL, SYMMETRIC, TRIANGULAR, RANK };

typedef struct l2_op {
  cuemu_blas_op base;
  enum kind kind;
  int t, st; /* the matrix's and the scalars' types */
  int trans; /* GENERAL, TRIANGULAR */
  int diag;  /* TRIANGULAR */
  int solve; /* TRIANGULAR: solve, else multiply */
  int herm;  /* SYMMETRIC, RANK: Hermitian (a real diagonal) */
  int conj;  /* RANK: the conjugate of the second vector (gerc, her) */
  int two;   /* RANK: a rank-2 update */
  cuemu_blas_shape s;
  int64_t cols, xlen, ylen, incx, incy;
  void *A, *x, *y;
  const void *alpha, *beta;
  /* gemvBatched (the arrays of pointers) and gemvStridedBatched (the
   * strides, in elements): `batch` products, each A, x and y found and
   * checked when the work runs, as a kernel reads them. */
  int64_t batch;
  const void *const *Aarray, *const *xarray;
  void *const *yarray;
  int64_t stride_a, stride_x, stride_y;
} l2_op;

static int64_t at(int64_t i, int64_t n, int64_t inc) {
  return inc >= 0 ? i * inc : (n - 1 - i) * -inc;
}

/* Loads a vector of n elements into v. */
static void load_vector(int t, const void *p, int64_t n, int64_t inc,
                        double complex *v) {
  for (int64_t i = 0; i < n; ++i)
    v[i] = cuemu__blas_load(t, p, at(i, n, inc));
}

/* y = alpha r + beta y (y not read when beta is 0; r not used when alpha
 * is 0, as BLAS then reads neither A nor x: a NaN there does not reach
 * y). */
static void update_y(const l2_op *o, const double complex *r,
                     double complex alpha, double complex beta) {
  for (int64_t i = 0; i < o->ylen; ++i) {
    int64_t yi = at(i, o->ylen, o->incy);
    double complex v = alpha != 0 ? alpha * r[i] : 0;
    if (beta != 0)
      v += beta * cuemu__blas_load(o->t, o->y, yi);
    cuemu__blas_store(o->t, o->y, yi, v);
  }
  cuemu__blas_vector_wrote(o->y, o->ylen, o->incy, cuemu__blas_type_size(o->t));
}

/* r = op(A) v over A's stored elements. */
static void general(const l2_op *o, const double complex *v,
                    double complex *r) {
  CUEMU_BLAS_FOR_STORED(&o->s, o->cols, i, j) {
    double complex a =
        cuemu__blas_load(o->t, o->A, cuemu__blas_shape_at(&o->s, i, j));
    if (o->trans == CUBLAS_OP_N)
      r[i] += a * v[j];
    else
      r[j] += (o->trans == CUBLAS_OP_C ? conj(a) : a) * v[i];
  }
}

/* r = A v for A symmetric (or Hermitian) from its stored triangle. */
static void symmetric(const l2_op *o, const double complex *v,
                      double complex *r) {
  CUEMU_BLAS_FOR_STORED(&o->s, o->cols, i, j) {
    double complex a =
        cuemu__blas_load(o->t, o->A, cuemu__blas_shape_at(&o->s, i, j));
    if (i == j) {
      r[i] += (o->herm ? creal(a) : a) * v[j];
    } else {
      r[i] += a * v[j];
      r[j] += (o->herm ? conj(a) : a) * v[i];
    }
  }
}

/* A += alpha x op(y)^T (+ alpha' y op(x)^T for a rank-2 update) over A's
 * stored elements, op the conjugate for gerc and the Hermitian forms,
 * alpha' = conj(alpha) for her2 and hpr2; a Hermitian A's diagonal stays
 * real, as BLAS's zher makes it. */
static void rank(const l2_op *o, const double complex *x,
                 const double complex *y, double complex alpha) {
  double complex alpha2 = o->herm ? conj(alpha) : alpha;
  CUEMU_BLAS_FOR_STORED(&o->s, o->cols, i, j) {
    double complex yj = o->conj ? conj(y[j]) : y[j];
    double complex xj = o->conj ? conj(x[j]) : x[j];
    int64_t k = cuemu__blas_shape_at(&o->s, i, j);
    double complex a = cuemu__blas_load(o->t, o->A, k) + alpha * x[i] * yj;
    if (o->two)
      a += alpha2 * y[i] * xj;
    if (o->herm && i == j)
      a = creal(a);
    cuemu__blas_store(o->t, o->A, k, a);
  }
}

/* One operation; v is zeroed scratch of 3 max(xlen, ylen). */
static void run_one(const l2_op *o, double complex *v) {
  int64_t len = o->xlen > o->ylen ? o->xlen : o->ylen;
  double complex *w = v + len, *r = w + len;
  double complex alpha = o->alpha ? cuemu__blas_load(o->st, o->alpha, 0) : 1;
  double complex beta = o->beta ? cuemu__blas_load(o->st, o->beta, 0) : 0;
  switch (o->kind) {
  case GENERAL:
  case SYMMETRIC:
    /* BLAS: alpha 0 reads neither A nor x. */
    if (alpha != 0) {
      load_vector(o->t, o->x, o->xlen, o->incx, v);
      (o->kind == GENERAL ? general : symmetric)(o, v, r);
    }
    update_y(o, r, alpha, beta);
    break;
  case TRIANGULAR:
    load_vector(o->t, o->x, o->xlen, o->incx, v);
    (o->solve ? cuemu__blas_tri_solve_shaped : cuemu__blas_tri_multiply_shaped)(
        &o->s, o->trans, o->diag, o->xlen, o->t, o->A, v);
    for (int64_t i = 0; i < o->xlen; ++i)
      cuemu__blas_store(o->t, o->x, at(i, o->xlen, o->incx), v[i]);
    break;
  case RANK:
    /* BLAS: alpha 0 leaves A as it is (a NaN in x or y does not reach
     * it). */
    if (alpha == 0)
      break;
    load_vector(o->t, o->x, o->xlen, o->incx, v);
    if (o->y)
      load_vector(o->t, o->y, o->ylen, o->incy, w);
    rank(o, v, o->y ? w : v, alpha);
    break;
  }
}

static void run_l2(cuemu_blas_op *base) {
  l2_op *o = (l2_op *)base;
  int64_t len = o->xlen > o->ylen ? o->xlen : o->ylen;
  double complex *v = calloc((size_t)len * 3 + 1, sizeof *v);
  if (!v) {
    cuemu__blas_out_of_memory(base->name);
    return;
  }
  if (!o->batch)
    run_one(o, v);
  size_t es = cuemu__blas_type_size(o->t);
  for (int64_t b = 0; b < o->batch; ++b) {
    l2_op one = *o;
    if (o->Aarray)
      one.A = (void *)o->Aarray[b], one.x = (void *)o->xarray[b],
      one.y = o->yarray[b];
    else
      one.A = (char *)o->A + b * o->stride_a * (int64_t)es,
      one.x = (char *)o->x + b * o->stride_x * (int64_t)es,
      one.y = (char *)o->y + b * o->stride_y * (int64_t)es;
    if (!cuemu__libs_device_range(
            base->name, "A[i]", one.A,
            cuemu__blas_shape_bytes(&o->s, o->cols, es)) ||
        !cuemu__libs_device_range(
            base->name, "x[i]", one.x,
            cuemu__blas_vector_bytes(o->xlen, o->incx, es)) ||
        !cuemu__libs_device_range(
            base->name, "y[i]", one.y,
            cuemu__blas_vector_bytes(o->ylen, o->incy, es)))
      break;
    for (int64_t i = 0; i < 3 * len; ++i)
      v[i] = 0;
    run_one(&one, v);
  }
  free(v);
}

/* Records the scalars, checks device memory and enqueues a checked
 * call. */
static cublasStatus_t l2(cublasHandle_t h, l2_op *o, const void *alpha,
                         const void *beta) {
  const char *name = o->base.name;
  size_t es = cuemu__blas_type_size(o->t), ss = cuemu__blas_type_size(o->st);
  int ok = 1;
  if (alpha)
    o->alpha = cuemu__blas_scalar(h, &o->base, 0, alpha, ss);
  if (beta)
    o->beta = cuemu__blas_scalar(h, &o->base, 1, beta, ss);
  if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE)
    ok = (!alpha || cuemu__libs_device_range(name, "alpha", alpha, ss)) &&
         (!beta || cuemu__libs_device_range(name, "beta", beta, ss));
  if (ok && o->Aarray) {
    size_t pb = (size_t)o->batch * sizeof(void *);
    ok = cuemu__libs_device_range(name, "Aarray", o->Aarray, pb) &&
         cuemu__libs_device_range(name, "xarray", o->xarray, pb) &&
         cuemu__libs_device_range(name, "yarray", o->yarray, pb);
  }
  if (!o->batch)
    ok = ok &&
         cuemu__libs_device_range(
             name, o->s.storage == CUEMU_BLAS_PACKED ? "AP" : "A", o->A,
             cuemu__blas_shape_bytes(&o->s, o->cols, es)) &&
         cuemu__libs_device_range(
             name, "x", o->x, cuemu__blas_vector_bytes(o->xlen, o->incx, es)) &&
         (!o->y ||
          cuemu__libs_device_range(
              name, "y", o->y, cuemu__blas_vector_bytes(o->ylen, o->incy, es)));
  if (!ok) {
    free(o);
    return CUBLAS_STATUS_SUCCESS;
  }
  return cuemu__blas_submit(h, &o->base);
}

static l2_op *new_l2(const char *name, enum kind kind, int t, int st) {
  l2_op *o = (l2_op *)cuemu__blas_op_new(sizeof(l2_op), name, run_l2);
  if (o)
    o->kind = kind, o->t = t, o->st = st;
  return o;
}

static int uplo_valid(int uplo) {
  return uplo == CUBLAS_FILL_MODE_LOWER || uplo == CUBLAS_FILL_MODE_UPPER;
}

static int64_t max1(int64_t v) { return v > 1 ? v : 1; }

/* A batch of gemv: the arrays of pointers (A NULL for the strided form),
 * or the strides of gemvStridedBatched. */
typedef struct l2_batch {
  int64_t count;
  const void *const *A, *const *x;
  void *const *y;
  int64_t sa, sx, sy;
} l2_batch;

/* gemv (kl = ku = -1: full storage), gbmv, and gemv's batches (batch not
 * NULL; A, x and y the strided form's first). */
static cublasStatus_t gemv(cublasHandle_t h, const char *name, int t, int trans,
                           int64_t m, int64_t n, int64_t kl, int64_t ku,
                           const void *alpha, const void *A, int64_t lda,
                           const void *x, int64_t incx, const void *beta,
                           void *y, int64_t incy, const l2_batch *batch) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  int band = kl >= 0 || ku >= 0;
  if (!cuemu__blas_op_valid(trans) || m < 0 || n < 0 ||
      (band && (kl < 0 || ku < 0)) || lda < (band ? kl + ku + 1 : max1(m)) ||
      incx == 0 || incy == 0 || (batch && batch->count < 0))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0 || (batch && batch->count == 0))
    return CUBLAS_STATUS_SUCCESS;
  if (!alpha || !beta)
    return CUBLAS_STATUS_INVALID_VALUE;
  l2_op *o = new_l2(name, GENERAL, t, t);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->s = cuemu__blas_general(m, n, lda);
  if (band)
    o->s.storage = CUEMU_BLAS_BAND, o->s.kl = kl, o->s.ku = ku;
  o->trans = trans, o->cols = n, o->A = (void *)A;
  o->x = (void *)x, o->incx = incx, o->y = y, o->incy = incy;
  o->xlen = trans == CUBLAS_OP_N ? n : m,
  o->ylen = trans == CUBLAS_OP_N ? m : n;
  if (batch) {
    o->batch = batch->count, o->Aarray = batch->A, o->xarray = batch->x,
    o->yarray = batch->y;
    o->stride_a = batch->sa, o->stride_x = batch->sx, o->stride_y = batch->sy;
  }
  return l2(h, o, alpha, beta);
}

/* symv, hemv (full), sbmv, hbmv (band, k off-diagonals), spmv, hpmv
 * (packed). */
static cublasStatus_t symv(cublasHandle_t h, const char *name, int t, int herm,
                           int storage, int uplo, int64_t n, int64_t k,
                           const void *alpha, const void *A, int64_t lda,
                           const void *x, int64_t incx, const void *beta,
                           void *y, int64_t incy) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!uplo_valid(uplo) || n < 0 || k < 0 ||
      (storage == CUEMU_BLAS_FULL && lda < max1(n)) ||
      (storage == CUEMU_BLAS_BAND && lda < k + 1) || incx == 0 || incy == 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!alpha || !beta)
    return CUBLAS_STATUS_INVALID_VALUE;
  l2_op *o = new_l2(name, SYMMETRIC, t, t);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->s = cuemu__blas_triangle(storage, uplo, n, k, lda);
  o->herm = herm, o->cols = n, o->A = (void *)A;
  o->x = (void *)x, o->incx = incx, o->y = y, o->incy = incy;
  o->xlen = o->ylen = n;
  return l2(h, o, alpha, beta);
}

/* trmv, trsv (full), tbmv, tbsv (band), tpmv, tpsv (packed). */
static cublasStatus_t triangular(cublasHandle_t h, const char *name, int t,
                                 int solve, int storage, int uplo, int trans,
                                 int diag, int64_t n, int64_t k, const void *A,
                                 int64_t lda, void *x, int64_t incx) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!uplo_valid(uplo) || !cuemu__blas_op_valid(trans) ||
      (diag != CUBLAS_DIAG_UNIT && diag != CUBLAS_DIAG_NON_UNIT) || n < 0 ||
      k < 0 || (storage == CUEMU_BLAS_FULL && lda < max1(n)) ||
      (storage == CUEMU_BLAS_BAND && lda < k + 1) || incx == 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0)
    return CUBLAS_STATUS_SUCCESS;
  l2_op *o = new_l2(name, TRIANGULAR, t, t);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->s = cuemu__blas_triangle(storage, uplo, n, k, lda);
  o->solve = solve, o->trans = trans, o->diag = diag, o->cols = n;
  o->A = (void *)A, o->x = x, o->incx = incx, o->xlen = n;
  return l2(h, o, NULL, NULL);
}

/* ger, geru, gerc (uplo -1: a general m x n A), syr, her, syr2, her2
 * (full), spr, hpr, spr2, hpr2 (packed); y NULL for the rank-1 updates of
 * a triangle (x with itself). st: alpha's type (real for her, hpr). */
static cublasStatus_t rank_update(cublasHandle_t h, const char *name, int t,
                                  int st, int herm, int cj, int storage,
                                  int uplo, int64_t m, int64_t n,
                                  const void *alpha, const void *x,
                                  int64_t incx, const void *y, int64_t incy,
                                  void *A, int64_t lda) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  int general = uplo < 0;
  if ((!general && !uplo_valid(uplo)) || m < 0 || n < 0 || incx == 0 ||
      (y && incy == 0) || (storage == CUEMU_BLAS_FULL && lda < max1(m)))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!alpha)
    return CUBLAS_STATUS_INVALID_VALUE;
  l2_op *o = new_l2(name, RANK, t, st);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->s = general ? cuemu__blas_general(m, n, lda)
                 : cuemu__blas_triangle(storage, uplo, n, 0, lda);
  o->herm = herm, o->conj = cj, o->two = !general && y, o->cols = n;
  o->A = A, o->x = (void *)x, o->incx = incx, o->y = (void *)y, o->incy = incy,
  o->xlen = m, o->ylen = y ? n : 0;
  return l2(h, o, alpha, NULL);
}

/* The tables: each line the typed entry points of a routine, with their
 * _64 forms (cuemu_blas.h, CUEMU_BLAS_SDCZ). */

#define CUEMU_GEMV_DEF(NAME, I, T, TYPE, ...)                                  \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int trans, I m, I n, const T *alpha, const T *A,       \
      I lda, const T *x, I incx, const T *beta, T *y, I incy) {                \
    return gemv(h, #NAME, TYPE, trans, m, n, -1, -1, alpha, A, lda, x, incx,   \
                beta, y, incy, NULL);                                          \
  }
#define CUEMU_GEMV(...) CUEMU_BLAS_ILP64(CUEMU_GEMV_DEF, __VA_ARGS__)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_GEMV, gemv_v2)

#define CUEMU_GBMV_DEF(NAME, I, T, TYPE, ...)                                  \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int trans, I m, I n, I kl, I ku, const T *alpha,       \
      const T *A, I lda, const T *x, I incx, const T *beta, T *y, I incy) {    \
    /* A negative kl or ku is INVALID_VALUE, never full storage. */            \
    if (kl < 0 || ku < 0)                                                      \
      return h ? CUBLAS_STATUS_INVALID_VALUE : CUBLAS_STATUS_NOT_INITIALIZED;  \
    return gemv(h, #NAME, TYPE, trans, m, n, kl, ku, alpha, A, lda, x, incx,   \
                beta, y, incy, NULL);                                          \
  }
#define CUEMU_GBMV(...) CUEMU_BLAS_ILP64(CUEMU_GBMV_DEF, __VA_ARGS__)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_GBMV, gbmv_v2)

#define CUEMU_GEMV_BATCHED_DEF(NAME, I, T, TYPE, ...)                          \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int trans, I m, I n, const T *alpha,                   \
      const T *const A[], I lda, const T *const x[], I incx, const T *beta,    \
      T *const y[], I incy, I batch) {                                         \
    l2_batch b = {batch,                                                       \
                  (const void *const *)A,                                      \
                  (const void *const *)x,                                      \
                  (void *const *)y,                                            \
                  0,                                                           \
                  0,                                                           \
                  0};                                                          \
    return gemv(h, #NAME, TYPE, trans, m, n, -1, -1, alpha, NULL, lda, NULL,   \
                incx, beta, NULL, incy, &b);                                   \
  }
#define CUEMU_GEMV_BATCHED(...)                                                \
  CUEMU_BLAS_ILP64(CUEMU_GEMV_BATCHED_DEF, __VA_ARGS__)
#define CUEMU_GEMV_STRIDED_DEF(NAME, I, T, TYPE, ...)                          \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int trans, I m, I n, const T *alpha, const T *A,       \
      I lda, long long sa, const T *x, I incx, long long sx, const T *beta,    \
      T *y, I incy, long long sy, I batch) {                                   \
    l2_batch b = {batch, NULL, NULL, NULL, sa, sx, sy};                        \
    return gemv(h, #NAME, TYPE, trans, m, n, -1, -1, alpha, A, lda, x, incx,   \
                beta, y, incy, &b);                                            \
  }
#define CUEMU_GEMV_STRIDED(...)                                                \
  CUEMU_BLAS_ILP64(CUEMU_GEMV_STRIDED_DEF, __VA_ARGS__)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_GEMV_BATCHED, gemvBatched)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_GEMV_STRIDED, gemvStridedBatched)

/* symv and hemv (full), sbmv and hbmv (band: K, LDA), spmv and hpmv
 * (packed: AP, no lda). K_PARAM and LD_PARAM: the band's parameters, or
 * nothing. */
#define CUEMU_NO_PARAM(...)
#define CUEMU_SIZE_PARAM(I, name) I name,
#define CUEMU_SYMV_DEF(NAME, I, T, TYPE, HERM, STORAGE, K_PARAM, K, LD_PARAM,  \
                       LD)                                                     \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int uplo, I n, K_PARAM(I, k) const T *alpha,           \
      const T *A, LD_PARAM(I, lda) const T *x, I incx, const T *beta, T *y,    \
      I incy) {                                                                \
    return symv(h, #NAME, TYPE, HERM, STORAGE, uplo, n, K, alpha, A, LD, x,    \
                incx, beta, y, incy);                                          \
  }
#define CUEMU_SYMV(NAME, T, TYPE, R, RTYPE, HERM, ...)                         \
  CUEMU_BLAS_ILP64(CUEMU_SYMV_DEF, NAME, T, TYPE, HERM, CUEMU_BLAS_FULL,       \
                   CUEMU_NO_PARAM, 0, CUEMU_SIZE_PARAM, lda)
#define CUEMU_SBMV(NAME, T, TYPE, R, RTYPE, HERM, ...)                         \
  CUEMU_BLAS_ILP64(CUEMU_SYMV_DEF, NAME, T, TYPE, HERM, CUEMU_BLAS_BAND,       \
                   CUEMU_SIZE_PARAM, k, CUEMU_SIZE_PARAM, lda)
#define CUEMU_SPMV(NAME, T, TYPE, R, RTYPE, HERM, ...)                         \
  CUEMU_BLAS_ILP64(CUEMU_SYMV_DEF, NAME, T, TYPE, HERM, CUEMU_BLAS_PACKED,     \
                   CUEMU_NO_PARAM, 0, CUEMU_NO_PARAM, 0)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_SYMV, symv_v2, 0)
CUEMU_BLAS_CZ(CUEMU_BLAS_TYPED, CUEMU_SYMV, hemv_v2, 1)
CUEMU_BLAS_SD(CUEMU_BLAS_TYPED, CUEMU_SBMV, sbmv_v2, 0)
CUEMU_BLAS_CZ(CUEMU_BLAS_TYPED, CUEMU_SBMV, hbmv_v2, 1)
CUEMU_BLAS_SD(CUEMU_BLAS_TYPED, CUEMU_SPMV, spmv_v2, 0)
CUEMU_BLAS_CZ(CUEMU_BLAS_TYPED, CUEMU_SPMV, hpmv_v2, 1)

/* trmv, trsv (full), tbmv, tbsv (band), tpmv, tpsv (packed). */
#define CUEMU_TRIANGULAR_DEF(NAME, I, T, TYPE, SOLVE, STORAGE, K_PARAM, K,     \
                             LD_PARAM, LD)                                     \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int uplo, int trans, int diag, I n,                    \
      K_PARAM(I, k) const T *A, LD_PARAM(I, lda) T *x, I incx) {               \
    return triangular(h, #NAME, TYPE, SOLVE, STORAGE, uplo, trans, diag, n, K, \
                      A, LD, x, incx);                                         \
  }
#define CUEMU_TRXV(NAME, T, TYPE, R, RTYPE, SOLVE, ...)                        \
  CUEMU_BLAS_ILP64(CUEMU_TRIANGULAR_DEF, NAME, T, TYPE, SOLVE,                 \
                   CUEMU_BLAS_FULL, CUEMU_NO_PARAM, 0, CUEMU_SIZE_PARAM, lda)
#define CUEMU_TBXV(NAME, T, TYPE, R, RTYPE, SOLVE, ...)                        \
  CUEMU_BLAS_ILP64(CUEMU_TRIANGULAR_DEF, NAME, T, TYPE, SOLVE,                 \
                   CUEMU_BLAS_BAND, CUEMU_SIZE_PARAM, k, CUEMU_SIZE_PARAM,     \
                   lda)
#define CUEMU_TPXV(NAME, T, TYPE, R, RTYPE, SOLVE, ...)                        \
  CUEMU_BLAS_ILP64(CUEMU_TRIANGULAR_DEF, NAME, T, TYPE, SOLVE,                 \
                   CUEMU_BLAS_PACKED, CUEMU_NO_PARAM, 0, CUEMU_NO_PARAM, 0)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_TRXV, trmv_v2, 0)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_TRXV, trsv_v2, 1)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_TBXV, tbmv_v2, 0)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_TBXV, tbsv_v2, 1)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_TPXV, tpmv_v2, 0)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_TPXV, tpsv_v2, 1)

#define CUEMU_GER_DEF(NAME, I, T, TYPE, R, RTYPE, CONJ, ...)                   \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, I m, I n,            \
                                        const T *alpha, const T *x, I incx,    \
                                        const T *y, I incy, T *A, I lda) {     \
    return rank_update(h, #NAME, TYPE, TYPE, 0, CONJ, CUEMU_BLAS_FULL, -1, m,  \
                       n, alpha, x, incx, y, incy, A, lda);                    \
  }
#define CUEMU_GER(...) CUEMU_BLAS_ILP64(CUEMU_GER_DEF, __VA_ARGS__)
CUEMU_BLAS_SD(CUEMU_BLAS_TYPED, CUEMU_GER, ger_v2, 0)
CUEMU_BLAS_CZ(CUEMU_BLAS_TYPED, CUEMU_GER, geru_v2, 0)
CUEMU_BLAS_CZ(CUEMU_BLAS_TYPED, CUEMU_GER, gerc_v2, 1)

/* syr, her (full), spr, hpr (packed): A += alpha x x^T (x^H), alpha of
 * type A_T (real for her, hpr). */
#define CUEMU_SYR_DEF(NAME, I, T, A_T, TYPE, ATYPE, HERM, STORAGE, LD_PARAM,   \
                      LD)                                                      \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, int uplo, I n,       \
                                        const A_T *alpha, const T *x, I incx,  \
                                        T *A LD_PARAM(I, lda)) {               \
    return rank_update(h, #NAME, TYPE, ATYPE, HERM, HERM, STORAGE, uplo, n, n, \
                       alpha, x, incx, NULL, 0, A, LD);                        \
  }
/* syr2, her2 (full), spr2, hpr2 (packed): A += alpha x y^T + alpha y x^T
 * (alpha x y^H + conj(alpha) y x^H). */
#define CUEMU_SYR2_DEF(NAME, I, T, TYPE, HERM, STORAGE, LD_PARAM, LD)          \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int uplo, I n, const T *alpha, const T *x, I incx,     \
      const T *y, I incy, T *A LD_PARAM(I, lda)) {                             \
    return rank_update(h, #NAME, TYPE, TYPE, HERM, HERM, STORAGE, uplo, n, n,  \
                       alpha, x, incx, y, incy, A, LD);                        \
  }
#define CUEMU_COMMA_SIZE_PARAM(I, name) , I name
#define CUEMU_SYR(NAME, T, TYPE, R, RTYPE, ...)                                \
  CUEMU_BLAS_ILP64(CUEMU_SYR_DEF, NAME, T, T, TYPE, TYPE, 0, CUEMU_BLAS_FULL,  \
                   CUEMU_COMMA_SIZE_PARAM, lda)
#define CUEMU_HER(NAME, T, TYPE, R, RTYPE, ...)                                \
  CUEMU_BLAS_ILP64(CUEMU_SYR_DEF, NAME, T, R, TYPE, RTYPE, 1, CUEMU_BLAS_FULL, \
                   CUEMU_COMMA_SIZE_PARAM, lda)
#define CUEMU_SPR(NAME, T, TYPE, R, RTYPE, ...)                                \
  CUEMU_BLAS_ILP64(CUEMU_SYR_DEF, NAME, T, T, TYPE, TYPE, 0,                   \
                   CUEMU_BLAS_PACKED, CUEMU_NO_PARAM, 0)
#define CUEMU_HPR(NAME, T, TYPE, R, RTYPE, ...)                                \
  CUEMU_BLAS_ILP64(CUEMU_SYR_DEF, NAME, T, R, TYPE, RTYPE, 1,                  \
                   CUEMU_BLAS_PACKED, CUEMU_NO_PARAM, 0)
#define CUEMU_SYR2(NAME, T, TYPE, R, RTYPE, HERM, ...)                         \
  CUEMU_BLAS_ILP64(CUEMU_SYR2_DEF, NAME, T, TYPE, HERM, CUEMU_BLAS_FULL,       \
                   CUEMU_COMMA_SIZE_PARAM, lda)
#define CUEMU_SPR2(NAME, T, TYPE, R, RTYPE, HERM, ...)                         \
  CUEMU_BLAS_ILP64(CUEMU_SYR2_DEF, NAME, T, TYPE, HERM, CUEMU_BLAS_PACKED,     \
                   CUEMU_NO_PARAM, 0)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_SYR, syr_v2)
CUEMU_BLAS_CZ(CUEMU_BLAS_TYPED, CUEMU_HER, her_v2)
CUEMU_BLAS_SD(CUEMU_BLAS_TYPED, CUEMU_SPR, spr_v2)
CUEMU_BLAS_CZ(CUEMU_BLAS_TYPED, CUEMU_HPR, hpr_v2)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_SYR2, syr2_v2, 0)
CUEMU_BLAS_CZ(CUEMU_BLAS_TYPED, CUEMU_SYR2, her2_v2, 1)
CUEMU_BLAS_SD(CUEMU_BLAS_TYPED, CUEMU_SPR2, spr2_v2, 0)
CUEMU_BLAS_CZ(CUEMU_BLAS_TYPED, CUEMU_SPR2, hpr2_v2, 1)

/* The legacy API (cublas.h): character arguments, scalars by value,
 * statuses kept for cublasGetError; from the same tables. */
#define CUEMU_LEGACY_GEMV(L, T, TYPE, R, RTYPE, ...)                           \
  CUEMU_BLAS_EXPORT void cublas##L##gemv(char trans, int m, int n, T alpha,    \
                                         const T *A, int lda, const T *x,      \
                                         int incx, T beta, T *y, int incy) {   \
    CUEMU_BLAS_LEGACY(cublas##L##gemv_v2, CUEMU_OP(trans), m, n, &alpha, A,    \
                      lda, x, incx, &beta, y, incy);                           \
  }
#define CUEMU_LEGACY_GBMV(L, T, TYPE, R, RTYPE, ...)                           \
  CUEMU_BLAS_EXPORT void cublas##L##gbmv(                                      \
      char trans, int m, int n, int kl, int ku, T alpha, const T *A, int lda,  \
      const T *x, int incx, T beta, T *y, int incy) {                          \
    CUEMU_BLAS_LEGACY(cublas##L##gbmv_v2, CUEMU_OP(trans), m, n, kl, ku,       \
                      &alpha, A, lda, x, incx, &beta, y, incy);                \
  }
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_GEMV)
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_GBMV)

/* symv, hemv; sbmv, hbmv (with k); spmv, hpmv (packed: no lda). K_PARAM
 * and LD_PARAM as the v2 tables', K_ARG and LD_ARG the arguments. */
#define CUEMU_SIZE_ARG(name) name,
#define CUEMU_NO_ARG(name)
#define CUEMU_LEGACY_SYMV(L, T, TYPE, R, RTYPE, NAME, K_PARAM, K_ARG,          \
                          LD_PARAM, LD_ARG, ...)                               \
  CUEMU_BLAS_EXPORT void cublas##L##NAME(                                      \
      char uplo, int n, K_PARAM(int, k) T alpha, const T *A,                   \
      LD_PARAM(int, lda) const T *x, int incx, T beta, T *y, int incy) {       \
    CUEMU_BLAS_LEGACY(cublas##L##NAME##_v2, CUEMU_FILL(uplo), n,               \
                      K_ARG(k) & alpha, A, LD_ARG(lda) x, incx, &beta, y,      \
                      incy);                                                   \
  }
#define CUEMU_LEGACY_FULL                                                      \
  CUEMU_NO_PARAM, CUEMU_NO_ARG, CUEMU_SIZE_PARAM, CUEMU_SIZE_ARG
#define CUEMU_LEGACY_BAND                                                      \
  CUEMU_SIZE_PARAM, CUEMU_SIZE_ARG, CUEMU_SIZE_PARAM, CUEMU_SIZE_ARG
#define CUEMU_LEGACY_PACKED                                                    \
  CUEMU_NO_PARAM, CUEMU_NO_ARG, CUEMU_NO_PARAM, CUEMU_NO_ARG
CUEMU_BLAS_SD(CUEMU_LEGACY_SYMV, symv, CUEMU_LEGACY_FULL)
CUEMU_BLAS_CZ(CUEMU_LEGACY_SYMV, hemv, CUEMU_LEGACY_FULL)
CUEMU_BLAS_SD(CUEMU_LEGACY_SYMV, sbmv, CUEMU_LEGACY_BAND)
CUEMU_BLAS_CZ(CUEMU_LEGACY_SYMV, hbmv, CUEMU_LEGACY_BAND)
CUEMU_BLAS_SD(CUEMU_LEGACY_SYMV, spmv, CUEMU_LEGACY_PACKED)
CUEMU_BLAS_CZ(CUEMU_LEGACY_SYMV, hpmv, CUEMU_LEGACY_PACKED)

/* trmv, trsv; tbmv, tbsv (with k); tpmv, tpsv (packed). */
#define CUEMU_LEGACY_TRXV(L, T, TYPE, R, RTYPE, NAME, K_PARAM, K_ARG,          \
                          LD_PARAM, LD_ARG, ...)                               \
  CUEMU_BLAS_EXPORT void cublas##L##NAME(char uplo, char trans, char diag,     \
                                         int n, K_PARAM(int, k) const T *A,    \
                                         LD_PARAM(int, lda) T *x, int incx) {  \
    CUEMU_BLAS_LEGACY(cublas##L##NAME##_v2, CUEMU_FILL(uplo), CUEMU_OP(trans), \
                      CUEMU_DIAG(diag), n, K_ARG(k) A, LD_ARG(lda) x, incx);   \
  }
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_TRXV, trmv, CUEMU_LEGACY_FULL)
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_TRXV, trsv, CUEMU_LEGACY_FULL)
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_TRXV, tbmv, CUEMU_LEGACY_BAND)
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_TRXV, tbsv, CUEMU_LEGACY_BAND)
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_TRXV, tpmv, CUEMU_LEGACY_PACKED)
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_TRXV, tpsv, CUEMU_LEGACY_PACKED)

#define CUEMU_LEGACY_GER(L, T, TYPE, R, RTYPE, NAME, ...)                      \
  CUEMU_BLAS_EXPORT void cublas##L##NAME(int m, int n, T alpha, const T *x,    \
                                         int incx, const T *y, int incy, T *A, \
                                         int lda) {                            \
    CUEMU_BLAS_LEGACY(cublas##L##NAME##_v2, m, n, &alpha, x, incx, y, incy, A, \
                      lda);                                                    \
  }
CUEMU_BLAS_SD(CUEMU_LEGACY_GER, ger)
CUEMU_BLAS_CZ(CUEMU_LEGACY_GER, geru)
CUEMU_BLAS_CZ(CUEMU_LEGACY_GER, gerc)

/* syr, her (alpha of type A: R for her, hpr), spr, hpr (packed). */
#define CUEMU_LEGACY_SYR(L, T, TYPE, R, RTYPE, NAME, A_T, LD_PARAM, LD_ARG,    \
                         ...)                                                  \
  CUEMU_BLAS_EXPORT void cublas##L##NAME(char uplo, int n, A_T alpha,          \
                                         const T *x, int incx,                 \
                                         T *A LD_PARAM(int, lda)) {            \
    CUEMU_BLAS_LEGACY(cublas##L##NAME##_v2, CUEMU_FILL(uplo), n, &alpha, x,    \
                      incx, A LD_ARG(lda));                                    \
  }
#define CUEMU_COMMA_SIZE_ARG(name) , name
#define CUEMU_LEGACY_SYR_T(L, T, TYPE, R, RTYPE, NAME, ...)                    \
  CUEMU_LEGACY_SYR(L, T, TYPE, R, RTYPE, NAME, T, __VA_ARGS__)
#define CUEMU_LEGACY_SYR_R(L, T, TYPE, R, RTYPE, NAME, ...)                    \
  CUEMU_LEGACY_SYR(L, T, TYPE, R, RTYPE, NAME, R, __VA_ARGS__)
CUEMU_BLAS_SD(CUEMU_LEGACY_SYR_T, syr, CUEMU_COMMA_SIZE_PARAM,
              CUEMU_COMMA_SIZE_ARG)
CUEMU_BLAS_CZ(CUEMU_LEGACY_SYR_R, her, CUEMU_COMMA_SIZE_PARAM,
              CUEMU_COMMA_SIZE_ARG)
CUEMU_BLAS_SD(CUEMU_LEGACY_SYR_T, spr, CUEMU_NO_PARAM, CUEMU_NO_ARG)
CUEMU_BLAS_CZ(CUEMU_LEGACY_SYR_R, hpr, CUEMU_NO_PARAM, CUEMU_NO_ARG)

/* syr2, her2, spr2, hpr2. */
#define CUEMU_LEGACY_SYR2(L, T, TYPE, R, RTYPE, NAME, LD_PARAM, LD_ARG, ...)   \
  CUEMU_BLAS_EXPORT void cublas##L##NAME(char uplo, int n, T alpha,            \
                                         const T *x, int incx, const T *y,     \
                                         int incy, T *A LD_PARAM(int, lda)) {  \
    CUEMU_BLAS_LEGACY(cublas##L##NAME##_v2, CUEMU_FILL(uplo), n, &alpha, x,    \
                      incx, y, incy, A LD_ARG(lda));                           \
  }
CUEMU_BLAS_SD(CUEMU_LEGACY_SYR2, syr2, CUEMU_COMMA_SIZE_PARAM,
              CUEMU_COMMA_SIZE_ARG)
CUEMU_BLAS_CZ(CUEMU_LEGACY_SYR2, her2, CUEMU_COMMA_SIZE_PARAM,
              CUEMU_COMMA_SIZE_ARG)
CUEMU_BLAS_SD(CUEMU_LEGACY_SYR2, spr2, CUEMU_NO_PARAM, CUEMU_NO_ARG)
CUEMU_BLAS_CZ(CUEMU_LEGACY_SYR2, hpr2, CUEMU_NO_PARAM, CUEMU_NO_ARG)
