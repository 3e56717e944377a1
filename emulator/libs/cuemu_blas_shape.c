/*
 * cuemu_blas_shape.c: where cuBLAS's full, band and packed matrices keep
 * element (i, j) (cuemu_blas.h, cuemu_blas_shape).
 */
#include "cuemu_blas.h"

cuemu_blas_shape cuemu__blas_general(int64_t rows, int64_t cols, int64_t ld) {
  return (cuemu_blas_shape){CUEMU_BLAS_FULL, -1, rows, ld, rows - 1, cols - 1};
}

cuemu_blas_shape cuemu__blas_triangle(int storage, int uplo, int64_t n,
                                      int64_t k, int64_t ld) {
  int64_t width = storage == CUEMU_BLAS_BAND ? k : n - 1;
  int upper = uplo == CUBLAS_FILL_MODE_UPPER;
  return (cuemu_blas_shape){storage,          uplo, n, ld, upper ? 0 : width,
                            upper ? width : 0};
}

int64_t cuemu__blas_shape_at(const cuemu_blas_shape *s, int64_t i, int64_t j) {
  switch (s->storage) {
  case CUEMU_BLAS_BAND:
    return s->ku + i - j + j * s->ld;
  case CUEMU_BLAS_PACKED:
    return s->uplo == CUBLAS_FILL_MODE_UPPER
               ? i + j * (j + 1) / 2
               : i - j + j * (2 * s->rows - j + 1) / 2;
  }
  return i + j * s->ld;
}

int64_t cuemu__blas_shape_first(const cuemu_blas_shape *s, int64_t j) {
  return j - s->ku > 0 ? j - s->ku : 0;
}

int64_t cuemu__blas_shape_last(const cuemu_blas_shape *s, int64_t j) {
  return j + s->kl < s->rows - 1 ? j + s->kl : s->rows - 1;
}

size_t cuemu__blas_shape_bytes(const cuemu_blas_shape *s, int64_t cols,
                               size_t elem) {
  switch (s->storage) {
  case CUEMU_BLAS_BAND:
    return cuemu__blas_matrix_bytes(s->kl + s->ku + 1, cols, s->ld, elem);
  case CUEMU_BLAS_PACKED:
    return (size_t)(s->rows * (s->rows + 1) / 2) * elem;
  }
  return cuemu__blas_matrix_bytes(s->rows, cols, s->ld, elem);
}
