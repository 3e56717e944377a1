/*
 * cuemu_blas_legacy.c: the legacy API of cuBLAS (cublas.h): cublasInit
 * and cublasShutdown (the one handle the legacy functions compute with, in
 * host pointer mode, on the stream cublasSetKernelStream names),
 * cublasGetError (the last status a legacy function met, cleared as it is
 * read), cublasAlloc and cublasFree, and the conversion of the legacy
 * functions' character arguments ('N', 't', 'U', ...). The legacy forms of
 * the routines themselves stand beside their v2 forms, from the same
 * tables (CUEMU_BLAS_LEGACY).
 */
#include <stdatomic.h>

#include <cuemu/cuemu_runtime.h>

#include "cuemu_blas.h"

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t h);
cublasStatus_t cublasSetStream_v2(cublasHandle_t h, void *stream);

static _Atomic(cublasHandle_t) legacy_handle;
static atomic_int last_error;

cublasHandle_t cuemu__blas_legacy_handle(void) {
  return atomic_load(&legacy_handle);
}

void cuemu__blas_legacy_status(cublasStatus_t status) {
  if (status != CUBLAS_STATUS_SUCCESS)
    atomic_store(&last_error, (int)status);
}

int cuemu__blas_legacy_op(char c) {
  return c == 'N' || c == 'n'   ? CUBLAS_OP_N
         : c == 'T' || c == 't' ? CUBLAS_OP_T
         : c == 'C' || c == 'c' ? CUBLAS_OP_C
                                : -1;
}

int cuemu__blas_legacy_fill(char c) {
  return c == 'U' || c == 'u'   ? CUBLAS_FILL_MODE_UPPER
         : c == 'L' || c == 'l' ? CUBLAS_FILL_MODE_LOWER
                                : -1;
}

int cuemu__blas_legacy_diag(char c) {
  return c == 'U' || c == 'u'   ? CUBLAS_DIAG_UNIT
         : c == 'N' || c == 'n' ? CUBLAS_DIAG_NON_UNIT
                                : -1;
}

int cuemu__blas_legacy_side(char c) {
  return c == 'L' || c == 'l'   ? CUBLAS_SIDE_LEFT
         : c == 'R' || c == 'r' ? CUBLAS_SIDE_RIGHT
                                : -1;
}

/* cublasInit: creates the legacy handle (once; a second call keeps it). */
CUEMU_BLAS_EXPORT cublasStatus_t cublasInit(void) {
  if (atomic_load(&legacy_handle))
    return CUBLAS_STATUS_SUCCESS;
  cublasHandle_t h;
  cublasStatus_t s = cublasCreate_v2(&h);
  if (s != CUBLAS_STATUS_SUCCESS)
    return s;
  cublasHandle_t none = NULL;
  if (!atomic_compare_exchange_strong(&legacy_handle, &none, h))
    cublasDestroy_v2(h);
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasShutdown(void) {
  cublasHandle_t h = atomic_exchange(&legacy_handle, NULL);
  return h ? cublasDestroy_v2(h) : CUBLAS_STATUS_NOT_INITIALIZED;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasGetError(void) {
  return (cublasStatus_t)atomic_exchange(&last_error, CUBLAS_STATUS_SUCCESS);
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasSetKernelStream(void *stream) {
  cublasHandle_t h = atomic_load(&legacy_handle);
  return h ? cublasSetStream_v2(h, stream) : CUBLAS_STATUS_NOT_INITIALIZED;
}

/* The legacy cublasGetVersion, without a handle (cublas_v2.h maps the name
 * onto cublasGetVersion_v2). */
CUEMU_BLAS_EXPORT cublasStatus_t cublasGetVersion(int *version) {
  if (!version)
    return CUBLAS_STATUS_INVALID_VALUE;
  *version = CUEMU_BLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}

/* cublasAlloc and cublasFree: device memory (cudaMalloc, cudaFree). */
CUEMU_BLAS_EXPORT cublasStatus_t cublasAlloc(int n, int elem, void **ptr) {
  if (!atomic_load(&legacy_handle))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0 || elem <= 0 || !ptr)
    return CUBLAS_STATUS_INVALID_VALUE;
  return cuemu_rt_malloc(ptr, (size_t)n * (size_t)elem) == 0
             ? CUBLAS_STATUS_SUCCESS
             : CUBLAS_STATUS_ALLOC_FAILED;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasFree(void *ptr) {
  if (!atomic_load(&legacy_handle))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  return cuemu_rt_free(ptr) == 0 ? CUBLAS_STATUS_SUCCESS
                                 : CUBLAS_STATUS_INTERNAL_ERROR;
}
