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

/* Frees every tracked allocation and forgets every tracked range
 * (cudaDeviceReset). */
void cuemu__rt_memory_reset(void);

/* Returns the sticky error, recorded as the last error, when there is one
 * (the start of every call that works with the device), else 0. */
int cuemu__rt_check_sticky(void);

/* A copy of the table of tracked allocations (live and remembered freed
 * ones), sorted by base, in *out (to free); returns its length. For the
 * checkers (emulator/check/). */
struct cuemu_rt_allocation;
size_t cuemu__rt_memory_snapshot(struct cuemu_rt_allocation **out);

#endif /* CUEMU_RT_INTERNAL_H */
