/*
 * cuemu_sparse_handle.c: cuSPARSE handles, streams, pointer modes,
 * versions, status strings and logging, and the path every computing
 * call takes onto its handle's stream (cuemu_sparse.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_runtime_streams.h>
#include <cuemu/cuemu_status.h>

#include "cuemu_libs.h"
#include "cuemu_sparse.h"

CUEMU_SPARSE_EXPORT cusparseStatus_t cusparseCreate(cusparseHandle_t *handle) {
  if (!handle)
    return CUSPARSE_STATUS_INVALID_VALUE;
  /* cuSPARSE initialises the CUDA context here; a program without a
   * usable device gets NOT_INITIALIZED. */
  int device;
  if (cuemu_rt_get_device(&device) != 0)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  cusparseHandle_t h = calloc(1, sizeof *h);
  if (!h)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  h->device = device;
  *handle = h;
  return CUSPARSE_STATUS_SUCCESS;
}

CUEMU_SPARSE_EXPORT cusparseStatus_t cusparseDestroy(cusparseHandle_t h) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  /* The handle's work is done before it goes (its operations hold no
   * reference to it, so that graphs may replay captured ones). */
  cuemu_rt_device_synchronize();
  free(h);
  return CUSPARSE_STATUS_SUCCESS;
}

CUEMU_SPARSE_EXPORT cusparseStatus_t cusparseGetVersion(cusparseHandle_t h,
                                                        int *version) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!version)
    return CUSPARSE_STATUS_INVALID_VALUE;
  *version = CUEMU_SPARSE_VERSION;
  return CUSPARSE_STATUS_SUCCESS;
}

/* libraryPropertyType: MAJOR_VERSION 0, MINOR_VERSION 1, PATCH_LEVEL 2. */
CUEMU_SPARSE_EXPORT cusparseStatus_t cusparseGetProperty(int type, int *value) {
  if (!value || type < 0 || type > 2)
    return CUSPARSE_STATUS_INVALID_VALUE;
  *value = type == 0   ? CUEMU_SPARSE_MAJOR
           : type == 1 ? CUEMU_SPARSE_MINOR
                       : CUEMU_SPARSE_PATCH;
  return CUSPARSE_STATUS_SUCCESS;
}

CUEMU_SPARSE_EXPORT cusparseStatus_t cusparseSetStream(cusparseHandle_t h,
                                                       void *stream) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  h->stream = stream;
  return CUSPARSE_STATUS_SUCCESS;
}

CUEMU_SPARSE_EXPORT cusparseStatus_t cusparseGetStream(cusparseHandle_t h,
                                                       void **stream) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!stream)
    return CUSPARSE_STATUS_INVALID_VALUE;
  *stream = h->stream;
  return CUSPARSE_STATUS_SUCCESS;
}

CUEMU_SPARSE_EXPORT cusparseStatus_t cusparseSetPointerMode(cusparseHandle_t h,
                                                            int mode) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (mode != CUSPARSE_POINTER_MODE_HOST &&
      mode != CUSPARSE_POINTER_MODE_DEVICE)
    return CUSPARSE_STATUS_INVALID_VALUE;
  h->pointer_mode = mode;
  return CUSPARSE_STATUS_SUCCESS;
}

CUEMU_SPARSE_EXPORT cusparseStatus_t cusparseGetPointerMode(cusparseHandle_t h,
                                                            int *mode) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!mode)
    return CUSPARSE_STATUS_INVALID_VALUE;
  *mode = h->pointer_mode;
  return CUSPARSE_STATUS_SUCCESS;
}

/* The one table of statuses: name and description. */
#define CUEMU_SPARSE_STATUS_MAP(XX)                                            \
  XX(SUCCESS, "success")                                                       \
  XX(NOT_INITIALIZED, "initialization error")                                  \
  XX(ALLOC_FAILED, "out of memory")                                            \
  XX(INVALID_VALUE, "invalid value")                                           \
  XX(ARCH_MISMATCH, "architecture mismatch")                                   \
  XX(MAPPING_ERROR, "mapping error")                                           \
  XX(EXECUTION_FAILED, "execution failed")                                     \
  XX(INTERNAL_ERROR, "internal operation failed")                              \
  XX(MATRIX_TYPE_NOT_SUPPORTED, "matrix type not supported")                   \
  XX(ZERO_PIVOT, "zero pivot")                                                 \
  XX(NOT_SUPPORTED, "operation not supported")                                 \
  XX(INSUFFICIENT_RESOURCES, "insufficient resources")

CUEMU_SPARSE_EXPORT const char *cusparseGetErrorName(cusparseStatus_t status) {
  switch (status) {
#define XX(n, s)                                                               \
  case CUSPARSE_STATUS_##n:                                                    \
    return "CUSPARSE_STATUS_" #n;
    CUEMU_SPARSE_STATUS_MAP(XX)
#undef XX
  }
  return "UNKNOWN_ERROR";
}

CUEMU_SPARSE_EXPORT const char *
cusparseGetErrorString(cusparseStatus_t status) {
  switch (status) {
#define XX(n, s)                                                               \
  case CUSPARSE_STATUS_##n:                                                    \
    return s;
    CUEMU_SPARSE_STATUS_MAP(XX)
#undef XX
  }
  return "unknown error";
}

/* Logging: accepted; cuemu's cuSPARSE logs nothing. */
CUEMU_SPARSE_EXPORT cusparseStatus_t cusparseLoggerSetCallback(void *f) {
  (void)f;
  return CUSPARSE_STATUS_SUCCESS;
}
CUEMU_SPARSE_EXPORT cusparseStatus_t cusparseLoggerSetFile(FILE *file) {
  (void)file;
  return CUSPARSE_STATUS_SUCCESS;
}
CUEMU_SPARSE_EXPORT cusparseStatus_t cusparseLoggerOpenFile(const char *f) {
  return f ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_INVALID_VALUE;
}
CUEMU_SPARSE_EXPORT cusparseStatus_t cusparseLoggerSetLevel(int level) {
  return level < 0 || level > 5 ? CUSPARSE_STATUS_INVALID_VALUE
                                : CUSPARSE_STATUS_SUCCESS;
}
CUEMU_SPARSE_EXPORT cusparseStatus_t cusparseLoggerSetMask(int mask) {
  (void)mask;
  return CUSPARSE_STATUS_SUCCESS;
}
CUEMU_SPARSE_EXPORT cusparseStatus_t cusparseLoggerForceDisable(void) {
  return CUSPARSE_STATUS_SUCCESS;
}

size_t cuemu__sparse_value_size(int type) {
  switch (type) {
  case CUEMU_R_32F:
    return 4;
  case CUEMU_R_64F:
  case CUEMU_C_32F:
    return 8;
  case CUEMU_C_64F:
    return 16;
  }
  return 0;
}

size_t cuemu__sparse_index_size(int type) {
  return type == CUSPARSE_INDEX_32I ? 4 : type == CUSPARSE_INDEX_64I ? 8 : 0;
}

/* ---- The path onto the stream -------------------------------------------- */

cuemu_sparse_op *cuemu__sparse_op_new(const char *name,
                                      void (*run)(cuemu_sparse_op *op)) {
  cuemu_sparse_op *op = calloc(1, sizeof *op);
  if (op) {
    op->run = run;
    op->name = name;
  }
  return op;
}

void cuemu__sparse_op_scalar(cusparseHandle_t h, cuemu_sparse_op *op, int slot,
                             const void *s, int type) {
  if (h->pointer_mode == CUSPARSE_POINTER_MODE_DEVICE) {
    op->scalar[slot] = s;
    return;
  }
  memcpy(op->scalars[slot], s, cuemu__sparse_value_size(type));
  op->scalar[slot] = op->scalars[slot];
}

static void op_free(void *data) {
  cuemu_sparse_op *op = data;
  free(op->extra);
  free(op);
}

static void op_run(void *data) {
  cuemu_sparse_op *op = data;
  op->run(op);
}

cusparseStatus_t cuemu__sparse_submit(cusparseHandle_t h, cuemu_sparse_op *op) {
  /* h->stream is read once: another thread may set it. */
  switch (cuemu__libs_submit(h->stream, op_run, op_free, op)) {
  case CUEMU_LIBS_QUEUED:
    return CUSPARSE_STATUS_SUCCESS;
  case CUEMU_LIBS_NO_MEMORY:
    return CUSPARSE_STATUS_ALLOC_FAILED;
  default:
    return CUSPARSE_STATUS_EXECUTION_FAILED;
  }
}

cusparseStatus_t cuemu__sparse_submit_copy(cusparseHandle_t h,
                                           const char *name,
                                           void (*run)(cuemu_sparse_op *op),
                                           const void *extra, size_t size) {
  return cuemu__sparse_submit_scalars(h, name, run, extra, size, NULL, NULL, 0,
                                      NULL);
}

cusparseStatus_t cuemu__sparse_submit_scalars(
    cusparseHandle_t h, const char *name, void (*run)(cuemu_sparse_op *op),
    const void *extra, size_t size, const void *alpha, const void *beta,
    int type, const int *count) {
  void *copy = malloc(size);
  cuemu_sparse_op *op = cuemu__sparse_op_new(name, run);
  if (!copy || !op) {
    free(copy);
    free(op);
    return CUSPARSE_STATUS_ALLOC_FAILED;
  }
  memcpy(copy, extra, size);
  op->extra = copy;
  if (alpha)
    cuemu__sparse_op_scalar(h, op, 0, alpha, type);
  if (beta)
    cuemu__sparse_op_scalar(h, op, 1, beta, type);
  /* h->pointer_mode is read before the work runs, as the scalars'. */
  int wait = count && h->pointer_mode == CUSPARSE_POINTER_MODE_HOST;
  cusparseStatus_t s = cuemu__sparse_submit(h, op);
  if (s == CUSPARSE_STATUS_SUCCESS && wait)
    return cuemu__sparse_wait_result(h);
  return s;
}

cusparseStatus_t cuemu__sparse_wait_result(cusparseHandle_t h) {
  int capture = CUEMU_RT_CAPTURE_NONE;
  cuemu_rt_stream_is_capturing(h->stream, &capture);
  if (capture != CUEMU_RT_CAPTURE_NONE)
    return CUSPARSE_STATUS_SUCCESS;
  return cuemu_rt_stream_synchronize(h->stream) == 0
             ? CUSPARSE_STATUS_SUCCESS
             : CUSPARSE_STATUS_EXECUTION_FAILED;
}

cusparseStatus_t cuemu__sparse_unsupported(const char *name,
                                           const char *what) {
  fprintf(stderr, "cuemu: %s: %s is not emulated (CUSPARSE_STATUS_NOT_SUPPORTED)\n",
          name, what);
  return CUSPARSE_STATUS_NOT_SUPPORTED;
}

/* ---- Device memory checks --------------------------------------------------
 */

int cuemu__sparse_check_dnvec(const char *name, const cuemu_sparse_dnvec *x) {
  return cuemu__libs_device_range(name, "a dense vector's values", x->values,
                                  (size_t)x->size *
                                      cuemu__sparse_value_size(x->type));
}

int cuemu__sparse_check_spvec(const char *name, const cuemu_sparse_spvec *x) {
  return cuemu__libs_device_range(
             name, "a sparse vector's indices", x->indices,
             (size_t)x->nnz * cuemu__sparse_index_size(x->index_type)) &&
         cuemu__libs_device_range(name, "a sparse vector's values", x->values,
                                  (size_t)x->nnz *
                                      cuemu__sparse_value_size(x->type));
}

int cuemu__sparse_check_dnmat(const char *name, const cuemu_sparse_dnmat *m) {
  int64_t lines = m->order == CUSPARSE_ORDER_COL ? m->cols : m->rows;
  int64_t len = m->order == CUSPARSE_ORDER_COL ? m->rows : m->cols;
  size_t count = lines > 0 && len > 0 ? (size_t)((lines - 1) * m->ld + len) : 0;
  return cuemu__libs_device_range(name, "a dense matrix's values", m->values,
                                  count * cuemu__sparse_value_size(m->type));
}

int cuemu__sparse_check_spmat(const char *name, const cuemu_sparse_spmat *a) {
  if (cuemu__sparse_is_blocked(a))
    return cuemu__sparse_check_blocked(name, a);
  int64_t offsets = a->format == CUSPARSE_FORMAT_CSR   ? a->rows + 1
                    : a->format == CUSPARSE_FORMAT_CSC ? a->cols + 1
                                                       : a->nnz;
  return cuemu__libs_device_range(
             name, "a sparse matrix's offsets (or COO row indices)", a->offsets,
             (size_t)offsets * cuemu__sparse_index_size(a->offset_type)) &&
         cuemu__libs_device_range(
             name, "a sparse matrix's indices", a->indices,
             (size_t)a->nnz * cuemu__sparse_index_size(a->index_type)) &&
         cuemu__libs_device_range(name, "a sparse matrix's values", a->values,
                                  (size_t)a->nnz *
                                      cuemu__sparse_value_size(a->type));
}

void cuemu__sparse_for_each(const cuemu_sparse_spmat *a,
                            void (*f)(int64_t row, int64_t col, int64_t k,
                                      void *data),
                            void *data) {
  int64_t base = a->base;
  if (cuemu__sparse_is_blocked(a)) {
    cuemu__sparse_for_each_blocked(a, f, data);
    return;
  }
  if (a->format == CUSPARSE_FORMAT_COO) {
    for (int64_t k = 0; k < a->nnz; ++k)
      f(cuemu__sparse_index(a->offsets, a->offset_type, k) - base,
        cuemu__sparse_index(a->indices, a->index_type, k) - base, k, data);
    return;
  }
  int64_t lines = a->format == CUSPARSE_FORMAT_CSR ? a->rows : a->cols;
  for (int64_t i = 0; i < lines; ++i) {
    int64_t from = cuemu__sparse_index(a->offsets, a->offset_type, i) - base;
    int64_t to = cuemu__sparse_index(a->offsets, a->offset_type, i + 1) - base;
    for (int64_t k = from; k < to; ++k) {
      int64_t j = cuemu__sparse_index(a->indices, a->index_type, k) - base;
      if (a->format == CUSPARSE_FORMAT_CSR)
        f(i, j, k, data);
      else
        f(j, i, k, data);
    }
  }
}
