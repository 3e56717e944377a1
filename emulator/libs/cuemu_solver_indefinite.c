/*
 * cuemu_solver_indefinite.c: cuSOLVER's symmetric indefinite
 * factorization, inverse and solve: cusolverDn?sytrf and cusolverDn?sytri
 * (with their buffer sizes) and the 64-bit generic cusolverDnXsytrs.
 * A = P L D L^T P^T (lower) or P U D U^T P^T (upper), D block diagonal
 * with 1 x 1 and 2 x 2 blocks, by Bunch-Kaufman's partial pivoting in the
 * order of LAPACK's unblocked sytf2, with LAPACK's ipiv; the complex types
 * are symmetric (A^T = A), not Hermitian, as LAPACK's csytrf. A devIpiv of
 * NULL factors without pivoting (1 x 1 blocks in order). On a
 * complex-double copy, in the handle's stream order.
 */
#include <math.h>
#include <stdlib.h>

#include "cuemu_solver.h"

#define MAX1(x) ((x) > 1 ? (x) : 1)
#define AT(i, j) (a[(int64_t)(j)*n + (i)])

/* |re| + |im|, LAPACK's measure of a pivot (|x| for the real types). */
static double cabs1(cuemu_solver_value x) {
  return fabs(creal(x)) + fabs(cimag(x));
}

static void swap(cuemu_solver_value *x, cuemu_solver_value *y) {
  cuemu_solver_value t = *x;
  *x = *y;
  *y = t;
}

/* ---- The factorization
 * ------------------------------------------------------
 */

/* Exchanges rows and columns kk and kp (kp beyond kk, toward the trailing
 * part: below it for lower, above for upper) of the symmetric a whose
 * triangle `lower` names, within the part still to factorize; the block
 * of order 2 whose other row is k also moves its entry. */
static void interchange(cuemu_solver_value *a, int64_t n, int lower, int64_t k,
                        int64_t kk, int64_t kp) {
  if (lower) {
    for (int64_t i = kp + 1; i < n; ++i)
      swap(&AT(i, kk), &AT(i, kp));
    for (int64_t j = kk + 1; j < kp; ++j)
      swap(&AT(j, kk), &AT(kp, j));
  } else {
    for (int64_t i = 0; i < kp; ++i)
      swap(&AT(i, kk), &AT(i, kp));
    for (int64_t j = kp + 1; j < kk; ++j)
      swap(&AT(j, kk), &AT(kp, j));
  }
  swap(&AT(kk, kk), &AT(kp, kp));
  if (k != kk)
    swap(&AT(kk, k), &AT(kp, k));
}

/* The trailing rows of the step at column k: those after it (lower) or
 * before it (upper). */
#define TRAILING(i, lower, k, s)                                               \
  for (int64_t i = (lower) ? (k) + (s) : 0; (lower) ? i < n : i < (k); ++i)

/* Eliminates with the 1 x 1 pivot at k: the trailing part minus
 * d^-1 x x^T, x the column's trailing entries, which become x / d. */
static void eliminate_1(cuemu_solver_value *a, int64_t n, int lower,
                        int64_t k) {
  cuemu_solver_value r = 1 / AT(k, k);
  TRAILING(j, lower, k, 1) {
    cuemu_solver_value t = r * AT(j, k);
    TRAILING(i, lower, k, 1) {
      if (lower ? i >= j : i <= j)
        AT(i, j) -= AT(i, k) * t;
    }
  }
  TRAILING(i, lower, k, 1) { AT(i, k) *= r; }
}

/* Eliminates with the 2 x 2 pivot on rows p and q = p + 1: the trailing
 * part minus [x_p x_q] D^-1 [x_p x_q]^T, the block's columns becoming
 * [x_p x_q] D^-1. The columns are taken from the block outward, so that
 * each reads block entries not yet replaced. */
static void eliminate_2(cuemu_solver_value *a, int64_t n, int lower,
                        int64_t p) {
  int64_t q = p + 1;
  /* D = [d11 d21; d21 d22], its inverse from the scaled form LAPACK uses:
   * D^-1 = t / d21 [e22 -1; -1 e11] with e11 = d11 / d21,
   * e22 = d22 / d21, t = 1 / (e11 e22 - 1). */
  cuemu_solver_value d21 = lower ? AT(q, p) : AT(p, q);
  cuemu_solver_value e11 = AT(p, p) / d21, e22 = AT(q, q) / d21;
  cuemu_solver_value f = 1 / (e11 * e22 - 1) / d21;
  int64_t count = lower ? n - q - 1 : p;
  for (int64_t s = 0; s < count; ++s) {
    int64_t j = lower ? q + 1 + s : p - 1 - s;
    cuemu_solver_value wp = f * (e22 * AT(j, p) - AT(j, q));
    cuemu_solver_value wq = f * (e11 * AT(j, q) - AT(j, p));
    for (int64_t i = lower ? j : 0; lower ? i < n : i <= j; ++i)
      AT(i, j) -= AT(i, p) * wp + AT(i, q) * wq;
    AT(j, p) = wp;
    AT(j, q) = wq;
  }
}

/* Bunch-Kaufman on the n x n symmetric a (uplo's triangle); ipiv (NULL:
 * no pivoting) gets LAPACK's 1-based encoding. LAPACK's info: k when the
 * k-th column has no nonzero pivot (the factorization goes on). */
static int bunch_kaufman(cuemu_solver_value *a, int64_t n, int lower,
                         int64_t *ipiv) {
  const double alpha = (1 + sqrt(17.0)) / 8;
  int info = 0;
  /* k walks down (lower) or up (upper); `step` is its direction. */
  int64_t step = lower ? 1 : -1;
  for (int64_t k = lower ? 0 : n - 1; lower ? k < n : k >= 0;) {
    int64_t size = 1, kp = k;
    double absakk = cabs1(AT(k, k)), colmax = 0;
    int64_t imax = k;
    if (ipiv) /* without pivoting: the diagonal, 1 x 1, in order */
      TRAILING(i, lower, k, 1) {
        if (imax == k || cabs1(AT(i, k)) > colmax) {
          colmax = cabs1(AT(i, k));
          imax = i;
        }
      }
    if (!(absakk > 0 || colmax > 0)) {
      /* A zero column (or NaN): recorded, nothing eliminated. */
      if (!info)
        info = (int)(k + 1);
    } else {
      if (absakk < alpha * colmax) {
        /* The largest off-diagonal entry of row and column imax in the
         * part still to factorize. */
        double rowmax = 0;
        for (int64_t j = lower ? k : imax + 1; lower ? j < imax : j <= k; ++j)
          rowmax = fmax(rowmax, cabs1(AT(imax, j)));
        for (int64_t i = lower ? imax + 1 : 0; lower ? i < n : i < imax; ++i)
          rowmax = fmax(rowmax, cabs1(AT(i, imax)));
        if (absakk >= alpha * colmax * (colmax / rowmax))
          kp = k;
        else if (cabs1(AT(imax, imax)) >= alpha * rowmax)
          kp = imax;
        else {
          kp = imax;
          size = 2;
        }
      }
      int64_t kk = k + step * (size - 1);
      if (kp != kk)
        interchange(a, n, lower, k, kk, kp);
      if (size == 1)
        eliminate_1(a, n, lower, k);
      else
        eliminate_2(a, n, lower, lower ? k : k - 1);
    }
    if (ipiv) {
      ipiv[k] = size == 1 ? kp + 1 : -(kp + 1);
      if (size == 2)
        ipiv[k + step] = ipiv[k];
    }
    k += step * size;
  }
  return info;
}

/* ---- The solve
 * --------------------------------------------------------------
 */

static void swap_rows(cuemu_solver_value *b, int64_t n, int64_t nrhs, int64_t i,
                      int64_t j) {
  if (i != j)
    for (int64_t c = 0; c < nrhs; ++c)
      swap(&b[c * n + i], &b[c * n + j]);
}

/* B := A^-1 B (n x nrhs) with the factor a and its ipiv (NULL: none),
 * as LAPACK's sytrs: L D L^T X = P^T B (or U D U^T) by the blocks, then
 * back. */
static void ldl_solve(const cuemu_solver_value *a, int64_t n, int lower,
                      const int64_t *ipiv, cuemu_solver_value *b,
                      int64_t nrhs) {
  int64_t step = lower ? 1 : -1;
  /* Forward: (P L D) Y = B, block by block in the factorization's order. */
  for (int64_t k = lower ? 0 : n - 1; lower ? k < n : k >= 0;) {
    int64_t size = ipiv && ipiv[k] < 0 ? 2 : 1;
    int64_t p = lower ? k : k - size + 1, q = p + size - 1; /* the block */
    int64_t kk = k + step * (size - 1);
    swap_rows(b, n, nrhs, kk, ipiv ? llabs(ipiv[k]) - 1 : kk);
    for (int64_t c = 0; c < nrhs; ++c) {
      cuemu_solver_value *x = b + c * n;
      TRAILING(i, lower, p, size) {
        for (int64_t j = p; j <= q; ++j)
          x[i] -= AT(i, j) * x[j];
      }
      if (size == 1)
        x[k] /= AT(k, k);
      else {
        cuemu_solver_value d21 = lower ? AT(q, p) : AT(p, q);
        cuemu_solver_value e11 = AT(p, p) / d21, e22 = AT(q, q) / d21;
        cuemu_solver_value den = e11 * e22 - 1;
        cuemu_solver_value yp = x[p] / d21, yq = x[q] / d21;
        x[p] = (e22 * yp - yq) / den;
        x[q] = (e11 * yq - yp) / den;
      }
    }
    k += step * size;
  }
  /* Backward: (P L)^T X = Y, the blocks in the other order. */
  for (int64_t k = lower ? n - 1 : 0; lower ? k >= 0 : k < n;) {
    int64_t size = ipiv && ipiv[k] < 0 ? 2 : 1;
    int64_t p = lower ? k - size + 1 : k, q = p + size - 1;
    for (int64_t c = 0; c < nrhs; ++c) {
      cuemu_solver_value *x = b + c * n;
      for (int64_t j = p; j <= q; ++j) {
        TRAILING(i, lower, p, size) { x[j] -= AT(i, j) * x[i]; }
      }
    }
    /* The block's exchanged row: its last (lower) or first (upper). */
    int64_t kk = lower ? q : p;
    swap_rows(b, n, nrhs, kk, ipiv ? llabs(ipiv[k]) - 1 : kk);
    k -= step * size;
  }
}

/* ---- Runs in stream order
 * ------------------------------------------------
 */

static void run_sytrf(void *p) {
  cuemu_solver_call *c = p;
  int64_t n = c->n;
  cuemu_solver_value *a = cuemu__solver_get(c->a, c->type, n, n, c->lda);
  int64_t *ipiv = malloc((size_t)MAX1(n) * sizeof *ipiv);
  if (a && ipiv) {
    int lower = c->uplo == CUEMU_LOWER;
    /* The full symmetric matrix from uplo's triangle (no conjugate). */
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = j + 1; i < n; ++i) {
        if (lower)
          AT(j, i) = AT(i, j);
        else
          AT(i, j) = AT(j, i);
      }
    int info = bunch_kaufman(a, n, lower, c->pivots ? ipiv : NULL);
    cuemu__solver_put_triangle(c->a, c->type, n, c->lda, c->uplo, a);
    cuemu__solver_put_pivots(c, ipiv, n);
    if (c->info)
      cuemu__solver_info_set(c->info, 0, info);
  }
  free(a);
  free(ipiv);
}

/* sytri: A^-1 (symmetric) from the factor and its int pivots, solved for
 * column by column, over uplo's triangle; LAPACK's info: k when the 1 x 1
 * block of D at k is zero (the first met in the factorization's order),
 * nothing written then. */
static void run_sytri(void *p) {
  cuemu_solver_call *c = p;
  int64_t n = c->n;
  int lower = c->uplo == CUEMU_LOWER;
  cuemu_solver_value *a = cuemu__solver_get(c->a, c->type, n, n, c->lda);
  cuemu_solver_value *x = calloc((size_t)MAX1(n * n), sizeof *x);
  int64_t *ipiv = malloc((size_t)MAX1(n) * sizeof *ipiv);
  if (a && x && ipiv) {
    for (int64_t i = 0; c->pivots && i < n; ++i)
      ipiv[i] = ((const int *)c->pivots)[i];
    int info = 0;
    for (int64_t s = 0; s < n && !info; ++s) {
      int64_t k = lower ? s : n - 1 - s;
      if ((!c->pivots || ipiv[k] > 0) && AT(k, k) == 0)
        info = (int)(k + 1);
    }
    if (!info) {
      for (int64_t i = 0; i < n; ++i)
        x[i * n + i] = 1;
      ldl_solve(a, n, lower, c->pivots ? ipiv : NULL, x, n);
      cuemu__solver_put_triangle(c->a, c->type, n, c->lda, c->uplo, x);
    }
    if (c->info)
      cuemu__solver_info_set(c->info, 0, info);
  }
  free(a);
  free(x);
  free(ipiv);
}

static void run_sytrs(void *p) {
  cuemu_solver_call *c = p;
  int64_t n = c->n;
  cuemu_solver_value *a = cuemu__solver_get(c->a, c->type, n, n, c->lda);
  cuemu_solver_value *b = cuemu__solver_get(c->b, c->type, n, c->nrhs, c->ldb);
  if (a && b) {
    ldl_solve(a, n, c->uplo == CUEMU_LOWER, c->pivots, b, c->nrhs);
    cuemu__solver_put(c->b, c->type, n, c->nrhs, c->ldb, b);
    if (c->info)
      cuemu__solver_info_set(c->info, 0, 0);
  }
  free(a);
  free(b);
}

/* ---- Checks and calls
 * --------------------------------------------------------
 */

/* sytrf (run_sytrf) and sytri (run_sytri), which share their arguments. */
static cusolverStatus_t sytr(cusolverDnHandle_t h, cuemu_solver_type type,
                             void (*run)(void *), int uplo, int64_t n, void *a,
                             int64_t lda, const int *ipiv, int *info) {
  cusolverStatus_t st = cuemu__solver_check_triangle(h, uplo, n, lda, info);
  if (st != CUSOLVER_STATUS_SUCCESS)
    return st;
  const char *name = run == run_sytri ? "cusolverDn?sytri" : "cusolverDn?sytrf";
  if (!cuemu__solver_check(
          name, "A", a,
          cuemu__solver_span(n, n, lda, cuemu__solver_size(type))) ||
      (ipiv &&
       !cuemu__solver_check(name, "devIpiv", ipiv, (size_t)n * sizeof(int))) ||
      (info && !cuemu__solver_check(name, "devInfo", info, sizeof(int))))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {.type = type,
                         .uplo = uplo,
                         .n = n,
                         .a = a,
                         .lda = lda,
                         .pivots = (void *)ipiv,
                         .info = info};
  return cuemu__solver_enqueue(h, run, &c);
}

#define INDEFINITE_API(P, T)                                                   \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##sytrf_bufferSize(        \
      cusolverDnHandle_t h, int n, void *a, int lda, int *lwork) {             \
    (void)a;                                                                   \
    return cuemu__solver_work_size(h, n < 0 || lda < MAX1(n), lwork);          \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##sytrf(                   \
      cusolverDnHandle_t h, int uplo, int n, void *a, int lda, int *ipiv,      \
      void *work, int lwork, int *info) {                                      \
    (void)work, (void)lwork;                                                   \
    return sytr(h, T, run_sytrf, uplo, n, a, lda, ipiv, info);                 \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##sytri_bufferSize(        \
      cusolverDnHandle_t h, int uplo, int n, void *a, int lda,                 \
      const int *ipiv, int *lwork) {                                           \
    (void)uplo, (void)a, (void)ipiv;                                           \
    return cuemu__solver_work_size(h, n < 0 || lda < MAX1(n), lwork);          \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##sytri(                   \
      cusolverDnHandle_t h, int uplo, int n, void *a, int lda,                 \
      const int *ipiv, void *work, int lwork, int *info) {                     \
    (void)work, (void)lwork;                                                   \
    return sytr(h, T, run_sytri, uplo, n, a, lda, ipiv, info);                 \
  }

INDEFINITE_API(S, CUEMU_SOLVER_S)
INDEFINITE_API(D, CUEMU_SOLVER_D)
INDEFINITE_API(C, CUEMU_SOLVER_C)
INDEFINITE_API(Z, CUEMU_SOLVER_Z)

/* ---- The 64-bit generic API's solve
 * --------------------------------------------------
 */

/* A's element type when B's is the same; -1 otherwise. */
static int sytrs_type(int type_a, int type_b) {
  return type_a == type_b ? cuemu__solver_from_data_type(type_a) : -1;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXsytrs_bufferSize(
    cusolverDnHandle_t h, int uplo, int64_t n, int64_t nrhs, int type_a,
    const void *a, int64_t lda, const int64_t *ipiv, int type_b, void *b,
    int64_t ldb, size_t *device, size_t *host) {
  (void)uplo, (void)a, (void)ipiv, (void)b, (void)ldb;
  if (h && (n < 0 || nrhs < 0 || lda < MAX1(n)))
    return CUSOLVER_STATUS_INVALID_VALUE;
  return cuemu__solver_generic_size(h, "cusolverDnXsytrs_bufferSize",
                                    sytrs_type(type_a, type_b), device, host);
}

/* Its arguments are counted for info as LAPACK's sytrs counts them (uplo
 * 1, n 2, nrhs 3, A 4, lda 5, ipiv 6, B 7, ldb 8). */
CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXsytrs(
    cusolverDnHandle_t h, int uplo, int64_t n, int64_t nrhs, int type_a,
    const void *a, int64_t lda, const int64_t *ipiv, int type_b, void *b,
    int64_t ldb, void *device_buffer, size_t device_bytes, void *host_buffer,
    size_t host_bytes, int *info) {
  (void)device_buffer, (void)device_bytes, (void)host_buffer, (void)host_bytes;
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  int t = sytrs_type(type_a, type_b);
  if (t < 0)
    return cuemu__solver_unsupported("cusolverDnXsytrs");
  if (uplo != CUEMU_LOWER && uplo != CUEMU_UPPER)
    return cuemu__solver_bad_argument(h, info, 1);
  if (n < 0)
    return cuemu__solver_bad_argument(h, info, 2);
  if (nrhs < 0)
    return cuemu__solver_bad_argument(h, info, 3);
  if (lda < MAX1(n))
    return cuemu__solver_bad_argument(h, info, 5);
  if (ldb < MAX1(n))
    return cuemu__solver_bad_argument(h, info, 8);
  const char *name = "cusolverDnXsytrs";
  size_t e = cuemu__solver_size(t);
  if (!cuemu__solver_check(name, "A", a, cuemu__solver_span(n, n, lda, e)) ||
      (ipiv &&
       !cuemu__solver_check(name, "ipiv", ipiv, (size_t)n * sizeof(int64_t))) ||
      !cuemu__solver_check(name, "B", b, cuemu__solver_span(n, nrhs, ldb, e)) ||
      (info && !cuemu__solver_check(name, "devInfo", info, sizeof(int))))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {.type = t,
                         .uplo = uplo,
                         .n = n,
                         .nrhs = nrhs,
                         .a = (void *)a,
                         .lda = lda,
                         .b = b,
                         .ldb = ldb,
                         .pivots = (void *)ipiv,
                         .ipiv64 = 1,
                         .info = info};
  return cuemu__solver_enqueue(h, run_sytrs, &c);
}
