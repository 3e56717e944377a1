/*
 * cuemu_blas_triangle.c: triangular solves and products on one vector,
 * under trsv, trmv and trsm (cuemu_blas.h).
 */
#include <stdlib.h>

#include "cuemu_blas.h"

/* Element (i, j) of op(A). */
static double complex op_at(int trans, int t, const void *A, int64_t lda,
                            int64_t i, int64_t j) {
  if (trans == CUBLAS_OP_N || trans == CUEMU_BLAS_OP_CONJ_N) {
    double complex v = cuemu__blas_load(t, A, i + j * lda);
    return trans == CUBLAS_OP_N ? v : conj(v);
  }
  double complex v = cuemu__blas_load(t, A, j + i * lda);
  return trans == CUBLAS_OP_T ? v : conj(v);
}

/* Whether op(A) is upper triangular: A's triangle, transposed or not. */
static int op_upper(int uplo, int trans) {
  int transposed = trans == CUBLAS_OP_T || trans == CUBLAS_OP_C;
  return (uplo == CUBLAS_FILL_MODE_UPPER) != transposed;
}

void cuemu__blas_tri_solve(int uplo, int trans, int diag, int64_t n, int t,
                           const void *A, int64_t lda, double complex *v) {
  int unit = diag == CUBLAS_DIAG_UNIT;
  if (op_upper(uplo, trans)) {
    for (int64_t i = n - 1; i >= 0; --i) {
      double complex s = v[i];
      for (int64_t j = i + 1; j < n; ++j)
        s -= op_at(trans, t, A, lda, i, j) * v[j];
      v[i] = unit ? s : s / op_at(trans, t, A, lda, i, i);
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      double complex s = v[i];
      for (int64_t j = 0; j < i; ++j)
        s -= op_at(trans, t, A, lda, i, j) * v[j];
      v[i] = unit ? s : s / op_at(trans, t, A, lda, i, i);
    }
  }
}

void cuemu__blas_tri_multiply(int uplo, int trans, int diag, int64_t n, int t,
                              const void *A, int64_t lda, double complex *v) {
  int unit = diag == CUBLAS_DIAG_UNIT;
  /* Upper: row i reads v[i..n), so rows go upward-safe from the top;
   * lower: row i reads v[0..i], so rows go from the bottom. */
  if (op_upper(uplo, trans)) {
    for (int64_t i = 0; i < n; ++i) {
      double complex s = unit ? v[i] : op_at(trans, t, A, lda, i, i) * v[i];
      for (int64_t j = i + 1; j < n; ++j)
        s += op_at(trans, t, A, lda, i, j) * v[j];
      v[i] = s;
    }
  } else {
    for (int64_t i = n - 1; i >= 0; --i) {
      double complex s = unit ? v[i] : op_at(trans, t, A, lda, i, i) * v[i];
      for (int64_t j = 0; j < i; ++j)
        s += op_at(trans, t, A, lda, i, j) * v[j];
      v[i] = s;
    }
  }
}
