/*
 * cuemu_driver_api.h: libcuemu's side of CUDA's driver API (cuda.h).
 * shims/cuda_builtins/cuda.h forwards each cu* call to a cuemu_drv_*
 * function declared here; they return CUDA's driver error codes (CUresult
 * values, cuemu_driver_errors.h) as int. docs/driver-api.md lists the calls
 * and what they do.
 *
 * The driver API sits on the runtime API's state: the same devices
 * (CUEMU_DEVICE count=N), the same allocations, streams, events and sticky
 * errors, so that a program may mix the two as CUDA allows. Its own state
 * is cuInit, the contexts (a primary one per device and those of
 * cuCtxCreate; a stack of current contexts per host thread, whose top
 * selects the thread's current device) and the modules. Every call but
 * cuInit, cuDriverGetVersion and the error names returns
 * CUDA_ERROR_NOT_INITIALIZED before cuInit(0); calls that work in a
 * context return CUDA_ERROR_INVALID_CONTEXT when the thread has none
 * current. Driver calls never change cudaGetLastError().
 *
 * Handles are opaque pointers: CUcontext, CUmodule, CUfunction; CUstream
 * and CUevent are the runtime's cudaStream_t and cudaEvent_t; CUdeviceptr
 * is the address. Host code, any thread.
 */
#ifndef CUEMU_DRIVER_API_H
#define CUEMU_DRIVER_API_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The driver version cuDriverGetVersion reports (CUDA 13.0). */
#define CUEMU_DRV_VERSION 13000

/* Initialisation, versions, errors (cuemu_drv_context.c). */
int cuemu_drv_init(unsigned flags);
int cuemu_drv_driver_get_version(int *version);
/* cuGetErrorName / cuGetErrorString: CUDA_ERROR_INVALID_VALUE (and *str
 * NULL) for a code CUDA does not have. */
int cuemu_drv_get_error_name(int error, const char **str);
int cuemu_drv_get_error_string(int error, const char **str);

/* Devices. */
int cuemu_drv_device_get(int *device, int ordinal);
int cuemu_drv_device_get_count(int *count);
/* cuDeviceRegisterAsyncNotification and its Unregister: cuInit and a
 * valid device (CUDA_ERROR_NOT_INITIALIZED, CUDA_ERROR_INVALID_DEVICE),
 * then as cuemu_rt_device_register_async_notification (<cuemu/
 * cuemu_runtime.h>), whose codes are the driver's too. */
int cuemu_drv_device_register_async_notification(int device, void *callback,
                                                 void *data, void **handle);
int cuemu_drv_device_unregister_async_notification(int device, void *handle);
int cuemu_drv_device_get_name(char *name, int len, int device);
int cuemu_drv_device_get_attribute(int *value, int attribute, int device);
int cuemu_drv_device_total_mem(size_t *bytes, int device);
/* Fills 16 bytes. */
int cuemu_drv_device_get_uuid(void *uuid, int device);
int cuemu_drv_device_compute_capability(int *major, int *minor, int device);
int cuemu_drv_device_can_access_peer(int *can_access, int device, int peer);
/* cuDeviceGetP2PAttribute, with cudaDeviceGetP2PAttribute's answers. */
int cuemu_drv_device_get_p2p_attribute(int *value, int attribute, int src,
                                       int dst);
/* cuDeviceGetP2PAtomicCapabilities, with
 * cudaDeviceGetP2PAtomicCapabilities's answers. */
int cuemu_drv_device_get_p2p_atomic_capabilities(unsigned *capabilities,
                                                 const int *operations,
                                                 unsigned count, int src,
                                                 int dst);
/* cuDeviceGetHostAtomicCapabilities, with
 * cudaDeviceGetHostAtomicCapabilities's answers. */
int cuemu_drv_device_get_host_atomic_capabilities(unsigned *capabilities,
                                                  const int *operations,
                                                  unsigned count, int device);

/* Contexts. cuCtxCreate makes a context and pushes it on the calling
 * thread's stack; the primary context of a device is retained and released
 * by count and becomes inactive at zero. */
int cuemu_drv_ctx_create(void **ctx, unsigned flags, int device);
int cuemu_drv_ctx_destroy(void *ctx);
/* cuCtxAttach and cuCtxDetach (deprecated): a context's usage count,
 * 1 at cuCtxCreate; detaching a created context at 0 destroys it. */
int cuemu_drv_ctx_attach(void **ctx, unsigned flags);
int cuemu_drv_ctx_detach(void *ctx);
int cuemu_drv_primary_ctx_retain(void **ctx, int device);
int cuemu_drv_primary_ctx_release(int device);
int cuemu_drv_primary_ctx_reset(int device);
int cuemu_drv_primary_ctx_get_state(int device, unsigned *flags, int *active);
int cuemu_drv_primary_ctx_set_flags(int device, unsigned flags);
int cuemu_drv_ctx_set_current(void *ctx);
int cuemu_drv_ctx_get_current(void **ctx);
int cuemu_drv_ctx_push_current(void *ctx);
int cuemu_drv_ctx_pop_current(void **ctx);
int cuemu_drv_ctx_get_device(int *device);
int cuemu_drv_ctx_get_flags(unsigned *flags);
int cuemu_drv_ctx_get_api_version(void *ctx, unsigned *version);
/* cuCtxSetFlags: the current context's flags (cuDevicePrimaryCtxSetFlags's,
 * one scheduling policy at most; others are CUDA_ERROR_INVALID_VALUE). */
int cuemu_drv_ctx_set_flags(unsigned flags);
/* cuStreamCreate(WithPriority): the runtime's stream, noted with the
 * created context that is current (cuemu_drv_stream_ctx.c). */
int cuemu_drv_stream_create(void **stream, unsigned flags, int priority);
/* cuStreamGetCtx(_v2): the context the stream was created in (a created
 * context that was current at cuStreamCreate, else its device's primary
 * context); the special streams (NULL, CU_STREAM_LEGACY,
 * CU_STREAM_PER_THREAD) give the current context. The green context (when asked) is
 * NULL: cuemu has no green contexts. */
int cuemu_drv_stream_get_ctx(void *stream, void **ctx, void **__cuemu_green);
/* cuCtxRecordEvent: the event captures the work of every stream of the
 * context's device, which the host waits for first (then the record is
 * queued as any record); cuCtxWaitEvent: later work of the context waits
 * for the event's, which the host waits for first. */
int cuemu_drv_ctx_record_event(void *ctx, void *event);
int cuemu_drv_ctx_wait_event(void *ctx, void *event);
int cuemu_drv_ctx_synchronize(void);
int cuemu_drv_ctx_enable_peer_access(void *peer, unsigned flags);
/* cuMemcpyPeer and cuMemcpyPeerAsync (in the stream's order): the devices
 * are the contexts'. */
int cuemu_drv_memcpy_peer(unsigned long long dst, void *dst_ctx,
                          unsigned long long src, void *src_ctx,
                          size_t count);
int cuemu_drv_memcpy_peer_async(unsigned long long dst, void *dst_ctx,
                                unsigned long long src, void *src_ctx,
                                size_t count, void *stream);
int cuemu_drv_ctx_disable_peer_access(void *peer);
/* CUDA_SUCCESS when cuInit has run and a context is current, else the
 * driver error (NOT_INITIALIZED, INVALID_CONTEXT): the start of every call
 * that works in a context, including those the shim builds on the
 * runtime's functions. */
int cuemu_drv_check_context(void);
/* Around a runtime function that a driver call uses: cuemu_drv_enter()
 * returns the calling thread's runtime last error, and
 * cuemu_drv_result() gives the driver error of the runtime's code
 * (cudaError_t) and sets the last error back to `saved`, so that the
 * driver call changes neither it nor counts as a use of the runtime API
 * (which makes the primary context current, as CUDA's runtime does). */
int cuemu_drv_enter(void);
int cuemu_drv_result(int runtime_error, int saved);

/* Modules and functions (cuemu_drv_module.c). A module image is a cuemu
 * module: the shared object that cuemu-nvcc -ptx, -cubin, -fatbin or
 * --module writes and nvrtcGetPTX/nvrtcGetCUBIN return. Anything else
 * (real PTX text, a cubin, a fatbin of nvcc's) is CUDA_ERROR_INVALID_IMAGE
 * with a message on stderr saying how to build a cuemu module. */
int cuemu_drv_module_load(void **module, const char *path);
int cuemu_drv_module_load_data(void **module, const void *image);
int cuemu_drv_module_unload(void *module);
/* Finds a kernel by its symbol, as CUDA does: the plain name of an
 * extern "C" kernel ("saxpy"), the mangled (lowered) name of a C++ kernel or
 * template instance ("_Z6vecAddPKfS0_Pfi"). A C++ kernel's plain name or a
 * name expression's text is CUDA_ERROR_NOT_FOUND, as on a GPU. */
int cuemu_drv_module_get_function(void **function, void *module,
                                  const char *name);
int cuemu_drv_module_get_global(unsigned long long *dptr, size_t *bytes,
                                void *module, const char *name);
/* cuModuleGetFunctionCount, cuModuleEnumerateFunctions (at most `n`, in
 * the module's order). */
int cuemu_drv_module_get_function_count(unsigned *count, void *module);
int cuemu_drv_module_enumerate_functions(void **functions, unsigned n,
                                         void *module);
/* cuFuncGetModule: the live module (or library's module) that has the
 * function; INVALID_HANDLE for none. */
int cuemu_drv_func_get_module(void **module, void *function);
/* cuFuncIsLoaded: 1 (loaded: modules load eagerly) for a function of a
 * live module; needs cuInit, not a context. */
int cuemu_drv_func_is_loaded(int *state, void *function);
int cuemu_drv_func_get_attribute(int *value, int attribute, void *function);
int cuemu_drv_func_set_attribute(void *function, int attribute, int value);
/* The function's name as found ("vecAdd", "scale<float, 2>"). */
int cuemu_drv_func_get_name(const char **name, void *function);
/* cuFuncGetParamInfo: where parameter `index` lies in the parameter buffer
 * of CU_LAUNCH_PARAM_BUFFER_POINTER (each parameter at its alignment after
 * the one before) and its size (`size` may be NULL); INVALID_VALUE for an
 * index past the last parameter. */
int cuemu_drv_func_get_param_info(void *function, size_t index,
                                  size_t *offset, size_t *size);
/* cuLaunchKernel / cuLaunchCooperativeKernel: the arguments come from
 * `params` (pointers to the values) or from `extra`
 * (CU_LAUNCH_PARAM_BUFFER_POINTER, a buffer laid out as the parameters
 * with their alignment, CU_LAUNCH_PARAM_BUFFER_SIZE, CU_LAUNCH_PARAM_END);
 * giving both, or neither for a kernel with parameters, is
 * CUDA_ERROR_INVALID_VALUE. A failure while the kernel runs is sticky, as
 * in the runtime API. */
int cuemu_drv_launch_kernel(void *function, unsigned grid_x, unsigned grid_y,
                            unsigned grid_z, unsigned block_x,
                            unsigned block_y, unsigned block_z,
                            unsigned shared_bytes, void *stream,
                            void **params, void **extra, int cooperative);
/* cuLaunchKernelEx: a launch as cuemu_drv_launch_kernel's, with `nattrs`
 * launch attributes (cudaLaunchAttribute's layout, which CUlaunchAttribute
 * shares) applied as cudaLaunchKernelEx applies them
 * (cuemu_rt_launch_kernel_ex). */
int cuemu_drv_launch_kernel_ex(void *function, const unsigned __cuemu_grid[3],
                               const unsigned __cuemu_block[3], unsigned shared_bytes,
                               void *stream, const void *attrs,
                               unsigned nattrs, void **params, void **extra);
/* The launch calls of before CUDA 4.0 (cuemu_drv_legacy_launch.c): a
 * function keeps a block shape (each side at least 1), a dynamic shared
 * memory size and a parameter buffer of 4 KiB (cuParamSetSize, and
 * cuParamSeti/f/v: `bytes` at `offset`); cuemu_drv_launch_grid
 * (cuLaunch: 1 x 1, cuLaunchGrid, cuLaunchGridAsync) launches it with them
 * as cuemu_drv_launch_kernel does with CU_LAUNCH_PARAM_BUFFER_POINTER.
 * INVALID_HANDLE for no live function; INVALID_VALUE for a bad size,
 * offset or grid and for a launch without a block shape. */
int cuemu_drv_func_set_block_shape(void *function, int x, int y, int z);
int cuemu_drv_func_set_shared_size(void *function, unsigned bytes);
int cuemu_drv_param_set_size(void *function, unsigned bytes);
int cuemu_drv_param_set(void *function, int offset, const void *value,
                        unsigned bytes);
int cuemu_drv_launch_grid(void *function, int __cuemu_grid_width,
                          int __cuemu_grid_height, void *stream);
/* cuCoredumpGetAttribute / cuCoredumpSetAttribute (the current context's
 * settings, the first argument 0) and their Global forms (the process's, 1), in
 * cuemu_drv_coredump.c: CUcoredumpSettings values kept and given back
 * (cuemu writes no GPU coredump). A NULL value gets or sets nothing but
 * the size a value takes; a bad setting, a NULL size, a value too small,
 * an empty or over-long name or unknown generation flags are
 * CUDA_ERROR_INVALID_VALUE; the user trigger and the pipe set on a
 * context CUDA_ERROR_NOT_PERMITTED. */
int cuemu_drv_coredump_get_attribute(int __cuemu_global_form, int attribute,
                                     void *value, size_t *size);
int cuemu_drv_coredump_set_attribute(int __cuemu_global_form, int attribute,
                                     const void *value, size_t *size);
/* Green contexts (cuemu_drv_green.c, cuemu_drv_stream_ctx.c). SM
 * resources are CUdevResource (cuda.h's layout) of a device's
 * MULTIPROCESSOR_COUNT SMs; a split makes groups of at least 8 SMs in
 * multiples of 8 (2 and 2 with IGNORE_SM_COSCHEDULING), a descriptor joins
 * groups of one split (CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION
 * otherwise), and a green context has a context of its own
 * (cuCtxFromGreenCtx) whose resources are the descriptor's SMs. The
 * partition is reported, not enforced: kernels run on the whole device. */
int cuemu_drv_device_get_dev_resource(int __cuemu_device, void *__cuemu_resource, int __cuemu_type);
int cuemu_drv_ctx_get_dev_resource(void *__cuemu_ctx, void *__cuemu_resource, int __cuemu_type);
int cuemu_drv_green_ctx_get_dev_resource(void *__cuemu_green, void *__cuemu_resource,
                                         int __cuemu_type);
int cuemu_drv_dev_sm_resource_split_by_count(void *__cuemu_result, unsigned *__cuemu_groups,
                                             const void *__cuemu_input,
                                             void *__cuemu_remaining,
                                             unsigned __cuemu_flags,
                                             unsigned __cuemu_min_count);
int cuemu_drv_dev_resource_generate_desc(void **__cuemu_desc, const void *__cuemu_resources,
                                         unsigned __cuemu_count);
int cuemu_drv_green_ctx_create(void **__cuemu_green, const void *__cuemu_desc, int __cuemu_device,
                               unsigned __cuemu_flags);
int cuemu_drv_green_ctx_destroy(void *__cuemu_green);
int cuemu_drv_ctx_from_green_ctx(void **__cuemu_ctx, void *__cuemu_green);
/* cuGreenCtxStreamCreate (CU_STREAM_NON_BLOCKING required) and
 * cuStreamGetGreenCtx (NULL for a stream of no green context). */
int cuemu_drv_green_ctx_stream_create(void **__cuemu_stream, void *__cuemu_green,
                                      unsigned __cuemu_flags, int __cuemu_priority);
int cuemu_drv_stream_get_green_ctx(void *__cuemu_stream, void **__cuemu_green);
int cuemu_drv_occupancy_max_active_blocks(int *__cuemu_blocks, void *function,
                                          int __cuemu_block_size, size_t __cuemu_shared);

/* Memory the runtime has no call for (cuemu_drv_memory.c). */
/* cuMemsetD8/D16/D32 (and their Async forms): `count` elements of
 * `element_size` bytes, each set to `value`. */
int cuemu_drv_memset(unsigned long long dst, unsigned value,
                     size_t element_size, size_t count);
int cuemu_drv_memset_2d(unsigned long long dst, size_t pitch, unsigned value,
                        size_t element_size, size_t width, size_t height);
int cuemu_drv_mem_get_address_range(unsigned long long *base, size_t *size,
                                    unsigned long long ptr);
/* cuPointerGetAttribute for the attributes docs/driver-api.md lists. */
int cuemu_drv_pointer_get_attribute(void *data, int attribute,
                                    unsigned long long ptr);
/* cuPointerGetAttributes: attribute i into data[i] (a null data[i] skips
 * it), as cuPointerGetAttribute gives it; memory CUDA does not know, and
 * the host pointer of device memory, are no error but the attribute's
 * empty value (0 or NULL, device ordinal -2). An unknown attribute is
 * CUDA_ERROR_INVALID_VALUE. */
int cuemu_drv_pointer_get_attributes(unsigned count, const int *attributes,
                                     void **data, unsigned long long ptr);
/* cuPointerSetAttribute: CU_POINTER_ATTRIBUTE_SYNC_MEMOPS (an unsigned
 * int, 0 or not) on a live allocation, kept until the range is allocated
 * again and given back by cuPointerGetAttribute (synchronous copies are
 * synchronous in cuemu: nothing else changes). Other attributes and
 * unknown memory: CUDA_ERROR_INVALID_VALUE. */
int cuemu_drv_pointer_set_attribute(const void *value, int attribute,
                                    unsigned long long ptr);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_DRIVER_API_H */
