/*
 * cuemu_rt_launch.c: cudaLaunchKernel and cudaLaunchCooperativeKernel, and
 * the cooperative launch of a whole program's kernel. Launches run to
 * completion before they return (see cuemu_runtime_streams.h).
 */
#include <cuemu/cuemu.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "core/cuemu_core.h"
#include "runtime/cuemu_rt_streams_internal.h"

/* The error the launch call returns for a launch status, or 0 when the
 * status is not an error of the call (success, or an execution error that
 * the caller records as sticky). */
static int call_error(int status) {
  if (cuemu_status_is_sticky((cuemu_status)status))
    return 0;
  return cuemu_status_cuda_error((cuemu_status)status);
}

int cuemu_rt_launch_kernel(const void *function,
                           const cuemu_kernel_desc *fallback, cuemu_uint3 grid,
                           cuemu_uint3 block, void **args,
                           size_t dynamic_shared, void *stream,
                           int cooperative, int *status) {
  if (status)
    *status = CUEMU_SUCCESS;
  int e = cuemu__rt_sticky_check();
  if (e)
    return e;
  if (!function)
    return cuemu_rt_error(cudaErrorInvalidDeviceFunction);
  e = cuemu_rt_error(cuemu__rt_stream_check(stream));
  if (e)
    return e;
  const cuemu_kernel_desc *k = cuemu_program_find(function);
  if (!k)
    k = fallback;
  if (!k)
    return cuemu_rt_error(cudaErrorInvalidDeviceFunction);
  if (k->param_count > 0 && !args)
    return cuemu_rt_error(cudaErrorInvalidValue);
  cuemu_dim3 g = {grid.x, grid.y, grid.z};
  cuemu_dim3 b = {block.x, block.y, block.z};
  int st = cuemu__launch(k, cuemu_rt_func_max_dynamic_shared(function), g, b,
                         dynamic_shared, args, cooperative);
  e = call_error(st);
  if (e)
    return cuemu_rt_error(e);
  if (status)
    *status = st;
  return cudaSuccess;
}

int cuemu_program_launch_cooperative(const cuemu_kernel_desc *kernel,
                                     cuemu_uint3 grid, cuemu_uint3 block,
                                     size_t dynamic_shared, void *stream,
                                     void **args) {
  (void)stream; /* launches are synchronous */
  cuemu_dim3 g = {grid.x, grid.y, grid.z};
  cuemu_dim3 b = {block.x, block.y, block.z};
  return cuemu__launch(kernel, cuemu__rt_kernel_shared_limit(kernel, args), g,
                       b, dynamic_shared, args, 1);
}
