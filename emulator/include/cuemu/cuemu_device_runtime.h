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
int cuemu_device_launch(const cuemu_kernel_desc *kernel, cuemu_uint3 grid,
                        cuemu_uint3 block, size_t dynamic_shared,
                        void *stream, void **args, void *owner,
                        cuemu_child_release_fn release);

/* cudaGetParameterBuffer: a zeroed buffer of `size` bytes aligned to
 * `alignment` for cudaLaunchDevice (NULL when memory runs out). */
void *cuemu_device_parameter_buffer(size_t alignment, size_t size);

/* cudaLaunchDevice: launches the kernel at `function` with the parameters
 * laid out in `buffer` (from cuemu_device_parameter_buffer(), which the
 * launch takes over) at their natural alignment. A cudaError_t value. */
int cuemu_device_launch_buffer(const void *function, void *buffer,
                               cuemu_uint3 grid, cuemu_uint3 block,
                               unsigned dynamic_shared, void *stream);

/* The calling CUDA thread's last error of the device runtime: returned and
 * reset (take != 0), or only returned. A cudaError_t value. */
int cuemu_device_last_error(int take);

/* Records `code` (non-zero) as the calling CUDA thread's last error and
 * returns it. */
int cuemu_device_record_error(int code);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_DEVICE_RUNTIME_H */
