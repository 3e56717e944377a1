/*
 * cuemu_solver_batched.c: cuSOLVER's batched Cholesky factorization and
 * solve, S/D/C/Z (potrfBatched, potrsBatched): the matrices are named by a
 * device array of device pointers, read when the work runs in the handle's
 * stream order; each matrix is factored or solved as potrf and potrs
 * (cuemu_solver_factor.c).
 */
#include <stdlib.h>

#include "cuemu_solver.h"

#define MAX1(x) ((x) > 1 ? (x) : 1)

/* In a batched call: `a` (and `b`) are the device arrays of the matrices'
 * pointers, `k` the batch size; potrfBatched's info has one element per
 * matrix, potrsBatched's one. */

static void run_potrf_batched(void *p) {
  cuemu_solver_call *c = p;
  void *const *array = c->a;
  for (int64_t k = 0; k < c->k; ++k) {
    cuemu_solver_value *a =
        cuemu__solver_get(array[k], c->type, c->n, c->n, c->lda);
    if (!a)
      return;
    int info = cuemu__solver_cholesky(a, c->n, c->uplo);
    cuemu__solver_put_triangle(array[k], c->type, c->n, c->lda, c->uplo, a);
    cuemu__solver_info_set(c->info, k, info);
    free(a);
  }
}

static void run_potrs_batched(void *p) {
  cuemu_solver_call *c = p;
  void *const *fa = c->a, *const *fb = c->b;
  for (int64_t k = 0; k < c->k; ++k) {
    cuemu_solver_value *a = cuemu__solver_get(fa[k], c->type, c->n, c->n, c->lda);
    cuemu_solver_value *b =
        cuemu__solver_get(fb[k], c->type, c->n, c->nrhs, c->ldb);
    if (a && b) {
      cuemu__solver_cholesky_solve(a, c->n, c->uplo, b, c->nrhs);
      cuemu__solver_put(fb[k], c->type, c->n, c->nrhs, c->ldb, b);
    }
    free(a);
    free(b);
  }
  cuemu__solver_info_set(c->info, 0, 0);
}

/* potrfBatched and potrsBatched (solve): arguments counted after the
 * handle, as LAPACK's info. */
static cusolverStatus_t potr_batched(cusolverDnHandle_t h,
                                     cuemu_solver_type type, int solve, int uplo,
                                     int64_t n, int64_t nrhs, void *a,
                                     int64_t lda, void *b, int64_t ldb,
                                     int *info, int64_t batch) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  const char *name = solve ? "cusolverDn?potrsBatched" : "cusolverDn?potrfBatched";
  if (uplo != CUEMU_LOWER && uplo != CUEMU_UPPER)
    return cuemu__solver_bad_argument(h, info, 1);
  if (n < 0)
    return cuemu__solver_bad_argument(h, info, 2);
  /* potrsBatched takes one right-hand side, as cuSOLVER's. */
  if (solve && nrhs != 1)
    return cuemu__solver_bad_argument(h, info, 3);
  if (lda < MAX1(n))
    return cuemu__solver_bad_argument(h, info, solve ? 5 : 4);
  if (solve && ldb < MAX1(n))
    return cuemu__solver_bad_argument(h, info, 7);
  if (batch < 0)
    return cuemu__solver_bad_argument(h, info, solve ? 9 : 6);
  if (!cuemu__solver_check(name, "Aarray", a, (size_t)batch * sizeof(void *)) ||
      (solve &&
       !cuemu__solver_check(name, "Barray", b, (size_t)batch * sizeof(void *))) ||
      !cuemu__solver_check(name, "info", info,
                           (size_t)(solve ? 1 : batch) * sizeof(int)))
    return CUSOLVER_STATUS_SUCCESS;
  cuemu_solver_call c = {.type = type,
                         .uplo = uplo,
                         .n = n,
                         .nrhs = nrhs,
                         .k = batch,
                         .a = a,
                         .lda = lda,
                         .b = b,
                         .ldb = ldb,
                         .info = info};
  return cuemu__solver_enqueue(h, solve ? run_potrs_batched : run_potrf_batched,
                               &c);
}

#define BATCHED_API(P, T)                                                      \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##potrfBatched(            \
      cusolverDnHandle_t h, int uplo, int n, void *a[], int lda, int *info,    \
      int batch) {                                                             \
    return potr_batched(h, T, 0, uplo, n, 0, a, lda, NULL, 0, info, batch);       \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##potrsBatched(            \
      cusolverDnHandle_t h, int uplo, int n, int nrhs, void *a[], int lda,     \
      void *b[], int ldb, int *info, int batch) {                              \
    return potr_batched(h, T, 1, uplo, n, nrhs, a, lda, b, ldb, info, batch);  \
  }

BATCHED_API(S, CUEMU_SOLVER_S)
BATCHED_API(D, CUEMU_SOLVER_D)
BATCHED_API(C, CUEMU_SOLVER_C)
BATCHED_API(Z, CUEMU_SOLVER_Z)
