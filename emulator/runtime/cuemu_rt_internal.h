/*
 * cuemu_rt_internal.h: what the files of the runtime API share inside
 * libcuemu.
 */
#ifndef CUEMU_RT_INTERNAL_H
#define CUEMU_RT_INTERNAL_H

#include <stddef.h>

#include <cuemu/cuemu_rt_host_types.h>

#include "device/cuemu_device_launch.h"

/* Clears the sticky error and the calling thread's last error
 * (cudaDeviceReset). */
void cuemu__rt_error_reset(void);

/* The driver API calls runtime functions between these two: enter, and
 * restore, which sets the calling thread's last error back to `code` (the
 * driver API's calls never change it, nor count as uses of the runtime
 * API, cuemu__rt_used()). */
void cuemu__rt_driver_enter(void);
void cuemu__rt_error_restore(int code);

/* Frees every tracked allocation and forgets every tracked range
 * (cudaDeviceReset). */
void cuemu__rt_memory_reset(void);

/* Non-zero once a runtime call has worked with a device (as CUDA's
 * runtime then has initialised the driver and made the device's primary
 * context current: the driver API's calls follow it). */
int cuemu__rt_used(void);
/* Non-zero when a runtime call has worked with a device on the calling
 * thread since the last time this was asked (and cleared): CUDA's runtime
 * makes the primary context current at such a call when the thread has
 * none (cuemu_drv_context.c does it when the driver next asks). */
int cuemu__rt_thread_called_take(void);

/* Frees the device memory (cudaMalloc's) of `device` (cudaDeviceReset
 * when there are several devices). */
void cuemu__rt_memory_reset_device(int device);

/* Returns the sticky error's CUDA code, recorded as the last error, when
 * there is one (the start of every call that works with the device), else
 * 0. */
int cuemu__rt_check_sticky(void);

/* Whether an allocation of `size` bytes of memory of `kind`
 * (CUEMU_RT_MEMORY_*, with the allocation's `flags`, which name its device)
 * fits: device memory no more than its device's total less the device's
 * live device allocations, as on a GPU; other kinds always
 * (cuemu_rt_memory.c). */
int cuemu__rt_memory_fits(int kind, unsigned flags, size_t size);

/* The flags of device memory allocated now: the current device, above
 * CUEMU_RT_MEMORY_DEVICE_SHIFT (cuemu_rt_memory.c). */
unsigned cuemu__rt_current_device_flags(void);

/* 0 when `stream` is a live stream or a default stream (0,
 * cudaStreamLegacy, cudaStreamPerThread), else records and returns
 * cudaErrorInvalidResourceHandle. An operation that checks its stream
 * this way runs when issued: with asynchronous streams, the call first
 * waits for the work issued before it in the stream's order
 * (cuemu_rt_stream_queue.h), and returns an error one of those ended
 * with. */
int cuemu__rt_check_stream(void *stream);
/* How long a wait that only another thread or process can satisfy (an
 * external semaphore's, a stream memory operation's) may last:
 * CUEMU_EXT_WAIT_SECONDS, default 60; and whether that much time has passed
 * since `start` (CLOCK_MONOTONIC). cuemu_rt_external.c. */
struct timespec;
long cuemu__rt_wait_limit(void);
int cuemu__rt_waited_past(const struct timespec *start, long seconds);

/* cuemu__rt_check_stream() without waiting for the stream: for the
 * operations that join the stream's queue (cuemu_rt_error.c). */
int cuemu__rt_stream_valid(void *stream);

/* Marks an event as recorded now (its time taken): the part of
 * cudaEventRecord that runs in the stream's order (cuemu_rt_event.c);
 * `ticket` is the record's of an interprocess event (0 for none,
 * cuemu_rt_ipc_event.h). */
int cuemu__rt_event_stamp(void *event, unsigned long long ticket);

/* The sticky error, else the stream's validity, without waiting for the
 * stream (cuemu_rt_stream.c). */
int cuemu__rt_check_sticky_stream(void *stream);

/* The checks of a copy of `kind` (cudaMemcpyKind) touching dst_extent
 * bytes at dst and src_extent at src: 0 or a CUDA code, not recorded
 * (cuemu_rt_memory.c). The same for a cudaMemcpy3DParms, whole box
 * (cuemu_rt_array.c). */
int cuemu__rt_check_copy(void *dst, size_t dst_extent, const void *src,
                         size_t src_extent, int kind);
/* The checks of cudaMemcpy2D and cudaMemset2D (a 1D one: height 1, the
 * pitches the width): 0 or a CUDA code, recorded (cuemu_rt_memory.c). */
int cuemu__rt_copy_check(void *dst, size_t dpitch, const void *src,
                         size_t spitch, size_t width, size_t height, int kind);
int cuemu__rt_memset_check(void *ptr, size_t pitch, size_t width,
                           size_t height);
struct cudaMemcpy3DParms;
int cuemu__rt_memcpy_3d_check(const struct cudaMemcpy3DParms *p);
/* cudaMemcpy2D's body for `depth` slices of it, each side's `dslice` and
 * `sslice` bytes apart: the copy of a 3D box of memory, whose source
 * initcheck judges as one copy (cuemu_rt_memory.c). */
int cuemu__rt_memcpy_slices(void *dst, size_t dpitch, size_t dslice,
                            const void *src, size_t spitch, size_t sslice,
                            size_t width, size_t height, size_t depth,
                            int kind);

/* cudaMemcpy's body for bytes [at, at + count) of a copy of `total` bytes
 * from src to dst made in parts: initcheck judges the source of the whole
 * copy with its first part, so that one copy counts one report
 * (cuemu_rt_memory.c). */
int cuemu__rt_memcpy_part(void *dst, const void *src, size_t at,
                          size_t count, size_t total, int kind);

/* cudaMallocPitch's body, with `site` the program's call (cudaMalloc3D's;
 * cuemu_rt_memory.c). */
int cuemu__rt_malloc_pitch_at(void **ptr, size_t *pitch, size_t width,
                              size_t height, const void *site);

/* cudaMalloc's and cudaFree's bodies for device memory, with `site` the
 * caller's address for memcheck's reports (cuemu_rt_memory.c). */
int cuemu__rt_device_alloc(void **ptr, size_t size, const void *site);
int cuemu__rt_device_free(void *ptr, const void *site);

/* A flag of stream-ordered allocations in the table of allocations, below
 * the device's bits: the memory is a block of a pool's chunk. */
#define CUEMU__RT_MEMORY_POOLED (1u << 20)

/* Frees `ptr` as freed on `stream` when it is a live stream-ordered
 * allocation (its block goes back to its pool) and returns 1, else 0
 * (cuemu_rt_mempool.c). */
int cuemu__rt_pool_free(void *ptr, void *stream);

/* The pool of the live stream-ordered allocation that starts at `base`, or
 * NULL (CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE; cuemu_rt_mempool.c). */
struct CUmemPoolHandle_st *cuemu__rt_pool_of(const void *base);

/* Ends the pools of `device` (every device when -1) with their
 * stream-ordered allocations (cudaDeviceReset). */
void cuemu__rt_pool_reset(int device);

/* The body of cudaLaunchKernel and cudaLaunchKernelEx: finds the kernel
 * (registered at `function`, else `fallback`), completes the request `r`
 * (whose shape, stream, arguments and attributes are filled) and runs it
 * on the one launch path. Returns the call's CUDA error; `*status` gets a
 * sticky execution error for the caller to record (cuemu_rt_launch.c). */
int cuemu__rt_launch(const void *function, const cuemu_kernel_desc *fallback,
                     cuemu_launch_request *r, int *status);

/* A launch request of the runtime API with its shape, stream and
 * arguments, and nothing else yet (cuemu_rt_launch.c). */
cuemu_launch_request cuemu__rt_request(cuemu_uint3 grid, cuemu_uint3 block,
                                       size_t dynamic_shared, void *stream,
                                       void **args);

/* Grows an array of `size`-byte elements to hold one more; 0 when memory
 * runs out (cuemu_rt_config.c). */
int cuemu__rt_reserve_one(void **array, size_t *count, size_t *capacity,
                          size_t size);

/* Validation of attributes that streams and launches share, each 0 or
 * cudaErrorInvalidValue (cuemu_rt_config.c). */
int cuemu__rt_check_access_policy(const struct cudaAccessPolicyWindow *w);
int cuemu__rt_check_sync_policy(int policy);
int cuemu__rt_check_sync_domain(int domain);
int cuemu__rt_check_domain_map(cudaLaunchMemSyncDomainMap map);

/* Checks one launch attribute as cudaLaunchKernelEx does: 0 or a CUDA
 * error (cuemu_rt_launch_ex.c). */
int cuemu__rt_launch_attr_check(const cudaLaunchAttribute *a);

/* The attributes of the cudaLaunchKernelEx being issued on this thread
 * (NULL outside one), for a capture to keep in its kernel node
 * (cuemu_rt_launch_ex.c). */
extern __thread const cudaLaunchAttribute *cuemu__rt_launch_attrs;
extern __thread unsigned cuemu__rt_launch_nattrs;

/* Forgets a destroyed stream's attributes; forgets every recorded
 * configuration (cudaDeviceReset) (cuemu_rt_config.c). */
void cuemu__rt_stream_config_forget(void *stream);
void cuemu__rt_config_reset(void);

/* A point where CUDA's host waits for the device (cudaDeviceSynchronize,
 * cudaStreamSynchronize, cudaEventSynchronize, a blocking copy): the
 * kernels' printf output is written and the memory pools release what
 * exceeds their thresholds (cuemu_rt_sync.c). */
void cuemu__rt_sync_point(void);

#endif /* CUEMU_RT_INTERNAL_H */
