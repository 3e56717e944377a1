/*
 * cuemu_runtime_streams.h: libcuemu's side of the CUDA runtime API's
 * streams, events, launches, function attributes, occupancy and symbols
 * (shims/cuda_builtins/cuemu_streams_api.h forwards the CUDA names
 * here). Every function returns a CUDA error code (a cudaError_t value) as
 * int and records a failure with cuemu_rt_error(); after a kernel fault
 * they return the sticky error (cuemu_rt_sticky()).
 *
 * What runs when (docs/streams.md): work issued to a stream runs
 * asynchronously to the issuing host thread, on an execution thread per
 * stream, in the stream's order and in the orders CUDA defines between
 * streams (the legacy default stream waits for the blocking streams' work
 * and they for its; events; stream memory operations):
 *   - a launch is checked when it is issued (a configuration error is the
 *     call's) and runs later; an execution error is sticky from when the
 *     kernel ends;
 *   - cudaStreamAddCallback and cudaLaunchHostFunc run the function in the
 *     stream's order, on its execution thread;
 *   - cudaEventRecord takes the host time when the record runs;
 *     cudaEventElapsedTime is the host wall time between two records, in
 *     milliseconds;
 *   - cudaStreamQuery, cudaEventQuery (and cudaEventElapsedTime) return
 *     cudaErrorNotReady while work is pending, which, as in CUDA, is not
 *     left as the last error; cudaStreamSynchronize,
 *     cudaEventSynchronize and cudaDeviceSynchronize wait, and report a
 *     wait that nothing left can satisfy instead of hanging;
 *   - the stream operations that are not queued run when issued, after
 *     their stream's earlier work.
 * CUEMU_STREAMS=sync runs every operation when it is issued, in issue
 * order, on the issuing thread (the debugging mode). A stream that
 * captures a graph records its work instead (cuemu_runtime_graph.h).
 * The default streams: stream 0 (the legacy default stream),
 * cudaStreamLegacy and cudaStreamPerThread are always valid handles; the
 * per-thread default stream is a blocking stream of the calling host
 * thread. Streams created with cudaStreamNonBlocking do not wait for the
 * legacy default stream.
 *
 * Handles: stream and event handles are numbers, never reused, so a
 * destroyed (or made-up) handle is reported as cudaErrorInvalidResourceHandle
 * by every call. A handle's bookkeeping (a few bytes) is kept for the life
 * of the process.
 */
#ifndef CUEMU_RUNTIME_STREAMS_H
#define CUEMU_RUNTIME_STREAMS_H

#include <stddef.h>

#include <cuemu/cuemu_device.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Streams ------------------------------------------------------------- */

/* The priority range of streams: 0 (the least, the default) to -5 (the
 * greatest), as on CUDA devices of compute capability 9.0. */
#define CUEMU_RT_STREAM_LEAST_PRIORITY 0
#define CUEMU_RT_STREAM_GREATEST_PRIORITY (-5)

/* Creates a stream; flags is 0 (cudaStreamDefault) or 1
 * (cudaStreamNonBlocking); a priority outside the range is clamped. */
int cuemu_rt_stream_create(void **stream, unsigned flags, int priority);
int cuemu_rt_stream_destroy(void *stream);
int cuemu_rt_stream_synchronize(void *stream);
int cuemu_rt_stream_query(void *stream);
int cuemu_rt_stream_get_flags(void *stream, unsigned *flags);
int cuemu_rt_stream_get_priority(void *stream, int *priority);
/* The device a stream belongs to: the current device at its creation (a
 * default stream: the calling thread's current device). */
int cuemu_rt_stream_get_device(void *stream, int *device);
int cuemu_rt_device_stream_priority_range(int *least, int *greatest);
/* Makes stream 0 the calling host thread's default stream (as
 * cudaStreamPerThread) for the rest of the process: what
 * `--default-stream per-thread` (CUDA_API_PER_THREAD_DEFAULT_STREAM)
 * asks for; the shims call it when such a program starts. */
void cuemu_rt_default_stream_per_thread(void);
/* flags: 0 (cudaEventWaitDefault) or 1 (cudaEventWaitExternal). */
int cuemu_rt_stream_wait_event(void *stream, void *event, unsigned flags);

/* Runs fn(data) at its place in the stream (see above). */
int cuemu_rt_launch_host_func(void *stream, void (*fn)(void *data),
                              void *data);

/* cudaStreamAddCallback: runs trampoline(stream, status, callback, data)
 * at its place in the stream, where status is the stream's error (the
 * sticky error or 0); flags must be 0. */
int cuemu_rt_stream_add_callback(void *stream,
                                 void (*trampoline)(void *stream, int status,
                                                    void *callback,
                                                    void *data),
                                 void *callback, void *data, unsigned flags);

/* ---- Events -------------------------------------------------------------- */

/* flags: a combination of 1 (cudaEventBlockingSync), 2
 * (cudaEventDisableTiming) and 4 (cudaEventInterprocess, which needs
 * cudaEventDisableTiming). */
int cuemu_rt_event_create(void **event, unsigned flags);
int cuemu_rt_event_destroy(void *event);
int cuemu_rt_event_record(void *event, void *stream);
int cuemu_rt_event_synchronize(void *event);
int cuemu_rt_event_query(void *event);
/* The milliseconds between the records of start and end: InvalidValue
 * without ms, InvalidResourceHandle for an invalid event, an event created
 * with cudaEventDisableTiming or one never recorded. */
int cuemu_rt_event_elapsed_time(float *ms, void *start, void *end);

/* ---- Launches ------------------------------------------------------------ */

/* cudaLaunchKernel and cudaLaunchCooperativeKernel: launches the kernel at
 * `function` (a registered kernel of the program, or else `fallback` when
 * it is not NULL), with args holding pointers to the argument values (and,
 * for a fallback descriptor of a kernel called through a pointer,
 * args[param_count] the function). Returns the error of the call (invalid
 * stream, function or configuration, too large a cooperative grid); an
 * execution error of the kernel is not returned but stored in *status (the
 * cuemu status, CUEMU_SUCCESS otherwise) for the caller to record as
 * sticky. */
int cuemu_rt_launch_kernel(const void *function,
                           const cuemu_kernel_desc *fallback, cuemu_uint3 __cuemu_grid,
                           cuemu_uint3 __cuemu_block, void **args,
                           size_t dynamic_shared, void *stream,
                           int cooperative, int *status);

/* The cooperative form of cuemu_program_launch() (cuemu_device.h). */
int cuemu_program_launch_cooperative(const cuemu_kernel_desc *kernel,
                                     cuemu_uint3 __cuemu_grid, cuemu_uint3 __cuemu_block,
                                     size_t dynamic_shared, void *stream,
                                     void **args);

/* ---- Functions and occupancy --------------------------------------------- */

/* `known` is 1 when the caller knows `function` is a kernel (a typed
 * function pointer); with 0, it must be a registered kernel of the program
 * (else cudaErrorInvalidDeviceFunction). */

/* What cudaFuncGetAttributes reports. */
typedef struct cuemu_rt_func_attributes {
  size_t shared_size_bytes;
  size_t const_size_bytes;
  size_t local_size_bytes;
  int max_threads_per_block;
  int num_regs;
  int ptx_version;
  int binary_version;
  int cache_mode_ca;
  int max_dynamic_shared_size_bytes;
  int preferred_shmem_carveout;
  /* The kernel's __cluster_dims__ (zeros without; must_be_set 1 with
   * them), whether a non-portable cluster size is allowed and the cluster
   * scheduling policy preference (both cudaFuncSetAttribute's). */
  int cluster_dim_must_be_set;
  int required_cluster_width, required_cluster_height, required_cluster_depth;
  int cluster_scheduling_policy_preference;
  int non_portable_cluster_size_allowed;
} cuemu_rt_func_attributes;

int cuemu_rt_func_get_attributes(cuemu_rt_func_attributes *attributes,
                                 const void *function, int known);
/* cudaFuncGetParamInfo: where parameter `index` of the kernel (a program's
 * kernel by address, or a library's cudaKernel_t) lies in its parameter
 * layout, each parameter at its alignment after the one before, and its
 * size (`size` may be NULL); cudaErrorInvalidValue for an index past the
 * last, cudaErrorInvalidDeviceFunction for no kernel. cudaFuncGetName: the
 * kernel's name as registered ("axpy", "scale<float, 2>"). */
int cuemu_rt_func_get_param_info(const void *function, size_t index,
                                 size_t *offset, size_t *size);
int cuemu_rt_func_get_name(const char **name, const void *function);
/* attribute: a cudaFuncAttribute value. MaxDynamicSharedMemorySize (8)
 * sets the kernel's dynamic shared-memory limit (at most 227 KiB);
 * PreferredSharedMemoryCarveout (9) takes -1 or 0..100; the cluster
 * attributes are accepted and ignored. */
int cuemu_rt_func_set_attribute(const void *function, int attribute,
                                int value, int known);
/* The dynamic shared-memory limit of the kernel at `function` (48 KiB
 * unless cudaFuncSetAttribute raised it). */
size_t cuemu_rt_func_max_dynamic_shared(const void *function);

/* Blocks of block_size threads resident per SM (the rule of cooperative
 * launches); 0 when block_size is past 1024 or dynamic_shared past the
 * kernel's limit. */
int cuemu_rt_occupancy_max_active_blocks(int *__cuemu_blocks, const void *function,
                                         int __cuemu_block_size,
                                         size_t dynamic_shared,
                                         unsigned flags, int known);
/* The block size (a multiple of 32, at most block_size_limit when it is
 * not 0) with the most resident threads per SM, and the grid that fills
 * every SM with it. */
int cuemu_rt_occupancy_max_potential_block_size(int *min_grid_size,
                                                int *__cuemu_block_size,
                                                const void *function,
                                                size_t dynamic_shared,
                                                int block_size_limit,
                                                int known);

/* ---- Symbols ------------------------------------------------------------- */

/* A __device__ or __constant__ variable of `size` bytes at `symbol`
 * ((size_t)-1 when the size is not known: no range check). kind is a
 * cudaMemcpyKind value: HostToDevice, DeviceToDevice or Default to a
 * symbol, DeviceToHost, DeviceToDevice or Default from one. */
#define CUEMU_RT_SYMBOL_SIZE_UNKNOWN ((size_t)-1)
int cuemu_rt_memcpy_to_symbol(void *symbol, size_t size, const void *src,
                              size_t count, size_t offset, int kind,
                              void *stream);
int cuemu_rt_memcpy_from_symbol(void *dst, const void *symbol, size_t size,
                                size_t count, size_t offset, int kind,
                                void *stream);
/* cudaMemcpyToSymbolAsync and cudaMemcpyFromSymbolAsync: checked when
 * issued, then run in the stream's order as cudaMemcpyAsync (a symbol of
 * known size is device memory from then on; with pageable host memory, or
 * a symbol of unknown size, the copy runs when issued, after the stream's
 * earlier work). */
int cuemu_rt_memcpy_to_symbol_async(void *symbol, size_t size,
                                    const void *src, size_t count,
                                    size_t offset, int kind, void *stream);
int cuemu_rt_memcpy_from_symbol_async(void *dst, const void *symbol,
                                      size_t size, size_t count,
                                      size_t offset, int kind, void *stream);
int cuemu_rt_get_symbol_address(void **address, const void *symbol,
                                size_t size);
int cuemu_rt_get_symbol_size(size_t *result, const void *symbol,
                             size_t size);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_RUNTIME_STREAMS_H */
