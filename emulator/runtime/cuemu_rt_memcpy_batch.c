/*
 * cuemu_rt_memcpy_batch.c: cudaMemcpyBatchAsync and cudaMemcpy3DBatchAsync
 * (see cuemu/cuemu_rt_memcpy_batch.h).
 *
 * A batch runs at its place in the stream, which is when it is issued, as
 * every stream operation here; its copies run in the order given (CUDA
 * promises no order within a batch, so a program that depends on one is
 * wrong on a GPU). Every copy is checked before the first runs, so that a
 * failing batch has copied nothing and names the copy at fault. The hints
 * (source access order, location hints, the overlap flag) change nothing
 * where all memory is the host's, but they are checked as CUDA checks them.
 */
#include <stdint.h>
#include <string.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_rt_memcpy_batch.h>
#include <cuemu/cuemu_rt_texture.h>

#include "base/cuemu_report.h"
#include "runtime/cuemu_rt_array.h"
#include "runtime/cuemu_rt_default_stream.h"
#include "runtime/cuemu_rt_internal.h"

/* Records `code` as the last error, with *fail_idx the copy at fault
 * (SIZE_MAX: none in particular). */
static int fail(int code, size_t *fail_idx, size_t index) {
  if (fail_idx)
    *fail_idx = index;
  return cuemu_rt_error(code);
}

static int order_valid(enum cudaMemcpySrcAccessOrder order) {
  return order >= cudaMemcpySrcAccessOrderStream &&
         order <= cudaMemcpySrcAccessOrderAny;
}

static int flags_valid(unsigned flags) {
  return (flags & ~(unsigned)cudaMemcpyFlagPreferOverlapWithCompute) == 0;
}

/* The checks of the stream every batch makes: a live stream that is not
 * the legacy default stream (cudaErrorInvalidValue, as CUDA documents), not
 * capturing (CUDA has no graph node for a batch: the call fails and the
 * capture goes on), and no sticky error. Returns 0 or a recorded code. */
static int check_batch_stream(void *stream) {
  /* The copies themselves are queued in the stream's order (as
   * cudaMemcpyAsync's), so nothing waits for its earlier work here. */
  int code = cuemu__rt_stream_valid(stream);
  if (code)
    return code;
  void *resolved = cuemu__stream_resolve(stream);
  if (resolved == NULL || resolved == (void *)0x1)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int status = 0;
  code = cuemu_rt_stream_is_capturing(stream, &status);
  if (code)
    return code;
  if (status != 0) {
    cuemu__report_print("a batch of copies (cudaMemcpyBatchAsync, "
                        "cudaMemcpy3DBatchAsync) into a capturing stream: "
                        "CUDA cannot capture one, the call fails with "
                        "cudaErrorStreamCaptureUnsupported and the capture "
                        "goes on without it");
    return cuemu_rt_error(cudaErrorStreamCaptureUnsupported);
  }
  return cuemu__rt_check_sticky();
}

int cuemu_rt_memcpy_batch_async(void *const *dsts, const void *const *srcs,
                                const size_t *sizes, size_t count,
                                const struct cudaMemcpyAttributes *attrs,
                                const size_t *attrs_idxs, size_t num_attrs,
                                size_t *fail_idx, void *stream) {
  if (fail_idx)
    *fail_idx = SIZE_MAX;
  if (!dsts || !srcs || !sizes || count == 0 || !attrs || !attrs_idxs ||
      num_attrs == 0 || num_attrs > count || attrs_idxs[0] != 0)
    return fail(cudaErrorInvalidValue, fail_idx, SIZE_MAX);
  /* attrs[k] applies from attrs_idxs[k] to the next start. */
  for (size_t k = 0; k < num_attrs; ++k) {
    if ((k > 0 && attrs_idxs[k] <= attrs_idxs[k - 1]) ||
        attrs_idxs[k] >= count || !order_valid(attrs[k].srcAccessOrder) ||
        !flags_valid(attrs[k].flags))
      return fail(cudaErrorInvalidValue, fail_idx, SIZE_MAX);
  }
  int code = check_batch_stream(stream);
  if (code)
    return code;
  for (size_t i = 0; i < count; ++i) {
    if (sizes[i] == 0)
      continue;
    code = cuemu__rt_check_copy(dsts[i], sizes[i], srcs[i], sizes[i],
                                cudaMemcpyDefault);
    if (code)
      return fail(code, fail_idx, i);
  }
  for (size_t i = 0; i < count; ++i) {
    code = cuemu_rt_memcpy_async(dsts[i], srcs[i], sizes[i],
                                 cudaMemcpyDefault, stream);
    if (code)
      return fail(code, fail_idx, i);
  }
  return cudaSuccess;
}

/* One operand of a 3D batch copy as a side of a cudaMemcpy3DParms: an
 * array at its offset, or a pointer whose rows are rowLength elements of
 * `es` bytes (the width when 0) and layers layerHeight rows (the height
 * when 0). Returns 0 or a CUDA code. */
static int operand(const struct cudaMemcpy3DOperand *o,
                   struct cudaExtent extent, size_t es, cudaArray_t *array,
                   struct cudaPos *pos, struct cudaPitchedPtr *ptr) {
  if (o->type == cudaMemcpyOperandTypeArray) {
    if (!o->op.array.array)
      return cudaErrorInvalidValue;
    *array = o->op.array.array;
    pos->x = o->op.array.offset.x;
    pos->y = o->op.array.offset.y;
    pos->z = o->op.array.offset.z;
    return 0;
  }
  if (o->type != cudaMemcpyOperandTypePointer || !o->op.ptr.ptr)
    return cudaErrorInvalidValue;
  size_t row = o->op.ptr.rowLength ? o->op.ptr.rowLength : extent.width;
  size_t layer = o->op.ptr.layerHeight ? o->op.ptr.layerHeight : extent.height;
  if (row < extent.width || layer < extent.height || row > SIZE_MAX / es)
    return cudaErrorInvalidValue;
  ptr->ptr = o->op.ptr.ptr;
  ptr->pitch = row * es;
  ptr->xsize = extent.width * es;
  ptr->ysize = layer;
  return 0;
}

/* The element size of an operand: its array's, 1 for a pointer. */
static size_t element_size(const struct cudaMemcpy3DOperand *o) {
  if (o->type != cudaMemcpyOperandTypeArray ||
      !cuemu__array_valid(o->op.array.array))
    return 1;
  return o->op.array.array->format.size;
}

/* A batch operation as a cudaMemcpy3DParms (which cuemu_rt_memcpy_3d
 * runs and checks further). Returns 0 or a CUDA code. */
static int parms_of(const struct cudaMemcpy3DBatchOp *op,
                    struct cudaMemcpy3DParms *p) {
  memset(p, 0, sizeof *p);
  if (op->extent.width == 0 || op->extent.height == 0 ||
      op->extent.depth == 0 || !order_valid(op->srcAccessOrder) ||
      !flags_valid(op->flags))
    return cudaErrorInvalidValue;
  /* The element size is the array's when one is involved (both arrays':
   * cuemu__rt_memcpy_3d_check refuses two that differ), else 1. */
  size_t es = element_size(&op->src);
  if (es == 1)
    es = element_size(&op->dst);
  int code = operand(&op->src, op->extent, es, &p->srcArray, &p->srcPos,
                     &p->srcPtr);
  if (!code)
    code = operand(&op->dst, op->extent, es, &p->dstArray, &p->dstPos,
                   &p->dstPtr);
  p->extent = op->extent;
  p->kind = cudaMemcpyDefault;
  return code;
}

int cuemu_rt_memcpy_3d_batch_async(size_t num_ops,
                                   const struct cudaMemcpy3DBatchOp *ops,
                                   unsigned long long flags, size_t *fail_idx,
                                   void *stream) {
  if (fail_idx)
    *fail_idx = SIZE_MAX;
  if (num_ops == 0 || !ops || flags != 0)
    return fail(cudaErrorInvalidValue, fail_idx, SIZE_MAX);
  int code = check_batch_stream(stream);
  if (code)
    return code;
  struct cudaMemcpy3DParms p;
  for (size_t i = 0; i < num_ops; ++i) {
    code = parms_of(&ops[i], &p);
    if (!code)
      code = cuemu__rt_memcpy_3d_check(&p);
    if (code)
      return fail(code, fail_idx, i);
  }
  for (size_t i = 0; i < num_ops; ++i) {
    parms_of(&ops[i], &p);
    code = cuemu_rt_memcpy_3d_async(&p, stream);
    if (code)
      return fail(code, fail_idx, i);
  }
  return cudaSuccess;
}
