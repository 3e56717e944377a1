/*
 * cuemu_blas_lt_library.c: cuBLASLt's library-wide calls: the status names
 * and strings (cuBLAS's), the library's properties and the CUDA runtime
 * version it was built for, the logger (accepted; cuemu logs nothing), the
 * capacity of the heuristics cache (kept: cuemu's one heuristic needs no
 * cache). (cublasLtDisableCpuInstructionsSetMask, which cublasLt.h
 * declares, is not in NVIDIA's libcublasLt.so either.)
 */
#include <stdio.h>

#include <stdatomic.h>

#include "cuemu_blas.h"

extern const char *cublasGetStatusName(cublasStatus_t status);
extern const char *cublasGetStatusString(cublasStatus_t status);
extern cublasStatus_t cublasGetProperty(int type, int *value);
extern size_t cublasGetCudartVersion(void);

CUEMU_BLAS_EXPORT const char *cublasLtGetStatusName(cublasStatus_t status) {
  return cublasGetStatusName(status);
}

CUEMU_BLAS_EXPORT const char *cublasLtGetStatusString(cublasStatus_t status) {
  return cublasGetStatusString(status);
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtGetProperty(int type, int *value) {
  return cublasGetProperty(type, value);
}

CUEMU_BLAS_EXPORT size_t cublasLtGetCudartVersion(void) {
  return cublasGetCudartVersion();
}

/* ---- The logger: accepted, nothing logged --------------------------------- */

CUEMU_BLAS_EXPORT cublasStatus_t
cublasLtLoggerSetCallback(void (*callback)(int, const char *, const char *)) {
  (void)callback;
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtLoggerSetFile(FILE *file) {
  (void)file;
  return CUBLAS_STATUS_SUCCESS;
}

/* cuBLASLt creates the file; so does cuemu, which writes nothing to it. */
CUEMU_BLAS_EXPORT cublasStatus_t cublasLtLoggerOpenFile(const char *path) {
  FILE *f = path ? fopen(path, "a") : NULL;
  if (!f)
    return CUBLAS_STATUS_INVALID_VALUE;
  fclose(f);
  return CUBLAS_STATUS_SUCCESS;
}

/* Levels 0 (off) to 5 (API trace), as cuBLASLt documents them. */
CUEMU_BLAS_EXPORT cublasStatus_t cublasLtLoggerSetLevel(int level) {
  return level >= 0 && level <= 5 ? CUBLAS_STATUS_SUCCESS
                                  : CUBLAS_STATUS_INVALID_VALUE;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtLoggerSetMask(int mask) {
  (void)mask;
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtLoggerForceDisable(void) {
  return CUBLAS_STATUS_SUCCESS;
}

/* ---- Settings kept ---------------------------------------------------------- */

/* The heuristics cache's capacity (cuBLASLt's default, 8192 entries). */
static _Atomic size_t heuristics_capacity = 8192;

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtHeuristicsCacheGetCapacity(
    size_t *capacity) {
  if (!capacity)
    return CUBLAS_STATUS_INVALID_VALUE;
  *capacity = atomic_load(&heuristics_capacity);
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtHeuristicsCacheSetCapacity(
    size_t capacity) {
  atomic_store(&heuristics_capacity, capacity);
  return CUBLAS_STATUS_SUCCESS;
}
