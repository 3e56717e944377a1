/*
 * cuemu_solver_handle.c: cuSOLVER's dense handles, streams, parameters of
 * the generic API, versions, and the path every computing call takes onto
 * its handle's stream (cuemu_solver.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "cuemu_libs.h"
#include "cuemu_solver.h"

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnCreate(cusolverDnHandle_t *handle) {
  if (!handle)
    return CUSOLVER_STATUS_INVALID_VALUE;
  /* cuSOLVER initialises the CUDA context here; a program without a
   * usable device gets NOT_INITIALIZED. */
  int device;
  if (cuemu_rt_get_device(&device) != 0)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  cusolverDnHandle_t h = calloc(1, sizeof *h);
  if (!h)
    return CUSOLVER_STATUS_ALLOC_FAILED;
  h->device = device;
  h->deterministic = CUEMU_DETERMINISTIC;
  h->math = CUEMU_DEFAULT_MATH;
  *handle = h;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnDestroy(cusolverDnHandle_t h) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  /* The handle's work is done before it goes (its operations hold no
   * reference to it, so that graphs may replay captured ones). */
  cuemu_rt_device_synchronize();
  free(h);
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnSetStream(cusolverDnHandle_t h,
                                                         void *stream) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  h->stream = stream;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnGetStream(cusolverDnHandle_t h,
                                                         void **stream) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!stream)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *stream = h->stream;
  return CUSOLVER_STATUS_SUCCESS;
}

/* Every result of cuemu's cuSOLVER is deterministic, and computed in
 * double whatever the math mode: the modes are kept and read back. */
CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnSetDeterministicMode(cusolverDnHandle_t h, int mode) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (mode != CUEMU_DETERMINISTIC && mode != CUEMU_NON_DETERMINISTIC)
    return CUSOLVER_STATUS_INVALID_VALUE;
  h->deterministic = mode;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnGetDeterministicMode(cusolverDnHandle_t h, int *mode) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!mode)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *mode = h->deterministic;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnSetMathMode(cusolverDnHandle_t h,
                                                           int mode) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (mode != CUEMU_DEFAULT_MATH && mode != CUEMU_BF16X9_MATH)
    return CUSOLVER_STATUS_INVALID_VALUE;
  h->math = mode;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverDnGetMathMode(cusolverDnHandle_t h,
                                                           int *mode) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!mode)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *mode = h->math;
  return CUSOLVER_STATUS_SUCCESS;
}

/* cudaEmulationStrategy_t: DEFAULT 0, PERFORMANT 1, EAGER 2; kept and
 * read back (nothing is emulated in lower precision). */
CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnSetEmulationStrategy(cusolverDnHandle_t h, int strategy) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (strategy < 0 || strategy > 2)
    return CUSOLVER_STATUS_INVALID_VALUE;
  h->emulation = strategy;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnGetEmulationStrategy(cusolverDnHandle_t h, int *strategy) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!strategy)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *strategy = h->emulation;
  return CUSOLVER_STATUS_SUCCESS;
}

/* cusolverDn.h declares the logger (cusolverDnLoggerSetCallback, ...),
 * which NVIDIA's libcusolver.so does not export: a program calling it fails
 * to link, with cuemu too. */

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnCreateParams(cusolverDnParams_t *params) {
  if (!params)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *params = calloc(1, sizeof **params);
  return *params ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_ALLOC_FAILED;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnDestroyParams(cusolverDnParams_t params) {
  if (!params)
    return CUSOLVER_STATUS_INVALID_VALUE;
  free(params);
  return CUSOLVER_STATUS_SUCCESS;
}

/* CUSOLVERDN_GETRF with CUSOLVER_ALG_0 or _1 (the only function the
 * header's documentation names); both compute the same way here. */
CUEMU_SOLVER_EXPORT cusolverStatus_t
cusolverDnSetAdvOptions(cusolverDnParams_t params, int function, int algo) {
  if (!params)
    return CUSOLVER_STATUS_INVALID_VALUE;
  if (function != CUEMU_DN_GETRF || algo < 0 || algo > 1)
    return CUSOLVER_STATUS_INVALID_VALUE;
  params->getrf_alg = algo;
  return CUSOLVER_STATUS_SUCCESS;
}

CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverGetVersion(int *version) {
  if (!version)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *version = CUEMU_SOLVER_VERSION;
  return CUSOLVER_STATUS_SUCCESS;
}

/* libraryPropertyType: MAJOR_VERSION 0, MINOR_VERSION 1, PATCH_LEVEL 2. */
CUEMU_SOLVER_EXPORT cusolverStatus_t cusolverGetProperty(int type, int *value) {
  if (!value || type < 0 || type > 2)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *value = type == 0   ? CUEMU_SOLVER_MAJOR
           : type == 1 ? CUEMU_SOLVER_MINOR
                       : CUEMU_SOLVER_PATCH;
  return CUSOLVER_STATUS_SUCCESS;
}

/* ---- The path onto the stream ----------------------------------------------
 */

cusolverStatus_t cuemu__solver_submit(cusolverDnHandle_t h,
                                      cuemu_solver_run run, void *data) {
  /* h->stream is read once: another thread may set it. */
  switch (cuemu__libs_submit(h->stream, run, free, data)) {
  case CUEMU_LIBS_QUEUED:
    return CUSOLVER_STATUS_SUCCESS;
  case CUEMU_LIBS_NO_MEMORY:
    return CUSOLVER_STATUS_ALLOC_FAILED;
  default:
    return CUSOLVER_STATUS_EXECUTION_FAILED;
  }
}

int cuemu__solver_check(const char *name, const char *arg, const void *p,
                        size_t bytes) {
  return cuemu__libs_device_range(name, arg, p, bytes);
}

int cuemu__solver_check_matrix(const char *name, const char *arg, const void *p,
                               int64_t rows, int64_t cols, int64_t ld,
                               size_t element) {
  return cuemu__solver_check(name, arg, p,
                             cuemu__solver_span(rows, cols, ld, element));
}

int cuemu__solver_check_info(const char *name, int *info) {
  return !info || cuemu__solver_check(name, "devInfo", info, sizeof(int));
}

int cuemu__solver_q_op(cuemu_solver_type type, int op) {
  return op == CUEMU_OP_N || op == CUEMU_OP_C ||
         (op == CUEMU_OP_T && !cuemu__solver_is_complex(type));
}

size_t cuemu__solver_span(int64_t rows, int64_t cols, int64_t ld,
                          size_t element) {
  if (rows <= 0 || cols <= 0)
    return 0;
  return (size_t)((cols - 1) * ld + rows) * element;
}

cusolverStatus_t cuemu__solver_unsupported(const char *name) {
  fprintf(stderr,
          "cuemu: %s: this combination of data types is not emulated "
          "(CUSOLVER_STATUS_NOT_SUPPORTED)\n",
          name);
  return CUSOLVER_STATUS_NOT_SUPPORTED;
}

cusolverStatus_t cuemu__solver_generic_size(cusolverDnHandle_t h,
                                            const char *name, int t,
                                            size_t *device, size_t *host) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!device || !host)
    return CUSOLVER_STATUS_INVALID_VALUE;
  if (t < 0)
    return cuemu__solver_unsupported(name);
  *device = cuemu__solver_size(t);
  *host = 0;
  return CUSOLVER_STATUS_SUCCESS;
}

typedef struct {
  int *info;
  int value;
} info_write;

void cuemu__solver_info_set(int *info, int64_t i, int value) {
  info[i] = value;
  cuemu_rt_library_wrote(info + i, sizeof *info);
}

static void write_info(void *p) {
  info_write *w = p;
  cuemu__solver_info_set(w->info, 0, w->value);
}

cusolverStatus_t cuemu__solver_check_triangle(cusolverDnHandle_t h, int uplo,
                                              int64_t n, int64_t lda,
                                              int *info) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (uplo != CUEMU_LOWER && uplo != CUEMU_UPPER)
    return cuemu__solver_bad_argument(h, info, 1);
  if (n < 0)
    return cuemu__solver_bad_argument(h, info, 2);
  if (lda < (n > 1 ? n : 1))
    return cuemu__solver_bad_argument(h, info, 4);
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cuemu__solver_bad_argument(cusolverDnHandle_t h, int *devInfo,
                                            int argument) {
  if (devInfo &&
      cuemu__solver_check("cuSOLVER", "devInfo", devInfo, sizeof(int))) {
    info_write *w = malloc(sizeof *w);
    if (w) {
      *w = (info_write){devInfo, -argument};
      cuemu__solver_submit(h, write_info, w);
    }
  }
  return CUSOLVER_STATUS_INVALID_VALUE;
}

/* ---- Elements
 * ----------------------------------------------------------------
 */

size_t cuemu__solver_size(cuemu_solver_type type) {
  static const size_t size[] = {4, 8, 8, 16};
  return size[type];
}

cusolverStatus_t cuemu__solver_work_size(cusolverDnHandle_t h, int bad,
                                         int *lwork) {
  if (!h)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (bad || !lwork)
    return CUSOLVER_STATUS_INVALID_VALUE;
  *lwork = 1;
  return CUSOLVER_STATUS_SUCCESS;
}

size_t cuemu__solver_real_size(cuemu_solver_type type) {
  return type == CUEMU_SOLVER_S || type == CUEMU_SOLVER_C ? 4 : 8;
}

int cuemu__solver_is_complex(cuemu_solver_type type) {
  return type == CUEMU_SOLVER_C || type == CUEMU_SOLVER_Z;
}

int cuemu__solver_from_data_type(int data_type) {
  switch (data_type) {
  case CUEMU_DT_R_32F:
    return CUEMU_SOLVER_S;
  case CUEMU_DT_R_64F:
    return CUEMU_SOLVER_D;
  case CUEMU_DT_C_32F:
    return CUEMU_SOLVER_C;
  case CUEMU_DT_C_64F:
    return CUEMU_SOLVER_Z;
  }
  return -1;
}

cuemu_solver_value cuemu__solver_load(const void *p, cuemu_solver_type type,
                                      int64_t i) {
  switch (type) {
  case CUEMU_SOLVER_S:
    return ((const float *)p)[i];
  case CUEMU_SOLVER_D:
    return ((const double *)p)[i];
  case CUEMU_SOLVER_C:
    return CMPLX(((const float *)p)[2 * i], ((const float *)p)[2 * i + 1]);
  case CUEMU_SOLVER_Z:
    return CMPLX(((const double *)p)[2 * i], ((const double *)p)[2 * i + 1]);
  }
  return 0;
}

void cuemu__solver_store(void *p, cuemu_solver_type type, int64_t i,
                         cuemu_solver_value v) {
  switch (type) {
  case CUEMU_SOLVER_S:
    ((float *)p)[i] = (float)creal(v);
    break;
  case CUEMU_SOLVER_D:
    ((double *)p)[i] = creal(v);
    break;
  case CUEMU_SOLVER_C:
    ((float *)p)[2 * i] = (float)creal(v);
    ((float *)p)[2 * i + 1] = (float)cimag(v);
    break;
  case CUEMU_SOLVER_Z:
    ((double *)p)[2 * i] = creal(v);
    ((double *)p)[2 * i + 1] = cimag(v);
    break;
  }
}

void cuemu__solver_store_real(void *p, cuemu_solver_type type, int64_t i,
                              double v) {
  size_t size = cuemu__solver_real_size(type);
  if (size == 4)
    ((float *)p)[i] = (float)v;
  else
    ((double *)p)[i] = v;
  cuemu_rt_library_wrote((char *)p + (size_t)i * size, size);
}

cuemu_solver_value *cuemu__solver_get(const void *p, cuemu_solver_type type,
                                      int64_t rows, int64_t cols, int64_t ld) {
  size_t count = rows > 0 && cols > 0 ? (size_t)(rows * cols) : 1;
  cuemu_solver_value *a = malloc(count * sizeof *a);
  if (!a)
    return NULL;
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i)
      a[j * rows + i] = cuemu__solver_load(p, type, j * ld + i);
  return a;
}

void cuemu__solver_put(void *p, cuemu_solver_type type, int64_t rows,
                       int64_t cols, int64_t ld, const cuemu_solver_value *a) {
  size_t size = cuemu__solver_size(type);
  for (int64_t j = 0; j < cols; ++j) {
    for (int64_t i = 0; i < rows; ++i)
      cuemu__solver_store(p, type, j * ld + i, a[j * rows + i]);
    /* Written, as a kernel's stores are (initcheck). */
    if (rows > 0)
      cuemu_rt_library_wrote((char *)p + (size_t)(j * ld) * size,
                             (size_t)rows * size);
  }
}

void cuemu__solver_put_triangle(void *p, cuemu_solver_type type, int64_t n,
                                int64_t ld, int uplo,
                                const cuemu_solver_value *a) {
  size_t size = cuemu__solver_size(type);
  for (int64_t j = 0; j < n; ++j) {
    int64_t from = uplo == CUEMU_LOWER ? j : 0,
            to = uplo == CUEMU_LOWER ? n : j + 1;
    for (int64_t i = from; i < to; ++i)
      cuemu__solver_store(p, type, j * ld + i, a[j * n + i]);
    cuemu_rt_library_wrote((char *)p + (size_t)(j * ld + from) * size,
                           (size_t)(to - from) * size);
  }
}

void cuemu__solver_put_pivots(const cuemu_solver_call *c, const int64_t *ipiv,
                              int64_t count) {
  if (!c->pivots || count <= 0)
    return;
  for (int64_t i = 0; i < count; ++i) {
    if (c->ipiv64)
      ((int64_t *)c->pivots)[i] = ipiv[i];
    else
      ((int *)c->pivots)[i] = (int)ipiv[i];
  }
  cuemu_rt_library_wrote(c->pivots, (size_t)count * (c->ipiv64 ? 8 : 4));
}

cusolverStatus_t cuemu__solver_enqueue(cusolverDnHandle_t h,
                                       void (*run)(void *call),
                                       const cuemu_solver_call *call) {
  cuemu_solver_call *copy = malloc(sizeof *copy);
  if (!copy)
    return CUSOLVER_STATUS_ALLOC_FAILED;
  *copy = *call;
  return cuemu__solver_submit(h, run, copy);
}
