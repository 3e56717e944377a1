/*
 * cuemu_blas_handle.c: cuBLAS handles, statuses and versions, and the path
 * every computing call takes onto its handle's stream (cuemu_blas.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_status.h>
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "cuemu_blas.h"

CUEMU_BLAS_EXPORT cublasStatus_t cublasCreate_v2(cublasHandle_t *handle) {
  if (!handle)
    return CUBLAS_STATUS_INVALID_VALUE;
  /* cuBLAS initialises the CUDA context here; a program without a usable
   * device gets NOT_INITIALIZED. */
  int device;
  if (cuemu_rt_get_device(&device) != 0)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  cublasHandle_t h = calloc(1, sizeof *h);
  if (!h)
    return CUBLAS_STATUS_ALLOC_FAILED;
  h->device = device;
  h->emulation.special_values = CUEMU_BLAS_SPECIAL_VALUES_DEFAULT;
  *handle = h;
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasDestroy_v2(cublasHandle_t h) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  /* cublasDestroy synchronises the device (the handle's work is done).
   * The operations captured into graphs belong to those graphs, which may
   * still replay them. */
  cuemu_rt_device_synchronize();
  free(h);
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasGetVersion_v2(cublasHandle_t h,
                                                     int *version) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!version)
    return CUBLAS_STATUS_INVALID_VALUE;
  *version = CUEMU_BLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}

/* libraryPropertyType: MAJOR_VERSION 0, MINOR_VERSION 1, PATCH_LEVEL 2. */
CUEMU_BLAS_EXPORT cublasStatus_t cublasGetProperty(int type, int *value) {
  if (!value || type < 0 || type > 2)
    return CUBLAS_STATUS_INVALID_VALUE;
  *value = type == 0   ? CUEMU_BLAS_VERSION / 10000
           : type == 1 ? CUEMU_BLAS_VERSION / 100 % 100
                       : CUEMU_BLAS_VERSION % 100;
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT size_t cublasGetCudartVersion(void) {
  int v = 0;
  cuemu_rt_runtime_get_version(&v);
  return (size_t)v;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasSetStream_v2(cublasHandle_t h,
                                                    void *stream) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  h->stream = stream;
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasGetStream_v2(cublasHandle_t h,
                                                    void **stream) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!stream)
    return CUBLAS_STATUS_INVALID_VALUE;
  *stream = h->stream;
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t h,
                                                         int mode) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
    return CUBLAS_STATUS_INVALID_VALUE;
  h->pointer_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t h,
                                                         int *mode) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!mode)
    return CUBLAS_STATUS_INVALID_VALUE;
  *mode = h->pointer_mode;
  return CUBLAS_STATUS_SUCCESS;
}

/* The math modes (CUBLAS_DEFAULT_MATH 0 to CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH
 * 8) with CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION (16) or'ed in:
 * kept and reported; the results are computed in the full precision of
 * the compute type whatever the mode. */
CUEMU_BLAS_EXPORT cublasStatus_t cublasSetMathMode(cublasHandle_t h,
                                                   int mode) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  int base = mode & ~16;
  if (base < 0 || base > 8 || base == 5 || base == 6 || base == 7)
    return CUBLAS_STATUS_INVALID_VALUE;
  h->math_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasGetMathMode(cublasHandle_t h,
                                                   int *mode) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!mode)
    return CUBLAS_STATUS_INVALID_VALUE;
  *mode = h->math_mode;
  return CUBLAS_STATUS_SUCCESS;
}

/* The user's workspace: cuemu's cuBLAS needs none (it allocates its
 * scratch on the host), so it is accepted and unused. */
CUEMU_BLAS_EXPORT cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t h,
                                                       void *workspace,
                                                       size_t bytes) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (bytes && !workspace)
    return CUBLAS_STATUS_INVALID_VALUE;
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasSetAtomicsMode(cublasHandle_t h,
                                                      int mode) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode != 0 && mode != 1)
    return CUBLAS_STATUS_INVALID_VALUE;
  h->atomics_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasGetAtomicsMode(cublasHandle_t h,
                                                      int *mode) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!mode)
    return CUBLAS_STATUS_INVALID_VALUE;
  *mode = h->atomics_mode;
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasSetSmCountTarget(cublasHandle_t h,
                                                        int count) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  return count < 0 ? CUBLAS_STATUS_INVALID_VALUE : CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasGetSmCountTarget(cublasHandle_t h,
                                                        int *count) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!count)
    return CUBLAS_STATUS_INVALID_VALUE;
  *count = 0;
  return CUBLAS_STATUS_SUCCESS;
}

/* The one table of statuses: name and description, as cuBLAS gives them. */
#define CUEMU_BLAS_STATUS_MAP(XX)                                              \
  XX(SUCCESS, "success")                                                       \
  XX(NOT_INITIALIZED, "the library was not initialized")                       \
  XX(ALLOC_FAILED, "the resource allocation failed")                           \
  XX(INVALID_VALUE, "an invalid numeric value was used as an argument")        \
  XX(ARCH_MISMATCH, "an absent device architectural feature is required")      \
  XX(MAPPING_ERROR, "an access to GPU memory space failed")                    \
  XX(EXECUTION_FAILED, "the GPU program failed to execute")                    \
  XX(INTERNAL_ERROR, "an internal operation failed")                           \
  XX(NOT_SUPPORTED, "the functionality requested is not supported")            \
  XX(LICENSE_ERROR, "error detected trying to check the license")

CUEMU_BLAS_EXPORT const char *cublasGetStatusName(cublasStatus_t status) {
  switch (status) {
#define XX(n, s)                                                               \
  case CUBLAS_STATUS_##n:                                                      \
    return "CUBLAS_STATUS_" #n;
    CUEMU_BLAS_STATUS_MAP(XX)
#undef XX
  }
  return "CUBLAS_STATUS_UNKNOWN";
}

CUEMU_BLAS_EXPORT const char *cublasGetStatusString(cublasStatus_t status) {
  switch (status) {
#define XX(n, s)                                                               \
  case CUBLAS_STATUS_##n:                                                      \
    return s;
    CUEMU_BLAS_STATUS_MAP(XX)
#undef XX
  }
  return "unknown error";
}

/* Logging: accepted; cuemu's cuBLAS logs nothing. */
CUEMU_BLAS_EXPORT cublasStatus_t cublasLoggerConfigure(int on, int out,
                                                       int err,
                                                       const char *file) {
  (void)on, (void)out, (void)err, (void)file;
  return CUBLAS_STATUS_SUCCESS;
}

/* ---- The path onto the stream -------------------------------------------- */

cuemu_blas_op *cuemu__blas_op_new(size_t size, const char *name,
                                  void (*run)(cuemu_blas_op *op)) {
  cuemu_blas_op *op = calloc(1, size);
  if (op) {
    op->run = run;
    op->name = name;
  }
  return op;
}

static void op_run(void *data) {
  cuemu_blas_op *op = data;
  op->run(op);
}

cublasStatus_t cuemu__blas_submit(cublasHandle_t h, cuemu_blas_op *op) {
  if (!op)
    return CUBLAS_STATUS_ALLOC_FAILED;
  /* h->stream is read once: another thread may set it. */
  switch (cuemu__libs_submit(h->stream, op_run, free, op)) {
  case CUEMU_LIBS_QUEUED:
    return CUBLAS_STATUS_SUCCESS;
  case CUEMU_LIBS_NO_MEMORY:
    return CUBLAS_STATUS_ALLOC_FAILED;
  default:
    return CUBLAS_STATUS_EXECUTION_FAILED;
  }
}

cublasStatus_t cuemu__blas_wait(cublasHandle_t h, const char *name) {
  int capture = CUEMU_RT_CAPTURE_NONE;
  cuemu_rt_stream_is_capturing(h->stream, &capture);
  if (capture != CUEMU_RT_CAPTURE_NONE) {
    fprintf(stderr,
            "cuemu: %s: a result to host memory (CUBLAS_POINTER_MODE_HOST) "
            "cannot be returned while the stream captures a graph; use "
            "CUBLAS_POINTER_MODE_DEVICE\n",
            name);
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  return cuemu_rt_stream_synchronize(h->stream) == 0
             ? CUBLAS_STATUS_SUCCESS
             : CUBLAS_STATUS_EXECUTION_FAILED;
}

const void *cuemu__blas_scalar(cublasHandle_t h, cuemu_blas_op *op, int slot,
                               const void *s, size_t bytes) {
  if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE)
    return s;
  memcpy(op->scalars[slot], s, bytes);
  return op->scalars[slot];
}

size_t cuemu__blas_vector_bytes(int64_t n, int64_t inc, size_t elem) {
  if (n <= 0)
    return 0;
  uint64_t step = inc < 0 ? (uint64_t)-inc : (uint64_t)inc;
  return (size_t)(((uint64_t)(n - 1) * step + 1) * elem);
}

size_t cuemu__blas_matrix_bytes(int64_t rows, int64_t cols, int64_t ld,
                                size_t elem) {
  if (rows <= 0 || cols <= 0)
    return 0;
  return (size_t)(((uint64_t)(cols - 1) * (uint64_t)ld + (uint64_t)rows) *
                  elem);
}

void cuemu__blas_matrix_wrote(void *p, int64_t rows, int64_t cols, int64_t ld,
                              size_t elem) {
  if (rows <= 0 || cols <= 0)
    return;
  if (ld == rows) {
    cuemu_rt_library_wrote(p, (size_t)(rows * cols) * elem);
    return;
  }
  for (int64_t j = 0; j < cols; ++j)
    cuemu_rt_library_wrote((char *)p + (size_t)(j * ld) * elem,
                           (size_t)rows * elem);
}

void cuemu__blas_vector_wrote(void *p, int64_t n, int64_t inc, size_t elem) {
  if (inc == 0)
    n = 1;
  cuemu__blas_matrix_wrote(p, 1, n, inc == 0 ? 1 : inc < 0 ? -inc : inc, elem);
}

void cuemu__blas_out_of_memory(const char *name) {
  char message[256];
  snprintf(message, sizeof message,
           "%s: host memory for the computation ran out", name);
  cuemu_rt_library_fault(CUEMU_KERNEL_FAULT, message);
}
