/*
 * cuemu_drv_occupancy.c: the driver API's occupancy calls (cuOccupancy*,
 * see cuemu_driver_api.h and cuemu_host_ids.h) for a module's kernel
 * (CUfunction), by the rules the runtime's calls use (cuemu_occupancy.h).
 */
#include <cuemu/cuemu.h>
#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_host_ids.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_host.h>

#include "device/cuemu_module_symbols.h"
#include "runtime/cuemu_drv_internal.h"
#include "runtime/cuemu_occupancy.h"

enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

/* CU_OCCUPANCY_DEFAULT and CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE. */
#define OCCUPANCY_FLAGS 0x1u

/* The context, then the function; fills *k. Driver codes. */
static int enter(const void *function, cuemu_kernel_attributes *k) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  if (!function)
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  cuemu_kernel_get_attributes(function, k);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_occupancy_max_active_blocks_flags(int *blocks, void *function,
                                                int block_size, size_t shared,
                                                unsigned flags) {
  cuemu_kernel_attributes k;
  int e = enter(function, &k);
  if (e)
    return e;
  if (!blocks || block_size <= 0 || (flags & ~OCCUPANCY_FLAGS))
    return DRV_CUDA_ERROR_INVALID_VALUE;
  *blocks = (int)cuemu__occupancy_blocks(&k, (unsigned)block_size, shared);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_occupancy_max_active_blocks(int *blocks, void *function,
                                          int block_size, size_t shared) {
  return cuemu_drv_occupancy_max_active_blocks_flags(blocks, function,
                                                     block_size, shared, 0);
}

/* The program's CUoccupancyB2DSize, or the fixed size when it is NULL. */
typedef struct b2d {
  size_t (*fn)(int);
  size_t fixed;
} b2d;

static size_t b2d_call(int block_size, void *context) {
  const b2d *c = context;
  return c->fn ? c->fn(block_size) : c->fixed;
}

int cuemu_drv_occupancy_max_potential_block_size(
    int *min_grid_size, int *block_size, void *function,
    size_t (*block_size_to_smem)(int), size_t shared, int block_size_limit,
    unsigned flags) {
  cuemu_kernel_attributes k;
  int e = enter(function, &k);
  if (e)
    return e;
  if (!min_grid_size || !block_size || block_size_limit < 0 ||
      (flags & ~OCCUPANCY_FLAGS))
    return DRV_CUDA_ERROR_INVALID_VALUE;
  b2d c = {block_size_to_smem, shared};
  cuemu__occupancy_best_block(&k, b2d_call, &c, (unsigned)block_size_limit,
                              min_grid_size, block_size);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_occupancy_available_dynamic_smem(size_t *bytes, void *function,
                                               int blocks, int block_size) {
  cuemu_kernel_attributes k;
  int e = enter(function, &k);
  if (e)
    return e;
  if (!bytes || blocks <= 0 || block_size <= 0)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  *bytes = cuemu__occupancy_available_smem(&k, (unsigned)blocks,
                                           (unsigned)block_size);
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_occupancy_clusters(int *out, void *function,
                                 const unsigned block[3], size_t shared,
                                 const void *attrs, unsigned nattrs,
                                 int active) {
  cuemu_kernel_attributes k;
  int e = enter(function, &k);
  if (e)
    return e;
  if (!block)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  const cuemu_kernel_desc *d = cuemu__kernel_desc(function);
  cuemu_uint3 b = {block[0], block[1], block[2]};
  int saved = cuemu_drv_enter();
  e = cuemu_rt_occupancy_clusters(out, d->function, 1, b, shared,
                                  (const cudaLaunchAttribute *)attrs, nattrs,
                                  active);
  return cuemu_drv_result(e, saved);
}
