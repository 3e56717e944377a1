/*
 * cuemu_rt_graph_array.c: memcpy nodes in cudaMemcpy3DParms terms: the
 * conversion of CUDA's copy parameters (pitched memory or CUDA arrays on
 * either side) to a node's copy and back, the checks and the run of a
 * copy that involves an array (through cudaMemcpy3D's code), and the
 * stream copies with arrays that a capture records (cudaMemcpy3DAsync,
 * cudaMemcpy2DToArrayAsync and the like). See cuemu_runtime_graph.h.
 */
#include <string.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>
#include <cuemu/cuemu_rt_texture.h>

#include "runtime/cuemu_rt_array.h"
#include "runtime/cuemu_rt_capture.h"
#include "runtime/cuemu_rt_graph_internal.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_stream_queue.h"

int cuemu_rt_graph_memcpy_from_3d(cuemu_rt_graph_memcpy *c,
                                  const struct cudaMemcpy3DParms *p) {
  if (!c || !p)
    return cudaErrorInvalidValue;
  memset(c, 0, sizeof *c);
  if ((p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr))
    return cudaErrorInvalidValue;
  /* Linear copies take a missing pitch as the width; with an array the
   * width counts elements, so a pointer side's pitch is used as given. */
  int arrays = p->srcArray || p->dstArray;
  size_t w = p->extent.width, h = p->extent.height;
  c->dst = p->dstPtr.ptr;
  c->dst_array = p->dstArray;
  c->dst_pitch = p->dstPtr.pitch || arrays ? p->dstPtr.pitch : w;
  c->dst_ysize = p->dstPtr.ysize || arrays ? p->dstPtr.ysize : h;
  c->dst_x = p->dstPos.x;
  c->dst_y = p->dstPos.y;
  c->dst_z = p->dstPos.z;
  c->src = p->srcPtr.ptr;
  c->src_array = p->srcArray;
  c->src_pitch = p->srcPtr.pitch || arrays ? p->srcPtr.pitch : w;
  c->src_ysize = p->srcPtr.ysize || arrays ? p->srcPtr.ysize : h;
  c->src_x = p->srcPos.x;
  c->src_y = p->srcPos.y;
  c->src_z = p->srcPos.z;
  c->width = w;
  c->height = h;
  c->depth = p->extent.depth;
  c->kind = p->kind;
  return cudaSuccess;
}

void cuemu_rt_graph_memcpy_to_3d(const cuemu_rt_graph_memcpy *c,
                                 struct cudaMemcpy3DParms *p) {
  memset(p, 0, sizeof *p);
  p->dstArray = c->dst_array;
  p->dstPtr = (struct cudaPitchedPtr){c->dst, c->dst_pitch,
                                      c->dst ? c->width : 0, c->dst_ysize};
  p->dstPos = (struct cudaPos){c->dst_x, c->dst_y, c->dst_z};
  p->srcArray = c->src_array;
  p->srcPtr = (struct cudaPitchedPtr){(void *)c->src, c->src_pitch,
                                      c->src ? c->width : 0, c->src_ysize};
  p->srcPos = (struct cudaPos){c->src_x, c->src_y, c->src_z};
  p->extent = (struct cudaExtent){c->width, c->height, c->depth};
  p->kind = (enum cudaMemcpyKind)c->kind;
}

int cuemu__graph_check_array_copy(const cuemu_rt_graph_memcpy *m) {
  const struct cudaArray *bad = NULL;
  if (m->src_array && !cuemu__array_valid(m->src_array))
    bad = m->src_array;
  else if (m->dst_array && !cuemu__array_valid(m->dst_array))
    bad = m->dst_array;
  if (bad)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "memcpy node: %p is not a live CUDA array",
                             (const void *)bad);
  if ((!m->src_array && !m->src) || (!m->dst_array && !m->dst) ||
      !m->width || !m->height || !m->depth ||
      m->kind < cudaMemcpyHostToHost || m->kind > cudaMemcpyDefault)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "memcpy node: invalid copy with an array "
                             "(a side with neither array nor pointer, a zero "
                             "extent or a bad kind)");
  if (m->src_array && m->dst_array &&
      m->src_array->format.size != m->dst_array->format.size)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "memcpy node: the arrays' elements differ in "
                             "size (%zu and %zu bytes)",
                             m->src_array->format.size,
                             m->dst_array->format.size);
  return cudaSuccess;
}

int cuemu__graph_run_array_copy(const cuemu_rt_graph_memcpy *m) {
  struct cudaMemcpy3DParms p;
  cuemu_rt_graph_memcpy_to_3d(m, &p);
  return cuemu_rt_memcpy_3d(&p);
}

int cuemu_rt_memcpy_3d_async(const struct cudaMemcpy3DParms *p,
                             void *stream) {
  cuemu_rt_graph_node_params c = {.type = CUEMU_RT_NODE_MEMCPY};
  if (!p)
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (cuemu_rt_graph_memcpy_from_3d(&c.u.memcpy, p) == cudaSuccess) {
    int code = cuemu__rt_capture_node(stream, &c);
    if (code != CUEMU__RT_NOT_CAPTURED)
      return code;
    /* On an asynchronous stream: checked now, run in the stream's order,
     * unless a side is pageable host memory (as cudaMemcpyAsync). */
    const cuemu_rt_graph_memcpy *m = &c.u.memcpy;
    if (!cuemu__stream_inline() && !(m->dst && cuemu__rt_pageable(m->dst)) &&
        !(m->src && cuemu__rt_pageable(m->src))) {
      code = cuemu__rt_check_sticky();
      if (!code)
        code = cuemu__rt_stream_valid(stream);
      return code ? code : cuemu__stream_defer_node(stream, &c);
    }
  }
  int code = cuemu__rt_check_stream(stream);
  if (code)
    return code;
  cuemu__capture_bypass++;
  code = cuemu_rt_memcpy_3d(p);
  cuemu__capture_bypass--;
  return code;
}

/* The element column of byte column `x` of array `a` (and the width in
 * elements), or -1 when either is not whole elements. */
static int to_elements(const struct cudaArray *a, size_t x, size_t width,
                       size_t *ex, size_t *ew) {
  size_t es = a->format.size;
  if (!es || x % es || width % es)
    return -1;
  *ex = x / es;
  *ew = width / es;
  return 0;
}

int cuemu_rt_memcpy_2d_array_async(struct cudaArray *dst_array, size_t dst_x,
                                   size_t dst_y, void *dst, size_t dpitch,
                                   const struct cudaArray *src_array,
                                   size_t src_x, size_t src_y, const void *src,
                                   size_t spitch, size_t width, size_t height,
                                   int kind, void *stream) {
  int capturing = 0;
  int code = cuemu_rt_stream_is_capturing(stream, &capturing);
  if (code)
    return code;
  if (capturing == CUEMU_RT_CAPTURE_NONE)
    return cuemu__rt_array_copy_2d_async(dst_array, dst_x, dst_y, dst, dpitch,
                                         src_array, src_x, src_y, src, spitch,
                                         width, height, kind, stream);
  /* In a capture: cudaMemcpy3DParms terms, in elements of the array. */
  const struct cudaArray *a = dst_array ? dst_array : src_array;
  if (!a || !cuemu__array_valid(a) ||
      (src_array && !cuemu__array_valid(src_array)))
    return cuemu_rt_error(cudaErrorInvalidResourceHandle);
  struct cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  size_t ew = 0;
  if (dst_array && to_elements(dst_array, dst_x, width, &p.dstPos.x, &ew))
    code = cudaErrorInvalidValue;
  if (src_array && to_elements(src_array, src_x, width, &p.srcPos.x, &ew))
    code = cudaErrorInvalidValue;
  if (code)
    return cuemu__graph_fail(cudaErrorInvalidValue,
                             "a captured copy with a CUDA array must cover "
                             "whole elements of it (%zu bytes each)",
                             a->format.size);
  if (!dst_array)
    p.dstPos.x = dst_x;
  if (!src_array)
    p.srcPos.x = src_x;
  p.dstArray = dst_array;
  p.dstPtr = (struct cudaPitchedPtr){dst, dpitch, width, height};
  p.dstPos.y = dst_y;
  p.srcArray = (struct cudaArray *)src_array;
  p.srcPtr = (struct cudaPitchedPtr){(void *)src, spitch, width, height};
  p.srcPos.y = src_y;
  p.extent = (struct cudaExtent){ew, height, 1};
  p.kind = (enum cudaMemcpyKind)kind;
  if (dst_array)
    p.dstPtr = (struct cudaPitchedPtr){0};
  if (src_array)
    p.srcPtr = (struct cudaPitchedPtr){0};
  return cuemu_rt_memcpy_3d_async(&p, stream);
}
