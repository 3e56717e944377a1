/*
 * cuemu_blas_xt.c: the cuBLASXt API (cublasXt.h): cuBLAS's level-3
 * routines on matrices in host memory or on any device, blocking, for
 * S, D, C and Z: gemm, symm, hemm, syrk, herk, syr2k, her2k, syrkx, herkx,
 * trsm, trmm and spmm, with the handle's calls (cublasXtCreate,
 * cublasXtDestroy, cublasXtDeviceSelect, the block size, the pinning mode,
 * the CPU routine and ratio, the board counts).
 *
 * A GPU's cuBLASXt splits the result into tiles of the block size and
 * computes them on the selected devices. cuemu's devices share the host's
 * memory, so each routine is one call of the cuBLAS routine of the same
 * name on the Xt handle's own cuBLAS handle, with its operands taken as
 * device memory wherever they are (cuemu__libs_host_operands), and a wait
 * for it: the call returns with the result in place, as cuBLASXt's. The
 * results are those of cuemu's cuBLAS, tiles or not. The hybrid CPU
 * routine (cublasXtSetCpuRoutine, cublasXtSetCpuRatio) is kept and not
 * called: the devices compute the whole result, as cuBLASXt does whenever
 * a matrix lies on a device. spmm (a symmetric matrix in packed storage)
 * unpacks the matrix and calls symm.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "cuemu_blas.h"

#define E CUEMU_BLAS_EXPORT

/* cublasXtPinnedMemMode_t, cublasXtOpType_t, cublasXtBlasOp_t */
enum { XT_PINNING_DISABLED = 0, XT_PINNING_ENABLED = 1 };
enum { XT_TYPES = 4, XT_ROUTINES = 12 };

typedef struct cuemu_blas_xt {
  cublasHandle_t blas;
  int devices[64];
  int ndevices;
  int block_dim;
  int pinning;
  void *cpu_routine[XT_ROUTINES][XT_TYPES];
  float cpu_ratio[XT_ROUTINES][XT_TYPES];
} * cublasXtHandle_t;

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);

E cublasStatus_t cublasXtCreate(cublasXtHandle_t *handle) {
  if (!handle)
    return CUBLAS_STATUS_INVALID_VALUE;
  cublasXtHandle_t xt = calloc(1, sizeof *xt);
  if (!xt)
    return CUBLAS_STATUS_ALLOC_FAILED;
  cublasStatus_t st = cublasCreate_v2(&xt->blas);
  if (st != CUBLAS_STATUS_SUCCESS) {
    free(xt);
    return st;
  }
  /* Until cublasXtDeviceSelect: the device current at the creation. */
  xt->devices[0] = xt->blas->device, xt->ndevices = 1;
  xt->block_dim = 1024; /* cuBLASXt's default block size */
  xt->pinning = XT_PINNING_DISABLED;
  *handle = xt;
  return CUBLAS_STATUS_SUCCESS;
}

E cublasStatus_t cublasXtDestroy(cublasXtHandle_t xt) {
  if (!xt)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  cublasStatus_t st = cublasDestroy_v2(xt->blas);
  free(xt);
  return st;
}

/* The devices that compute: each must exist, none twice. */
E cublasStatus_t cublasXtDeviceSelect(cublasXtHandle_t xt, int n,
                                      int devices[]) {
  if (!xt)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  int count = 0;
  if (n < 1 || n > (int)(sizeof xt->devices / sizeof *xt->devices) ||
      !devices || cuemu_rt_get_device_count(&count) != 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  for (int i = 0; i < n; ++i) {
    if (devices[i] < 0 || devices[i] >= count)
      return CUBLAS_STATUS_INVALID_VALUE;
    for (int j = 0; j < i; ++j)
      if (devices[j] == devices[i])
        return CUBLAS_STATUS_INVALID_VALUE;
  }
  memcpy(xt->devices, devices, (size_t)n * sizeof *devices);
  xt->ndevices = n;
  return CUBLAS_STATUS_SUCCESS;
}

E cublasStatus_t cublasXtSetBlockDim(cublasXtHandle_t xt, int block_dim) {
  if (!xt)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (block_dim < 1)
    return CUBLAS_STATUS_INVALID_VALUE;
  xt->block_dim = block_dim;
  return CUBLAS_STATUS_SUCCESS;
}

E cublasStatus_t cublasXtGetBlockDim(cublasXtHandle_t xt, int *block_dim) {
  if (!xt)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!block_dim)
    return CUBLAS_STATUS_INVALID_VALUE;
  *block_dim = xt->block_dim;
  return CUBLAS_STATUS_SUCCESS;
}

E cublasStatus_t cublasXtSetPinningMemMode(cublasXtHandle_t xt, int mode) {
  if (!xt)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode != XT_PINNING_DISABLED && mode != XT_PINNING_ENABLED)
    return CUBLAS_STATUS_INVALID_VALUE;
  xt->pinning = mode;
  return CUBLAS_STATUS_SUCCESS;
}

E cublasStatus_t cublasXtGetPinningMemMode(cublasXtHandle_t xt, int *mode) {
  if (!xt)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!mode)
    return CUBLAS_STATUS_INVALID_VALUE;
  *mode = xt->pinning;
  return CUBLAS_STATUS_SUCCESS;
}

/* The hybrid CPU computation: kept, not called (the file's comment). As
 * cuBLASXt's, only gemm takes it. */
static cublasStatus_t cpu_slot(cublasXtHandle_t xt, int op, int type) {
  if (!xt)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (op < 0 || op >= XT_ROUTINES || type < 0 || type >= XT_TYPES)
    return CUBLAS_STATUS_INVALID_VALUE;
  return op == 0 /* CUBLASXT_GEMM */ ? CUBLAS_STATUS_SUCCESS
                                     : CUBLAS_STATUS_NOT_SUPPORTED;
}

E cublasStatus_t cublasXtSetCpuRoutine(cublasXtHandle_t xt, int op, int type,
                                       void *routine) {
  cublasStatus_t st = cpu_slot(xt, op, type);
  if (st == CUBLAS_STATUS_SUCCESS)
    xt->cpu_routine[op][type] = routine;
  return st;
}

E cublasStatus_t cublasXtSetCpuRatio(cublasXtHandle_t xt, int op, int type,
                                     float ratio) {
  cublasStatus_t st = cpu_slot(xt, op, type);
  if (st == CUBLAS_STATUS_SUCCESS && (ratio < 0 || ratio > 1))
    st = CUBLAS_STATUS_INVALID_VALUE;
  if (st == CUBLAS_STATUS_SUCCESS)
    xt->cpu_ratio[op][type] = ratio;
  return st;
}

/* Each GPU is a board of its own. */
E cublasStatus_t cublasXtGetNumBoards(int n, int devices[], int *boards) {
  if (n < 0 || (n > 0 && !devices) || !boards)
    return CUBLAS_STATUS_INVALID_VALUE;
  *boards = n;
  return CUBLAS_STATUS_SUCCESS;
}

E cublasStatus_t cublasXtMaxBoards(int *boards) {
  int count = 0;
  if (!boards)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (cuemu_rt_get_device_count(&count) != 0)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  *boards = count;
  return CUBLAS_STATUS_SUCCESS;
}

/* ---- The routines ---------------------------------------------------------
 */

/* Before a routine: its operands are device memory wherever they are. */
static cublasStatus_t xt_begin(cublasXtHandle_t xt) {
  if (!xt)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  cuemu__libs_host_operands(1);
  return CUBLAS_STATUS_SUCCESS;
}

/* After it: waits for the work it enqueued (cuBLASXt's calls block). */
static cublasStatus_t xt_end(cublasXtHandle_t xt, cublasStatus_t st) {
  cuemu__libs_host_operands(0);
  if (st == CUBLAS_STATUS_SUCCESS &&
      cuemu_rt_stream_synchronize(xt->blas->stream) != 0)
    st = CUBLAS_STATUS_EXECUTION_FAILED;
  return st;
}

/* A routine: the cuBLAS call `call`, with the operands taken as device
 * memory while it is made, then its wait. */
#define XT_CALL(xt, call)                                                      \
  (xt_begin(xt) != CUBLAS_STATUS_SUCCESS ? CUBLAS_STATUS_NOT_INITIALIZED       \
                                         : xt_end(xt, call))

/* cuBLASXt's sizes are size_t; cuBLAS's 64-bit interface takes int64_t. */
#define SZ(v) ((int64_t)(v))

/* X(L, T, TYPE, R, RTYPE): the cuBLAS routines each type's routines call
 * (cuemu_blas_gemm_api.c, cuemu_blas_level3.c), and the Xt routines. */
#define XT_CUBLAS(L, T, TYPE, R, RTYPE, ...)                                   \
  cublasStatus_t cublas##L##gemm_v2_64(                                        \
      cublasHandle_t, int, int, int64_t, int64_t, int64_t, const T *,          \
      const T *, int64_t, const T *, int64_t, const T *, T *, int64_t);        \
  cublasStatus_t cublas##L##symm_v2_64(                                        \
      cublasHandle_t, int, int, int64_t, int64_t, const T *, const T *,        \
      int64_t, const T *, int64_t, const T *, T *, int64_t);                   \
  cublasStatus_t cublas##L##syrk_v2_64(cublasHandle_t, int, int, int64_t,      \
                                       int64_t, const T *, const T *, int64_t, \
                                       const T *, T *, int64_t);               \
  cublasStatus_t cublas##L##syr2k_v2_64(                                       \
      cublasHandle_t, int, int, int64_t, int64_t, const T *, const T *,        \
      int64_t, const T *, int64_t, const T *, T *, int64_t);                   \
  cublasStatus_t cublas##L##syrkx_64(                                          \
      cublasHandle_t, int, int, int64_t, int64_t, const T *, const T *,        \
      int64_t, const T *, int64_t, const T *, T *, int64_t);                   \
  cublasStatus_t cublas##L##trsm_v2_64(cublasHandle_t, int, int, int, int,     \
                                       int64_t, int64_t, const T *, const T *, \
                                       int64_t, T *, int64_t);                 \
  cublasStatus_t cublas##L##trmm_v2_64(                                        \
      cublasHandle_t, int, int, int, int, int64_t, int64_t, const T *,         \
      const T *, int64_t, const T *, int64_t, T *, int64_t);                   \
                                                                               \
  E cublasStatus_t cublasXt##L##gemm(                                          \
      cublasXtHandle_t xt, int transa, int transb, size_t m, size_t n,         \
      size_t k, const T *alpha, const T *A, size_t lda, const T *B,            \
      size_t ldb, const T *beta, T *C, size_t ldc) {                           \
    return XT_CALL(xt, cublas##L##gemm_v2_64(xt->blas, transa, transb, SZ(m),  \
                                             SZ(n), SZ(k), alpha, A, SZ(lda),  \
                                             B, SZ(ldb), beta, C, SZ(ldc)));   \
  }                                                                            \
  E cublasStatus_t cublasXt##L##symm(                                          \
      cublasXtHandle_t xt, int side, int uplo, size_t m, size_t n,             \
      const T *alpha, const T *A, size_t lda, const T *B, size_t ldb,          \
      const T *beta, T *C, size_t ldc) {                                       \
    return XT_CALL(xt, cublas##L##symm_v2_64(xt->blas, side, uplo, SZ(m),      \
                                             SZ(n), alpha, A, SZ(lda), B,      \
                                             SZ(ldb), beta, C, SZ(ldc)));      \
  }                                                                            \
  E cublasStatus_t cublasXt##L##syrk(cublasXtHandle_t xt, int uplo, int trans, \
                                     size_t n, size_t k, const T *alpha,       \
                                     const T *A, size_t lda, const T *beta,    \
                                     T *C, size_t ldc) {                       \
    return XT_CALL(xt, cublas##L##syrk_v2_64(xt->blas, uplo, trans, SZ(n),     \
                                             SZ(k), alpha, A, SZ(lda), beta,   \
                                             C, SZ(ldc)));                     \
  }                                                                            \
  E cublasStatus_t cublasXt##L##syr2k(                                         \
      cublasXtHandle_t xt, int uplo, int trans, size_t n, size_t k,            \
      const T *alpha, const T *A, size_t lda, const T *B, size_t ldb,          \
      const T *beta, T *C, size_t ldc) {                                       \
    return XT_CALL(xt, cublas##L##syr2k_v2_64(xt->blas, uplo, trans, SZ(n),    \
                                              SZ(k), alpha, A, SZ(lda), B,     \
                                              SZ(ldb), beta, C, SZ(ldc)));     \
  }                                                                            \
  E cublasStatus_t cublasXt##L##syrkx(                                         \
      cublasXtHandle_t xt, int uplo, int trans, size_t n, size_t k,            \
      const T *alpha, const T *A, size_t lda, const T *B, size_t ldb,          \
      const T *beta, T *C, size_t ldc) {                                       \
    return XT_CALL(xt, cublas##L##syrkx_64(xt->blas, uplo, trans, SZ(n),       \
                                           SZ(k), alpha, A, SZ(lda), B,        \
                                           SZ(ldb), beta, C, SZ(ldc)));        \
  }                                                                            \
  E cublasStatus_t cublasXt##L##trsm(                                          \
      cublasXtHandle_t xt, int side, int uplo, int trans, int diag, size_t m,  \
      size_t n, const T *alpha, const T *A, size_t lda, T *B, size_t ldb) {    \
    return XT_CALL(xt, cublas##L##trsm_v2_64(xt->blas, side, uplo, trans,      \
                                             diag, SZ(m), SZ(n), alpha, A,     \
                                             SZ(lda), B, SZ(ldb)));            \
  }                                                                            \
  E cublasStatus_t cublasXt##L##trmm(                                          \
      cublasXtHandle_t xt, int side, int uplo, int trans, int diag, size_t m,  \
      size_t n, const T *alpha, const T *A, size_t lda, const T *B,            \
      size_t ldb, T *C, size_t ldc) {                                          \
    return XT_CALL(xt, cublas##L##trmm_v2_64(                                  \
                           xt->blas, side, uplo, trans, diag, SZ(m), SZ(n),    \
                           alpha, A, SZ(lda), B, SZ(ldb), C, SZ(ldc)));        \
  }                                                                            \
  E cublasStatus_t cublasXt##L##spmm(cublasXtHandle_t xt, int side, int uplo,  \
                                     size_t m, size_t n, const T *alpha,       \
                                     const T *AP, const T *B, size_t ldb,      \
                                     const T *beta, T *C, size_t ldc) {        \
    size_t ka = side == CUBLAS_SIDE_LEFT ? m : n;                              \
    T *A = NULL;                                                               \
    cublasStatus_t st = unpack(xt, uplo, ka, AP, sizeof(T), (void **)&A);      \
    if (st)                                                                    \
      return st;                                                               \
    st = xt_begin(xt);                                                         \
    if (!st)                                                                   \
      st = xt_end(xt, cublas##L##symm_v2_64(xt->blas, side, uplo, SZ(m),       \
                                            SZ(n), alpha, A, SZ(ka ? ka : 1),  \
                                            B, SZ(ldb), beta, C, SZ(ldc)));    \
    free(A);                                                                   \
    return st;                                                                 \
  }

/* The Hermitian routines of C and Z; R is the real type of herk's
 * scalars and of her2k's and herkx's beta. */
#define XT_CUBLAS_HERM(L, T, TYPE, R, RTYPE, ...)                              \
  cublasStatus_t cublas##L##hemm_v2_64(                                        \
      cublasHandle_t, int, int, int64_t, int64_t, const T *, const T *,        \
      int64_t, const T *, int64_t, const T *, T *, int64_t);                   \
  cublasStatus_t cublas##L##herk_v2_64(cublasHandle_t, int, int, int64_t,      \
                                       int64_t, const R *, const T *, int64_t, \
                                       const R *, T *, int64_t);               \
  cublasStatus_t cublas##L##her2k_v2_64(                                       \
      cublasHandle_t, int, int, int64_t, int64_t, const T *, const T *,        \
      int64_t, const T *, int64_t, const R *, T *, int64_t);                   \
  cublasStatus_t cublas##L##herkx_64(                                          \
      cublasHandle_t, int, int, int64_t, int64_t, const T *, const T *,        \
      int64_t, const T *, int64_t, const R *, T *, int64_t);                   \
                                                                               \
  E cublasStatus_t cublasXt##L##hemm(                                          \
      cublasXtHandle_t xt, int side, int uplo, size_t m, size_t n,             \
      const T *alpha, const T *A, size_t lda, const T *B, size_t ldb,          \
      const T *beta, T *C, size_t ldc) {                                       \
    return XT_CALL(xt, cublas##L##hemm_v2_64(xt->blas, side, uplo, SZ(m),      \
                                             SZ(n), alpha, A, SZ(lda), B,      \
                                             SZ(ldb), beta, C, SZ(ldc)));      \
  }                                                                            \
  E cublasStatus_t cublasXt##L##herk(cublasXtHandle_t xt, int uplo, int trans, \
                                     size_t n, size_t k, const R *alpha,       \
                                     const T *A, size_t lda, const R *beta,    \
                                     T *C, size_t ldc) {                       \
    return XT_CALL(xt, cublas##L##herk_v2_64(xt->blas, uplo, trans, SZ(n),     \
                                             SZ(k), alpha, A, SZ(lda), beta,   \
                                             C, SZ(ldc)));                     \
  }                                                                            \
  E cublasStatus_t cublasXt##L##her2k(                                         \
      cublasXtHandle_t xt, int uplo, int trans, size_t n, size_t k,            \
      const T *alpha, const T *A, size_t lda, const T *B, size_t ldb,          \
      const R *beta, T *C, size_t ldc) {                                       \
    return XT_CALL(xt, cublas##L##her2k_v2_64(xt->blas, uplo, trans, SZ(n),    \
                                              SZ(k), alpha, A, SZ(lda), B,     \
                                              SZ(ldb), beta, C, SZ(ldc)));     \
  }                                                                            \
  E cublasStatus_t cublasXt##L##herkx(                                         \
      cublasXtHandle_t xt, int uplo, int trans, size_t n, size_t k,            \
      const T *alpha, const T *A, size_t lda, const T *B, size_t ldb,          \
      const R *beta, T *C, size_t ldc) {                                       \
    return XT_CALL(xt, cublas##L##herkx_64(xt->blas, uplo, trans, SZ(n),       \
                                           SZ(k), alpha, A, SZ(lda), B,        \
                                           SZ(ldb), beta, C, SZ(ldc)));        \
  }

/* The symmetric matrix of order n whose `uplo` triangle the packed AP
 * holds (column by column, as BLAS packs it), in a new host array of n x n
 * elements of `size` bytes, both triangles written: *out, to free. */
static cublasStatus_t unpack(cublasXtHandle_t xt, int uplo, size_t n,
                             const void *AP, size_t size, void **out) {
  if (!xt)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if ((uplo != CUBLAS_FILL_MODE_LOWER && uplo != CUBLAS_FILL_MODE_UPPER) ||
      (n > 0 && !AP))
    return CUBLAS_STATUS_INVALID_VALUE;
  /* The device may still be writing AP (cuBLASXt reads it when called). */
  if (cuemu_rt_stream_synchronize(xt->blas->stream) != 0)
    return CUBLAS_STATUS_EXECUTION_FAILED;
  char *A = malloc(n ? n * n * size : 1);
  if (!A)
    return CUBLAS_STATUS_ALLOC_FAILED;
  const char *p = AP;
  for (size_t j = 0; j < n; ++j)
    for (size_t i = uplo == CUBLAS_FILL_MODE_LOWER ? j : 0;
         i < (uplo == CUBLAS_FILL_MODE_LOWER ? n : j + 1); ++i, p += size) {
      memcpy(A + (j * n + i) * size, p, size);
      memcpy(A + (i * n + j) * size, p, size);
    }
  *out = A;
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_SDCZ(XT_CUBLAS)
CUEMU_BLAS_CZ(XT_CUBLAS_HERM)
