/*
 * cuemu_device_runtime.h: the device runtime that kernel code calls (CUDA
 * dynamic parallelism, CUDA 12's CDP2 semantics, and the device heap).
 *
 * A launch from kernel code (what `kernel<<<...>>>(args)` inside a
 * __global__ or __device__ function becomes, and cudaLaunchDevice) is
 * checked at once and queued with a copy of its arguments; it runs after
 * the grid that launched it has finished its blocks, and it completes,
 * with every grid it launches in turn, before that grid is complete.
 * Launches into cudaStreamTailLaunch run after the launching grid's other
 * work. An execution error of a child grid is the error of the launch from
 * the host. See docs/device-runtime.md. All functions here are kernel code.
 */
#ifndef CUEMU_DEVICE_RUNTIME_H
#define CUEMU_DEVICE_RUNTIME_H

#include <stddef.h>

#include <cuemu/cuemu_device.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The named streams of the device runtime (cuda_device_runtime_api.h's
 * values). */
#define CUEMU_STREAM_TAIL_LAUNCH ((void *)0x3)
#define CUEMU_STREAM_FIRE_AND_FORGET ((void *)0x4)

/* Releases what a queued launch owns (its argument copy) once it has run or
 * been discarded. */
typedef void (*cuemu_child_release_fn)(void *owner);

/* Queues a launch of `kernel` from kernel code. `args` is what the kernel's
 * thunk expects and must stay valid until `release(owner)` is called,
 * which the queue does exactly once (also when the launch is refused).
 * Returns a cudaError_t value: cudaSuccess, cudaErrorInvalidConfiguration
 * and the like for a bad shape, cudaErrorLaunchMaxDepthExceeded past the
 * 24 levels of nesting, cudaErrorLaunchPendingCountExceeded past
 * cudaLimitDevRuntimePendingLaunchCount, cudaErrorInvalidResourceHandle for
 * a stream that is not a device stream. The error is also the calling
 * thread's last error (cudaGetLastError in kernel code). */
int cuemu_device_launch(const cuemu_kernel_desc *kernel, cuemu_uint3 __cuemu_grid,
                        cuemu_uint3 __cuemu_block, size_t dynamic_shared,
                        void *stream, void **args, void *owner,
                        cuemu_child_release_fn release);

/* cudaGetParameterBuffer: a zeroed buffer of `size` bytes aligned to
 * `alignment` for cudaLaunchDevice (NULL when memory runs out). */
void *cuemu_device_parameter_buffer(size_t alignment, size_t size);

/* cudaLaunchDevice: launches the kernel at `function` with the parameters
 * laid out in `buffer` (from cuemu_device_parameter_buffer(), which the
 * launch takes over) at their natural alignment. A cudaError_t value. */
int cuemu_device_launch_buffer(const void *function, void *buffer,
                               cuemu_uint3 __cuemu_grid, cuemu_uint3 __cuemu_block,
                               unsigned dynamic_shared, void *stream);

/* The calling CUDA thread's last error of the device runtime: returned and
 * reset (take != 0), or only returned. A cudaError_t value. */
int cuemu_device_last_error(int take);

/* Records `code` (non-zero) as the calling CUDA thread's last error and
 * returns it. */
int cuemu_device_record_error(int code);

/* ---- The device heap ----------------------------------------------------
 *
 * In the device pass, cuemu-cc renames the calls of malloc, free and the
 * global operators new and delete (every form) to these functions. In
 * kernel code they allocate from the device heap: cudaLimitMallocHeapSize
 * bytes, shared by all launches until cudaDeviceReset; NULL when it is
 * full (new as well: device code has no exceptions), 16-byte alignment.
 * free and delete of what the heap did not return, or a second time, end
 * the launch with an error naming the thread and the line. Outside kernel
 * code (or while bypassed) they are the C library's. */
void *cuemu_device_malloc(size_t size);
void *cuemu_device_aligned_malloc(size_t size, size_t align);
void cuemu_device_free(void *p);
void *cuemu_device_new(size_t size);
void *cuemu_device_new_nothrow(size_t size, const void *tag);
void *cuemu_device_new_aligned(size_t size, size_t align);
void *cuemu_device_new_aligned_nothrow(size_t size, size_t align,
                                       const void *tag);
void *cuemu_device_new_array(size_t size);
void *cuemu_device_new_array_nothrow(size_t size, const void *tag);
void *cuemu_device_new_array_aligned(size_t size, size_t align);
void *cuemu_device_new_array_aligned_nothrow(size_t size, size_t align,
                                             const void *tag);
/* The forms of delete take the pointer first; what follows it (a size, an
 * alignment, a nothrow tag) changes nothing, so they are declared with
 * the pointer alone. */
void cuemu_device_delete(void *p);
void cuemu_device_delete_array(void *p);
void cuemu_device_delete_sized(void *p);
void cuemu_device_delete_array_sized(void *p);
void cuemu_device_delete_nothrow(void *p);
void cuemu_device_delete_array_nothrow(void *p);
void cuemu_device_delete_aligned(void *p);
void cuemu_device_delete_array_aligned(void *p);
void cuemu_device_delete_sized_aligned(void *p);
void cuemu_device_delete_array_sized_aligned(void *p);

/* Adds `delta` (1 or -1) to the calling OS thread's bypass count: while it
 * is positive, the functions above use the C library's heap even in kernel
 * code (the shims' own allocations, such as a kernel's name). */
void cuemu_device_heap_bypass(int delta);

/* Memory for the argument copy of a launch from kernel code (never the
 * device heap), and its release. */
void *cuemu_device_args_alloc(size_t size);
void cuemu_device_args_free(void *p);

/* ---- Thread block clusters ----------------------------------------------
 *
 * A launch with clusters (a kernel's __cluster_dims__, or the launch's
 * cluster attribute) runs all its blocks at once, each on a worker of its
 * own, so that the blocks of a cluster are resident together. Without
 * clusters every block is a cluster of one, as on sm_90. */

/* Records that a kernel's body launches grids (a <<<>>> in it: dynamic
 * parallelism), which a device graph may not hold; the generated kernel
 * table calls it when describing the kernel. Host code. */
void cuemu_kernel_set_launches_grids(const void *function);

/* Non-zero when the kernel at `function` was recorded so. Host code. */
int cuemu_kernel_launches_grids(const void *function);

/* Records that a kernel's code was compiled without optimization (its
 * device pass at -O0: -g, -G, -Xcompiler -O0), whose frames are many
 * times larger than optimized code's: its threads get a larger stack
 * (cuemu_device_launch.c). The generated kernel table calls it when
 * describing the kernel. Host code. */
void cuemu_kernel_set_unoptimized(const void *function);

/* Records a kernel's __cluster_dims__ (the generated kernel table calls it
 * when describing the kernel). Host code. */
void cuemu_kernel_set_cluster_dims(const void *function, unsigned x,
                                   unsigned y, unsigned z);

/* A kernel's __cluster_dims__ in *dims; 0 when it has none. Host code. */
int cuemu_kernel_get_cluster_dims(const void *function, cuemu_uint3 *dims);

/* Kernel code: the launch's cluster shape ((1,1,1) without clusters). */
cuemu_uint3 cuemu_cluster_dims(void);

/* Kernel code: cluster.sync(), a barrier of every thread of the cluster
 * (a block barrier without clusters): cuemu_cluster_arrive() then
 * cuemu_cluster_wait(). */
void cuemu_cluster_sync(const char *file, int line);

/* Kernel code: the split cluster barrier (cluster.barrier_arrive() and
 * barrier_wait(), PTX barrier.cluster.arrive and .wait). arrive marks the
 * calling thread arrived at the current phase without waiting; wait
 * returns once every thread of the cluster (every block of it; exited
 * threads and finished blocks count as arrived) has arrived at the phase
 * the caller arrived at. A thread that arrives twice without waiting, or
 * waits without arriving, is a fault naming the line. */
void cuemu_cluster_arrive(const char *file, int line);
void cuemu_cluster_wait(const char *file, int line);

/* Kernel code: the address in the shared memory of the block of rank
 * `rank` of the cluster that corresponds to `p` in the caller's (CUDA's
 * map_shared_rank); a fault for a rank past the cluster or a block that has
 * not started. */
void *cuemu_cluster_map_shared(const void *p, unsigned rank, const char *file,
                               int line);

/* Kernel code: the rank of the block whose shared memory holds `p`. */
unsigned cuemu_cluster_query_shared_rank(const void *p);

/* Ends the calling thread's block with `status` (a cuemu_status) and a
 * message naming the misuse `what`, the thread and the user's line: the
 * shims' report of a device API used against its rules (a WMMA operation
 * outside a full warp, say). */
CUEMU_NORETURN void cuemu_device_misuse(int status, const char *what,
                                        const char *file, int line);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_DEVICE_RUNTIME_H */
