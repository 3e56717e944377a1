/*
 * cuemu_rt_symbol.c: copies to and from __device__ and __constant__
 * variables. Both are host variables in cuemu; host code names its own
 * object of each (its shadow, as with nvcc), whose symbol calls reach the
 * device's object (cuemu__variable_shadow_device()); the shim passes its
 * size when it knows the type. A
 * variable of which a further device pass has its own copy (its
 * initializer holds device code's addresses) is the copy of the pass that
 * the current device runs (cuemu__variable_copy()).
 */
#include <string.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_graph.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "device/cuemu_functions.h"
#include "runtime/cuemu_rt_capture.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_symbol_valid.h"

/* cudaMemcpyKind values. */
#define KIND_HOST_TO_DEVICE 1
#define KIND_DEVICE_TO_HOST 2
#define KIND_DEVICE_TO_DEVICE 3
#define KIND_DEFAULT 4

/* The checks of a copy to the symbol (`to`) or from it; 0 when the copy
 * may go. With `drain`, the stream's earlier work is done first. */
static int check(int to, int kind, const void *symbol, size_t size,
                 const void *other, size_t count, size_t offset, void *stream,
                 int drain) {
  int host_side = to ? KIND_HOST_TO_DEVICE : KIND_DEVICE_TO_HOST;
  if (kind != host_side && kind != KIND_DEVICE_TO_DEVICE &&
      kind != KIND_DEFAULT)
    return cuemu_rt_error(cudaErrorInvalidMemcpyDirection);
  int e = cuemu__rt_check_sticky();
  if (e)
    return e;
  e = drain ? cuemu__rt_check_stream(stream) : cuemu__rt_stream_valid(stream);
  /* A kernel of the drained work that faulted made its error sticky: the
   * copy returns it and copies nothing, as cudaMemcpy does. */
  if (!e && drain)
    e = cuemu__rt_check_sticky();
  if (e)
    return e;
  /* A blocking copy is a synchronisation point: the kernels' printf
   * output comes before what the host prints after it. */
  if (drain)
    cuemu__rt_sync_point();
  if (!symbol || !cuemu__rt_symbol_valid(symbol))
    return cuemu_rt_error(cudaErrorInvalidSymbol);
  if (size != CUEMU_RT_SYMBOL_SIZE_UNKNOWN &&
      (offset > size || count > size - offset))
    return cuemu_rt_error(cudaErrorInvalidValue);
  if (count && !other)
    return cuemu_rt_error(cudaErrorInvalidValue);
  return cudaSuccess;
}

/* The size that bounds a copy of the variable whose device object is
 * `symbol`: its own unit's (the record of its shadow), as CUDA's runtime
 * bounds it by the registered variable whatever type the calling unit
 * declares it with (`extern Sphere *d_spheres;` for another file's
 * `__constant__ Sphere d_spheres[20]`: a public ray tracer); else
 * the call's `size` (its sizeof, or unknown). */
static size_t bound(const void *symbol, size_t size) {
  size_t registered = cuemu__variable_size(symbol);
  return registered ? registered : size;
}

int cuemu_rt_memcpy_to_symbol(void *symbol, size_t size, const void *src,
                              size_t count, size_t offset, int kind,
                              void *stream) {
  symbol = cuemu__variable_shadow_device(symbol);
  size = bound(symbol, size);
  symbol = cuemu__variable_copy(symbol);
  int e = check(1, kind, symbol, size, src, count, offset, stream, 1);
  if (e)
    return e;
  e = cuemu__rt_capture_copy(stream, (char *)symbol + offset, src, count);
  if (e != CUEMU__RT_NOT_CAPTURED)
    return e;
  if (count)
    memmove((char *)symbol + offset, src, count);
  return cudaSuccess;
}

int cuemu_rt_memcpy_from_symbol(void *dst, const void *symbol, size_t size,
                                size_t count, size_t offset, int kind,
                                void *stream) {
  symbol = cuemu__variable_shadow_device(symbol);
  size = bound(symbol, size);
  symbol = cuemu__variable_copy(symbol);
  int e = check(0, kind, symbol, size, dst, count, offset, stream, 1);
  if (e)
    return e;
  e = cuemu__rt_capture_copy(stream, dst, (const char *)symbol + offset,
                             count);
  if (e != CUEMU__RT_NOT_CAPTURED)
    return e;
  if (count)
    memmove(dst, (const char *)symbol + offset, count);
  return cudaSuccess;
}

/* A symbol of known size as device memory (tracked once), so that copies
 * to and from it run in stream order; 0 when its size is unknown. */
static int track(const void *symbol, size_t size) {
  if (size == CUEMU_RT_SYMBOL_SIZE_UNKNOWN)
    return 0;
  cuemu_rt_allocation known;
  if (!cuemu_rt_memory_find(symbol, &known))
    cuemu_rt_memory_track((void *)symbol, size, CUEMU_RT_MEMORY_SYMBOL);
  return 1;
}

/* Both stream-ordered copies: to the symbol (`to`) from `other`, or from
 * it to `other`. */
static int symbol_async(int to, void *symbol, size_t size, void *other,
                        size_t count, size_t offset, int kind, void *stream) {
  symbol = cuemu__variable_shadow_device(symbol);
  size = bound(symbol, size);
  symbol = cuemu__variable_copy(symbol);
  int e = check(to, kind, symbol, size, other, count, offset, stream, 0);
  if (e)
    return e;
  if (!track(symbol, size))
    return to ? cuemu_rt_memcpy_to_symbol(symbol, size, other, count, offset,
                                          kind, stream)
              : cuemu_rt_memcpy_from_symbol(other, symbol, size, count,
                                            offset, kind, stream);
  char *at = (char *)symbol + offset;
  if (count == 0)
    return cudaSuccess;
  return cuemu_rt_memcpy_async(to ? at : other, to ? other : at, count, kind,
                               stream);
}

int cuemu_rt_memcpy_to_symbol_async(void *symbol, size_t size,
                                    const void *src, size_t count,
                                    size_t offset, int kind, void *stream) {
  return symbol_async(1, symbol, size, (void *)src, count, offset, kind,
                      stream);
}

int cuemu_rt_memcpy_from_symbol_async(void *dst, const void *symbol,
                                      size_t size, size_t count,
                                      size_t offset, int kind, void *stream) {
  return symbol_async(0, (void *)symbol, size, dst, count, offset, kind,
                      stream);
}

int cuemu_rt_get_symbol_address(void **address, const void *symbol,
                                size_t size) {
  if (!address)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = cuemu__rt_check_sticky();
  if (e)
    return e;
  symbol = cuemu__variable_shadow_device(symbol);
  if (!symbol || !cuemu__rt_symbol_valid(symbol))
    return cuemu_rt_error(cudaErrorInvalidSymbol);
  size = bound(symbol, size);
  /* The address may now be used as device memory (cudaMemcpy to it):
   * track the symbol once, if its size is known. */
  symbol = cuemu__variable_copy(symbol);
  track(symbol, size);
  *address = (void *)symbol;
  return cudaSuccess;
}

int cuemu_rt_get_symbol_size(size_t *result, const void *symbol,
                             size_t size) {
  if (!result)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = cuemu__rt_check_sticky();
  if (e)
    return e;
  symbol = cuemu__variable_shadow_device(symbol);
  size = bound(symbol, size);
  if (!symbol || size == CUEMU_RT_SYMBOL_SIZE_UNKNOWN ||
      !cuemu__rt_symbol_valid(symbol))
    return cuemu_rt_error(cudaErrorInvalidSymbol);
  *result = size;
  return cudaSuccess;
}
