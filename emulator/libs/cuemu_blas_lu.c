/*
 * cuemu_blas_lu.c: cuBLAS's batched LU factorisation, inverse and solve
 * (cublas<t>getrfBatched, getriBatched, getrsBatched) and the inverse in
 * one call (matinvBatched: getrf on a copy, then getri), as LAPACK's getrf
 * with partial pivoting and getri and getrs from its factors, in double
 * (complex) arithmetic rounded once to the type.
 */
#include <math.h>
#include <stdlib.h>

#include "cuemu_blas.h"

enum lu_kind { GETRF, GETRI, GETRS, MATINV };

typedef struct lu_op {
  cuemu_blas_op base;
  int t;
  enum lu_kind kind;
  int trans; /* getrs */
  int64_t n, nrhs, lda, ldc, batch;
  void *const *A; /* the device array of the matrices' pointers */
  void *const *C;
  int *P, *info;
} lu_op;

static double magnitude(double complex v) {
  return fabs(creal(v)) + fabs(cimag(v)); /* cuBLAS's and LAPACK's i*amax */
}

/* getrf of one n x n matrix in place: P (1-based pivots, or NULL for none)
 * and the index (1-based) of the first zero pivot, 0 when none. */
static int getrf(int t, void *A, int64_t n, int64_t lda, int *P) {
  int info = 0;
  for (int64_t k = 0; k < n; ++k) {
    int64_t p = k;
    if (P) {
      double best = -1;
      for (int64_t i = k; i < n; ++i) {
        double m = magnitude(cuemu__blas_load(t, A, i + k * lda));
        if (m > best)
          best = m, p = i;
      }
      P[k] = (int)(p + 1);
      if (p != k)
        for (int64_t j = 0; j < n; ++j) {
          double complex a = cuemu__blas_load(t, A, k + j * lda);
          cuemu__blas_store(t, A, k + j * lda,
                            cuemu__blas_load(t, A, p + j * lda));
          cuemu__blas_store(t, A, p + j * lda, a);
        }
    }
    double complex pivot = cuemu__blas_load(t, A, k + k * lda);
    if (pivot == 0) {
      if (!info)
        info = (int)(k + 1);
      continue;
    }
    for (int64_t i = k + 1; i < n; ++i) {
      double complex l = cuemu__blas_load(t, A, i + k * lda) / pivot;
      cuemu__blas_store(t, A, i + k * lda, l);
      for (int64_t j = k + 1; j < n; ++j)
        cuemu__blas_store(t, A, i + j * lda,
                          cuemu__blas_load(t, A, i + j * lda) -
                              l * cuemu__blas_load(t, A, k + j * lda));
    }
  }
  return info;
}

/* getri: C = inverse of the matrix whose factors getrf left in A: each
 * column of the identity permuted, then solved with L (unit) and U. */
static int getri(int t, const void *A, int64_t n, int64_t lda, const int *P,
                 void *C, int64_t ldc, double complex *v) {
  for (int64_t k = 0; k < n; ++k)
    if (cuemu__blas_load(t, A, k + k * lda) == 0)
      return (int)(k + 1);
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < n; ++i)
      v[i] = i == j;
    if (P)
      for (int64_t k = 0; k < n; ++k) {
        int64_t p = P[k] - 1;
        double complex s = v[k];
        v[k] = v[p], v[p] = s;
      }
    cuemu__blas_tri_solve(CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT,
                          n, t, A, lda, v);
    cuemu__blas_tri_solve(CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                          CUBLAS_DIAG_NON_UNIT, n, t, A, lda, v);
    for (int64_t i = 0; i < n; ++i)
      cuemu__blas_store(t, C, i + j * ldc, v[i]);
  }
  return 0;
}

/* getrs: op(A) X = B for the factors of A (P A = L U), column by column
 * of B (n x nrhs, ldb) in place. */
static void getrs(int t, int trans, const void *A, int64_t n, int64_t lda,
                  const int *P, void *B, int64_t nrhs, int64_t ldb,
                  double complex *v) {
  for (int64_t c = 0; c < nrhs; ++c) {
    for (int64_t i = 0; i < n; ++i)
      v[i] = cuemu__blas_load(t, B, i + c * ldb);
    if (trans == CUBLAS_OP_N) {
      for (int64_t k = 0; P && k < n; ++k) {
        double complex s = v[k];
        v[k] = v[P[k] - 1], v[P[k] - 1] = s;
      }
      cuemu__blas_tri_solve(CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                            CUBLAS_DIAG_UNIT, n, t, A, lda, v);
      cuemu__blas_tri_solve(CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                            CUBLAS_DIAG_NON_UNIT, n, t, A, lda, v);
    } else {
      /* op(A) = op(U) op(L) P: solve with op(U), op(L), then undo the
       * interchanges in reverse order. */
      cuemu__blas_tri_solve(CUBLAS_FILL_MODE_UPPER, trans, CUBLAS_DIAG_NON_UNIT,
                            n, t, A, lda, v);
      cuemu__blas_tri_solve(CUBLAS_FILL_MODE_LOWER, trans, CUBLAS_DIAG_UNIT, n,
                            t, A, lda, v);
      for (int64_t k = n - 1; P && k >= 0; --k) {
        double complex s = v[k];
        v[k] = v[P[k] - 1], v[P[k] - 1] = s;
      }
    }
    for (int64_t i = 0; i < n; ++i)
      cuemu__blas_store(t, B, i + c * ldb, v[i]);
  }
}

static void run_lu(cuemu_blas_op *base) {
  lu_op *o = (lu_op *)base;
  size_t es = cuemu__blas_type_size(o->t);
  size_t bytes = cuemu__blas_matrix_bytes(o->n, o->n, o->lda, es);
  double complex *v = malloc((size_t)o->n * sizeof *v + 16);
  if (!v) {
    cuemu__blas_out_of_memory(base->name);
    return;
  }
  /* matinv: the factors of a copy of A (n x n), and its pivots. */
  void *lu_copy = NULL;
  int *piv = NULL;
  if (o->kind == MATINV &&
      (!(lu_copy = malloc((size_t)(o->n * o->n) * es + 16)) ||
       !(piv = malloc((size_t)o->n * sizeof *piv)))) {
    free(v), free(lu_copy);
    cuemu__blas_out_of_memory(base->name);
    return;
  }
  for (int64_t b = 0; b < o->batch; ++b) {
    void *A = o->A[b];
    int *P = o->P ? o->P + b * o->n : NULL;
    if (!cuemu__libs_device_range(base->name, "Aarray[i]", A, bytes))
      break;
    if (o->kind == GETRF) {
      o->info[b] = getrf(o->t, A, o->n, o->lda, P);
      cuemu__blas_vector_wrote(o->info + b, 1, 1, sizeof *o->info);
      if (P)
        cuemu__blas_vector_wrote(P, o->n, 1, sizeof *P);
      continue;
    }
    void *C = o->C[b];
    int64_t ccols = o->kind == GETRS ? o->nrhs : o->n;
    if (!cuemu__libs_device_range(
            base->name,
            o->kind == GETRS    ? "Barray[i]"
            : o->kind == MATINV ? "Ainv[i]"
                                : "Carray[i]",
            C, cuemu__blas_matrix_bytes(o->n, ccols, o->ldc, es)))
      break;
    if (o->kind == GETRS) {
      getrs(o->t, o->trans, A, o->n, o->lda, P, C, o->nrhs, o->ldc, v);
    } else if (o->kind == MATINV) {
      for (int64_t j = 0; j < o->n; ++j)
        for (int64_t i = 0; i < o->n; ++i)
          cuemu__blas_store(o->t, lu_copy, i + j * o->n,
                            cuemu__blas_load(o->t, A, i + j * o->lda));
      int info = getrf(o->t, lu_copy, o->n, o->n, piv);
      o->info[b] =
          info ? info : getri(o->t, lu_copy, o->n, o->n, piv, C, o->ldc, v);
    } else {
      o->info[b] = getri(o->t, A, o->n, o->lda, P, C, o->ldc, v);
    }
    if (o->kind != GETRS) {
      /* The inverse and info, as the kernels' stores (initcheck). */
      cuemu__blas_matrix_wrote(C, o->n, o->n, o->ldc, es);
      cuemu__blas_vector_wrote(o->info + b, 1, 1, sizeof *o->info);
    }
  }
  free(v), free(lu_copy), free(piv);
}

static cublasStatus_t lu(cublasHandle_t h, const char *name, int t,
                         enum lu_kind kind, int n, void *const *A, int lda,
                         const int *P, void *const *C, int ldc, int *info,
                         int batch) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  /* matinvBatched takes n <= 32 only, as cuBLAS. */
  if (n < 0 || lda < (n > 1 ? n : 1) || batch < 0 ||
      (kind != GETRF && ldc < (n > 1 ? n : 1)) || (kind == MATINV && n > 32))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0 || batch == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!info)
    return CUBLAS_STATUS_INVALID_VALUE;
  size_t pb = (size_t)batch * sizeof(void *);
  if (!cuemu__libs_device_range(name, "Aarray", A, pb) ||
      (kind != GETRF && !cuemu__libs_device_range(
                            name, kind == MATINV ? "Ainv" : "Carray", C, pb)) ||
      (P && !cuemu__libs_device_range(name, "P", P,
                                      (size_t)batch * n * sizeof(int))) ||
      !cuemu__libs_device_range(name, "info", info,
                                (size_t)batch * sizeof(int)))
    return CUBLAS_STATUS_SUCCESS;
  lu_op *o = (lu_op *)cuemu__blas_op_new(sizeof(lu_op), name, run_lu);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->t = t, o->kind = kind, o->n = n, o->lda = lda, o->ldc = ldc;
  o->batch = batch, o->A = A, o->C = C, o->P = (int *)P, o->info = info;
  return cuemu__blas_submit(h, &o->base);
}

#define CUEMU_GETRF(NAME, T, TYPE, ...)                                        \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, int n, T *const A[], \
                                        int lda, int *P, int *info,            \
                                        int batch) {                           \
    return lu(h, #NAME, TYPE, GETRF, n, (void *const *)A, lda, P, NULL, 0,     \
              info, batch);                                                    \
  }
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_GETRF, getrfBatched)

#define CUEMU_GETRI(NAME, T, TYPE, ...)                                        \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int n, const T *const A[], int lda, const int *P,      \
      T *const C[], int ldc, int *info, int batch) {                           \
    return lu(h, #NAME, TYPE, GETRI, n, (void *const *)A, lda, P,              \
              (void *const *)C, ldc, info, batch);                             \
  }
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_GETRI, getriBatched)

#define CUEMU_MATINV(NAME, T, TYPE, ...)                                       \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int n, const T *const A[], int lda, T *const Ainv[],   \
      int lda_inv, int *info, int batch) {                                     \
    return lu(h, #NAME, TYPE, MATINV, n, (void *const *)A, lda, NULL,          \
              (void *const *)Ainv, lda_inv, info, batch);                      \
  }
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_MATINV, matinvBatched)

/* getrsBatched: info is host memory, set at the call (0, or -j for the
 * j-th argument found invalid, as cuBLAS documents). */
static cublasStatus_t getrs_call(cublasHandle_t h, const char *name, int t,
                                 int trans, int n, int nrhs, void *const *A,
                                 int lda, const int *P, void *const *B, int ldb,
                                 int *info, int batch) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  int bad = !cuemu__blas_op_valid(trans) ? 2
            : n < 0                      ? 3
            : nrhs < 0                   ? 4
            : lda < (n > 1 ? n : 1)      ? 6
            : ldb < (n > 1 ? n : 1)      ? 9
            : batch < 0                  ? 11
                                         : 0;
  if (info)
    *info = -bad;
  if (bad || !info)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0 || nrhs == 0 || batch == 0)
    return CUBLAS_STATUS_SUCCESS;
  size_t pb = (size_t)batch * sizeof(void *);
  if (!cuemu__libs_device_range(name, "Aarray", A, pb) ||
      !cuemu__libs_device_range(name, "Barray", B, pb) ||
      (P && !cuemu__libs_device_range(name, "devIpiv", P,
                                      (size_t)batch * n * sizeof(int))))
    return CUBLAS_STATUS_SUCCESS;
  lu_op *o = (lu_op *)cuemu__blas_op_new(sizeof(lu_op), name, run_lu);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->t = t, o->kind = GETRS, o->trans = trans, o->n = n, o->nrhs = nrhs;
  o->lda = lda, o->ldc = ldb, o->batch = batch, o->A = A, o->C = B;
  o->P = (int *)P;
  return cuemu__blas_submit(h, &o->base);
}

#define CUEMU_GETRS(NAME, T, TYPE, ...)                                        \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int trans, int n, int nrhs, const T *const A[],        \
      int lda, const int *P, T *const B[], int ldb, int *info, int batch) {    \
    return getrs_call(h, #NAME, TYPE, trans, n, nrhs, (void *const *)A, lda,   \
                      P, (void *const *)B, ldb, info, batch);                  \
  }
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_GETRS, getrsBatched)
