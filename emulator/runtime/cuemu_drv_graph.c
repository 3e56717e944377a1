/*
 * cuemu_drv_graph.c: the driver API's side of graphs (see
 * cuemu_driver_graph.h): kernel nodes of a module's kernels, and the
 * CUfunctions that driver calls have named, so that a kernel node's
 * parameters read back give the CUfunction again. Entries are dropped when
 * their module is unloaded (cuemu__drv_graph_forget).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_driver_graph.h>

#include "device/cuemu_functions.h"
#include "device/cuemu_module_symbols.h"
#include "runtime/cuemu_drv_internal.h"
#include "runtime/cuemu_rt_capture.h"

enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static cuemu_kernel **named;
static size_t named_count;

void cuemu__drv_graph_note(cuemu_kernel *k) {
  const cuemu_kernel_desc *d = cuemu__kernel_desc(k);
  pthread_mutex_lock(&lock);
  size_t i = 0;
  while (i < named_count && cuemu__kernel_desc(named[i]) != d)
    ++i;
  if (i == named_count) {
    cuemu_kernel **v = realloc(named, (named_count + 1) * sizeof *v);
    if (v) {
      named = v;
      named[named_count++] = k;
    }
  }
  pthread_mutex_unlock(&lock);
}

void cuemu__drv_graph_forget(cuemu_module *m) {
  pthread_mutex_lock(&lock);
  int n = cuemu_module_kernel_count(m);
  for (int j = 0; j < n; ++j) {
    cuemu_kernel *k = cuemu_module_kernel_at(m, j);
    for (size_t i = 0; i < named_count; ++i)
      if (named[i] == k) {
        named[i] = named[--named_count];
        break;
      }
  }
  pthread_mutex_unlock(&lock);
}

int cuemu_drv_graph_kernel(cuemu_rt_graph_kernel *kernel, void *function) {
  if (!kernel || !function)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  cuemu_kernel *k = cuemu__drv_function(function);
  if (!k)
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  cuemu__drv_graph_note(k);
  kernel->desc = cuemu__kernel_desc(k);
  kernel->function = kernel->desc->function;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_memset_async(unsigned long long dst, unsigned value,
                           unsigned element_size, size_t n, void *stream) {
  if (n > SIZE_MAX / element_size)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  return cuemu_drv_memset_2d_async(dst, n * element_size, value, element_size,
                                   n, 1, stream);
}

int cuemu_drv_memset_2d_async(unsigned long long dst, size_t pitch,
                              unsigned value, unsigned element_size,
                              size_t width, size_t height, void *stream) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  cuemu_rt_graph_node_params s = {.type = CUEMU_RT_NODE_MEMSET};
  s.u.memset = (cuemu_rt_graph_memset){
      .dst = (void *)(uintptr_t)dst,
      .pitch = pitch,
      .value = value,
      .element_size = element_size,
      .width = width,
      .height = height,
  };
  int saved = cuemu_drv_enter();
  int captured = width && height ? cuemu__rt_capture_node(stream, &s)
                                 : CUEMU__RT_NOT_CAPTURED;
  if (captured != CUEMU__RT_NOT_CAPTURED)
    return cuemu_drv_result(captured, saved);
  cuemu_drv_result(cudaSuccess, saved);
  return cuemu_drv_memset_2d(dst, pitch, value, element_size, width, height);
}

int cuemu_drv_graph_function(const cuemu_kernel_desc *desc, void **function) {
  if (!function)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  *function = NULL;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < named_count; ++i)
    if (cuemu__kernel_desc(named[i]) == desc)
      *function = named[i];
  pthread_mutex_unlock(&lock);
  /* A kernel of the program that only the runtime launched (a captured
   * <<<>>> launch) has its CUfunction too, cudaGetFuncBySymbol's. */
  if (!*function && desc && desc->function &&
      cuemu__function_find(desc->function))
    *function = cuemu__drv_function((void *)desc->function);
  return DRV_CUDA_SUCCESS;
}
