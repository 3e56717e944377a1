/*
 * cuemu_device_heap.h: the device heap behind malloc, free, new and delete
 * in kernel code (see cuemu_device_runtime.h for the kernel-code side).
 * Internal to libcuemu.
 */
#ifndef CUEMU_DEVICE_HEAP_H
#define CUEMU_DEVICE_HEAP_H

#include <stddef.h>
#include <stdint.h>

/* What memcheck learns about an access of `size` bytes at address `a`. */
enum cuemu_heap_verdict {
  CUEMU_HEAP_OUTSIDE = 0,  /* not in the device heap */
  CUEMU_HEAP_INSIDE,       /* within one live allocation */
  CUEMU_HEAP_OUT_OF_BOUNDS,
  CUEMU_HEAP_FREED         /* in an allocation that was freed */
};

/* Classifies an access for memcheck; *base, *size and *site describe the
 * allocation concerned (the nearest one for an access out of bounds).
 * Any thread. */
int cuemu__device_heap_classify(uintptr_t a, size_t n, void **base,
                                size_t *size, const void **site);

/* The heap's address range [*lo, *hi) ([0, 0) before it is made), which
 * the checkers' ranges with nothing to check must leave out. Any thread. */
void cuemu__device_heap_range(uintptr_t *lo, uintptr_t *hi);

/* The checkers' shadow of the live heap byte at `a`: *written_at points
 * to its "written" byte (initcheck; 0 until something writes it, reset by
 * each allocation) and, when cell_bytes is not 0, *cells_at to its
 * racecheck cell of cell_bytes bytes (zeroed by each allocation). Both are
 * made at the first call. Returns 0 when there is no memory for them. Any
 * thread. */
int cuemu__device_heap_shadow(uintptr_t a, size_t cell_bytes,
                              unsigned char **written_at, void **cells_at);

/* Non-zero once a kernel has allocated from the heap (its size can no
 * longer change, as on the GPU). */
int cuemu__device_heap_used(void);

/* A copy of the heap (its used part and its bookkeeping), for schedule
 * perturbation, which runs a launch twice from the same state: saved
 * before the first run, restored before the second, and the first run's
 * restored after it. NULL when memory runs out. */
struct cuemu_heap_copy;
struct cuemu_heap_copy *cuemu__device_heap_save(void);
void cuemu__device_heap_restore(const struct cuemu_heap_copy *copy);
void cuemu__device_heap_copy_free(struct cuemu_heap_copy *copy);
/* Non-zero when two copies hold the same allocations (the same blocks
 * handed out, whatever their contents). */
int cuemu__device_heap_copy_same_blocks(const struct cuemu_heap_copy *a,
                                        const struct cuemu_heap_copy *b);

/* Reports the live allocations as leaks (when CUEMU_CHECK_LEAKS=1) and
 * releases the heap (cudaDeviceReset). Host code. */
void cuemu__device_heap_reset(void);

#endif /* CUEMU_DEVICE_HEAP_H */
