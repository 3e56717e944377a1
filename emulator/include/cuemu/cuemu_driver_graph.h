/*
 * cuemu_driver_graph.h: what the driver API's graphs need beyond the
 * runtime's (shims/cuda_builtins/cuemu_driver_graph_api.h forwards the
 * cuGraph* calls to cuemu_runtime_graph.h): a kernel node of a module's
 * kernel (a CUfunction, or a library's CUkernel) and the way back from a
 * node's kernel to its CUfunction. cuLaunchKernel into a capturing stream
 * is captured by cuemu_drv_launch_kernel itself. Driver error codes
 * (CUresult values) as int; host code, any thread.
 */
#ifndef CUEMU_DRIVER_GRAPH_H
#define CUEMU_DRIVER_GRAPH_H

#include <cuemu/cuemu_runtime_graph.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fills the kernel of a node's parameters (desc and function) from a
 * CUfunction of a loaded module: CUDA_ERROR_INVALID_VALUE for NULL. */
int cuemu_drv_graph_kernel(cuemu_rt_graph_kernel *kernel, void *function);

/* The CUfunction whose kernel `desc` is (one a driver call has named, or
 * for a kernel of the program's own, cudaGetFuncBySymbol's), or NULL;
 * CUDA_SUCCESS. */
int cuemu_drv_graph_function(const cuemu_kernel_desc *desc, void **function);

/* cuMemsetD8Async, cuMemsetD16Async, cuMemsetD32Async: `n` elements of
 * `element_size` bytes set to `value`; a memset node when the stream
 * captures, else done at once as cuMemsetD8/16/32. */
int cuemu_drv_memset_async(unsigned long long dst, unsigned value,
                           unsigned element_size, size_t n, void *stream);
/* cuMemsetD2D8Async, cuMemsetD2D16Async, cuMemsetD2D32Async: `height` rows
 * of `width` elements, `pitch` bytes apart; as cuemu_drv_memset_async. */
int cuemu_drv_memset_2d_async(unsigned long long dst, size_t pitch,
                              unsigned value, unsigned element_size,
                              size_t width, size_t height, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_DRIVER_GRAPH_H */
