/*
 * cuemu_occupancy.c: the occupancy rules shared by the runtime's and the
 * driver's occupancy calls (see cuemu_occupancy.h).
 */
#include "runtime/cuemu_occupancy.h"

#include "device/cuemu_device_model.h"

unsigned cuemu__occupancy_blocks(const cuemu_kernel_attributes *k,
                                 unsigned threads, size_t dynamic_shared) {
  if (threads == 0 || threads > k->max_threads_per_block ||
      dynamic_shared > k->max_dynamic_shared_bytes)
    return 0;
  return cuemu__device_blocks_per_sm(threads,
                                     k->static_shared_bytes + dynamic_shared);
}

void cuemu__occupancy_best_block(const cuemu_kernel_attributes *k,
                                 size_t (*smem_of)(int, void *),
                                 void *context, unsigned limit,
                                 int *min_grid, int *block_size) {
  const cuemu_device_model *m = cuemu__device_model();
  unsigned most = k->max_threads_per_block;
  if (limit && limit < most)
    most = limit;
  unsigned best = 0, best_blocks = 0, best_threads = 0;
  for (unsigned size = most; size > 0;
       size = size % m->warp_size ? size / m->warp_size * m->warp_size
                                  : size - m->warp_size) {
    unsigned b =
        cuemu__occupancy_blocks(k, size, smem_of((int)size, context));
    if (b * size > best_threads) {
      best = size;
      best_blocks = b;
      best_threads = b * size;
    }
  }
  *block_size = (int)best;
  *min_grid = (int)(best_blocks * m->sms);
}

size_t cuemu__occupancy_available_smem(const cuemu_kernel_attributes *k,
                                       unsigned blocks, unsigned threads) {
  const cuemu_device_model *m = cuemu__device_model();
  if (blocks == 0 || cuemu__occupancy_blocks(k, threads, 0) < blocks)
    return 0;
  size_t per_block = m->shared_per_sm / blocks;
  if (per_block <= k->static_shared_bytes)
    return 0;
  per_block -= k->static_shared_bytes;
  return per_block < k->max_dynamic_shared_bytes ? per_block
                                                 : k->max_dynamic_shared_bytes;
}
