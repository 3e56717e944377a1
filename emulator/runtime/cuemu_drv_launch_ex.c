/*
 * cuemu_drv_launch_ex.c: cuLaunchKernelEx (see cuemu_driver_api.h): a
 * module's kernel launched with launch attributes, through the runtime's
 * cudaLaunchKernelEx (cuemu_rt_launch_ex.c), which applies the attributes,
 * captures into a capturing stream and runs the grid.
 */
#include <cuemu/cuemu.h>
#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_runtime.h>

#include "device/cuemu_module_symbols.h"
#include "runtime/cuemu_drv_internal.h"
#include "runtime/cuemu_rt_internal.h"

enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

int cuemu_drv_launch_kernel_ex(void *function, const unsigned grid[3],
                               const unsigned block[3], unsigned shared_bytes,
                               void *stream, const void *attrs,
                               unsigned nattrs, void **params, void **extra) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  cuemu_kernel *k = cuemu__drv_function(function);
  if (!k || !grid || !block)
    return k ? DRV_CUDA_ERROR_INVALID_VALUE : DRV_CUDA_ERROR_INVALID_HANDLE;
  void **args = NULL;
  void *unpacked[256];
  e = cuemu__drv_launch_args(k, params, extra, unpacked, &args);
  if (e)
    return e;
  const cuemu_kernel_desc *d = cuemu__kernel_desc(k);
  cuemu__drv_graph_note(k);
  cuemu_uint3 g = {grid[0], grid[1], grid[2]};
  cuemu_uint3 b = {block[0], block[1], block[2]};
  int saved = cuemu_drv_enter();
  int status = CUEMU_SUCCESS;
  e = cuemu_rt_launch_kernel_ex(d->function, d, g, b, shared_bytes, stream,
                                attrs, nattrs, args, &status);
  e = cuemu_drv_result(e, saved);
  /* A failure while the kernel ran is already the device's sticky error,
   * which the next synchronisation returns; the launch itself succeeded, as
   * on a GPU. */
  if (e == 0 && cuemu_status_is_sticky((cuemu_status)status))
    return 0;
  return e ? e : cuemu_status_driver_error((cuemu_status)status);
}
