/*
 * cuemu_limits.h: the device's limits that cudaDeviceSetLimit sets
 * (cudaLimit values): the per-thread stack size, the printf FIFO, the
 * malloc heap, the device runtime's depth and pending launches, the L2
 * fetch granularity and the persisting L2 cache. Internal to libcuemu;
 * host code, any thread.
 */
#ifndef CUEMU_LIMITS_H
#define CUEMU_LIMITS_H

#include <stddef.h>

#include <cuemu/cuemu_status.h>

/* cudaLimit values. */
enum cuemu_limit {
  CUEMU_LIMIT_STACK_SIZE = 0,
  CUEMU_LIMIT_PRINTF_FIFO_SIZE = 1,
  CUEMU_LIMIT_MALLOC_HEAP_SIZE = 2,
  CUEMU_LIMIT_DEV_RUNTIME_SYNC_DEPTH = 3,
  CUEMU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT = 4,
  CUEMU_LIMIT_MAX_L2_FETCH_GRANULARITY = 5,
  CUEMU_LIMIT_PERSISTING_L2_CACHE_SIZE = 6,
  CUEMU_LIMIT_COUNT_
};

/* The current value of a limit; INVALID_VALUE for an unknown one (with
 * CUDA's cudaErrorUnsupportedLimit in the message). */
cuemu_status cuemu__limit_get(int limit, size_t *value);

/* Sets a limit, rounded as the GPU does; INVALID_VALUE for a limit that
 * can no longer change (the printf FIFO after a kernel printed). */
cuemu_status cuemu__limit_set(int limit, size_t value);

/* The stack of an emulated thread: `base` bytes (CUEMU_STACK_SIZE, room
 * for the host's own frames: printf, the C library) plus whatever
 * cudaLimitStackSize asks beyond CUDA's default of 1 KiB, in whole pages.
 * The device runtime reads the malloc heap size with cuemu__limit_get. */
size_t cuemu__limit_thread_stack(size_t base);

/* Restores every limit's default (cudaDeviceReset), after printing the
 * kernels' waiting printf output (a context's destruction prints it). */
void cuemu__limit_reset(void);

#endif /* CUEMU_LIMITS_H */
