/*
 * cuemu_rt_launch.c: the launches of the runtime API: kernel<<<>>> of whole
 * programs, cudaLaunchKernel and cudaLaunchCooperativeKernel. Each one
 * fills a launch request for the one launch path of the device
 * (device/cuemu_device_launch.h), which validates and runs it and keeps the
 * sticky error. A launch into an asynchronous stream is checked when it is
 * issued and runs in the stream's order (cuemu_rt_stream_queue.h).
 */
#include <cuemu/cuemu.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "device/cuemu_device_launch.h"
#include "device/cuemu_functions.h"
#include "runtime/cuemu_drv_internal.h"
#include "runtime/cuemu_rt_capture.h"
#include "runtime/cuemu_rt_internal.h"
#include "runtime/cuemu_rt_managed_guard.h"
#include "runtime/cuemu_rt_stream_queue.h"

cuemu_launch_request cuemu__rt_request(cuemu_uint3 grid, cuemu_uint3 block,
                                       size_t dynamic_shared, void *stream,
                                       void **args) {
  cuemu_launch_request r = {
      .grid = {grid.x, grid.y, grid.z},
      .block = {block.x, block.y, block.z},
      .dynamic_shared = dynamic_shared,
      .stream = stream,
      .args = args,
      .origin = CUEMU_LAUNCH_RUNTIME,
  };
  return r;
}

/* A launch of the runtime API. Into a capturing stream it is recorded
 * instead (cuemu_rt_capture.h): *captured is then its CUDA code. */
static cuemu_status launch(const cuemu_kernel_desc *kernel, cuemu_uint3 grid,
                           cuemu_uint3 block, size_t dynamic_shared,
                           void *stream, void **args, int cooperative,
                           int *captured) {
  cuemu_launch_request r =
      cuemu__rt_request(grid, block, dynamic_shared, stream, args);
  r.kernel = kernel;
  r.cooperative = cooperative;
  *captured = cuemu__rt_capture_launch(&r);
  if (*captured != CUEMU__RT_NOT_CAPTURED)
    return CUEMU_SUCCESS;
  /* Into an asynchronous stream: checked now, run in the stream's order. */
  cuemu_status st = cuemu__device_check_launch(&r);
  if (st != CUEMU_SUCCESS)
    return cuemu__device_launch(&r); /* its message and status */
  *captured = cuemu__stream_defer_checked_launch(&r);
  if (*captured != CUEMU__RT_NOT_CAPTURED)
    return CUEMU_SUCCESS;
  st = cuemu__device_launch(&r);
  cuemu__managed_guard_launched(stream, kernel->name);
  return st;
}

void cuemu_objects_need_libcuemu_link_with_cuemu_nvcc_or_the_cuemu_toolkit_lib64(
    void) {}

int cuemu_program_launch(const cuemu_kernel_desc *kernel, cuemu_uint3 grid,
                         cuemu_uint3 block, size_t dynamic_shared,
                         void *stream, void **args) {
  /* A kernel of the program is described by its registered descriptor,
   * which knows its static attributes (__launch_bounds__, static shared
   * memory); the caller's may be a bare one made where it was launched. */
  const cuemu_kernel_desc *registered = cuemu__function_find(kernel->function);
  int captured;
  return launch(registered ? registered : kernel, grid, block, dynamic_shared,
                stream, args, 0, &captured);
}

int cuemu_program_launch_cooperative(const cuemu_kernel_desc *kernel,
                                     cuemu_uint3 grid, cuemu_uint3 block,
                                     size_t dynamic_shared, void *stream,
                                     void **args) {
  const cuemu_kernel_desc *registered = cuemu__function_find(kernel->function);
  int captured;
  return launch(registered ? registered : kernel, grid, block, dynamic_shared,
                stream, args, 1, &captured);
}

int cuemu__rt_launch(const void *function, const cuemu_kernel_desc *fallback,
                     cuemu_launch_request *r, int *status) {
  if (status)
    *status = CUEMU_SUCCESS;
  int e = cuemu__rt_check_sticky();
  if (e)
    return e;
  const cuemu_kernel_desc *k = function ? cuemu__function_find(function) : NULL;
  if (!k && function) /* a library's kernel (cudaKernel_t) */
    k = cuemu__drv_library_kernel(function);
  if (!k)
    k = function ? fallback : NULL;
  if (!k)
    return cuemu_rt_error(cudaErrorInvalidDeviceFunction);
  if (k->param_count > 0 && !r->args)
    return cuemu_rt_error(cudaErrorInvalidValue);
  r->kernel = k;
  r->origin = CUEMU_LAUNCH_RUNTIME;
  int captured = cuemu__rt_capture_launch(r);
  if (captured != CUEMU__RT_NOT_CAPTURED)
    return captured;
  captured = cuemu__stream_defer_launch(r);
  if (captured != CUEMU__RT_NOT_CAPTURED)
    return captured;
  int st = cuemu__device_launch(r);
  cuemu__managed_guard_launched(r->stream, k->name);
  /* An error in the launch's configuration is the call's; an error while
   * the kernel ran is the sticky error, which the caller records. */
  if (st != CUEMU_SUCCESS && !cuemu_status_is_sticky((cuemu_status)st))
    return cuemu_rt_error(cuemu_status_cuda_error((cuemu_status)st));
  if (status)
    *status = st;
  return cudaSuccess;
}

int cuemu_rt_launch_kernel(const void *function,
                           const cuemu_kernel_desc *fallback, cuemu_uint3 grid,
                           cuemu_uint3 block, void **args,
                           size_t dynamic_shared, void *stream,
                           int cooperative, int *status) {
  cuemu_launch_request r =
      cuemu__rt_request(grid, block, dynamic_shared, stream, args);
  r.cooperative = cooperative;
  return cuemu__rt_launch(function, fallback, &r, status);
}
