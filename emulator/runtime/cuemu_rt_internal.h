/*
 * cuemu_rt_internal.h: what the files of the runtime API share inside
 * libcuemu.
 */
#ifndef CUEMU_RT_INTERNAL_H
#define CUEMU_RT_INTERNAL_H

#include <stddef.h>

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

/* Frees the device memory (cudaMalloc's) of `device` (cudaDeviceReset
 * when there are several devices). */
void cuemu__rt_memory_reset_device(int device);

/* Returns the sticky error's CUDA code, recorded as the last error, when
 * there is one (the start of every call that works with the device), else
 * 0. */
int cuemu__rt_check_sticky(void);

/* 0 when `stream` is a live stream or a default stream (0,
 * cudaStreamLegacy, cudaStreamPerThread), else records and returns
 * cudaErrorInvalidResourceHandle. */
int cuemu__rt_check_stream(void *stream);

#endif /* CUEMU_RT_INTERNAL_H */
