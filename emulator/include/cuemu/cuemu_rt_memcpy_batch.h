/*
 * cuemu_rt_memcpy_batch.h: the batched copies of CUDA 12.8 and 13
 * (cudaMemcpyBatchAsync, cudaMemcpy3DBatchAsync and the driver's
 * cuMemcpyBatchAsync, cuMemcpy3DBatchAsync), with CUDA's types in C, their
 * names, layouts and values (driver_types.h of CUDA 13). The driver's types
 * (CUmemcpyAttributes, CUDA_MEMCPY3D_BATCH_OP, ...) have the same layouts.
 * Implemented by emulator/runtime/cuemu_rt_memcpy_batch.c; the shims are
 * shims/cuda_builtins/cuemu_memcpy_batch_api.h and
 * cuemu_driver_batch_api.h.
 */
#ifndef CUEMU_RT_MEMCPY_BATCH_H
#define CUEMU_RT_MEMCPY_BATCH_H

#include <stddef.h>

#include <cuemu/cuemu_rt_host_types.h>
#include <cuemu/cuemu_rt_texture_types.h>

#ifdef __cplusplus
extern "C" {
#endif

enum cudaMemcpyFlags {
  cudaMemcpyFlagDefault = 0x0,
  cudaMemcpyFlagPreferOverlapWithCompute = 0x1
};

enum cudaMemcpySrcAccessOrder {
  cudaMemcpySrcAccessOrderInvalid = 0x0,
  cudaMemcpySrcAccessOrderStream = 0x1,
  cudaMemcpySrcAccessOrderDuringApiCall = 0x2,
  cudaMemcpySrcAccessOrderAny = 0x3,
  cudaMemcpySrcAccessOrderMax = 0x7FFFFFFF
};

struct cudaMemcpyAttributes {
  enum cudaMemcpySrcAccessOrder srcAccessOrder;
  struct cudaMemLocation srcLocHint;
  struct cudaMemLocation dstLocHint;
  unsigned int flags;
};

enum cudaMemcpy3DOperandType {
  cudaMemcpyOperandTypePointer = 0x1,
  cudaMemcpyOperandTypeArray = 0x2,
  cudaMemcpyOperandTypeMax = 0x7FFFFFFF
};

struct cudaOffset3D {
  size_t x;
  size_t y;
  size_t z;
};

struct cudaMemcpy3DOperand {
  enum cudaMemcpy3DOperandType type;
  union {
    struct {
      void *ptr;
      size_t rowLength;   /* elements; 0: the copy's width */
      size_t layerHeight; /* rows; 0: the copy's height */
      struct cudaMemLocation locHint;
    } ptr;
    struct {
      cudaArray_t array;
      struct cudaOffset3D offset; /* elements, rows, layers */
    } array;
  } op;
};

struct cudaMemcpy3DBatchOp {
  struct cudaMemcpy3DOperand src;
  struct cudaMemcpy3DOperand dst;
  struct cudaExtent extent;
  enum cudaMemcpySrcAccessOrder srcAccessOrder;
  unsigned int flags;
};

/* cudaMemcpyBatchAsync: `count` copies of sizes[i] bytes from srcs[i] to
 * dsts[i] (any memory, as cudaMemcpyDefault) into `stream`, which must not
 * be the legacy default stream. attrs[k] applies to the copies from
 * attrs_idxs[k] to the next index (the first 0, each greater than the one
 * before, the last less than count, num_attrs at most count); each must
 * have a valid source access order and flags. Every copy is checked before
 * any runs: on an error no copy has run, and *fail_idx (when fail_idx is
 * not NULL, CUDA 12.8's form) is the index of the copy at fault, or
 * SIZE_MAX when the error is not one copy's. A capturing stream is
 * cudaErrorStreamCaptureUnsupported (CUDA has no node for it) and the
 * capture goes on. Returns a CUDA code. */
int cuemu_rt_memcpy_batch_async(void *const *dsts, const void *const *srcs,
                                const size_t *sizes, size_t count,
                                const struct cudaMemcpyAttributes *attrs,
                                const size_t *attrs_idxs, size_t num_attrs,
                                size_t *fail_idx, void *stream);

/* cudaMemcpy3DBatchAsync: `num_ops` copies, each between a pointer (rows of
 * rowLength elements, layers of layerHeight rows) and/or a CUDA array (at
 * an offset in elements), extent in elements (bytes between two pointers),
 * none of it 0; flags must be 0. Errors, checks and fail_idx as above. */
int cuemu_rt_memcpy_3d_batch_async(size_t num_ops,
                                   const struct cudaMemcpy3DBatchOp *ops,
                                   unsigned long long flags, size_t *fail_idx,
                                   void *stream);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_RT_MEMCPY_BATCH_H */
