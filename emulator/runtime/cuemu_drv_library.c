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
#include <string.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_driver_api.h>
#include <cuemu/cuemu_driver_errors.h>
#include <cuemu/cuemu_driver_library.h>
#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_config.h"
#include "base/cuemu_report.h"
#include "device/cuemu_device_model.h"
#include "device/cuemu_module_symbols.h"
#include "runtime/cuemu_module_text.h"
#include "runtime/cuemu_drv_internal.h"

enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

/* A live library. Its __device__ and __constant__ variables are per
 * context, as on CUDA (each device that uses the library gets its own,
 * initialised from the image): the library's module serves the device that
 * was current when it was loaded, and another device gets its own load of
 * the same image (or file) when it first uses the library (its kernels,
 * cuLibraryGetGlobal, cuLibraryGetModule). */
typedef struct library {
  void *module;     /* the library's handle: its module for `device` */
  int device;       /* the device current at the load */
  char *path;       /* cuLibraryLoadFromFile's, or NULL */
  void *image;      /* a copy of cuLibraryLoadData's image, or NULL */
  void *per_device[CUEMU_MAX_DEVICES]; /* other devices' loads */
} library;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static library **libraries;
static size_t nlibraries;

/* The live library whose handle is `handle`; under the lock. */
static library *find_locked(const void *handle) {
  for (size_t i = 0; handle && i < nlibraries; ++i)
    if (libraries[i]->module == handle)
      return libraries[i];
  return NULL;
}

/* The module of library `l` for `device`, loaded on first use (NULL when
 * the load fails); under the lock. */
static void *module_for(library *l, int device) {
  if (device == l->device || device < 0 || device >= CUEMU_MAX_DEVICES)
    return l->module;
  if (!l->per_device[device]) {
    void *m = NULL;
    int e = l->path ? cuemu__drv_module_load(&m, l->path)
                    : cuemu__drv_module_load_data(&m, l->image);
    l->per_device[device] = e ? NULL : m;
  }
  return l->per_device[device];
}

/* Frees `l` and the loads of every device but its own. */
static void free_library(library *l) {
  for (int d = 0; d < CUEMU_MAX_DEVICES; ++d)
    if (l->per_device[d])
      cuemu__drv_module_unload(l->per_device[d]);
  free(l->path);
  free(l->image);
  free(l);
}

/* Non-zero when `handle` is a live library; removes it when `drop` (the
 * loads of the other devices are unloaded, the library's own module is
 * the caller's to unload). */
static int live(const void *handle, int drop) {
  pthread_mutex_lock(&lock);
  library *found = find_locked(handle);
  if (found && drop) {
    for (size_t i = 0; i < nlibraries; ++i)
      if (libraries[i] == found)
        libraries[i] = libraries[--nlibraries];
    free_library(found);
  }
  pthread_mutex_unlock(&lock);
  return found != NULL;
}

/* The live library that has kernel `k` (from its own module), and the
 * kernel's index in it; under the lock. */
static library *library_of_locked(const void *k, int *index) {
  for (size_t i = 0; k && i < nlibraries; ++i) {
    cuemu_module *m = cuemu__drv_module_of(libraries[i]->module);
    for (int j = 0, n = cuemu_module_kernel_count(m); j < n; ++j)
      if ((const void *)cuemu_module_kernel_at(m, j) == k) {
        *index = j;
        return libraries[i];
      }
  }
  return NULL;
}

/* The handle of the live library that has kernel `k`, or NULL. */
static void *library_of(const void *k) {
  int index = 0;
  pthread_mutex_lock(&lock);
  library *l = library_of_locked(k, &index);
  void *handle = l ? l->module : NULL;
  pthread_mutex_unlock(&lock);
  return handle;
}

void *cuemu__drv_library_function(const void *k) {
  int index = 0;
  void *function = NULL;
  pthread_mutex_lock(&lock);
  library *l = library_of_locked(k, &index);
  if (l) {
    void *m = module_for(l, cuemu__device_current());
    function = m ? (void *)cuemu_module_kernel_at(cuemu__drv_module_of(m),
                                                  index)
                 : (void *)k;
  }
  pthread_mutex_unlock(&lock);
  return function;
}

const cuemu_kernel_desc *cuemu__drv_library_kernel(const void *k) {
  void *function = cuemu__drv_library_function(k);
  return function ? cuemu__kernel_desc(function) : NULL;
}

static int enter(void) {
  return cuemu__drv_initialised() ? DRV_CUDA_SUCCESS
                                  : DRV_CUDA_ERROR_NOT_INITIALIZED;
}

/* Keeps the library just loaded (*handle, code 0) with what loads it again
 * for another device: `path`, or a copy of `image`. */
static int keep(void **handle, int code, const char *path,
                const void *image) {
  if (code)
    return code;
  library *l = calloc(1, sizeof *l);
  int ok = l != NULL;
  if (ok && path)
    ok = (l->path = strdup(path)) != NULL;
  if (ok && image) {
    size_t n = cuemu__drv_elf_size(image);
    if (!n && cuemu__module_text_is(image, SIZE_MAX))
      n = strlen(image) + 1;
    ok = n && (l->image = malloc(n)) != NULL;
    if (ok)
      memcpy(l->image, image, n);
  }
  if (ok) {
    l->module = *handle;
    l->device = cuemu__device_current();
    pthread_mutex_lock(&lock);
    library **v = realloc(libraries, (nlibraries + 1) * sizeof *v);
    if (v) {
      libraries = v;
      libraries[nlibraries++] = l;
    }
    pthread_mutex_unlock(&lock);
    ok = v != NULL;
  }
  if (!ok) {
    if (l)
      free_library(l);
    cuemu__drv_module_unload(*handle);
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  }
  return DRV_CUDA_SUCCESS;
}

int cuemu_drv_library_load_data(void **library, const void *code) {
  int e = enter();
  return e ? e
           : keep(library, cuemu__drv_module_load_data(library, code), NULL,
                  code);
}

int cuemu_drv_library_load_from_file(void **library, const char *path) {
  int e = enter();
  return e ? e
           : keep(library, cuemu__drv_module_load(library, path), path, NULL);
}

/* The module of live library `handle` for the current device, or NULL. */
static void *current_module(void *handle) {
  pthread_mutex_lock(&lock);
  library *l = find_locked(handle);
  void *m = l ? module_for(l, cuemu__device_current()) : NULL;
  pthread_mutex_unlock(&lock);
  return m;
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
  *module = current_module(library);
  return *module ? DRV_CUDA_SUCCESS : DRV_CUDA_ERROR_OUT_OF_MEMORY;
}

int cuemu_drv_library_get_global(unsigned long long *dptr, size_t *bytes,
                                 void *library, const char *name) {
  int e = enter();
  if (e)
    return e;
  if (!live(library, 0))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  /* The current device's copy of the variable. */
  void *m = current_module(library);
  return m ? cuemu__drv_module_get_global(dptr, bytes, m, name)
           : DRV_CUDA_ERROR_OUT_OF_MEMORY;
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
  /* A library's kernel: the current context's (device's) function. */
  *function = cuemu__drv_library_function(kernel);
  return *function ? DRV_CUDA_SUCCESS : DRV_CUDA_ERROR_INVALID_HANDLE;
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
  /* A library's kernel on `device`: that device's load's (CUDA sets an
   * attribute for the one device named). */
  void *on_device = cuemu__drv_library_function(kernel);
  if (!on_device) /* a program's kernel (cudaGetKernel) */
    e = cuemu__drv_program_kernel_attribute(value, set, attribute, kernel);
  else if (value)
    e = cuemu__drv_func_get_attribute(value, attribute, on_device);
  else
    e = cuemu__drv_func_set_attribute(on_device, attribute, set);
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
    *name = cuemu__kernel_symbol_name(cuemu__kernel_of_program(program));
    if (!*name)
      *name = program->name;
    return DRV_CUDA_SUCCESS;
  }
  if (!library_of(kernel))
    return DRV_CUDA_ERROR_INVALID_HANDLE;
  *name = cuemu__kernel_symbol_name(kernel);
  return DRV_CUDA_SUCCESS;
}
