/*
 * cuemu_blas_qr.c: cuBLAS's batched QR factorisation and least squares
 * (cublas<t>geqrfBatched, cublas<t>gelsBatched), as LAPACK's geqrf
 * (Householder reflectors H = I - tau v v^H, v(k) = 1 implied, stored
 * below the diagonal; R above it) and gels for a full-rank m >= n A, in
 * double (complex) arithmetic rounded once to the type. Their `info` is
 * host memory (0, or -j for the j-th argument, the handle first, found
 * invalid); gels's devInfoArray gets, per problem, 0 or the (1-based)
 * index of a zero diagonal element of R.
 */
#include <math.h>
#include <stdlib.h>

#include "cuemu_blas.h"

typedef struct qr_op {
  cuemu_blas_op base;
  int t, gels;
  int64_t m, n, nrhs, lda, ldc, batch;
  void *const *A;
  void *const *C; /* the taus (geqrf) or the right-hand sides (gels) */
  int *dev_info;
} qr_op;

/* geqrf of one m x n A (in place) with its min(m, n) taus; v is scratch
 * of m. */
static void geqrf(int t, void *A, int64_t m, int64_t n, int64_t lda,
                  double complex *tau, double complex *v) {
  int64_t kmax = m < n ? m : n;
  for (int64_t k = 0; k < kmax; ++k) {
    /* The reflector that zeroes A(k+1:m, k) (LAPACK's larfg). */
    double complex alpha = cuemu__blas_load(t, A, k + k * lda);
    double xnorm = 0;
    for (int64_t i = k + 1; i < m; ++i) {
      v[i] = cuemu__blas_load(t, A, i + k * lda);
      xnorm = hypot(xnorm, cabs(v[i]));
    }
    double complex tk = 0;
    if (xnorm != 0 || cimag(alpha) != 0) {
      double beta = -copysign(hypot(cabs(alpha), xnorm), creal(alpha));
      tk = (beta - alpha) / beta;
      for (int64_t i = k + 1; i < m; ++i) {
        v[i] /= alpha - beta;
        cuemu__blas_store(t, A, i + k * lda, v[i]);
      }
      cuemu__blas_store(t, A, k + k * lda, beta);
    }
    tau[k] = tk;
    /* H^H = I - conj(tau) v v^H on the columns to the right. */
    v[k] = 1;
    for (int64_t j = k + 1; tk != 0 && j < n; ++j) {
      double complex w = 0;
      for (int64_t i = k; i < m; ++i)
        w += conj(v[i]) * cuemu__blas_load(t, A, i + j * lda);
      w *= conj(tk);
      for (int64_t i = k; i < m; ++i)
        cuemu__blas_store(t, A, i + j * lda,
                          cuemu__blas_load(t, A, i + j * lda) - w * v[i]);
    }
  }
}

/* gels of one m x n A (m >= n): A = Q R, then C(0:n) = R^-1 (Q^H C)(0:n)
 * per column; the index of a zero diagonal element of R, or 0. */
static int gels(int t, void *A, int64_t m, int64_t n, int64_t lda, void *C,
                int64_t nrhs, int64_t ldc, double complex *v) {
  double complex *tau = v + m, *c = tau + n;
  geqrf(t, A, m, n, lda, tau, v);
  for (int64_t k = 0; k < n; ++k)
    if (cuemu__blas_load(t, A, k + k * lda) == 0)
      return (int)(k + 1);
  for (int64_t j = 0; j < nrhs; ++j) {
    for (int64_t i = 0; i < m; ++i)
      c[i] = cuemu__blas_load(t, C, i + j * ldc);
    for (int64_t k = 0; k < n; ++k) {
      double complex w = c[k];
      for (int64_t i = k + 1; i < m; ++i)
        w += conj(cuemu__blas_load(t, A, i + k * lda)) * c[i];
      w *= conj(tau[k]);
      c[k] -= w;
      for (int64_t i = k + 1; i < m; ++i)
        c[i] -= w * cuemu__blas_load(t, A, i + k * lda);
    }
    cuemu__blas_tri_solve(CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                          CUBLAS_DIAG_NON_UNIT, n, t, A, lda, c);
    for (int64_t i = 0; i < n; ++i)
      cuemu__blas_store(t, C, i + j * ldc, c[i]);
  }
  return 0;
}

static void run_qr(cuemu_blas_op *base) {
  qr_op *o = (qr_op *)base;
  size_t es = cuemu__blas_type_size(o->t);
  /* v (m), the taus (n) and a column of C (m). */
  double complex *v = malloc((size_t)(2 * o->m + o->n + 1) * sizeof *v);
  if (!v) {
    cuemu__blas_out_of_memory(base->name);
    return;
  }
  int64_t kmax = o->m < o->n ? o->m : o->n;
  for (int64_t b = 0; b < o->batch; ++b) {
    /* The arrays of pointers are read as a kernel reads them. */
    void *A = o->A[b], *C = o->C[b];
    if (!cuemu__libs_device_range(
            base->name, "Aarray[i]", A,
            cuemu__blas_matrix_bytes(o->m, o->n, o->lda, es)) ||
        !cuemu__libs_device_range(
            base->name, o->gels ? "Carray[i]" : "TauArray[i]", C,
            o->gels ? cuemu__blas_matrix_bytes(o->m, o->nrhs, o->ldc, es)
                    : (size_t)kmax * es))
      break;
    if (o->gels) {
      int info = gels(o->t, A, o->m, o->n, o->lda, C, o->nrhs, o->ldc, v);
      if (o->dev_info) {
        o->dev_info[b] = info;
        cuemu__blas_vector_wrote(o->dev_info + b, 1, 1, sizeof *o->dev_info);
      }
      continue;
    }
    double complex *tau = v + o->m;
    geqrf(o->t, A, o->m, o->n, o->lda, tau, v);
    for (int64_t k = 0; k < kmax; ++k)
      cuemu__blas_store(o->t, C, k, tau[k]);
    cuemu__blas_vector_wrote(C, kmax, 1, es);
  }
  free(v);
}

/* Enqueues a checked geqrfBatched or gelsBatched. */
static cublasStatus_t qr_submit(cublasHandle_t h, const char *name, int t,
                                int gels_call, int64_t m, int64_t n,
                                int64_t nrhs, void *const *A, int64_t lda,
                                void *const *C, int64_t ldc, int *dev_info,
                                int64_t batch) {
  size_t pb = (size_t)batch * sizeof(void *);
  if (!cuemu__libs_device_range(name, "Aarray", A, pb) ||
      !cuemu__libs_device_range(name, gels_call ? "Carray" : "TauArray", C,
                                pb) ||
      (dev_info && !cuemu__libs_device_range(name, "devInfoArray", dev_info,
                                             (size_t)batch * sizeof(int))))
    return CUBLAS_STATUS_SUCCESS;
  qr_op *o = (qr_op *)cuemu__blas_op_new(sizeof(qr_op), name, run_qr);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->t = t, o->gels = gels_call, o->m = m, o->n = n, o->nrhs = nrhs;
  o->lda = lda, o->ldc = ldc, o->batch = batch, o->A = A, o->C = C;
  o->dev_info = dev_info;
  return cuemu__blas_submit(h, &o->base);
}

static cublasStatus_t geqrf_call(cublasHandle_t h, const char *name, int t,
                                 int m, int n, void *const *A, int lda,
                                 void *const *tau, int *info, int batch) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  int bad = m < 0                   ? 2
            : n < 0                 ? 3
            : lda < (m > 1 ? m : 1) ? 5
            : batch < 0             ? 8
                                    : 0;
  if (info)
    *info = -bad;
  if (bad || !info)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0 || batch == 0)
    return CUBLAS_STATUS_SUCCESS;
  return qr_submit(h, name, t, 0, m, n, 0, A, lda, tau, 0, NULL, batch);
}

#define CUEMU_GEQRF(NAME, T, TYPE, ...)                                        \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, int m, int n,        \
                                        T *const A[], int lda, T *const tau[], \
                                        int *info, int batch) {                \
    return geqrf_call(h, #NAME, TYPE, m, n, (void *const *)A, lda,             \
                      (void *const *)tau, info, batch);                        \
  }
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_GEQRF, geqrfBatched)

/* gelsBatched: only CUBLAS_OP_N and m >= n, as cuBLAS (NOT_SUPPORTED for
 * the others). */
static cublasStatus_t gels_call(cublasHandle_t h, const char *name, int t,
                                int trans, int m, int n, int nrhs,
                                void *const *A, int lda, void *const *C,
                                int ldc, int *info, int *dev_info, int batch) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  int bad = !cuemu__blas_op_valid(trans) ? 2
            : m < 0                      ? 3
            : n < 0                      ? 4
            : nrhs < 0                   ? 5
            : lda < (m > 1 ? m : 1)      ? 7
            : ldc < (m > 1 ? m : 1)      ? 9
            : batch < 0                  ? 12
                                         : 0;
  if (info)
    *info = -bad;
  if (bad || !info)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (trans != CUBLAS_OP_N || m < n)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if (n == 0 || batch == 0)
    return CUBLAS_STATUS_SUCCESS;
  return qr_submit(h, name, t, 1, m, n, nrhs, A, lda, C, ldc, dev_info, batch);
}

#define CUEMU_GELS(NAME, T, TYPE, ...)                                         \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int trans, int m, int n, int nrhs, T *const A[],       \
      int lda, T *const C[], int ldc, int *info, int *dev_info, int batch) {   \
    return gels_call(h, #NAME, TYPE, trans, m, n, nrhs, (void *const *)A, lda, \
                     (void *const *)C, ldc, info, dev_info, batch);            \
  }
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_GELS, gelsBatched)
