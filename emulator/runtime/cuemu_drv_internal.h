/*
 * cuemu_drv_internal.h: what the files of the driver API share inside
 * libcuemu (see cuemu_driver_api.h).
 */
#ifndef CUEMU_DRV_INTERNAL_H
#define CUEMU_DRV_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

typedef struct cuemu_drv_context cuemu_drv_context;

/* Non-zero once cuInit(0) has succeeded. */
int cuemu__drv_initialised(void);
/* Initialises the driver as CUDA's runtime does on its first call, whatever
 * the call (cudaGetDeviceCount, cudaGetDeviceProperties, ...): cuInit(0),
 * without making a context current. A program may then call the driver
 * API without cuInit of its own (cuCtxGetCurrent gives NULL until a runtime
 * call that works with the device). */
void cuemu__drv_init_by_runtime(void);
/* The runtime API's reference to the primary context of `device`, taken
 * once when the runtime first works with the device from a thread without
 * a context of its own (CUDA's runtime retains it so):
 * cuDevicePrimaryCtxGetState then reports it active. */
void cuemu__drv_runtime_holds_primary(int device);
/* cudaSetDevice(device): CUDA's runtime makes the device's primary context
 * current with cuCtxSetCurrent, so a created context (or another device's
 * primary one) at the top of the calling thread's stack is replaced by it,
 * and the runtime holds it. A thread with no context yet gets it at its next
 * call that needs one. Nothing before cuInit. */
void cuemu__drv_runtime_set_device(int device);

/* The calling thread's current context, or NULL. */
cuemu_drv_context *cuemu__drv_current(void);
/* Notes that the calling thread made an allocation at `base`, in its
 * current context (cuemu_rt_memory.c's allocations). */
void cuemu__drv_note_allocation(const void *base);
/* The context the allocation at `base` (on `device`) was made in: the
 * created context that was current then, else the device's primary one. */
void *cuemu__drv_allocation_context(const void *base, int device);
/* Forgets the pointer attributes set on an allocation at `base`
 * (cuPointerSetAttribute), when an allocation is made there again. */
void cuemu__drv_forget_pointer_attributes(const void *base);

/* The device of a live context (a primary one, active or not, or a
 * created one not destroyed): CUDA_SUCCESS, else
 * CUDA_ERROR_INVALID_CONTEXT. */
int cuemu__drv_context_device(const void *ctx, int *device);
/* The primary context of `device` (NULL for no such device). */
void *cuemu__drv_primary_context(int device);

/* Notes the context current while `event` is made (cuemu_rt_event.c):
 * a created context, not a primary one. */
void cuemu__drv_note_event(void *event);
/* Non-zero when `event` was made in the context of `stream` (NULL, the
 * legacy and per-thread streams: the current context), or of `ctx` when
 * that is not NULL; a green context's context counts as its primary one
 * (cuemu_drv_stream_ctx.c). */
int cuemu__drv_event_in_context(void *event, void *stream, void *ctx);

/* The context a launch into `stream` runs in: the context the stream was
 * made in (a created one, or a green context's), else the primary context
 * of its device; for NULL and the legacy and per-thread streams, the
 * calling thread's current context (cuemu_drv_stream_ctx.c). */
void *cuemu__drv_stream_context(void *stream);

/* The live green context whose context (cuCtxFromGreenCtx's) is `ctx`,
 * or NULL (cuemu_drv_green.c). */
void *cuemu__drv_green_of_context(const void *ctx);
/* The SMs of the live green context whose context is `ctx`, or 0. */
unsigned cuemu__drv_green_sms(const void *ctx);

/* Non-zero when `code` is a CUresult of CUDA 13. */
int cuemu__drv_known(int code);

/* The kernels of modules that driver calls have made graph nodes of or
 * captured (cuemu_drv_graph.c): noted, and forgotten when their module is
 * unloaded. */
struct cuemu_kernel;
struct cuemu_module;
void cuemu__drv_graph_note(struct cuemu_kernel *k);
void cuemu__drv_graph_forget(struct cuemu_module *m);

/* The module calls without the context check (cuemu_drv_module.c), for
 * the context-independent libraries (cuemu_drv_library.c): driver codes. */
int cuemu__drv_module_load(void **module, const char *path);
int cuemu__drv_module_load_data(void **module, const void *image);
int cuemu__drv_module_unload(void *module);
int cuemu__drv_module_get_function(void **function, void *module,
                                   const char *name);
int cuemu__drv_module_get_global(unsigned long long *dptr, size_t *bytes,
                                 void *module, const char *name);
int cuemu__drv_module_get_function_count(unsigned *count, void *module);
int cuemu__drv_module_enumerate_functions(void **functions, unsigned n,
                                          void *module);
/* The descriptor of `kernel` when it is a kernel of a live library
 * (cuLibraryGetKernel, cudaLibraryGetKernel), else NULL
 * (cuemu_drv_library.c): cudaLaunchKernel and kernel nodes take them. */
struct cuemu_kernel_desc;
const struct cuemu_kernel_desc *cuemu__drv_library_kernel(const void *kernel);
/* When `kernel` is a kernel of a live library, the kernel that runs it on
 * the current device (the same kernel of that device's load of the
 * library, whose variables are that device's); else NULL. */
void *cuemu__drv_library_function(const void *kernel);

/* The size of a module image from its ELF headers, 0 when it is none
 * (cuemu_drv_module.c). */
size_t cuemu__drv_elf_size(const void *image);
/* CUDA_ERROR_INVALID_IMAGE for `n` bytes at `head` that are no cuemu
 * module, with a message that says what they are (`where` names them). */
int cuemu__drv_not_a_module(const void *head, size_t n, const char *where);
/* The same, reported as a failure of `call` (a linker's call). */
int cuemu__drv_not_a_module_in(const char *call, const void *head, size_t n,
                               const char *where);

/* Non-zero when the image (at most n bytes; SIZE_MAX: NUL-terminated) is
 * NVIDIA PTX text (cuemu_drv_ptx.c). */
int cuemu__drv_ptx_is(const void *image, size_t n);
/* Compiles NVIDIA PTX text into a cuemu module image in *out (malloc'ed,
 * *size bytes), as the driver's JIT compiles PTX; a driver error code,
 * CUDA_ERROR_INVALID_PTX with a message naming `call` and `where` when the
 * PTX cannot be translated or compiled. */
int cuemu__drv_ptx_image(const char *call, const void *image, size_t n,
                         const char *where, void **out, size_t *size);

/* The function calls without the context check (cuemu_drv_module.c), for
 * the kernels of libraries (cuKernelGetAttribute, ...): driver codes. */
int cuemu__drv_func_get_attribute(int *value, int attribute, void *function);
/* Sets *value and returns 1 when `attribute` is one of the cluster
 * attributes (ClusterSizeMustBeSet and the required cluster width, height
 * and depth: from the __cluster_dims__ of the kernel at host address
 * `function`, zeros without; NonPortableClusterSizeAllowed and
 * ClusterSchedulingPolicyPreference as set); returns 0 for the others. */
int cuemu__drv_cluster_attribute(const void *function, int attribute,
                                 int *value);
/* The value of CUfunction_attribute `attribute` in *a (DRIVER codes). */
struct cuemu_kernel_attributes;
int cuemu__drv_attribute_value(const struct cuemu_kernel_attributes *a,
                               int attribute, int *value);
/* A program's kernel given as a CUkernel (cudaGetKernel's handle: the
 * kernel's address), cuemu_drv_program_kernel.c: its descriptor, or NULL
 * (a library's kernel, or no kernel); its attributes got (value not NULL)
 * or set (to `set`), as cuKernelGetAttribute and cuKernelSetAttribute
 * take them, on the current device. Driver codes. */
struct cuemu_kernel_desc;
const struct cuemu_kernel_desc *cuemu__drv_program_kernel(const void *k);
int cuemu__drv_program_kernel_attribute(int *value, int set, int attribute,
                                        const void *k);
/* A CUfunction as the calls that take one read it: a program's CUkernel
 * (cudaGetKernel's handle) cast to CUfunction, which CUDA takes as it
 * takes a library's kernel, is the kernel's CUfunction (the one that
 * cuKernelGetFunction gives; NULL when out of memory); any other handle
 * is itself. */
void *cuemu__drv_function(void *function);
int cuemu__drv_func_set_attribute(void *function, int attribute, int value);
int cuemu__drv_func_get_param_info(void *function, size_t index,
                                   size_t *offset, size_t *size);
/* The same for the kernel a descriptor describes (a program's kernel too,
 * for cudaFuncGetParamInfo). */
struct cuemu_kernel_desc;
int cuemu__drv_param_info(const struct cuemu_kernel_desc *d, size_t index,
                          size_t *offset, size_t *size);

/* The image of cuLinkComplete (cuemu_drv_link_image.c). Its inputs are
 * linked under paths of at least CUEMU__DRV_LINKED_PATH_MIN bytes, without
 * quotes, backslashes or newlines; write_payload writes the assembly of
 * the section that carries them (-1 for such a path or a write error). */
#define CUEMU__DRV_LINKED_PATH_MIN 64
int cuemu__drv_link_image_write_payload(FILE *f, char *const *paths,
                                        int count);
/* Non-zero when the `size` bytes of `image` are a linked image. */
int cuemu__drv_link_image_is_linked(const void *image, size_t size);
/* Prepares the load of a linked image: writes each input into an
 * anonymous file of its own (`fds`, room for 48; *nfds of them) and gives
 * in *patched (malloc'd, `size` bytes) the image naming those files. For
 * an image that no link made, *patched is NULL. A driver code. */
int cuemu__drv_link_image_open(const void *image, size_t size,
                               unsigned char **patched, int *fds, int *nfds);
/* Closes the descriptor of a file a module was loaded from
 * (/proc/self/fd/FD) once the module is unloaded, unless the loader keeps
 * the object (then the descriptor stays, so that no later load gets its
 * name). */
void cuemu__drv_loaded_fd_close(int fd);
/* Frees the kernel table that cuemu_link_describe made for a load of a
 * linked image, once it is unloaded: the table whose first kernel
 * descriptor is at `kernels`; nothing for another module's. */
void cuemu__drv_link_forget(const void *kernels);

/* The arguments of a launch of `k` (cuLaunchKernel's kernelParams or
 * extra; `unpacked` has room for 256) in *args; a driver code. */
struct cuemu_kernel;
int cuemu__drv_launch_args(const struct cuemu_kernel *k, void **params,
                           void **extra, void **unpacked, void ***args);

/* The loaded module of a driver module handle. */
struct cuemu_module *cuemu__drv_module_of(void *module);

#endif /* CUEMU_DRV_INTERNAL_H */
