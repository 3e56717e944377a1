/*
 * cuemu_driver_library.h: libraries, the context-independent modules of
 * CUDA 12 and 13 (cuLibrary*, cuKernel* of the driver API; cudaLibrary*
 * of the runtime, whose kernels cudaLaunchKernel launches). A library is a
 * cuemu module (see docs/driver-api.md), loaded once for every context of
 * every device (as every context shares a device's modules here); its
 * kernels (CUkernel, cudaKernel_t) are the module's functions, so that
 * cuKernelGetFunction gives the same handle as a CUfunction and a
 * cudaKernel_t may be launched by cudaLaunchKernel and cudaLaunchKernelEx.
 * JIT and library options are accepted (no effect). Host code, any thread.
 *
 * cuemu_drv_* return driver codes (CUresult values) and need cuInit; the
 * cuemu_rt_* return runtime codes (cudaError_t values, recorded as the
 * last error) and initialise the driver themselves.
 */
#ifndef CUEMU_DRIVER_LIBRARY_H
#define CUEMU_DRIVER_LIBRARY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

int cuemu_drv_library_load_data(void **library, const void *code);
int cuemu_drv_library_load_from_file(void **library, const char *path);
int cuemu_drv_library_unload(void *library);
/* NOT_FOUND for a name that is not a kernel's symbol in the library (the
 * plain name of an extern "C" kernel, the mangled name of a C++ one), as
 * cuModuleGetFunction takes it. */
int cuemu_drv_library_get_kernel(void **kernel, void *library,
                                 const char *name);
int cuemu_drv_library_get_kernel_count(unsigned *count, void *library);
/* The first `n` kernels of the library. */
int cuemu_drv_library_enumerate_kernels(void **kernels, unsigned n,
                                        void *library);
/* cuLibraryGetModule: the library's module in the current context (the
 * same handle). */
int cuemu_drv_library_get_module(void **module, void *library);
/* cuLibraryGetGlobal and cuLibraryGetManaged: a __device__, __constant__
 * or __managed__ variable. */
int cuemu_drv_library_get_global(unsigned long long *dptr, size_t *bytes,
                                 void *library, const char *name);
/* cuLibraryGetUnifiedFunction: the address of a function of the library
 * by its symbol name. */
int cuemu_drv_library_get_unified_function(void **fptr, void *library,
                                           const char *symbol);
/* cuKernelGetFunction: the kernel as a CUfunction (a library's: the same
 * handle; a program's, cudaGetKernel's handle: the C API kernel of its
 * descriptor); any other handle is INVALID_HANDLE. */
int cuemu_drv_kernel_get_function(void **function, void *kernel);
/* cuKernelGetLibrary. */
int cuemu_drv_kernel_get_library(void **library, void *kernel);
/* cuKernelGetAttribute, cuKernelSetAttribute: the function attributes of
 * a kernel (cuemu_drv_func_get_attribute) on `device`; cuInit is needed,
 * a current context is not. A kernel of no live library (and not a
 * program's) is INVALID_HANDLE, a device out of range INVALID_DEVICE. */
int cuemu_drv_kernel_get_attribute(int *value, int attribute, void *kernel,
                                   int device);
int cuemu_drv_kernel_set_attribute(int attribute, int value, void *kernel,
                                   int device);
/* cuKernelGetParamInfo: where parameter `index` lies in the parameter
 * buffer and its size (may be NULL); INVALID_VALUE for an index past the
 * last parameter or a kernel of no live library. */
int cuemu_drv_kernel_get_param_info(void *kernel, size_t index,
                                    size_t *offset, size_t *size);
/* cuKernelGetName. A program's kernel (cudaGetKernel's handle) is taken
 * by these kernel calls too. */
int cuemu_drv_kernel_get_name(const char **name, void *kernel);

/* The runtime's calls. */
int cuemu_rt_library_load_data(void **library, const void *code);
int cuemu_rt_library_load_from_file(void **library, const char *path);
int cuemu_rt_library_unload(void *library);
int cuemu_rt_library_get_kernel(void **kernel, void *library,
                                const char *name);
int cuemu_rt_library_get_kernel_count(unsigned *count, void *library);
int cuemu_rt_library_enumerate_kernels(void **kernels, unsigned n,
                                       void *library);
int cuemu_rt_library_get_global(void **dptr, size_t *bytes, void *library,
                                const char *name);
int cuemu_rt_library_get_unified_function(void **fptr, void *library,
                                          const char *symbol);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_DRIVER_LIBRARY_H */
