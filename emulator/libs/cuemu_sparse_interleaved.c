/*
 * cuemu_sparse_interleaved.c: cuSPARSE's batched banded solvers with the
 * systems interleaved (element i of system b at i * batchCount + b in every
 * array): cusparse?gtsvInterleavedBatch (tridiagonal: dl, d, du) and
 * cusparse?gpsvInterleavedBatch (pentadiagonal: ds, dl, d, du, dw), with
 * their bufferSizeExt, for float, double and their complex forms. Each
 * system is solved by Gaussian elimination on its band: with partial
 * pivoting (gtsv's algo 1, LU, and 2, QR, whose solutions agree; gpsv's
 * algo 0, QR), or without (gtsv's algo 0, cuThomas: a zero pivot gives
 * infinities, as on a GPU). The solution overwrites x; the diagonals are
 * left as they were. Computed in double in the handle's stream's order
 * (cuemu_sparse.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "cuemu_libs.h"
#include "cuemu_sparse.h"

#define E CUEMU_SPARSE_EXPORT
#define OK CUSPARSE_STATUS_SUCCESS
#define BAD CUSPARSE_STATUS_INVALID_VALUE

typedef cuemu_sparse_value value;

/* One call: `width` sub- and superdiagonals (1 or 2), their arrays from
 * the lowest (diag[0]) to the highest (diag[2 width]), m rows, `batch`
 * systems interleaved. */
typedef struct {
  int type, width, pivot;
  int64_t m, batch;
  const void *diag[5];
  void *x;
} banded;

/* A system's row i holds columns i - width to i + 2 width (the elimination
 * with row swaps fills width more above the diagonal): `span` values. */
static int64_t span(const banded *b) { return 3 * b->width + 1; }

static value *at(const banded *b, value *rows, int64_t i, int64_t c) {
  return &rows[i * span(b) + (c - i + b->width)];
}

static double modulus(value v) { return hypot(v.re, v.im); }

static value minus_product(value a, value f, value b) {
  value p = cuemu__sparse_mul(f, b);
  value r = {a.re - p.re, a.im - p.im};
  return r;
}

/* Solves system k in place (rows: m * span values, rhs: m). */
static void solve(const banded *b, int64_t k, value *rows, value *rhs) {
  const int64_t m = b->m, w = b->width;
  for (int64_t i = 0; i < m * span(b); ++i)
    rows[i] = (value){0, 0};
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t d = -w; d <= w; ++d)
      if (i + d >= 0 && i + d < m)
        *at(b, rows, i, i + d) =
            cuemu__sparse_load(b->diag[d + w], b->type, i * b->batch + k);
    rhs[i] = cuemu__sparse_load(b->x, b->type, i * b->batch + k);
  }
  for (int64_t c = 0; c < m; ++c) {
    int64_t last = c + w < m ? c + w : m - 1;       /* rows below */
    int64_t right = c + 2 * w < m ? c + 2 * w : m - 1; /* columns right */
    if (b->pivot) {
      int64_t p = c;
      for (int64_t r = c + 1; r <= last; ++r)
        if (modulus(*at(b, rows, r, c)) > modulus(*at(b, rows, p, c)))
          p = r;
      if (p != c) {
        for (int64_t j = c; j <= right; ++j) {
          value t = *at(b, rows, c, j);
          *at(b, rows, c, j) = *at(b, rows, p, j);
          *at(b, rows, p, j) = t;
        }
        value t = rhs[c];
        rhs[c] = rhs[p], rhs[p] = t;
      }
    }
    for (int64_t r = c + 1; r <= last; ++r) {
      value f = cuemu__sparse_div(*at(b, rows, r, c), *at(b, rows, c, c));
      for (int64_t j = c; j <= right; ++j)
        *at(b, rows, r, j) = minus_product(*at(b, rows, r, j), f,
                                           *at(b, rows, c, j));
      rhs[r] = minus_product(rhs[r], f, rhs[c]);
    }
  }
  for (int64_t c = m - 1; c >= 0; --c) {
    value s = rhs[c];
    int64_t right = c + 2 * w < m ? c + 2 * w : m - 1;
    for (int64_t j = c + 1; j <= right; ++j)
      s = minus_product(s, *at(b, rows, c, j), rhs[j]);
    rhs[c] = cuemu__sparse_div(s, *at(b, rows, c, c));
  }
  for (int64_t i = 0; i < m; ++i)
    cuemu__sparse_store(b->x, b->type, i * b->batch + k, rhs[i]);
}

static void run_banded(cuemu_sparse_op *op) {
  const banded *b = op->extra;
  value *rows = malloc((size_t)(b->m * span(b)) * sizeof *rows);
  value *rhs = malloc((size_t)b->m * sizeof *rhs);
  if (rows && rhs)
    for (int64_t k = 0; k < b->batch; ++k)
      solve(b, k, rows, rhs);
  cuemu_rt_library_wrote(b->x, (size_t)(b->m * b->batch) *
                                   cuemu__sparse_value_size(b->type));
  free(rows);
  free(rhs);
}

/* The checks (m >= 3 and a batch, as cuSPARSE's documentation asks), the
 * buffer size (128 bytes, unused) or the enqueueing. */
static cusparseStatus_t banded_call(cusparseHandle_t h, const char *name,
                                    const banded *b, size_t *size,
                                    int enqueue) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (b->m < 3 || b->batch < 1 || !b->x)
    return BAD;
  for (int d = 0; d <= 2 * b->width; ++d)
    if (!b->diag[d])
      return BAD;
  if (!enqueue) {
    if (!size)
      return BAD;
    *size = 128;
    return OK;
  }
  size_t bytes = (size_t)(b->m * b->batch) * cuemu__sparse_value_size(b->type);
  static const char *const names[2][5] = {{"dl", "d", "du"},
                                          {"ds", "dl", "d", "du", "dw"}};
  for (int d = 0; d <= 2 * b->width; ++d)
    if (!cuemu__libs_device_range(name, names[b->width - 1][d], b->diag[d],
                                  bytes))
      return OK;
  if (!cuemu__libs_device_range(name, "x", b->x, bytes))
    return OK;
  return cuemu__sparse_submit_copy(h, name, run_banded, b, sizeof *b);
}

/* gtsv's algo: 0 cuThomas (no pivoting), 1 LU with partial pivoting, 2 QR;
 * gpsv's: 0 (QR) only. -1 for another. */
static int gtsv_pivot(int algo) { return algo >= 0 && algo <= 2 ? algo > 0 : -1; }
static int gpsv_pivot(int algo) { return algo == 0 ? 1 : -1; }

#define INTERLEAVED_API(P, T, TYPE)                                            \
  E cusparseStatus_t cusparse##P##gtsvInterleavedBatch_bufferSizeExt(          \
      cusparseHandle_t h, int algo, int m, const T *dl, const T *d,            \
      const T *du, const T *x, int batch, size_t *size) {                      \
    banded b = {TYPE, 1, gtsv_pivot(algo), m, batch, {dl, d, du},              \
                (void *)x};                                                    \
    return h && b.pivot < 0 ? BAD : banded_call(h, NULL, &b, size, 0);         \
  }                                                                            \
  E cusparseStatus_t cusparse##P##gtsvInterleavedBatch(                        \
      cusparseHandle_t h, int algo, int m, T *dl, T *d, T *du, T *x,           \
      int batch, void *buffer) {                                               \
    (void)buffer;                                                              \
    banded b = {TYPE, 1, gtsv_pivot(algo), m, batch, {dl, d, du}, x};          \
    return h && b.pivot < 0                                                    \
               ? BAD                                                           \
               : banded_call(h, "cusparse" #P "gtsvInterleavedBatch", &b,      \
                             NULL, 1);                                         \
  }                                                                            \
  E cusparseStatus_t cusparse##P##gpsvInterleavedBatch_bufferSizeExt(          \
      cusparseHandle_t h, int algo, int m, const T *ds, const T *dl,           \
      const T *d, const T *du, const T *dw, const T *x, int batch,             \
      size_t *size) {                                                          \
    banded b = {TYPE, 2, gpsv_pivot(algo), m, batch, {ds, dl, d, du, dw},      \
                (void *)x};                                                    \
    return h && b.pivot < 0 ? BAD : banded_call(h, NULL, &b, size, 0);         \
  }                                                                            \
  E cusparseStatus_t cusparse##P##gpsvInterleavedBatch(                        \
      cusparseHandle_t h, int algo, int m, T *ds, T *dl, T *d, T *du, T *dw,   \
      T *x, int batch, void *buffer) {                                         \
    (void)buffer;                                                              \
    banded b = {TYPE, 2, gpsv_pivot(algo), m, batch, {ds, dl, d, du, dw}, x};  \
    return h && b.pivot < 0                                                    \
               ? BAD                                                           \
               : banded_call(h, "cusparse" #P "gpsvInterleavedBatch", &b,      \
                             NULL, 1);                                         \
  }

INTERLEAVED_API(S, float, CUEMU_R_32F)
INTERLEAVED_API(D, double, CUEMU_R_64F)
INTERLEAVED_API(C, void, CUEMU_C_32F)
INTERLEAVED_API(Z, void, CUEMU_C_64F)
