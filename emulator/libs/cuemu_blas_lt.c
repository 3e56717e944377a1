/*
 * cuemu_blas_lt.c: the core of cuBLASLt (<cublasLt.h>) in cuemu's cuBLAS
 * (libcuemu_cublas.so, which the cuemu toolkit's libcublasLt.so names):
 * handles, matmul descriptors (compute and scale types, TRANSA/TRANSB,
 * pointer mode, the RELU, BIAS and GELU epilogues), matrix layouts
 * (column- or row-major, strided batches), preferences, a heuristic that
 * offers one algorithm, and cublasLtMatmul, which runs as cublasGemmEx's
 * GEMM (cuemu__blas_ex_call) on the call's stream:
 *
 *   D = epilogue(alpha op(A) op(B) + beta C)
 *
 * A row-major matrix is the column-major matrix of its transpose: A and B
 * of order ROW enter the GEMM transposed, and a row-major D is computed
 * as D^T = op(B)^T op(A)^T. Where C and D differ, C is copied into D
 * first, in stream order. The descriptors live in the caller's opaque
 * storage (cublasLtMatmulDescOpaque_t, ...), so that the *Init forms of
 * the header work on a program's own variables.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuemu_blas.h"

/* cublasLtMatmulDescAttributes_t, cublasLtMatrixLayoutAttribute_t,
 * cublasLtOrder_t, cublasLtEpilogue_t, cublasLtMatmulPreferenceAttributes_t */
enum { DESC_COMPUTE_TYPE = 0, DESC_SCALE_TYPE = 1, DESC_POINTER_MODE = 2,
       DESC_TRANSA = 3, DESC_TRANSB = 4, DESC_EPILOGUE = 7,
       DESC_BIAS_POINTER = 8, DESC_BIAS_BATCH_STRIDE = 10,
       DESC_BIAS_DATA_TYPE = 26 };
enum { LAYOUT_TYPE = 0, LAYOUT_ORDER = 1, LAYOUT_ROWS = 2, LAYOUT_COLS = 3,
       LAYOUT_LD = 4, LAYOUT_BATCH_COUNT = 5, LAYOUT_STRIDED_BATCH_OFFSET = 6 };
enum { ORDER_COL = 0, ORDER_ROW = 1 };
enum { EPILOGUE_DEFAULT = 1, EPILOGUE_RELU = 2, EPILOGUE_BIAS = 4,
       EPILOGUE_GELU = 32 };
enum { PREF_SEARCH_MODE = 0, PREF_MAX_WORKSPACE_BYTES = 1 };

/* The descriptors: within the toolkit's opaque sizes (64, 256 and 64
 * bytes). */
typedef struct {
  int32_t type, order;
  uint64_t rows, cols;
  int64_t ld;
  int32_t batch_count;
  int64_t batch_stride;
} lt_layout;

typedef struct {
  int32_t compute, scale, pointer_mode, transa, transb;
  uint32_t epilogue;
  const void *bias;
  int64_t bias_batch_stride;
  int32_t bias_type; /* -1: D's type */
} lt_desc;

typedef struct {
  uint32_t search_mode;
  uint64_t max_workspace;
} lt_pref;

_Static_assert(sizeof(lt_layout) <= 64, "cublasLtMatrixLayoutOpaque_t");
_Static_assert(sizeof(lt_desc) <= 256, "cublasLtMatmulDescOpaque_t");
_Static_assert(sizeof(lt_pref) <= 64, "cublasLtMatmulPreferenceOpaque_t");

/* One attribute: its number, offset and size in a descriptor. */
typedef struct {
  int attr;
  size_t offset, size;
} lt_field;

static const lt_field desc_fields[] = {
    {DESC_COMPUTE_TYPE, offsetof(lt_desc, compute), 4},
    {DESC_SCALE_TYPE, offsetof(lt_desc, scale), 4},
    {DESC_POINTER_MODE, offsetof(lt_desc, pointer_mode), 4},
    {DESC_TRANSA, offsetof(lt_desc, transa), 4},
    {DESC_TRANSB, offsetof(lt_desc, transb), 4},
    {DESC_EPILOGUE, offsetof(lt_desc, epilogue), 4},
    {DESC_BIAS_POINTER, offsetof(lt_desc, bias), sizeof(void *)},
    {DESC_BIAS_BATCH_STRIDE, offsetof(lt_desc, bias_batch_stride), 8},
    {DESC_BIAS_DATA_TYPE, offsetof(lt_desc, bias_type), 4},
};

static const lt_field layout_fields[] = {
    {LAYOUT_TYPE, offsetof(lt_layout, type), 4},
    {LAYOUT_ORDER, offsetof(lt_layout, order), 4},
    {LAYOUT_ROWS, offsetof(lt_layout, rows), 8},
    {LAYOUT_COLS, offsetof(lt_layout, cols), 8},
    {LAYOUT_LD, offsetof(lt_layout, ld), 8},
    {LAYOUT_BATCH_COUNT, offsetof(lt_layout, batch_count), 4},
    {LAYOUT_STRIDED_BATCH_OFFSET, offsetof(lt_layout, batch_stride), 8},
};

static const lt_field pref_fields[] = {
    {PREF_SEARCH_MODE, offsetof(lt_pref, search_mode), 4},
    {PREF_MAX_WORKSPACE_BYTES, offsetof(lt_pref, max_workspace), 8},
};

static const lt_field *find_field(const lt_field *f, size_t count, int attr) {
  for (size_t i = 0; i < count; ++i)
    if (f[i].attr == attr)
      return &f[i];
  return NULL;
}

/* cublasLt*SetAttribute: the attribute's bytes, which must be its size.
 * An attribute cuemu does not keep is refused with INVALID_VALUE only when
 * its size is wrong for any value; otherwise accepted and ignored would
 * give wrong results, so it is NOT_SUPPORTED. */
static cublasStatus_t set_field(void *object, const lt_field *fields,
                                size_t count, int attr, const void *buf,
                                size_t size) {
  if (!object || !buf)
    return CUBLAS_STATUS_INVALID_VALUE;
  const lt_field *f = find_field(fields, count, attr);
  if (!f)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if (size != f->size)
    return CUBLAS_STATUS_INVALID_VALUE;
  memcpy((char *)object + f->offset, buf, size);
  return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t get_field(const void *object, const lt_field *fields,
                                size_t count, int attr, void *buf, size_t size,
                                size_t *written) {
  if (!object)
    return CUBLAS_STATUS_INVALID_VALUE;
  const lt_field *f = find_field(fields, count, attr);
  if (!f)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  /* A size of 0 asks for the size (cuBLASLt's rule). */
  if (size == 0 && written) {
    *written = f->size;
    return CUBLAS_STATUS_SUCCESS;
  }
  if (!buf || size < f->size)
    return CUBLAS_STATUS_INVALID_VALUE;
  memcpy(buf, (const char *)object + f->offset, f->size);
  if (written)
    *written = f->size;
  return CUBLAS_STATUS_SUCCESS;
}

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* cublasLt<Name>Destroy, cublasLt<Name>SetAttribute and
 * cublasLt<Name>GetAttribute of the objects of type T, whose attributes
 * `fields` lists: one definition for the layouts, the matmul descriptors
 * and the preferences. */
#define LT_OBJECT_CALLS(Name, T, fields)                                       \
  CUEMU_BLAS_EXPORT cublasStatus_t cublasLt##Name##Destroy(T *o) {             \
    free(o);                                                                   \
    return CUBLAS_STATUS_SUCCESS;                                              \
  }                                                                            \
  CUEMU_BLAS_EXPORT cublasStatus_t cublasLt##Name##SetAttribute(               \
      T *o, int attr, const void *buf, size_t size) {                          \
    return set_field(o, fields, COUNT(fields), attr, buf, size);               \
  }                                                                            \
  CUEMU_BLAS_EXPORT cublasStatus_t cublasLt##Name##GetAttribute(               \
      const T *o, int attr, void *buf, size_t size, size_t *written) {         \
    return get_field(o, fields, COUNT(fields), attr, buf, size, written);      \
  }

/* ---- Handles and descriptors --------------------------------------------- */

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtCreate(cublasHandle_t *handle) {
  /* A cuBLASLt handle is a cuBLAS handle; the stream comes with each
   * matmul. */
  extern cublasStatus_t cublasCreate_v2(cublasHandle_t *);
  return cublasCreate_v2(handle);
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtDestroy(cublasHandle_t handle) {
  extern cublasStatus_t cublasDestroy_v2(cublasHandle_t);
  return cublasDestroy_v2(handle);
}

CUEMU_BLAS_EXPORT size_t cublasLtGetVersion(void) { return CUEMU_BLAS_VERSION; }

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtMatrixLayoutInit_internal(
    lt_layout *l, size_t size, int type, uint64_t rows, uint64_t cols,
    int64_t ld) {
  if (!l || size < sizeof *l)
    return CUBLAS_STATUS_INVALID_VALUE;
  memset(l, 0, size);
  *l = (lt_layout){type, ORDER_COL, rows, cols, ld, 1, 0};
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtMatrixLayoutCreate(
    lt_layout **out, int type, uint64_t rows, uint64_t cols, int64_t ld) {
  if (!out)
    return CUBLAS_STATUS_INVALID_VALUE;
  lt_layout *l = calloc(1, 64);
  if (!l)
    return CUBLAS_STATUS_ALLOC_FAILED;
  cublasLtMatrixLayoutInit_internal(l, 64, type, rows, cols, ld);
  *out = l;
  return CUBLAS_STATUS_SUCCESS;
}

LT_OBJECT_CALLS(MatrixLayout, lt_layout, layout_fields)

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtMatmulDescInit_internal(
    lt_desc *d, size_t size, int compute, int scale) {
  if (!d || size < sizeof *d)
    return CUBLAS_STATUS_INVALID_VALUE;
  memset(d, 0, size);
  d->compute = compute, d->scale = scale;
  d->pointer_mode = CUBLAS_POINTER_MODE_HOST;
  d->transa = d->transb = CUBLAS_OP_N;
  d->epilogue = EPILOGUE_DEFAULT;
  d->bias_type = -1;
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtMatmulDescCreate(lt_desc **out,
                                                          int compute,
                                                          int scale) {
  if (!out)
    return CUBLAS_STATUS_INVALID_VALUE;
  lt_desc *d = calloc(1, 256);
  if (!d)
    return CUBLAS_STATUS_ALLOC_FAILED;
  cublasLtMatmulDescInit_internal(d, 256, compute, scale);
  *out = d;
  return CUBLAS_STATUS_SUCCESS;
}

LT_OBJECT_CALLS(MatmulDesc, lt_desc, desc_fields)

CUEMU_BLAS_EXPORT cublasStatus_t
cublasLtMatmulPreferenceInit_internal(lt_pref *p, size_t size) {
  if (!p || size < sizeof *p)
    return CUBLAS_STATUS_INVALID_VALUE;
  memset(p, 0, size);
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtMatmulPreferenceCreate(lt_pref **out) {
  if (!out)
    return CUBLAS_STATUS_INVALID_VALUE;
  lt_pref *p = calloc(1, 64);
  if (!p)
    return CUBLAS_STATUS_ALLOC_FAILED;
  *out = p;
  return CUBLAS_STATUS_SUCCESS;
}

LT_OBJECT_CALLS(MatmulPreference, lt_pref, pref_fields)

/* ---- The matmul as a GEMM ------------------------------------------------- */

/* A matmul described as cublasGemmEx's call, with what the epilogue needs. */
typedef struct {
  cuemu_blas_gemm_call call;
  int compute;
  int d_row;      /* D is row-major */
  int64_t m, n;   /* D's logical rows and columns */
} lt_plan;

/* op for the column-major view of a matrix of `order`: a row-major matrix
 * is the transpose of its column-major reading. -1 where there is none
 * (a conjugate transpose of a row-major matrix). */
static int view_op(int op, int order) {
  if (order == ORDER_COL)
    return op;
  return op == CUBLAS_OP_N ? CUBLAS_OP_T : op == CUBLAS_OP_T ? CUBLAS_OP_N : -1;
}

static cublasStatus_t plan_matmul(const lt_desc *d, const lt_layout *a,
                                  const lt_layout *b, const lt_layout *c,
                                  const lt_layout *dl, lt_plan *p) {
  if (!d || !a || !b || !c || !dl)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (!cuemu__blas_op_valid(d->transa) || !cuemu__blas_op_valid(d->transb))
    return CUBLAS_STATUS_INVALID_VALUE;
  int64_t m = (int64_t)dl->rows, n = (int64_t)dl->cols;
  int64_t am = d->transa == CUBLAS_OP_N ? (int64_t)a->rows : (int64_t)a->cols;
  int64_t k = d->transa == CUBLAS_OP_N ? (int64_t)a->cols : (int64_t)a->rows;
  int64_t bk = d->transb == CUBLAS_OP_N ? (int64_t)b->rows : (int64_t)b->cols;
  int64_t bn = d->transb == CUBLAS_OP_N ? (int64_t)b->cols : (int64_t)b->rows;
  if (am != m || bk != k || bn != n || c->rows != dl->rows ||
      c->cols != dl->cols)
    return CUBLAS_STATUS_INVALID_VALUE;
  /* C and D share type and order (cuBLASLt's rule for these types). */
  if (c->type != dl->type || c->order != dl->order)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  int orders_ok = (a->order == ORDER_COL || a->order == ORDER_ROW) &&
                  (b->order == ORDER_COL || b->order == ORDER_ROW) &&
                  (dl->order == ORDER_COL || dl->order == ORDER_ROW);
  if (!orders_ok)
    return CUBLAS_STATUS_NOT_SUPPORTED; /* the tensor-core orders */
  int ta = view_op(d->transa, a->order), tb = view_op(d->transb, b->order);
  if (ta < 0 || tb < 0)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  int32_t batch = dl->batch_count;
  if (batch < 1 || a->batch_count != batch || b->batch_count != batch ||
      c->batch_count != batch)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (d->pointer_mode != CUBLAS_POINTER_MODE_HOST &&
      d->pointer_mode != CUBLAS_POINTER_MODE_DEVICE)
    return CUBLAS_STATUS_NOT_SUPPORTED; /* the alpha-vector modes */
  uint32_t known = EPILOGUE_RELU | EPILOGUE_BIAS | EPILOGUE_GELU;
  if (d->epilogue != EPILOGUE_DEFAULT &&
      ((d->epilogue & ~known) != 0 ||
       (d->epilogue & (EPILOGUE_RELU | EPILOGUE_GELU)) ==
           (EPILOGUE_RELU | EPILOGUE_GELU)))
    return CUBLAS_STATUS_NOT_SUPPORTED; /* aux, gradient epilogues */
  memset(p, 0, sizeof *p);
  cuemu_blas_gemm_call *call = &p->call;
  call->name = "cublasLtMatmul";
  call->batch = batch;
  if (dl->order == ORDER_COL) {
    call->g = (cuemu_blas_gemm_args){ta, tb, m, n, k, a->type, b->type,
                                     dl->type, 0, a->ld, b->ld, dl->ld,
                                     0, 0, 0};
    call->stride_a = a->batch_stride, call->stride_b = b->batch_stride;
  } else {
    /* D^T = op(B)^T op(A)^T, column-major. */
    call->g = (cuemu_blas_gemm_args){view_op(tb, ORDER_ROW),
                                     view_op(ta, ORDER_ROW), n, m, k, b->type,
                                     a->type, dl->type, 0, b->ld, a->ld,
                                     dl->ld, 0, 0, 0};
    call->stride_a = b->batch_stride, call->stride_b = a->batch_stride;
  }
  call->stride_c = dl->batch_stride;
  p->compute = d->compute;
  p->d_row = dl->order == ORDER_ROW;
  p->m = m, p->n = n;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cuemu__blas_lt_check(const void *desc, const void *a,
                                    const void *b, const void *c,
                                    const void *d) {
  lt_plan p;
  cublasStatus_t st = plan_matmul(desc, a, b, c, d, &p);
  if (st == CUBLAS_STATUS_SUCCESS &&
      !cuemu__blas_type_size(((const lt_layout *)d)->type))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if (st == CUBLAS_STATUS_SUCCESS &&
      !cuemu__blas_ex_supported(p.compute, p.call.g.at, p.call.g.bt,
                                p.call.g.ct))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  return st;
}

/* Copies C into D (same type, order and shape), for every batch. */
typedef struct {
  cuemu_blas_op base;
  const char *c;
  char *d;
  int64_t lines, line_elems, ldc, ldd, stride_c, stride_d, batch;
  size_t elem;
} copy_op;

static void run_copy(cuemu_blas_op *o) {
  copy_op *op = (copy_op *)o;
  for (int64_t b = 0; b < op->batch; ++b)
    for (int64_t j = 0; j < op->lines; ++j)
      memmove(op->d + (b * op->stride_d + j * op->ldd) * op->elem,
              op->c + (b * op->stride_c + j * op->ldc) * op->elem,
              op->line_elems * op->elem);
  for (int64_t b = 0; b < op->batch; ++b)
    cuemu__blas_matrix_wrote(op->d + b * op->stride_d * op->elem,
                             op->line_elems, op->lines, op->ldd, op->elem);
}

/* The epilogue on D, in place: bias[row] added, then RELU or GELU. */
typedef struct {
  cuemu_blas_op base;
  char *d;
  int type, bias_type, d_row;
  uint32_t epilogue;
  const void *bias;
  int64_t m, n, ld, stride, bias_stride, batch;
} epilogue_op;

static void run_epilogue(cuemu_blas_op *o) {
  epilogue_op *op = (epilogue_op *)o;
  for (int64_t b = 0; b < op->batch; ++b)
    for (int64_t j = 0; j < op->n; ++j)
      for (int64_t i = 0; i < op->m; ++i) {
        int64_t at = b * op->stride + (op->d_row ? i * op->ld + j : j * op->ld + i);
        double v = creal(cuemu__blas_load(op->type, op->d, at));
        if (op->epilogue & EPILOGUE_BIAS)
          v += creal(cuemu__blas_load(op->bias_type, op->bias,
                                      b * op->bias_stride + i));
        if (op->epilogue & EPILOGUE_RELU)
          v = v > 0 ? v : 0;
        if (op->epilogue & EPILOGUE_GELU)
          /* The tanh approximation cuBLASLt documents for GELU. */
          v = 0.5 * v *
              (1.0 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
        cuemu__blas_store(op->type, op->d, at, v);
      }
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtMatmul(
    cublasHandle_t lt, const lt_desc *desc, const void *alpha, const void *A,
    const lt_layout *Adesc, const void *B, const lt_layout *Bdesc,
    const void *beta, const void *C, const lt_layout *Cdesc, void *D,
    const lt_layout *Ddesc, const void *algo, void *workspace,
    size_t workspace_bytes, void *stream) {
  (void)algo, (void)workspace, (void)workspace_bytes;
  if (!lt)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  lt_plan p;
  cublasStatus_t st = plan_matmul(desc, Adesc, Bdesc, Cdesc, Ddesc, &p);
  if (st != CUBLAS_STATUS_SUCCESS)
    return st;
  /* The handle for this call: the Lt handle's device, the call's stream
   * and the descriptor's pointer mode. */
  struct cuemu_blas_handle h = *lt;
  h.stream = stream;
  h.pointer_mode = desc->pointer_mode;
  h.math_mode = 0;
  size_t elem = cuemu__blas_type_size(Ddesc->type);
  if (!elem)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if (C != D && p.m > 0 && p.n > 0) {
    /* C into D first, in stream order; the GEMM then updates D. */
    copy_op *op = (copy_op *)cuemu__blas_op_new(sizeof *op, "cublasLtMatmul",
                                                run_copy);
    if (!op)
      return CUBLAS_STATUS_ALLOC_FAILED;
    op->c = C, op->d = D, op->elem = elem;
    op->lines = Ddesc->order == ORDER_ROW ? p.m : p.n;
    op->line_elems = Ddesc->order == ORDER_ROW ? p.n : p.m;
    op->ldc = Cdesc->ld, op->ldd = Ddesc->ld;
    op->stride_c = Cdesc->batch_stride, op->stride_d = Ddesc->batch_stride;
    op->batch = Ddesc->batch_count;
    size_t cbytes = cuemu__blas_matrix_bytes(op->line_elems, op->lines,
                                             Cdesc->ld, elem);
    if (!cuemu__libs_device_range("cublasLtMatmul", "C", C, cbytes)) {
      free(op);
      return CUBLAS_STATUS_SUCCESS;
    }
    st = cuemu__blas_submit(&h, &op->base);
    if (st != CUBLAS_STATUS_SUCCESS)
      return st;
  }
  cuemu_blas_gemm_call call = p.call;
  call.alpha = alpha, call.beta = beta;
  call.A = Ddesc->order == ORDER_ROW ? B : A;
  call.B = Ddesc->order == ORDER_ROW ? A : B;
  call.C = D;
  st = cuemu__blas_ex_call(&h, &call, p.compute, -1);
  if (st != CUBLAS_STATUS_SUCCESS)
    return st;
  if (desc->epilogue != EPILOGUE_DEFAULT && p.m > 0 && p.n > 0) {
    if ((desc->epilogue & EPILOGUE_BIAS) && !desc->bias)
      return CUBLAS_STATUS_INVALID_VALUE;
    epilogue_op *op = (epilogue_op *)cuemu__blas_op_new(
        sizeof *op, "cublasLtMatmul", run_epilogue);
    if (!op)
      return CUBLAS_STATUS_ALLOC_FAILED;
    op->d = D, op->type = Ddesc->type, op->d_row = p.d_row;
    op->bias_type = desc->bias_type >= 0 ? desc->bias_type : Ddesc->type;
    op->epilogue = desc->epilogue, op->bias = desc->bias;
    op->m = p.m, op->n = p.n, op->ld = Ddesc->ld;
    op->stride = Ddesc->batch_stride, op->bias_stride = desc->bias_batch_stride;
    op->batch = Ddesc->batch_count;
    return cuemu__blas_submit(&h, &op->base);
  }
  return CUBLAS_STATUS_SUCCESS;
}

CUEMU_BLAS_EXPORT cublasStatus_t cublasLtMatmulAlgoGetHeuristic(
    cublasHandle_t lt, const lt_desc *desc, const lt_layout *Adesc,
    const lt_layout *Bdesc, const lt_layout *Cdesc, const lt_layout *Ddesc,
    const lt_pref *pref, int requested, void *results, int *returned) {
  (void)pref;
  if (!lt)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (requested < 1 || !results || !returned)
    return CUBLAS_STATUS_INVALID_VALUE;
  lt_plan p;
  cublasStatus_t st = plan_matmul(desc, Adesc, Bdesc, Cdesc, Ddesc, &p);
  *returned = 0;
  if (st != CUBLAS_STATUS_SUCCESS)
    return st;
  /* One algorithm, needing no workspace (cublasLtMatmulHeuristicResult_t:
   * the algorithm's 64 bytes, workspaceSize, state, wavesCount, 4 ints). */
  struct {
    uint64_t algo[8];
    size_t workspace;
    int state;
    float waves;
    int reserved[4];
  } *r = results;
  memset(r, 0, sizeof *r);
  r->algo[0] = 1; /* cuemu's one GEMM */
  r->state = CUBLAS_STATUS_SUCCESS;
  r->waves = 1.0f;
  *returned = 1;
  return CUBLAS_STATUS_SUCCESS;
}
