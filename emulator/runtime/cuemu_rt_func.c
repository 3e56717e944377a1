/*
 * cuemu_rt_func.c: function attributes and occupancy of the CUDA runtime
 * API, read from the device's table of kernels (device/cuemu_functions.h)
 * and its model (device/cuemu_device_model.h).
 */
#include <cuemu/cuemu.h>
#include <cuemu/cuemu_host_ids.h>
#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_streams.h>

#include "device/cuemu_cluster_shape.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_functions.h"
#include "device/cuemu_module_symbols.h"
#include "runtime/cuemu_drv_internal.h"
#include "runtime/cuemu_occupancy.h"
#include "runtime/cuemu_rt_internal.h"

size_t cuemu_rt_func_max_dynamic_shared(const void *function) {
  return cuemu__function_max_dynamic_shared(function);
}

/* The descriptor of a program's kernel, or of a library's (a cudaKernel_t
 * of cudaLibraryGetKernel); NULL for neither. */
static const cuemu_kernel_desc *desc_of(const void *function) {
  const cuemu_kernel_desc *d = cuemu__function_find(function);
  return d ? d : cuemu__drv_library_kernel(function);
}

/* The function a kernel's settings are kept under: a library kernel's
 * function, another as it is. */
static const void *resolve(const void *function) {
  const cuemu_kernel_desc *d = desc_of(function);
  return d && d->function ? d->function : function;
}

/* 0 when `function` may be taken for a kernel, else the error recorded. */
static int check_function(const void *function, int known) {
  if (!function || (!known && !desc_of(function)))
    return cuemu_rt_error(cudaErrorInvalidDeviceFunction);
  return cuemu__rt_check_sticky();
}

int cuemu_rt_func_set_attribute(const void *function, int attribute,
                                int value, int known) {
  int e = check_function(function, known);
  if (e)
    return e;
  const cuemu_kernel_desc *d = desc_of(function);
  function = resolve(function);
  cuemu_status st = cuemu__function_set(function, d ? d->name : "(unnamed)",
                                        attribute, value);
  return cuemu_rt_error(cuemu_status_cuda_error(st));
}

int cuemu_rt_func_get_attributes(cuemu_rt_func_attributes *a,
                                 const void *function, int known) {
  if (!a)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = check_function(function, known);
  if (e)
    return e;
  cuemu_kernel_attributes k;
  cuemu__function_attributes(resolve(function), desc_of(function), &k);
  a->shared_size_bytes = k.static_shared_bytes;
  a->const_size_bytes = k.const_bytes;
  a->local_size_bytes =
      cuemu__function_local_bytes(resolve(function), desc_of(function));
  a->max_threads_per_block = (int)k.max_threads_per_block;
  a->num_regs = k.num_regs;
  a->ptx_version = k.ptx_version;
  a->binary_version = k.binary_version;
  a->cache_mode_ca = 0;
  a->max_dynamic_shared_size_bytes = (int)k.max_dynamic_shared_bytes;
  a->preferred_shmem_carveout = k.preferred_carveout;
  cuemu_cluster_attributes c;
  cuemu__cluster_attributes(resolve(function), &c);
  a->cluster_dim_must_be_set = c.must_be_set;
  a->required_cluster_width = (int)c.required[0];
  a->required_cluster_height = (int)c.required[1];
  a->required_cluster_depth = (int)c.required[2];
  a->cluster_scheduling_policy_preference = c.scheduling;
  a->non_portable_cluster_size_allowed = c.nonportable;
  return cudaSuccess;
}

int cuemu_rt_func_get_param_info(const void *function, size_t index,
                                 size_t *offset, size_t *size) {
  int e = check_function(function, 0);
  if (e)
    return e;
  return cuemu__drv_param_info(desc_of(function), index, offset, size)
             ? cuemu_rt_error(cudaErrorInvalidValue)
             : cudaSuccess;
}

int cuemu_rt_func_get_name(const char **name, const void *function) {
  if (!name)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = check_function(function, 0);
  if (e)
    return e;
  /* The driver's function of it: the program's kernel, or the current
   * device's load of a library's. */
  *name = cuemu__kernel_symbol_name(cuemu__drv_function((void *)function));
  if (!*name)
    *name = desc_of(function)->name;
  return cudaSuccess;
}

int cuemu_rt_get_func_by_symbol(void **function, const void *symbol) {
  if (!function)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = check_function(symbol, 0);
  if (e)
    return e;
  /* The driver's CUfunction of the kernel (cuKernelGetFunction's). */
  *function = cuemu__drv_function((void *)symbol);
  return *function ? cudaSuccess : cuemu_rt_error(cudaErrorMemoryAllocation);
}

/* The attributes of the kernel at `function`. */
static cuemu_kernel_attributes attributes_of(const void *function) {
  cuemu_kernel_attributes k;
  cuemu__function_attributes(resolve(function), desc_of(function), &k);
  return k;
}

int cuemu_rt_occupancy_max_active_blocks(int *blocks, const void *function,
                                         int block_size,
                                         size_t dynamic_shared,
                                         unsigned flags, int known) {
  /* flags: cudaOccupancyDefault (0) or cudaOccupancyDisableCachingOverride
   * (1). */
  if (!blocks || block_size <= 0 || flags > 1u)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = check_function(function, known);
  if (e)
    return e;
  cuemu_kernel_attributes k = attributes_of(function);
  *blocks = (int)cuemu__occupancy_blocks(&k, (unsigned)block_size,
                                         dynamic_shared);
  return cudaSuccess;
}

/* The same dynamic shared memory for every block size. */
static size_t constant_smem(int block_size, void *context) {
  (void)block_size;
  return *(const size_t *)context;
}

int cuemu_rt_occupancy_max_potential_block_size(int *min_grid_size,
                                                int *block_size,
                                                const void *function,
                                                size_t dynamic_shared,
                                                int block_size_limit,
                                                int known) {
  return cuemu_rt_occupancy_variable_smem(min_grid_size, block_size, function,
                                          constant_smem, &dynamic_shared,
                                          block_size_limit, 0, known);
}

int cuemu_rt_occupancy_variable_smem(int *min_grid_size, int *block_size,
                                     const void *function,
                                     size_t (*smem_of)(int, void *),
                                     void *context, int block_size_limit,
                                     unsigned flags, int known) {
  /* The C++ forms of CUDA's header answer cudaErrorInvalidValue for a NULL
   * kernel too. */
  if (!min_grid_size || !block_size || !function || !smem_of ||
      block_size_limit < 0 || flags > 1u)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = check_function(function, known);
  if (e)
    return e;
  cuemu_kernel_attributes k = attributes_of(function);
  cuemu__occupancy_best_block(&k, smem_of, context,
                              (unsigned)block_size_limit, min_grid_size,
                              block_size);
  return cudaSuccess;
}

int cuemu_rt_occupancy_available_dynamic_smem(size_t *bytes,
                                              const void *function,
                                              int blocks, int block_size,
                                              int known) {
  if (!bytes || blocks <= 0 || block_size <= 0)
    return cuemu_rt_error(cudaErrorInvalidValue);
  int e = check_function(function, known);
  if (e)
    return e;
  cuemu_kernel_attributes k = attributes_of(function);
  *bytes = cuemu__occupancy_available_smem(&k, (unsigned)blocks,
                                           (unsigned)block_size);
  return cudaSuccess;
}
