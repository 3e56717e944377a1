/*
 * cuemu_drv_program_kernel.c: a program's own kernel as a CUkernel. CUDA's
 * cudaGetKernel gives a cudaKernel_t, which is a CUkernel, and the driver's
 * cuKernel* calls take it as they take a library's kernel. Here that handle
 * is the kernel's address (shims/cuda_builtins/cuemu_ids_api.h), described
 * by the program's table of kernels (device/cuemu_functions.h), whose
 * settings the runtime's cudaFuncSetAttribute changes too: one kernel, one
 * set of settings, whichever API reads or writes them. Its CUfunction
 * (cuKernelGetFunction) is a C API kernel made of its descriptor
 * (cuemu__kernel_of_program), which the calls that take a CUfunction take
 * as a module's kernel.
 */
#include <cuemu/cuemu.h>
#include <cuemu/cuemu_driver_errors.h>

#include "device/cuemu_functions.h"
#include "device/cuemu_module_symbols.h"
#include "runtime/cuemu_drv_internal.h"

enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

/* cudaFuncAttribute's and CUfunction_attribute's common numbers of the two
 * attributes that may be set. */
enum {
  ATTRIBUTE_MAX_DYNAMIC_SHARED = 8,
  ATTRIBUTE_PREFERRED_CARVEOUT = 9
};

const struct cuemu_kernel_desc *cuemu__drv_program_kernel(const void *k) {
  if (!k || cuemu__drv_library_kernel(k))
    return NULL;
  return cuemu__function_find(k);
}

int cuemu__drv_program_kernel_attribute(int *value, int set, int attribute,
                                        const void *k) {
  const cuemu_kernel_desc *d = cuemu__drv_program_kernel(k);
  if (!d)
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  if (value && cuemu__drv_cluster_attribute(k, attribute, value))
    return DRV_CUDA_SUCCESS;
  if (value) {
    cuemu_kernel_attributes a;
    cuemu__function_attributes(k, d, &a);
    a.local_bytes = cuemu__function_local_bytes(k, d);
    return cuemu__drv_attribute_value(&a, attribute, value);
  }
  /* The other attributes are read-only. */
  if ((attribute != ATTRIBUTE_MAX_DYNAMIC_SHARED &&
       attribute != ATTRIBUTE_PREFERRED_CARVEOUT) ||
      (attribute == ATTRIBUTE_MAX_DYNAMIC_SHARED && set < 0))
    return DRV_CUDA_ERROR_INVALID_VALUE;
  return cuemu__function_set(k, d->name, attribute, set) == CUEMU_SUCCESS
             ? DRV_CUDA_SUCCESS
             : DRV_CUDA_ERROR_INVALID_VALUE;
}

void *cuemu__drv_function(void *function) {
  /* A library's kernel runs as the current device's load of it. */
  void *library_function = cuemu__drv_library_function(function);
  if (library_function)
    return library_function;
  const cuemu_kernel_desc *d = cuemu__function_find(function);
  return d ? (void *)cuemu__kernel_of_program(d) : function;
}
