/*
 * cuemu_blas_level3.c: cuBLAS's geam, dgmm, the rank-k updates (syrk,
 * herk, syrkx, herkx, syr2k, her2k), symm and hemm, trsm (and
 * trsmBatched) and trmm for S, D, C and Z (GEMM is cuemu_blas_gemm.c; the
 * rank-k updates and symm compute through it).
 */
#include <stdlib.h>

#include "cuemu_blas.h"

enum kind { GEAM, DGMM, RANK_K, SYMM, TRSM, TRMM };

typedef struct l3_op {
  cuemu_blas_op base;
  enum kind kind;
  int t, side, uplo, transa, transb, diag;
  int sat, sbt; /* the types of alpha and beta (real for herk's) */
  int herm;     /* Hermitian: herk, herkx, her2k, hemm */
  int two;      /* a rank-2k update: syr2k, her2k */
  int64_t m, n, k, lda, ldb, ldc, incx;
  const void *A, *B, *x;
  void *C;
  const void *alpha, *beta;
  /* trsmBatched: `batch` problems, A and B (in C) from these device
   * arrays of pointers, read when the work runs. */
  int64_t batch;
  const void *const *Aarray;
  void *const *Barray;
} l3_op;

static int64_t max1(int64_t v) { return v > 1 ? v : 1; }

/* Element (i, j) of op(X). */
static double complex op_at(int op, int t, const void *X, int64_t ld, int64_t i,
                            int64_t j) {
  if (op == CUBLAS_OP_N)
    return cuemu__blas_load(t, X, i + j * ld);
  double complex v = cuemu__blas_load(t, X, j + i * ld);
  return op == CUBLAS_OP_C ? conj(v) : v;
}

static void run_geam(const l3_op *o, double complex alpha,
                     double complex beta) {
  for (int64_t j = 0; j < o->n; ++j)
    for (int64_t i = 0; i < o->m; ++i) {
      double complex v = 0;
      if (alpha != 0)
        v += alpha * op_at(o->transa, o->t, o->A, o->lda, i, j);
      if (beta != 0)
        v += beta * op_at(o->transb, o->t, o->B, o->ldb, i, j);
      cuemu__blas_store(o->t, o->C, i + j * o->ldc, v);
    }
}

static void run_dgmm(const l3_op *o) {
  int64_t len = o->side == CUBLAS_SIDE_LEFT ? o->m : o->n;
  for (int64_t j = 0; j < o->n; ++j)
    for (int64_t i = 0; i < o->m; ++i) {
      int64_t d = o->side == CUBLAS_SIDE_LEFT ? i : j;
      int64_t xi = o->incx >= 0 ? d * o->incx : (len - 1 - d) * -o->incx;
      cuemu__blas_store(o->t, o->C, i + j * o->ldc,
                        cuemu__blas_load(o->t, o->x, xi) *
                            cuemu__blas_load(o->t, o->A, i + j * o->lda));
    }
}

/* The rank-k updates on the uplo triangle of C only: syrk C = alpha op(A)
 * op(A)^T + beta C, syrkx with op(B) for the second op(A), syr2k adding
 * alpha op(B) op(A)^T; the Hermitian forms with ^H, conj(alpha) for
 * her2k's second term and a real diagonal, as BLAS's zherk makes it. The
 * products by the one GEMM into a scratch matrix, then the triangle. */
static int run_rank_k(const l3_op *o, double complex alpha,
                      double complex beta) {
  int64_t n = o->n;
  size_t es = cuemu__blas_type_size(o->t);
  void *p = malloc((size_t)n * (size_t)n * es + 16);
  if (!p)
    return -1;
  /* op(X) op(Y)^T: N with T (C), or T (C) with N. */
  int other = o->transa != CUBLAS_OP_N ? CUBLAS_OP_N
              : o->herm                ? CUBLAS_OP_C
                                       : CUBLAS_OP_T;
  cuemu_blas_gemm_args g = {
      o->transa, other, n,     n,    o->k,
      o->t,      o->t,  o->t,  o->t, o->lda,
      o->ldb,    n,     alpha, 0,    CUEMU_BLAS_ROUND_NONE};
  int failed = cuemu__blas_gemm(&g, o->A, o->B, p) != 0;
  if (!failed && o->two) {
    g.lda = o->ldb, g.ldb = o->lda, g.beta = 1;
    g.alpha = o->herm ? conj(alpha) : alpha;
    failed = cuemu__blas_gemm(&g, o->B, o->A, p) != 0;
  }
  for (int64_t j = 0; !failed && j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      if (o->uplo == CUBLAS_FILL_MODE_UPPER ? i > j : i < j)
        continue;
      double complex v = cuemu__blas_load(o->t, p, i + j * n);
      if (beta != 0)
        v += beta * cuemu__blas_load(o->t, o->C, i + j * o->ldc);
      if (o->herm && i == j)
        v = creal(v);
      cuemu__blas_store(o->t, o->C, i + j * o->ldc, v);
    }
  /* The uplo triangle of C, column by column. */
  for (int64_t j = 0; !failed && j < n; ++j) {
    int upper = o->uplo == CUBLAS_FILL_MODE_UPPER;
    cuemu__blas_matrix_wrote((char *)o->C + (size_t)((upper ? 0 : j) +
                                                     j * o->ldc) * es,
                             upper ? j + 1 : n - j, 1, o->ldc, es);
  }
  free(p);
  return failed ? -1 : 0;
}

/* C = alpha A B + beta C (left) or alpha B A + beta C (right), A
 * symmetric (Hermitian for hemm: the other triangle the conjugate, the
 * diagonal real) from its uplo triangle: A made whole in a scratch matrix,
 * then the one GEMM. */
static int run_symm(const l3_op *o, double complex alpha, double complex beta) {
  int left = o->side == CUBLAS_SIDE_LEFT;
  int64_t ka = left ? o->m : o->n;
  size_t es = cuemu__blas_type_size(o->t);
  void *full = malloc((size_t)ka * (size_t)ka * es);
  if (!full)
    return -1;
  for (int64_t j = 0; j < ka; ++j)
    for (int64_t i = 0; i < ka; ++i) {
      int stored = o->uplo == CUBLAS_FILL_MODE_UPPER ? i <= j : i >= j;
      double complex a = cuemu__blas_load(
          o->t, o->A, stored ? i + j * o->lda : j + i * o->lda);
      if (o->herm)
        a = i == j ? creal(a) : stored ? a : conj(a);
      cuemu__blas_store(o->t, full, i + j * ka, a);
    }
  cuemu_blas_gemm_args g = {CUBLAS_OP_N,
                            CUBLAS_OP_N,
                            o->m,
                            o->n,
                            ka,
                            o->t,
                            o->t,
                            o->t,
                            o->t,
                            left ? ka : o->ldb,
                            left ? o->ldb : ka,
                            o->ldc,
                            alpha,
                            beta,
                            CUEMU_BLAS_ROUND_NONE};
  int r = left ? cuemu__blas_gemm(&g, full, o->B, o->C)
               : cuemu__blas_gemm(&g, o->B, full, o->C);
  free(full);
  return r;
}

/* op(A) X = alpha B (left) or X op(A) = alpha B (right), X over B: a
 * triangular solve per column of B (left), or per row of B with op(A)
 * transposed (right: op(A)^T X^T = alpha B^T). TRMM: C = alpha op(A) B or
 * alpha B op(A), the product in place of the solve, from B into C. */
static int run_trsm(const l3_op *o, double complex alpha) {
  int64_t m = o->m, n = o->n;
  int left = o->side == CUBLAS_SIDE_LEFT;
  int64_t len = left ? m : n, count = left ? n : m;
  double complex *v = malloc((size_t)len * sizeof *v + 16);
  if (!v)
    return -1;
  /* The transpose of op(A): N -> T, T -> N, C -> conj(A) untransposed. */
  int trans = left                       ? o->transa
              : o->transa == CUBLAS_OP_N ? CUBLAS_OP_T
              : o->transa == CUBLAS_OP_T ? CUBLAS_OP_N
                                         : CUEMU_BLAS_OP_CONJ_N;
  /* TRMM reads B (its own leading dimension), TRSM overwrites B. */
  const void *src = o->kind == TRMM ? o->B : o->C;
  int64_t lds = o->kind == TRMM ? o->ldb : o->ldc;
  for (int64_t c = 0; c < count; ++c) {
    for (int64_t e = 0; e < len; ++e)
      v[e] = alpha == 0
                 ? 0
                 : alpha * cuemu__blas_load(o->t, src,
                                            left ? e + c * lds : c + e * lds);
    if (alpha != 0 && o->kind == TRSM)
      cuemu__blas_tri_solve(o->uplo, trans, o->diag, len, o->t, o->A, o->lda,
                            v);
    else if (alpha != 0)
      cuemu__blas_tri_multiply(o->uplo, trans, o->diag, len, o->t, o->A, o->lda,
                               v);
    for (int64_t e = 0; e < len; ++e)
      cuemu__blas_store(o->t, o->C, left ? e + c * o->ldc : c + e * o->ldc,
                        v[e]);
  }
  free(v);
  return 0;
}

static void run_l3(cuemu_blas_op *base) {
  l3_op *o = (l3_op *)base;
  double complex alpha = o->alpha ? cuemu__blas_load(o->sat, o->alpha, 0) : 0;
  double complex beta = o->beta ? cuemu__blas_load(o->sbt, o->beta, 0) : 0;
  int failed = 0;
  switch (o->kind) {
  case GEAM:
    run_geam(o, alpha, beta);
    break;
  case DGMM:
    run_dgmm(o);
    break;
  case RANK_K:
    failed = run_rank_k(o, alpha, beta);
    break;
  case SYMM:
    failed = run_symm(o, alpha, beta);
    break;
  case TRSM:
  case TRMM:
    if (!o->Aarray) {
      failed = run_trsm(o, alpha);
      break;
    }
    /* trsmBatched: the arrays of pointers are read as a kernel reads
     * them, when the work runs. */
    for (int64_t b = 0; !failed && b < o->batch; ++b) {
      l3_op one = *o;
      size_t es = cuemu__blas_type_size(o->t);
      int64_t ka = o->side == CUBLAS_SIDE_LEFT ? o->m : o->n;
      one.A = o->Aarray[b], one.C = o->Barray[b];
      if (!cuemu__libs_device_range(
              base->name, "A[i]", one.A,
              cuemu__blas_matrix_bytes(ka, ka, o->lda, es)) ||
          !cuemu__libs_device_range(
              base->name, "B[i]", one.C,
              cuemu__blas_matrix_bytes(o->m, o->n, o->ldc, es)))
        break;
      failed = run_trsm(&one, alpha);
    }
    break;
  }
  if (failed)
    cuemu__blas_out_of_memory(base->name);
  else if (o->kind != RANK_K && !o->Aarray)
    /* C, as its kernel's stores (run_rank_k marks its triangle). */
    cuemu__blas_matrix_wrote(o->C, o->m, o->n, o->ldc,
                             cuemu__blas_type_size(o->t));
}

/* Scalars, device memory (each of A, B, C and x of rows x cols given, or
 * none where rows is 0) and the stream. */
static cublasStatus_t l3(cublasHandle_t h, l3_op *o, const void *alpha,
                         const void *beta, const int64_t dims[4][2]) {
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  const char *name = o->base.name;
  size_t es = cuemu__blas_type_size(o->t);
  size_t sa = cuemu__blas_type_size(o->sat), sb = cuemu__blas_type_size(o->sbt);
  int ok = 1;
  if (alpha)
    o->alpha = cuemu__blas_scalar(h, &o->base, 0, alpha, sa);
  if (beta)
    o->beta = cuemu__blas_scalar(h, &o->base, 1, beta, sb);
  if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE)
    ok = (!alpha || cuemu__libs_device_range(name, "alpha", alpha, sa)) &&
         (!beta || cuemu__libs_device_range(name, "beta", beta, sb));
  if (ok && o->Aarray) {
    size_t pb = (size_t)o->batch * sizeof(void *);
    ok = cuemu__libs_device_range(name, "A", o->Aarray, pb) &&
         cuemu__libs_device_range(name, "B", o->Barray, pb);
  }
  static const char *const names[4] = {"A", "B", "C", "x"};
  const void *ptrs[4] = {o->A, o->B, o->C, o->x};
  int64_t lds[4] = {o->lda, o->ldb, o->ldc, 0};
  for (int i = 0; ok && i < 4; ++i)
    if (dims[i][0] > 0)
      ok = cuemu__libs_device_range(
          name, names[i], ptrs[i],
          i == 3
              ? cuemu__blas_vector_bytes(dims[i][0], o->incx, es)
              : cuemu__blas_matrix_bytes(dims[i][0], dims[i][1], lds[i], es));
  if (!ok) {
    free(o);
    return CUBLAS_STATUS_SUCCESS;
  }
  return cuemu__blas_submit(h, &o->base);
}

static l3_op *new_l3(const char *name, enum kind kind, int t) {
  l3_op *o = (l3_op *)cuemu__blas_op_new(sizeof(l3_op), name, run_l3);
  if (o)
    o->kind = kind, o->t = t, o->sat = o->sbt = t;
  return o;
}

static cublasStatus_t geam(cublasHandle_t h, const char *name, int t,
                           int transa, int transb, int64_t m, int64_t n,
                           const void *alpha, const void *A, int64_t lda,
                           const void *beta, const void *B, int64_t ldb,
                           void *C, int64_t ldc) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!cuemu__blas_op_valid(transa) || !cuemu__blas_op_valid(transb) || m < 0 ||
      n < 0 || lda < max1(transa == CUBLAS_OP_N ? m : n) ||
      ldb < max1(transb == CUBLAS_OP_N ? m : n) || ldc < max1(m))
    return CUBLAS_STATUS_INVALID_VALUE;
  /* In place only as cuBLAS allows: C == A with A untransposed and
   * ldc == lda (likewise B). */
  if ((C == A && (transa != CUBLAS_OP_N || lda != ldc)) ||
      (C == B && (transb != CUBLAS_OP_N || ldb != ldc)))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!alpha || !beta)
    return CUBLAS_STATUS_INVALID_VALUE;
  l3_op *o = new_l3(name, GEAM, t);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->transa = transa, o->transb = transb, o->m = m, o->n = n, o->A = A,
  o->lda = lda, o->B = B, o->ldb = ldb, o->C = C, o->ldc = ldc;
  int64_t ar = transa == CUBLAS_OP_N ? m : n,
          ac = transa == CUBLAS_OP_N ? n : m;
  int64_t br = transb == CUBLAS_OP_N ? m : n,
          bc = transb == CUBLAS_OP_N ? n : m;
  /* A and B are not read where their scalar is 0 (known now in host
   * pointer mode only). */
  int host = h->pointer_mode == CUBLAS_POINTER_MODE_HOST;
  int a_read = !host || cuemu__blas_load(t, alpha, 0) != 0;
  int b_read = !host || cuemu__blas_load(t, beta, 0) != 0;
  int64_t dims[4][2] = {
      {a_read ? ar : 0, ac}, {b_read ? br : 0, bc}, {m, n}, {0, 0}};
  return l3(h, o, alpha, beta, (const int64_t(*)[2])dims);
}

#define CUEMU_GEAM_DEF(NAME, I, T, TYPE, ...)                                  \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int transa, int transb, I m, I n, const T *alpha,      \
      const T *A, I lda, const T *beta, const T *B, I ldb, T *C, I ldc) {      \
    return geam(h, #NAME, TYPE, transa, transb, m, n, alpha, A, lda, beta, B,  \
                ldb, C, ldc);                                                  \
  }
#define CUEMU_GEAM(...) CUEMU_BLAS_ILP64(CUEMU_GEAM_DEF, __VA_ARGS__)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_GEAM, geam)

static cublasStatus_t dgmm(cublasHandle_t h, const char *name, int t, int side,
                           int64_t m, int64_t n, const void *A, int64_t lda,
                           const void *x, int64_t incx, void *C, int64_t ldc) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if ((side != CUBLAS_SIDE_LEFT && side != CUBLAS_SIDE_RIGHT) || m < 0 ||
      n < 0 || lda < max1(m) || ldc < max1(m))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0)
    return CUBLAS_STATUS_SUCCESS;
  l3_op *o = new_l3(name, DGMM, t);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->side = side, o->m = m, o->n = n, o->A = A, o->lda = lda, o->x = x,
  o->incx = incx, o->C = C, o->ldc = ldc;
  int64_t dims[4][2] = {
      {m, n}, {0, 0}, {m, n}, {side == CUBLAS_SIDE_LEFT ? m : n, 1}};
  return l3(h, o, NULL, NULL, (const int64_t(*)[2])dims);
}

#define CUEMU_DGMM_DEF(NAME, I, T, TYPE, ...)                                  \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, int side, I m, I n,  \
                                        const T *A, I lda, const T *x, I incx, \
                                        T *C, I ldc) {                         \
    return dgmm(h, #NAME, TYPE, side, m, n, A, lda, x, incx, C, ldc);          \
  }
#define CUEMU_DGMM(...) CUEMU_BLAS_ILP64(CUEMU_DGMM_DEF, __VA_ARGS__)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_DGMM, dgmm)

/* The rank-k updates: syrk and herk (B NULL: op(A) with itself), syrkx
 * and herkx (B, one term), syr2k and her2k (two). sat, sbt: the types of
 * alpha and beta (real for herk's alpha and beta, her2k's and herkx's
 * beta). */
static cublasStatus_t rank_k(cublasHandle_t h, const char *name, int t, int sat,
                             int sbt, int herm, int two, int uplo, int trans,
                             int64_t n, int64_t k, const void *alpha,
                             const void *A, int64_t lda, const void *B,
                             int64_t ldb, const void *beta, void *C,
                             int64_t ldc) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  int complex_type = t == CUEMU_C_32F || t == CUEMU_C_64F;
  /* The symmetric forms of a complex type take N or T, the Hermitian
   * forms N or C; a real type's C is its T. */
  int trans_valid =
      cuemu__blas_op_valid(trans) &&
      !(complex_type && trans == (herm ? CUBLAS_OP_T : CUBLAS_OP_C));
  int64_t rows = trans == CUBLAS_OP_N ? n : k;
  if ((uplo != CUBLAS_FILL_MODE_LOWER && uplo != CUBLAS_FILL_MODE_UPPER) ||
      !trans_valid || n < 0 || k < 0 || lda < max1(rows) ||
      (B && ldb < max1(rows)) || ldc < max1(n))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!alpha || !beta)
    return CUBLAS_STATUS_INVALID_VALUE;
  l3_op *o = new_l3(name, RANK_K, t);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->sat = sat, o->sbt = sbt, o->herm = herm, o->two = two;
  o->uplo = uplo,
  o->transa = !complex_type && trans == CUBLAS_OP_C ? CUBLAS_OP_T : trans;
  o->n = n, o->k = k, o->A = A, o->lda = lda, o->C = C, o->ldc = ldc;
  o->B = B ? B : A, o->ldb = B ? ldb : lda;
  int64_t cols = trans == CUBLAS_OP_N ? k : n;
  int64_t dims[4][2] = {
      {k ? rows : 0, cols}, {B && k ? rows : 0, cols}, {n, n}, {0, 0}};
  return l3(h, o, alpha, beta, (const int64_t(*)[2])dims);
}

/* syrk (herk): alpha and beta of type S (real for herk). */
#define CUEMU_SYRK_DEF(NAME, I, T, S, TYPE, STYPE, HERM)                       \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, int uplo, int trans, \
                                        I n, I k, const S *alpha, const T *A,  \
                                        I lda, const S *beta, T *C, I ldc) {   \
    return rank_k(h, #NAME, TYPE, STYPE, STYPE, HERM, 0, uplo, trans, n, k,    \
                  alpha, A, lda, NULL, 0, beta, C, ldc);                       \
  }
#define CUEMU_SYRK(NAME, T, TYPE, R, RTYPE, ...)                               \
  CUEMU_BLAS_ILP64(CUEMU_SYRK_DEF, NAME, T, T, TYPE, TYPE, 0)
#define CUEMU_HERK(NAME, T, TYPE, R, RTYPE, ...)                               \
  CUEMU_BLAS_ILP64(CUEMU_SYRK_DEF, NAME, T, R, TYPE, RTYPE, 1)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_SYRK, syrk_v2)
CUEMU_BLAS_CZ(CUEMU_BLAS_TYPED, CUEMU_HERK, herk_v2)

/* CsyrkEx, CherkEx and their 3M forms: complex float A and C only (cuemu
 * has no complex int8), else NOT_SUPPORTED; S: alpha's and beta's type. */
#define CUEMU_SYRK_EX_DEF(NAME, I, S, STYPE, HERM, ...)                        \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int uplo, int trans, I n, I k, const S *alpha,         \
      const void *A, int at, I lda, const S *beta, void *C, int ct, I ldc) {   \
    if (h && (at != CUEMU_C_32F || ct != CUEMU_C_32F))                         \
      return CUBLAS_STATUS_NOT_SUPPORTED;                                      \
    return rank_k(h, #NAME, CUEMU_C_32F, STYPE, STYPE, HERM, 0, uplo, trans,   \
                  n, k, alpha, A, lda, NULL, 0, beta, C, ldc);                 \
  }
CUEMU_BLAS_ILP64(CUEMU_SYRK_EX_DEF, cublasCsyrkEx, float complex, CUEMU_C_32F,
                 0)
CUEMU_BLAS_ILP64(CUEMU_SYRK_EX_DEF, cublasCsyrk3mEx, float complex, CUEMU_C_32F,
                 0)
CUEMU_BLAS_ILP64(CUEMU_SYRK_EX_DEF, cublasCherkEx, float, CUEMU_R_32F, 1)
CUEMU_BLAS_ILP64(CUEMU_SYRK_EX_DEF, cublasCherk3mEx, float, CUEMU_R_32F, 1)

/* syrkx, herkx (TWO 0), syr2k, her2k (TWO 1): beta of type S (real for
 * the Hermitian forms). */
#define CUEMU_SYR2K_DEF(NAME, I, T, S, TYPE, STYPE, HERM, TWO)                 \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int uplo, int trans, I n, I k, const T *alpha,         \
      const T *A, I lda, const T *B, I ldb, const S *beta, T *C, I ldc) {      \
    if (!B)                                                                    \
      return h ? CUBLAS_STATUS_INVALID_VALUE : CUBLAS_STATUS_NOT_INITIALIZED;  \
    return rank_k(h, #NAME, TYPE, TYPE, STYPE, HERM, TWO, uplo, trans, n, k,   \
                  alpha, A, lda, B, ldb, beta, C, ldc);                        \
  }
/* TWO: syrkx and herkx (0), syr2k and her2k (1). */
#define CUEMU_SYR2K(NAME, T, TYPE, R, RTYPE, TWO, ...)                         \
  CUEMU_BLAS_ILP64(CUEMU_SYR2K_DEF, NAME, T, T, TYPE, TYPE, 0, TWO)
#define CUEMU_HER2K(NAME, T, TYPE, R, RTYPE, TWO, ...)                         \
  CUEMU_BLAS_ILP64(CUEMU_SYR2K_DEF, NAME, T, R, TYPE, RTYPE, 1, TWO)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_SYR2K, syrkx, 0)
CUEMU_BLAS_CZ(CUEMU_BLAS_TYPED, CUEMU_HER2K, herkx, 0)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_SYR2K, syr2k_v2, 1)
CUEMU_BLAS_CZ(CUEMU_BLAS_TYPED, CUEMU_HER2K, her2k_v2, 1)

/* trsm, and trsmBatched (batch >= 0: A and B are its arrays of
 * pointers). */
static cublasStatus_t trsm(cublasHandle_t h, const char *name, int t, int side,
                           int uplo, int trans, int diag, int64_t m, int64_t n,
                           const void *alpha, const void *A, int64_t lda,
                           void *B, int64_t ldb, int64_t batch) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  int64_t ka = side == CUBLAS_SIDE_LEFT ? m : n;
  if ((side != CUBLAS_SIDE_LEFT && side != CUBLAS_SIDE_RIGHT) ||
      (uplo != CUBLAS_FILL_MODE_LOWER && uplo != CUBLAS_FILL_MODE_UPPER) ||
      !cuemu__blas_op_valid(trans) ||
      (diag != CUBLAS_DIAG_UNIT && diag != CUBLAS_DIAG_NON_UNIT) || m < 0 ||
      n < 0 || lda < max1(ka) || ldb < max1(m) || batch < -1)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0 || batch == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!alpha)
    return CUBLAS_STATUS_INVALID_VALUE;
  l3_op *o = new_l3(name, TRSM, t);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->side = side, o->uplo = uplo, o->transa = trans, o->diag = diag;
  o->m = m, o->n = n, o->A = A, o->lda = lda, o->C = B, o->ldc = ldb;
  int64_t dims[4][2] = {{ka, ka}, {0, 0}, {m, n}, {0, 0}};
  if (batch > 0) {
    /* The matrices are checked as they are read, when the work runs. */
    o->batch = batch, o->Aarray = A, o->Barray = B;
    dims[0][0] = dims[2][0] = 0;
  }
  return l3(h, o, alpha, NULL, (const int64_t(*)[2])dims);
}

#define CUEMU_TRSM_DEF(NAME, I, T, TYPE, ...)                                  \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int side, int uplo, int trans, int diag, I m, I n,     \
      const T *alpha, const T *A, I lda, T *B, I ldb) {                        \
    return trsm(h, #NAME, TYPE, side, uplo, trans, diag, m, n, alpha, A, lda,  \
                B, ldb, -1);                                                   \
  }
#define CUEMU_TRSM(...) CUEMU_BLAS_ILP64(CUEMU_TRSM_DEF, __VA_ARGS__)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_TRSM, trsm_v2)

#define CUEMU_TRSM_BATCHED_DEF(NAME, I, T, TYPE, ...)                          \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(cublasHandle_t h, int side, int uplo,  \
                                        int trans, int diag, I m, I n,         \
                                        const T *alpha, const T *const A[],    \
                                        I lda, T *const B[], I ldb, I batch) { \
    if (batch < 0)                                                             \
      return h ? CUBLAS_STATUS_INVALID_VALUE : CUBLAS_STATUS_NOT_INITIALIZED;  \
    return trsm(h, #NAME, TYPE, side, uplo, trans, diag, m, n, alpha,          \
                (const void *)A, lda, (void *)B, ldb, batch);                  \
  }
#define CUEMU_TRSM_BATCHED(...)                                                \
  CUEMU_BLAS_ILP64(CUEMU_TRSM_BATCHED_DEF, __VA_ARGS__)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_TRSM_BATCHED, trsmBatched)

static cublasStatus_t symm(cublasHandle_t h, const char *name, int t, int herm,
                           int side, int uplo, int64_t m, int64_t n,
                           const void *alpha, const void *A, int64_t lda,
                           const void *B, int64_t ldb, const void *beta,
                           void *C, int64_t ldc) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  int64_t ka = side == CUBLAS_SIDE_LEFT ? m : n;
  if ((side != CUBLAS_SIDE_LEFT && side != CUBLAS_SIDE_RIGHT) ||
      (uplo != CUBLAS_FILL_MODE_LOWER && uplo != CUBLAS_FILL_MODE_UPPER) ||
      m < 0 || n < 0 || lda < max1(ka) || ldb < max1(m) || ldc < max1(m))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!alpha || !beta)
    return CUBLAS_STATUS_INVALID_VALUE;
  l3_op *o = new_l3(name, SYMM, t);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->herm = herm;
  o->side = side, o->uplo = uplo, o->m = m, o->n = n, o->A = A, o->lda = lda;
  o->B = B, o->ldb = ldb, o->C = C, o->ldc = ldc;
  int64_t dims[4][2] = {{ka, ka}, {m, n}, {m, n}, {0, 0}};
  return l3(h, o, alpha, beta, (const int64_t(*)[2])dims);
}

#define CUEMU_SYMM_DEF(NAME, I, T, TYPE, R, RTYPE, HERM, ...)                  \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int side, int uplo, I m, I n, const T *alpha,          \
      const T *A, I lda, const T *B, I ldb, const T *beta, T *C, I ldc) {      \
    return symm(h, #NAME, TYPE, HERM, side, uplo, m, n, alpha, A, lda, B, ldb, \
                beta, C, ldc);                                                 \
  }
#define CUEMU_SYMM(...) CUEMU_BLAS_ILP64(CUEMU_SYMM_DEF, __VA_ARGS__)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_SYMM, symm_v2, 0)
CUEMU_BLAS_CZ(CUEMU_BLAS_TYPED, CUEMU_SYMM, hemm_v2, 1)

/* cublas<t>trmm (CUDA 11's form: the product from B into C, which may be
 * B itself). */
static cublasStatus_t trmm(cublasHandle_t h, const char *name, int t, int side,
                           int uplo, int trans, int diag, int64_t m, int64_t n,
                           const void *alpha, const void *A, int64_t lda,
                           const void *B, int64_t ldb, void *C, int64_t ldc) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  int64_t ka = side == CUBLAS_SIDE_LEFT ? m : n;
  if ((side != CUBLAS_SIDE_LEFT && side != CUBLAS_SIDE_RIGHT) ||
      (uplo != CUBLAS_FILL_MODE_LOWER && uplo != CUBLAS_FILL_MODE_UPPER) ||
      !cuemu__blas_op_valid(trans) ||
      (diag != CUBLAS_DIAG_UNIT && diag != CUBLAS_DIAG_NON_UNIT) || m < 0 ||
      n < 0 || lda < max1(ka) || ldb < max1(m) || ldc < max1(m))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!alpha)
    return CUBLAS_STATUS_INVALID_VALUE;
  l3_op *o = new_l3(name, TRMM, t);
  if (!o)
    return CUBLAS_STATUS_ALLOC_FAILED;
  o->side = side, o->uplo = uplo, o->transa = trans, o->diag = diag;
  o->m = m, o->n = n, o->A = A, o->lda = lda, o->B = B, o->ldb = ldb;
  o->C = C, o->ldc = ldc;
  int64_t dims[4][2] = {{ka, ka}, {m, n}, {m, n}, {0, 0}};
  return l3(h, o, alpha, NULL, (const int64_t(*)[2])dims);
}

#define CUEMU_TRMM_DEF(NAME, I, T, TYPE, ...)                                  \
  CUEMU_BLAS_EXPORT cublasStatus_t NAME(                                       \
      cublasHandle_t h, int side, int uplo, int trans, int diag, I m, I n,     \
      const T *alpha, const T *A, I lda, const T *B, I ldb, T *C, I ldc) {     \
    return trmm(h, #NAME, TYPE, side, uplo, trans, diag, m, n, alpha, A, lda,  \
                B, ldb, C, ldc);                                               \
  }
#define CUEMU_TRMM(...) CUEMU_BLAS_ILP64(CUEMU_TRMM_DEF, __VA_ARGS__)
CUEMU_BLAS_SDCZ(CUEMU_BLAS_TYPED, CUEMU_TRMM, trmm_v2)

/* The legacy API (cublas.h): character arguments, scalars by value,
 * statuses kept for cublasGetError; from the same tables. */
/* syrk (S: alpha and beta of type T), herk (R); syr2k (beta of type T),
 * her2k (R). */
#define CUEMU_LEGACY_SYRK(L, T, TYPE, R, RTYPE, NAME, S, ...)                  \
  CUEMU_BLAS_EXPORT void cublas##L##NAME(char uplo, char trans, int n, int k,  \
                                         S alpha, const T *A, int lda, S beta, \
                                         T *C, int ldc) {                      \
    CUEMU_BLAS_LEGACY(cublas##L##NAME##_v2, CUEMU_FILL(uplo), CUEMU_OP(trans), \
                      n, k, &alpha, A, lda, &beta, C, ldc);                    \
  }
#define CUEMU_LEGACY_SYR2K(L, T, TYPE, R, RTYPE, NAME, S, ...)                 \
  CUEMU_BLAS_EXPORT void cublas##L##NAME(                                      \
      char uplo, char trans, int n, int k, T alpha, const T *A, int lda,       \
      const T *B, int ldb, S beta, T *C, int ldc) {                            \
    CUEMU_BLAS_LEGACY(cublas##L##NAME##_v2, CUEMU_FILL(uplo), CUEMU_OP(trans), \
                      n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);            \
  }
#define CUEMU_LEGACY_T(L, T, TYPE, R, RTYPE, FAMILY, NAME, ...)                \
  FAMILY(L, T, TYPE, R, RTYPE, NAME, T)
#define CUEMU_LEGACY_R(L, T, TYPE, R, RTYPE, FAMILY, NAME, ...)                \
  FAMILY(L, T, TYPE, R, RTYPE, NAME, R)
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_T, CUEMU_LEGACY_SYRK, syrk)
CUEMU_BLAS_CZ(CUEMU_LEGACY_R, CUEMU_LEGACY_SYRK, herk)
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_T, CUEMU_LEGACY_SYR2K, syr2k)
CUEMU_BLAS_CZ(CUEMU_LEGACY_R, CUEMU_LEGACY_SYR2K, her2k)

#define CUEMU_LEGACY_SYMM(L, T, TYPE, R, RTYPE, NAME, ...)                     \
  CUEMU_BLAS_EXPORT void cublas##L##NAME(                                      \
      char side, char uplo, int m, int n, T alpha, const T *A, int lda,        \
      const T *B, int ldb, T beta, T *C, int ldc) {                            \
    CUEMU_BLAS_LEGACY(cublas##L##NAME##_v2, CUEMU_SIDE(side),                  \
                      CUEMU_FILL(uplo), m, n, &alpha, A, lda, B, ldb, &beta,   \
                      C, ldc);                                                 \
  }
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_SYMM, symm)
CUEMU_BLAS_CZ(CUEMU_LEGACY_SYMM, hemm)

/* trsm, and trmm in place (the legacy form: B is overwritten; OUT(B, ldb)
 * repeats B as the v2 form's C). */
#define CUEMU_OUT_NONE(...)
#define CUEMU_OUT_AGAIN(B, ldb) , B, ldb
#define CUEMU_LEGACY_TRXM(L, T, TYPE, R, RTYPE, NAME, OUT, ...)                \
  CUEMU_BLAS_EXPORT void cublas##L##NAME(char side, char uplo, char trans,     \
                                         char diag, int m, int n, T alpha,     \
                                         const T *A, int lda, T *B, int ldb) { \
    CUEMU_BLAS_LEGACY(cublas##L##NAME##_v2, CUEMU_SIDE(side),                  \
                      CUEMU_FILL(uplo), CUEMU_OP(trans), CUEMU_DIAG(diag), m,  \
                      n, &alpha, A, lda, B, ldb OUT(B, ldb));                  \
  }
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_TRXM, trsm, CUEMU_OUT_NONE)
CUEMU_BLAS_SDCZ(CUEMU_LEGACY_TRXM, trmm, CUEMU_OUT_AGAIN)
