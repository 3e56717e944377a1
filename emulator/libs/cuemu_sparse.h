/*
 * cuemu_sparse.h: what the files of cuemu's cuSPARSE (libcuemu_cusparse.so,
 * emulator/libs/libs.am) share: cuSPARSE's ABI constants (cusparse.h's
 * values, so that the library builds without the CUDA toolkit), the
 * handle and the descriptors of the generic API, and the path of a
 * computation onto its handle's stream. Only the cuemu_sparse*.c files
 * include it.
 */
#ifndef CUEMU_SPARSE_H
#define CUEMU_SPARSE_H

#include <stddef.h>
#include <stdint.h>

#include <cuemu/cuemu_runtime.h>

#include "cuemu_libs.h"

#define CUEMU_SPARSE_EXPORT __attribute__((visibility("default")))

/* cusparse.h's version (CUSPARSE_VER_MAJOR, _MINOR, _PATCH; CUSPARSE_VERSION
 * is major * 1000 + minor * 100 + patch). */
#define CUEMU_SPARSE_MAJOR 12
#define CUEMU_SPARSE_MINOR 6
#define CUEMU_SPARSE_PATCH 3
#define CUEMU_SPARSE_VERSION 12603

/* cusparseStatus_t */
typedef enum {
  CUSPARSE_STATUS_SUCCESS = 0,
  CUSPARSE_STATUS_NOT_INITIALIZED = 1,
  CUSPARSE_STATUS_ALLOC_FAILED = 2,
  CUSPARSE_STATUS_INVALID_VALUE = 3,
  CUSPARSE_STATUS_ARCH_MISMATCH = 4,
  CUSPARSE_STATUS_MAPPING_ERROR = 5,
  CUSPARSE_STATUS_EXECUTION_FAILED = 6,
  CUSPARSE_STATUS_INTERNAL_ERROR = 7,
  CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
  CUSPARSE_STATUS_ZERO_PIVOT = 9,
  CUSPARSE_STATUS_NOT_SUPPORTED = 10,
  CUSPARSE_STATUS_INSUFFICIENT_RESOURCES = 11
} cusparseStatus_t;

enum { CUSPARSE_POINTER_MODE_HOST = 0, CUSPARSE_POINTER_MODE_DEVICE = 1 };
enum { CUSPARSE_FILL_MODE_LOWER = 0, CUSPARSE_FILL_MODE_UPPER = 1 };
enum { CUSPARSE_DIAG_TYPE_NON_UNIT = 0, CUSPARSE_DIAG_TYPE_UNIT = 1 };
enum { CUSPARSE_INDEX_BASE_ZERO = 0, CUSPARSE_INDEX_BASE_ONE = 1 };
enum {
  CUSPARSE_OPERATION_NON_TRANSPOSE = 0,
  CUSPARSE_OPERATION_TRANSPOSE = 1,
  CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE = 2
};
enum { CUSPARSE_MATRIX_TYPE_GENERAL = 0, CUSPARSE_MATRIX_TYPE_TRIANGULAR = 3 };
/* cusparseFormat_t, cusparseOrder_t, cusparseIndexType_t */
enum {
  CUSPARSE_FORMAT_CSR = 1,
  CUSPARSE_FORMAT_CSC = 2,
  CUSPARSE_FORMAT_COO = 3,
  CUSPARSE_FORMAT_BLOCKED_ELL = 5,
  CUSPARSE_FORMAT_BSR = 6,
  CUSPARSE_FORMAT_SLICED_ELLPACK = 7
};
enum { CUSPARSE_ORDER_COL = 1, CUSPARSE_ORDER_ROW = 2 };
enum { CUSPARSE_INDEX_16U = 1, CUSPARSE_INDEX_32I = 2, CUSPARSE_INDEX_64I = 3 };
/* cusparseSpMatAttribute_t */
enum { CUSPARSE_SPMAT_FILL_MODE = 0, CUSPARSE_SPMAT_DIAG_TYPE = 1 };
/* cudaDataType values of the four value types cuemu's cuSPARSE computes. */
enum { CUEMU_R_32F = 0, CUEMU_R_64F = 1, CUEMU_C_32F = 4, CUEMU_C_64F = 5 };

/* The bytes of one value of a cudaDataType cuemu's cuSPARSE takes, 0 for
 * the others. */
size_t cuemu__sparse_value_size(int type);
/* The bytes of one index of a cusparseIndexType_t (4 or 8), 0 for 16U and
 * unknown codes. */
size_t cuemu__sparse_index_size(int type);

/* ---- Handles --------------------------------------------------------------
 */

typedef struct cuemu_sparse_handle {
  int device;
  void *stream;
  int pointer_mode;
} * cusparseHandle_t;

/* ---- Descriptors of the generic API ----------------------------------------
 */

/* A dense vector (cusparseDnVecDescr). */
typedef struct cusparseDnVecDescr {
  int64_t size;
  void *values;
  int type;
} cuemu_sparse_dnvec;

/* A sparse vector (cusparseSpVecDescr). */
typedef struct cusparseSpVecDescr {
  int64_t size, nnz;
  void *indices, *values;
  int index_type, base, type;
} cuemu_sparse_spvec;

/* A dense matrix (cusparseDnMatDescr). */
typedef struct cusparseDnMatDescr {
  int64_t rows, cols, ld;
  void *values;
  int type, order;
  int batch_count;
  int64_t batch_stride;
} cuemu_sparse_dnmat;

/* A sparse matrix (cusparseSpMatDescr) in CSR, CSC, COO, BSR, Blocked-ELL
 * or Sliced-ELL. For CSR `offsets` are the row offsets and `indices` the
 * column indices; for CSC the column offsets and row indices; for COO
 * `offsets` are the row indices and `indices` the column indices. For BSR
 * `offsets` are the block rows' offsets, `indices` the block columns
 * (`blocks` of them), each block block_rows x block_cols stored in
 * block_order; for Blocked-ELL `indices` are the block columns (-1 for an
 * empty block), (rows / block_rows) x (ell_cols / block_rows) of them in
 * row-major order, and the values rows x ell_cols in row-major order;
 * for Sliced-ELL `offsets` are the slices' offsets, each slice of
 * block_rows rows stored column by column (element (r, slot) of slice s at
 * offsets[s] + slot * block_rows + r), `indices` their columns (-1 for
 * padding) and `blocks` the stored elements, padding included. `nnz` is
 * the count of stored values (for the blocked formats, zeros inside blocks
 * included; for Sliced-ELL, the program's count of nonzeros). */
typedef struct cusparseSpMatDescr {
  int format;
  int64_t rows, cols, nnz;
  void *offsets, *indices, *values;
  int offset_type, index_type, base, type;
  int fill_mode, diag_type;
  /* Strided batches (cusparseCooSetStridedBatch, CsrSetStridedBatch): the
   * elements between batches of `offsets`, and of `indices` and `values`
   * (COO: the same stride for its three arrays). */
  int batch_count;
  int64_t offsets_stride, values_stride;
  int64_t blocks, block_rows, block_cols, ell_cols;
  int block_order;
} cuemu_sparse_spmat;

/* The legacy API's matrix descriptor (struct cusparseMatDescr) is in
 * cuemu_libs.h: cuSOLVER's sparse API reads it too. */

/* ---- Reading and writing values ---------------------------------------------
 */

/* One value, real or complex, computed in double. */
typedef struct {
  double re, im;
} cuemu_sparse_value;

static inline cuemu_sparse_value cuemu__sparse_load(const void *p, int type,
                                                    int64_t i) {
  cuemu_sparse_value v = {0, 0};
  switch (type) {
  case CUEMU_R_32F:
    v.re = ((const float *)p)[i];
    break;
  case CUEMU_R_64F:
    v.re = ((const double *)p)[i];
    break;
  case CUEMU_C_32F:
    v.re = ((const float *)p)[2 * i];
    v.im = ((const float *)p)[2 * i + 1];
    break;
  default:
    v.re = ((const double *)p)[2 * i];
    v.im = ((const double *)p)[2 * i + 1];
  }
  return v;
}

/* Stores v at element i of p. Every value and index that cuemu's cuSPARSE
 * writes goes through these two stores (or says what it wrote itself), so
 * that initcheck takes it as written, as a kernel's store
 * (cuemu_rt_library_wrote()). */
static inline void cuemu__sparse_store(void *p, int type, int64_t i,
                                       cuemu_sparse_value v) {
  size_t size;
  switch (type) {
  case CUEMU_R_32F:
    ((float *)p)[i] = (float)v.re;
    size = 4;
    break;
  case CUEMU_R_64F:
    ((double *)p)[i] = v.re;
    size = 8;
    break;
  case CUEMU_C_32F:
    ((float *)p)[2 * i] = (float)v.re;
    ((float *)p)[2 * i + 1] = (float)v.im;
    size = 8;
    break;
  default:
    ((double *)p)[2 * i] = v.re;
    ((double *)p)[2 * i + 1] = v.im;
    size = 16;
  }
  cuemu_rt_library_wrote((char *)p + (size_t)i * size, size);
}

static inline int64_t cuemu__sparse_index(const void *p, int type, int64_t i) {
  return type == CUSPARSE_INDEX_64I ? ((const int64_t *)p)[i]
                                    : ((const int32_t *)p)[i];
}

static inline void cuemu__sparse_set_index(void *p, int type, int64_t i,
                                           int64_t v) {
  size_t size = type == CUSPARSE_INDEX_64I ? 8 : 4;
  if (type == CUSPARSE_INDEX_64I)
    ((int64_t *)p)[i] = v;
  else
    ((int32_t *)p)[i] = (int32_t)v;
  cuemu_rt_library_wrote((char *)p + (size_t)i * size, size);
}

static inline cuemu_sparse_value cuemu__sparse_mul(cuemu_sparse_value a,
                                                   cuemu_sparse_value b) {
  cuemu_sparse_value r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  return r;
}

static inline cuemu_sparse_value cuemu__sparse_add(cuemu_sparse_value a,
                                                   cuemu_sparse_value b) {
  cuemu_sparse_value r = {a.re + b.re, a.im + b.im};
  return r;
}

static inline cuemu_sparse_value cuemu__sparse_div(cuemu_sparse_value a,
                                                   cuemu_sparse_value b) {
  if (b.im == 0) {
    cuemu_sparse_value r = {a.re / b.re, a.im / b.re};
    return r;
  }
  double d = b.re * b.re + b.im * b.im;
  cuemu_sparse_value r = {(a.re * b.re + a.im * b.im) / d,
                          (a.im * b.re - a.re * b.im) / d};
  return r;
}

/* ---- The path onto the stream
 * ------------------------------------------------ */

/* One computation queued on a stream: its function, the descriptors and
 * scalars it was called with (copied: the program may change or destroy
 * them once the call returns, as cuSPARSE allows). */
typedef struct cuemu_sparse_op cuemu_sparse_op;
struct cuemu_sparse_op {
  void (*run)(cuemu_sparse_op *op);
  const char *name;
  int op_a, op_b, alg;
  cuemu_sparse_spmat a;
  cuemu_sparse_spvec sv;
  cuemu_sparse_dnvec x, y;
  cuemu_sparse_dnmat b, c;
  /* alpha and beta: copied from the host (CUSPARSE_POINTER_MODE_HOST), or
   * read through `scalar` when the work runs (DEVICE). */
  unsigned char scalars[2][16];
  const void *scalar[2];
  void *extra; /* owned by the operation (freed after it runs) */
};

/* Allocates an operation (zeroed) for `run`; NULL when out of memory. */
cuemu_sparse_op *cuemu__sparse_op_new(const char *name,
                                      void (*run)(cuemu_sparse_op *op));
/* Keeps alpha (slot 0) or beta (1) of `type`'s size as the handle's pointer
 * mode says. */
void cuemu__sparse_op_scalar(cusparseHandle_t h, cuemu_sparse_op *op, int slot,
                             const void *s, int type);
/* Enqueues op on the handle's stream and takes it over. */
cusparseStatus_t cuemu__sparse_submit(cusparseHandle_t h, cuemu_sparse_op *op);

/* After the submit of a call whose result goes to host memory
 * (CUSPARSE_POINTER_MODE_HOST): waits for the handle's stream, so that the
 * call returns with the result written, as cuSPARSE's. While the stream
 * captures a graph it does not wait (a capturing stream cannot be
 * synchronized): the captured work writes the result each time the graph
 * runs, as NVIDIA's graph-capture sample of cusparseSpVV expects. */
cusparseStatus_t cuemu__sparse_wait_result(cusparseHandle_t h);

/* Enqueues a new operation of `run` whose extra is a copy of the `size`
 * bytes at `extra` (the call's arguments, which it owns once queued). */
cusparseStatus_t cuemu__sparse_submit_copy(cusparseHandle_t h,
                                           const char *name,
                                           void (*run)(cuemu_sparse_op *op),
                                           const void *extra, size_t size);

/* The same with alpha (slot 0) and beta (1) of `type` kept as the
 * handle's pointer mode says (NULL: none); and, when `count` (a result
 * that the pointer mode places, such as a legacy call's
 * nnzTotalDevHostPtr) is given and goes to host memory, the call returns
 * once the work has run, as cuSPARSE's. */
cusparseStatus_t cuemu__sparse_submit_scalars(
    cusparseHandle_t h, const char *name, void (*run)(cuemu_sparse_op *op),
    const void *extra, size_t size, const void *alpha, const void *beta,
    int type, const int *count);

/* The generic API's products (cuemu_sparse_spmv.c), which the legacy BSR
 * products call on a descriptor of their arrays. */
cusparseStatus_t cusparseSpMV(cusparseHandle_t h, int op_a, const void *alpha,
                              const cuemu_sparse_spmat *a,
                              const cuemu_sparse_dnvec *x, const void *beta,
                              const cuemu_sparse_dnvec *y, int type, int alg,
                              void *buffer);
cusparseStatus_t cusparseSpMM(cusparseHandle_t h, int op_a, int op_b,
                              const void *alpha, const cuemu_sparse_spmat *a,
                              const cuemu_sparse_dnmat *b, const void *beta,
                              const cuemu_sparse_dnmat *c, int type, int alg,
                              void *buffer);

/* What cuemu does not emulate: prints "cuemu: <name>: <what> is not
 * emulated" on stderr and gives CUSPARSE_STATUS_NOT_SUPPORTED. */
cusparseStatus_t cuemu__sparse_unsupported(const char *name, const char *what);

/* Checks that the arrays of a descriptor are device memory (a host
 * array faults as a GPU's kernel would: cuemu__libs_device_range). 1 when
 * they are. */
int cuemu__sparse_check_spmat(const char *name, const cuemu_sparse_spmat *a);
int cuemu__sparse_check_dnvec(const char *name, const cuemu_sparse_dnvec *x);
int cuemu__sparse_check_dnmat(const char *name, const cuemu_sparse_dnmat *m);
int cuemu__sparse_check_spvec(const char *name, const cuemu_sparse_spvec *x);

/* Batch i of a strided batch of sparse (or dense) matrices: the matrix
 * whose arrays start at batch i's; a matrix of one batch is every batch's
 * (cuSPARSE's broadcast). */
cuemu_sparse_spmat cuemu__sparse_spmat_batch(const cuemu_sparse_spmat *a,
                                             int i);
cuemu_sparse_dnmat cuemu__sparse_dnmat_batch(const cuemu_sparse_dnmat *m,
                                             int i);

/* Whether batch counts a (a computation's sparse or dense input), b (its
 * other input) and c (its result) go together: each input has the
 * result's count or is one matrix for every batch. */
static inline int cuemu__sparse_batches_agree(int a, int b, int c) {
  return (a == c || a == 1) && (b == c || b == 1);
}

/* Element (i, j) of a dense matrix's storage. */
static inline int64_t cuemu__sparse_dn_at(const cuemu_sparse_dnmat *m,
                                          int64_t i, int64_t j) {
  return m->order == CUSPARSE_ORDER_COL ? j * m->ld + i : i * m->ld + j;
}

/* Calls f(row, col, k, data) for each stored element k of a sparse matrix
 * of any format, indices made 0-based (k indexes the values array). */
void cuemu__sparse_for_each(const cuemu_sparse_spmat *a,
                            void (*f)(int64_t row, int64_t col, int64_t k,
                                      void *data),
                            void *data);

/* The same for BSR, Blocked-ELL and Sliced-ELL (cuemu_sparse_blocked.c);
 * and the device memory check of their arrays (1 when they are device
 * memory). */
void cuemu__sparse_for_each_blocked(const cuemu_sparse_spmat *a,
                                    void (*f)(int64_t row, int64_t col,
                                              int64_t k, void *data),
                                    void *data);
int cuemu__sparse_check_blocked(const char *name, const cuemu_sparse_spmat *a);

static inline int cuemu__sparse_is_blocked(const cuemu_sparse_spmat *a) {
  return a->format == CUSPARSE_FORMAT_BSR ||
         a->format == CUSPARSE_FORMAT_BLOCKED_ELL ||
         a->format == CUSPARSE_FORMAT_SLICED_ELLPACK;
}

#endif /* CUEMU_SPARSE_H */
