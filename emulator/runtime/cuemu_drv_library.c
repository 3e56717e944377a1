/*
 * cuemu_drv_library.c: libraries and their kernels (see
 * cuemu_driver_library.h): driver modules loaded without a context, kept
 * in a list of live libraries so that a CUkernel or cudaKernel_t is
 * checked before it is used (and found by cudaLaunchKernel,
 * cuemu__drv_library_kernel).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_driver_library.h>
#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_report.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_module_symbols.h"
#include "runtime/cuemu_drv_internal.h"

enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void **libraries;
static size_t nlibraries;

/* Non-zero when `library` is live; removes it when `drop`. */
static int live(const void *library, int drop) {
  pthread_mutex_lock(&lock);
  int found = 0;
  for (size_t i = 0; library && i < nlibraries && !found; ++i)
    if (libraries[i] == library) {
      found = 1;
      if (drop)
        libraries[i] = libraries[--nlibraries];
    }
  pthread_mutex_unlock(&lock);
  return found;
}

/* The live library that has kernel `k`, or NULL. */
static void *library_of(const void *k) {
  void *found = NULL;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; k && i < nlibraries && !found; ++i) {
    cuemu_module *m = cuemu__drv_module_of(libraries[i]);
    for (int j = 0, n = cuemu_module_kernel_count(m); j < n && !found; ++j)
      if ((const void *)cuemu_module_kernel_at(m, j) == k)
        found = libraries[i];
  }
  pthread_mutex_unlock(&lock);
  return found;
}

const cuemu_kernel_desc *cuemu__drv_library_kernel(const void *k) {
  return library_of(k) ? cuemu__kernel_desc(k) : NULL;
}

static int enter(void) {
  return cuemu__drv_initialised() ? DRV_CUDA_SUCCESS
                                  : DRV_CUDA_ERROR_NOT_INITIALIZED;
}

static int keep(void **library, int code) {
  if (code)
    return code;
  pthread_mutex_lock(&lock);
  void **v = realloc(libraries, (nlibraries + 1) * sizeof *v);
  if (v) {
    libraries = v;
    libraries[nlibraries++] = *library;
  }
  pthread_mutex_unlock(&lock);
  if (!v) {
    cuemu__drv_module_unload(*library);
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  }
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_library_load_data(void **library, const void *code) {
  int e = enter();
  return e ? e : keep(library, cuemu__drv_module_load_data(library, code));
}

int cuemu_drv_library_load_from_file(void **library, const char *path) {
  int e = enter();
  return e ? e : keep(library, cuemu__drv_module_load(library, path));
}

int cuemu_drv_library_unload(void *library) {
  int e = enter();
  if (e)
    return e;
  if (!live(library, 1))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  return cuemu__drv_module_unload(library);
}

int cuemu_drv_library_get_kernel(void **kernel, void *library,
                                 const char *name) {
  int e = enter();
  if (e)
    return e;
  if (!kernel || !name)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (!live(library, 0))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  return cuemu__drv_module_get_function(kernel, library, name);
}

int cuemu_drv_library_get_kernel_count(unsigned *count, void *library) {
  int e = enter();
  if (e)
    return e;
  if (!count)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (!live(library, 0))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  return cuemu__drv_module_get_function_count(count, library);
}

int cuemu_drv_library_enumerate_kernels(void **kernels, unsigned n,
                                        void *library) {
  int e = enter();
  if (e)
    return e;
  if (!kernels)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (!live(library, 0))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  if (n > (unsigned)cuemu_module_kernel_count(cuemu__drv_module_of(library)))
    return DRV_CUDA_ERROR_INVALID_VALUE;
  return cuemu__drv_module_enumerate_functions(kernels, n, library);
}

int cuemu_drv_library_get_module(void **module, void *library) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  if (!module)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (!live(library, 0))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  *module = library;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_library_get_global(unsigned long long *dptr, size_t *bytes,
                                 void *library, const char *name) {
  int e = enter();
  if (e)
    return e;
  if (!live(library, 0))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  return cuemu__drv_module_get_global(dptr, bytes, library, name);
}

int cuemu_drv_library_get_unified_function(void **fptr, void *library,
                                           const char *symbol) {
  int e = enter();
  if (e)
    return e;
  if (!fptr || !symbol)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  if (!live(library, 0))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  return cuemu__module_find_function(cuemu__drv_module_of(library), symbol,
                                     fptr) == CUEMU_SUCCESS
             ? DRV_CUDA_SUCCESS
             : DRV_CUDA_ERROR_NOT_FOUND;
}

int cuemu_drv_kernel_get_function(void **function, void *kernel) {
  int e = cuemu_drv_check_context();
  if (e)
    return e;
  if (!function)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  const struct cuemu_kernel_desc *program = cuemu__drv_program_kernel(kernel);
  if (program) {
    /* A program's kernel: the C API's kernel of its descriptor, which
     * cuLaunchKernel, cuFuncGetAttribute and the other calls that take a
     * CUfunction take as a module's. */
    *function = cuemu__drv_function(kernel);
    return *function ? DRV_CUDA_SUCCESS : DRV_CUDA_ERROR_OUT_OF_MEMORY;
  }
  if (!library_of(kernel))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  *function = kernel;
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_kernel_get_library(void **library, void *kernel) {
  int e = enter();
  if (e)
    return e;
  if (!library)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  *library = library_of(kernel);
  return *library ? DRV_CUDA_SUCCESS : DRV_CUDA_ERROR_INVALID_HANDLE;
}

/* ---- The runtime's calls ------------------------------------------------------ */

/* A driver code as the runtime's (the codes these calls give have the same
 * numbers in both APIs: INVALID_VALUE, OUT_OF_MEMORY, INVALID_IMAGE /
 * cudaErrorInvalidKernelImage, FILE_NOT_FOUND, INVALID_HANDLE /
 * cudaErrorInvalidResourceHandle, NOT_FOUND / cudaErrorSymbolNotFound),
 * recorded as the last error. */
static int rt(int code) { return code ? cuemu_rt_error(code) : cudaSuccess; }

/* Initialises the driver as the runtime's first call does. */
static int rt_enter(void) { return cuemu_drv_init(0); }

int cuemu_rt_library_load_data(void **library, const void *code) {
  int e = rt_enter();
  return rt(e ? e : cuemu_drv_library_load_data(library, code));
}

int cuemu_rt_library_load_from_file(void **library, const char *path) {
  int e = rt_enter();
  return rt(e ? e : cuemu_drv_library_load_from_file(library, path));
}

int cuemu_rt_library_unload(void *library) {
  int e = rt_enter();
  return rt(e ? e : cuemu_drv_library_unload(library));
}

int cuemu_rt_library_get_kernel(void **kernel, void *library,
                                const char *name) {
  int e = rt_enter();
  return rt(e ? e : cuemu_drv_library_get_kernel(kernel, library, name));
}

int cuemu_rt_library_get_kernel_count(unsigned *count, void *library) {
  int e = rt_enter();
  return rt(e ? e : cuemu_drv_library_get_kernel_count(count, library));
}

int cuemu_rt_library_enumerate_kernels(void **kernels, unsigned n,
                                       void *library) {
  int e = rt_enter();
  return rt(e ? e : cuemu_drv_library_enumerate_kernels(kernels, n, library));
}

int cuemu_rt_library_get_global(void **dptr, size_t *bytes, void *library,
                                const char *name) {
  unsigned long long p = 0;
  int e = rt_enter();
  if (!e)
    e = cuemu_drv_library_get_global(&p, bytes, library, name);
  if (!e && dptr)
    *dptr = (void *)(uintptr_t)p;
  return rt(e);
}

int cuemu_rt_library_get_unified_function(void **fptr, void *library,
                                          const char *symbol) {
  int e = rt_enter();
  return rt(e ? e
              : cuemu_drv_library_get_unified_function(fptr, library, symbol));
}

/* The checks of a call about a kernel on a device, which needs cuInit but
 * no context (CUDA's cuKernelGetAttribute takes the device): a live
 * library's kernel and a valid device. */
static int kernel_on_device(void *kernel, int device) {
  int e = enter();
  if (e)
    return e;
  if (device < 0 || device >= cuemu__device_count())
    return DRV_CUDA_ERROR_INVALID_DEVICE;
  return library_of(kernel) || cuemu__drv_program_kernel(kernel)
             ? DRV_CUDA_SUCCESS
             : DRV_CUDA_ERROR_INVALID_HANDLE;
}

/* Gets (`value` not NULL) or sets (to `set`) an attribute of a kernel on
 * `device`, whose model gives the limits (the most threads, the shared
 * memory) for the time of the call. */
static int kernel_attribute(int *value, int set, int attribute, void *kernel,
                            int device) {
  int e = kernel_on_device(kernel, device);
  if (e)
    return e;
  int current = cuemu__device_current();
  cuemu__device_select(device);
  if (!library_of(kernel)) /* a program's kernel (cudaGetKernel) */
    e = cuemu__drv_program_kernel_attribute(value, set, attribute, kernel);
  else if (value)
    e = cuemu__drv_func_get_attribute(value, attribute, kernel);
  else
    e = cuemu__drv_func_set_attribute(kernel, attribute, set);
  cuemu__device_select(current);
  return e;
}

int cuemu_drv_kernel_get_attribute(int *value, int attribute, void *kernel,
                                   int device) {
  if (!value)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  return kernel_attribute(value, 0, attribute, kernel, device);
}

int cuemu_drv_kernel_set_attribute(int attribute, int value, void *kernel,
                                   int device) {
  return kernel_attribute(NULL, value, attribute, kernel, device);
}

int cuemu_drv_kernel_get_param_info(void *kernel, size_t index,
                                    size_t *offset, size_t *size) {
  int e = enter();
  if (e)
    return e;
  const struct cuemu_kernel_desc *program = cuemu__drv_program_kernel(kernel);
  if (program)
    return cuemu__drv_param_info(program, index, offset, size);
  if (!library_of(kernel))
    return DRV_CUDA_ERROR_INVALID_VALUE;
  return cuemu__drv_func_get_param_info(kernel, index, offset, size);
}

int cuemu_drv_kernel_get_name(const char **name, void *kernel) {
  int e = enter();
  if (e)
    return e;
  if (!name)
    return DRV_CUDA_ERROR_INVALID_VALUE;
  const struct cuemu_kernel_desc *program = cuemu__drv_program_kernel(kernel);
  if (program) {
    *name = program->name;
    return DRV_CUDA_SUCCESS;
  }
  if (!library_of(kernel))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  *name = cuemu_kernel_name(kernel);
  return DRV_CUDA_SUCCESS;
}
