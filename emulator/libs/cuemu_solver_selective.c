/*
 * cuemu_solver_selective.c: cuSOLVER's selective eigen-solvers, S/D/C/Z
 * and the 64-bit generic API: syevdx/heevdx, sygvdx/hegvdx and Xsyevdx
 * (with their buffer sizes). Each is its full solver (syevd's and sygvd's
 * paths, cuemu_solver_orthogonal.c and cuemu_solver_generalized.c) keeping
 * part of the ascending eigenvalues: all of them, the il-th to the iu-th,
 * or those in (vl, vu]; their count goes to meig, a host variable, so the
 * call waits for its stream.
 */
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime_streams.h>

#include "cuemu_solver.h"

#define MAX1(x) ((x) > 1 ? (x) : 1)

/* ---- The range
 * --------------------------------------------------------------
 */

int cuemu__solver_range_bad(const cuemu_solver_range *r, int64_t n) {
  switch (r->range) {
  case CUEMU_RANGE_ALL:
    return 0;
  case CUEMU_RANGE_V:
    /* Written so that a NaN bound is refused too. */
    return n > 0 && !(r->vl < r->vu) ? 2 : 0;
  case CUEMU_RANGE_I:
    if (r->il < 1 || r->il > MAX1(n))
      return 3;
    return r->iu < (n < r->il ? n : r->il) || r->iu > n ? 4 : 0;
  }
  return 1;
}

void cuemu__solver_range_count(const cuemu_solver_range *r, int64_t m) {
  if (!r->range)
    return;
  if (r->meig64)
    *(int64_t *)r->meig = m;
  else
    *(int *)r->meig = (int)m;
}

int64_t cuemu__solver_range_keep(const cuemu_solver_range *r, double *w,
                                 int64_t n, int64_t *first) {
  int64_t m = n;
  *first = 0;
  if (r->range == CUEMU_RANGE_I) {
    *first = n > 0 ? r->il - 1 : 0;
    m = n > 0 ? r->iu - r->il + 1 : 0;
  } else if (r->range == CUEMU_RANGE_V) {
    /* w ascends: those <= vl, then those in (vl, vu]. */
    while (*first < n && w[*first] <= r->vl)
      ++*first;
    for (m = 0; *first + m < n && w[*first + m] <= r->vu; ++m)
      ;
  }
  memmove(w, w + *first, (size_t)m * sizeof *w);
  cuemu__solver_range_count(r, m);
  return m;
}

cusolverStatus_t cuemu__solver_range_enqueue(cusolverDnHandle_t h,
                                             void (*run)(void *call),
                                             const cuemu_solver_call *call) {
  cusolverStatus_t s = cuemu__solver_enqueue(h, run, call);
  if (s == CUSOLVER_STATUS_SUCCESS && call->select.range &&
      cuemu_rt_stream_synchronize(h->stream))
    s = CUSOLVER_STATUS_EXECUTION_FAILED;
  return s;
}

/* ---- The S, D, C and Z entry points
 * --------------------------------------------
 */

/* P the prefix, T the type, R the real type of vl and vu, SY "sy"/"he". */
#define SELECTIVE_API(P, T, R, SY)                                             \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##SY##evdx_bufferSize(     \
      cusolverDnHandle_t h, int jobz, int range, int uplo, int n,              \
      const void *a, int lda, R vl, R vu, int il, int iu, int *meig,           \
      const void *w, int *lwork) {                                             \
    (void)jobz, (void)range, (void)uplo, (void)a, (void)vl, (void)vu,          \
        (void)il, (void)iu, (void)meig, (void)w;                               \
    return cuemu__solver_work_size(h, n < 0 || lda < MAX1(n), lwork);          \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##SY##evdx(                \
      cusolverDnHandle_t h, int jobz, int range, int uplo, int n, void *a,     \
      int lda, R vl, R vu, int il, int iu, int *meig, void *w, void *work,     \
      int lwork, int *info) {                                                  \
    (void)work, (void)lwork;                                                   \
    cuemu_solver_range r = {range, vl, vu, il, iu, meig, 0};                   \
    return cuemu__solver_syevd(h, T, jobz, uplo, n, a, lda, w, info, NULL, 0,  \
                               &r);                                            \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##SY##gvdx_bufferSize(     \
      cusolverDnHandle_t h, int itype, int jobz, int range, int uplo, int n,   \
      const void *a, int lda, const void *b, int ldb, R vl, R vu, int il,      \
      int iu, int *meig, const void *w, int *lwork) {                          \
    (void)itype, (void)jobz, (void)range, (void)uplo, (void)a, (void)b,        \
        (void)vl, (void)vu, (void)il, (void)iu, (void)meig, (void)w;           \
    return cuemu__solver_work_size(h, n < 0 || lda < MAX1(n) || ldb < MAX1(n), \
                                   lwork);                                     \
  }                                                                            \
  CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDn##P##SY##gvdx(                \
      cusolverDnHandle_t h, int itype, int jobz, int range, int uplo, int n,   \
      void *a, int lda, void *b, int ldb, R vl, R vu, int il, int iu,          \
      int *meig, void *w, void *work, int lwork, int *info) {                  \
    (void)work, (void)lwork;                                                   \
    cuemu_solver_range r = {range, vl, vu, il, iu, meig, 0};                   \
    return cuemu__solver_sygv(h, T, itype, jobz, uplo, n, a, lda, b, ldb, w,   \
                              info, NULL, &r);                                 \
  }

SELECTIVE_API(S, CUEMU_SOLVER_S, float, sy)
SELECTIVE_API(D, CUEMU_SOLVER_D, double, sy)
SELECTIVE_API(C, CUEMU_SOLVER_C, float, he)
SELECTIVE_API(Z, CUEMU_SOLVER_Z, double, he)

/* ---- The 64-bit generic API
 * ------------------------------------------------------
 */

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXsyevdx_bufferSize(
    cusolverDnHandle_t h, cusolverDnParams_t params, int jobz, int range,
    int uplo, int64_t n, int type_a, const void *a, int64_t lda, void *vl,
    void *vu, int64_t il, int64_t iu, int64_t *meig, int type_w, const void *w,
    int compute, size_t *device, size_t *host) {
  (void)params, (void)jobz, (void)range, (void)uplo, (void)a, (void)vl,
      (void)vu, (void)il, (void)iu, (void)meig, (void)w;
  if (h && (n < 0 || lda < MAX1(n)))
    return CUSOLVER_STATUS_INVALID_VALUE;
  return cuemu__solver_generic_size(
      h, "cusolverDnXsyevdx_bufferSize",
      cuemu__solver_spectral_type(type_a, type_w, compute), device, host);
}

/* vl and vu point to host values of W's type, read for
 * CUSOLVER_EIG_RANGE_V only. */
CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnXsyevdx(
    cusolverDnHandle_t h, cusolverDnParams_t params, int jobz, int range,
    int uplo, int64_t n, int type_a, void *a, int64_t lda, void *vl, void *vu,
    int64_t il, int64_t iu, int64_t *meig, int type_w, void *w, int compute,
    void *device_buffer, size_t device_bytes, void *host_buffer,
    size_t host_bytes, int *info) {
  (void)params, (void)device_buffer, (void)device_bytes, (void)host_buffer,
      (void)host_bytes;
  int t = cuemu__solver_spectral_type(type_a, type_w, compute);
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (t < 0)
    return cuemu__solver_unsupported("cusolverDnXsyevdx");
  cuemu_solver_range r = {range, 0, 0, il, iu, meig, 1};
  if (range == CUEMU_RANGE_V) {
    if (!vl || !vu)
      return cuemu__solver_bad_argument(h, info, vl ? 8 : 7);
    int single = cuemu__solver_real_size(t) == 4;
    r.vl = single ? *(const float *)vl : *(const double *)vl;
    r.vu = single ? *(const float *)vu : *(const double *)vu;
  }
  return cuemu__solver_syevd(h, t, jobz, uplo, n, a, lda, w, info, NULL, 0, &r);
}
