/*
 * cuemu_blas_triangle.c: triangular solves and products on one vector,
 * under trsv, tbsv, tpsv, trmv, tbmv, tpmv, trsm and trmm (cuemu_blas.h),
 * for any storage (cuemu_blas_shape): only the stored band of each row of
 * op(A) is visited.
 */
#include <stdlib.h>

#include "cuemu_blas.h"

/* Element (i, j) of op(A), which must be stored. */
static double complex op_at(int trans, int t, const void *A,
                            const cuemu_blas_shape *s, int64_t i, int64_t j) {
  if (trans == CUBLAS_OP_N || trans == CUEMU_BLAS_OP_CONJ_N) {
    double complex v = cuemu__blas_load(t, A, cuemu__blas_shape_at(s, i, j));
    return trans == CUBLAS_OP_N ? v : conj(v);
  }
  double complex v = cuemu__blas_load(t, A, cuemu__blas_shape_at(s, j, i));
  return trans == CUBLAS_OP_T ? v : conj(v);
}

static int transposed(int trans) {
  return trans == CUBLAS_OP_T || trans == CUBLAS_OP_C;
}

/* Whether op(A) is upper triangular: A's triangle, transposed or not. */
static int op_upper(const cuemu_blas_shape *s, int trans) {
  return (s->uplo == CUBLAS_FILL_MODE_UPPER) != transposed(trans);
}

/* The columns that row i of op(A) stores beyond the diagonal: i + 1 to
 * *last (upper), or *first to i - 1 (lower). */
static void row_span(const cuemu_blas_shape *s, int trans, int64_t n, int64_t i,
                     int64_t *first, int64_t *last) {
  int64_t below = transposed(trans) ? s->ku : s->kl;
  int64_t above = transposed(trans) ? s->kl : s->ku;
  *first = i - below > 0 ? i - below : 0;
  *last = i + above < n - 1 ? i + above : n - 1;
}

void cuemu__blas_tri_solve_shaped(const cuemu_blas_shape *s, int trans,
                                  int diag, int64_t n, int t, const void *A,
                                  double complex *v) {
  int unit = diag == CUBLAS_DIAG_UNIT, upper = op_upper(s, trans);
  for (int64_t r = 0; r < n; ++r) {
    /* Upper: back substitution from the last row; lower: forward. */
    int64_t i = upper ? n - 1 - r : r, first, last;
    row_span(s, trans, n, i, &first, &last);
    double complex sum = v[i];
    for (int64_t j = upper ? i + 1 : first; j <= (upper ? last : i - 1); ++j)
      sum -= op_at(trans, t, A, s, i, j) * v[j];
    v[i] = unit ? sum : sum / op_at(trans, t, A, s, i, i);
  }
}

void cuemu__blas_tri_multiply_shaped(const cuemu_blas_shape *s, int trans,
                                     int diag, int64_t n, int t, const void *A,
                                     double complex *v) {
  int unit = diag == CUBLAS_DIAG_UNIT, upper = op_upper(s, trans);
  /* Upper: row i reads v[i..], so rows go from the top; lower: row i
   * reads v[..i], so rows go from the bottom. */
  for (int64_t r = 0; r < n; ++r) {
    int64_t i = upper ? r : n - 1 - r, first, last;
    row_span(s, trans, n, i, &first, &last);
    double complex sum = unit ? v[i] : op_at(trans, t, A, s, i, i) * v[i];
    for (int64_t j = upper ? i + 1 : first; j <= (upper ? last : i - 1); ++j)
      sum += op_at(trans, t, A, s, i, j) * v[j];
    v[i] = sum;
  }
}

void cuemu__blas_tri_solve(int uplo, int trans, int diag, int64_t n, int t,
                           const void *A, int64_t lda, double complex *v) {
  cuemu_blas_shape s = cuemu__blas_triangle(CUEMU_BLAS_FULL, uplo, n, 0, lda);
  cuemu__blas_tri_solve_shaped(&s, trans, diag, n, t, A, v);
}

void cuemu__blas_tri_multiply(int uplo, int trans, int diag, int64_t n, int t,
                              const void *A, int64_t lda, double complex *v) {
  cuemu_blas_shape s = cuemu__blas_triangle(CUEMU_BLAS_FULL, uplo, n, 0, lda);
  cuemu__blas_tri_multiply_shaped(&s, trans, diag, n, t, A, v);
}
