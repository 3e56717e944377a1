/*
 * cuemu_occupancy.h: the occupancy rules of the runtime's and the driver's
 * occupancy calls, on a kernel's attributes (cuemu_kernel_attributes) and
 * the current device's model, so that both APIs give the same answers as
 * the launches they predict (device/cuemu_device_model.h). Internal to
 * libcuemu; host code, any thread.
 */
#ifndef CUEMU_OCCUPANCY_H
#define CUEMU_OCCUPANCY_H

#include <stddef.h>

#include <cuemu/cuemu.h>

/* Blocks of `threads` threads with `dynamic_shared` bytes of dynamic
 * shared memory resident per SM; 0 when the kernel cannot run blocks of
 * that shape. */
unsigned cuemu__occupancy_blocks(const cuemu_kernel_attributes *k,
                                 unsigned threads, size_t dynamic_shared);

/* The block size with the most resident threads per SM when a block of n
 * threads has smem_of(n, context) bytes of dynamic shared memory: the
 * largest size allowed (the kernel's most threads, at most `limit` when it
 * is not 0), then each multiple of the warp size below it, ties going to
 * the larger; *min_grid is the grid that fills every SM with it. */
void cuemu__occupancy_best_block(const cuemu_kernel_attributes *k,
                                 size_t (*smem_of)(int, void *),
                                 void *context, unsigned limit,
                                 int *min_grid, int *block_size);

/* The most dynamic shared memory a block of `threads` threads may have for
 * `blocks` of them to be resident on one SM (0 when their threads alone
 * do not fit). */
size_t cuemu__occupancy_available_smem(const cuemu_kernel_attributes *k,
                                       unsigned blocks, unsigned threads);

#endif /* CUEMU_OCCUPANCY_H */
