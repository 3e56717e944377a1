/*
 * cuemu_rt_array_async.c: the stream copies with CUDA arrays outside a
 * capture (cudaMemcpy2DToArrayAsync, cudaMemcpy2DFromArrayAsync and the
 * deprecated cudaMemcpyToArrayAsync and cudaMemcpyFromArrayAsync). An
 * array's elements are rows of device memory (cuemu_rt_array.h), so each
 * is checked against the array when issued and then is the stream copy of
 * those rows (cudaMemcpy2DAsync or cudaMemcpyAsync): queued on an
 * asynchronous stream, run at once with a pageable host side, as those
 * are. See cuemu_rt_array_async.h and docs/streams.md.
 */
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_rt_array_async.h>

#include "runtime/cuemu_rt_array.h"
#include "runtime/cuemu_rt_internal.h"

/* The first byte of byte column x, row y of `a`, and its row pitch. */
static unsigned char *row_at(const struct cudaArray *a, size_t x, size_t y,
                             size_t *pitch) {
  *pitch = a->width * a->format.size;
  return cuemu__array_at(a, 0, y, 0) + x;
}

int cuemu__rt_array_copy_2d_async(struct cudaArray *dst_array, size_t dst_x,
                                  size_t dst_y, void *dst, size_t dpitch,
                                  const struct cudaArray *src_array,
                                  size_t src_x, size_t src_y, const void *src,
                                  size_t spitch, size_t width, size_t height,
                                  int kind, void *stream) {
  int code = cuemu__rt_check_sticky();
  if (code)
    return code;
  if (dst_array && src_array && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return cuemu_rt_error(cudaErrorInvalidMemcpyDirection);
  if (dst_array)
    code = cuemu__array_box(dst_array, dst_x, dst_y, 0, width, height, 1);
  if (!code && src_array)
    code = cuemu__array_box(src_array, src_x, src_y, 0, width, height, 1);
  if (code)
    return cuemu_rt_error(code);
  if (dst_array)
    dst = row_at(dst_array, dst_x, dst_y, &dpitch);
  if (src_array)
    src = row_at(src_array, src_x, src_y, &spitch);
  return cuemu_rt_memcpy_2d_async(dst, dpitch, src, spitch, width, height,
                                  kind, stream);
}

int cuemu_rt_memcpy_to_array_async(cudaArray_t dst, size_t w_offset,
                                   size_t h_offset, const void *src,
                                   size_t count, int kind, void *stream) {
  int code = cuemu__rt_check_sticky();
  if (code)
    return code;
  if (!cuemu__array_valid(dst))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  size_t at = cuemu__array_linear(dst, w_offset, h_offset, count);
  if (at == (size_t)-1)
    return cuemu_rt_error(cudaErrorInvalidValue);
  return cuemu_rt_memcpy_async(dst->data + at, src, count, kind, stream);
}

int cuemu_rt_memcpy_from_array_async(void *dst, cudaArray_const_t src,
                                     size_t w_offset, size_t h_offset,
                                     size_t count, int kind, void *stream) {
  int code = cuemu__rt_check_sticky();
  if (code)
    return code;
  if (!cuemu__array_valid(src))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  size_t at = cuemu__array_linear(src, w_offset, h_offset, count);
  if (at == (size_t)-1)
    return cuemu_rt_error(cudaErrorInvalidValue);
  return cuemu_rt_memcpy_async(dst, src->data + at, count, kind, stream);
}
