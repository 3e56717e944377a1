/* driver_abi.h: the few types of CUDA's driver API (CUDA 13's ABI) that
 * load_driver.cu and link_driver.c use, declared here as a program that
 * loads the driver by name (cuda-python, NCCL's loader) declares them,
 * without cuda.h (under names of its own, since a .cu file has the
 * runtime's headers, which declare some of CUDA's). */
#ifndef DRIVER_ABI_H
#define DRIVER_ABI_H

#include <stddef.h>

typedef int drv_result;
typedef int drv_device;
typedef struct drv_ctx_st *drv_context;
typedef struct drv_mod_st *drv_module;
typedef struct drv_func_st *drv_function;
typedef struct drv_stream_st *drv_stream;
typedef unsigned long long drv_deviceptr;

enum {
  DRV_SUCCESS = 0,
  DRV_ERROR_INVALID_VALUE = 1,
  DRV_ERROR_NOT_FOUND = 500,
  DRV_PROC_ADDRESS_SUCCESS = 0,
  DRV_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
  DRV_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2,
  DRV_PROC_ADDRESS_DEFAULT = 0,
  DRV_PROC_ADDRESS_LEGACY_STREAM = 1,
  DRV_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 2
};

/* The functions' types, as cudaTypedefs.h names their ABI versions. */
typedef drv_result (*pfn_init)(unsigned int flags);
typedef drv_result (*pfn_driver_get_version)(int *version);
typedef drv_result (*pfn_device_get)(drv_device *device, int ordinal);
typedef drv_result (*pfn_ctx_create_v4)(drv_context *ctx, void *params,
                                      unsigned int flags, drv_device dev);
typedef drv_result (*pfn_ctx_create_v2)(drv_context *ctx, unsigned int flags,
                                      drv_device dev);
typedef drv_result (*pfn_ctx_destroy)(drv_context ctx);
typedef drv_result (*pfn_module_load_data)(drv_module *module, const void *image);
typedef drv_result (*pfn_module_get_function)(drv_function *f, drv_module module,
                                            const char *name);
typedef drv_result (*pfn_module_unload)(drv_module module);
typedef drv_result (*pfn_mem_alloc)(drv_deviceptr *p, size_t size);
typedef drv_result (*pfn_mem_free)(drv_deviceptr p);
typedef drv_result (*pfn_memcpy_htod)(drv_deviceptr dst, const void *src,
                                    size_t size);
typedef drv_result (*pfn_memcpy_dtoh)(void *dst, drv_deviceptr src, size_t size);
typedef drv_result (*pfn_launch_kernel)(drv_function f, unsigned int gx,
                                      unsigned int gy, unsigned int gz,
                                      unsigned int bx, unsigned int by,
                                      unsigned int bz, unsigned int shared,
                                      drv_stream stream, void **params,
                                      void **extra);
typedef drv_result (*pfn_ctx_synchronize)(void);
typedef drv_result (*pfn_stream_get_id)(drv_stream stream,
                                        unsigned long long *id);
typedef drv_result (*pfn_get_error_name)(drv_result error, const char **name);
typedef drv_result (*pfn_get_proc_address_v2)(const char *symbol, void **pfn,
                                            int version,
                                            unsigned long long flags,
                                            int *status);
typedef drv_result (*pfn_get_proc_address_v1)(const char *symbol, void **pfn,
                                            int version,
                                            unsigned long long flags);

#endif
