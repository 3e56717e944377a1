/*
 * warp_syncwarp.cu: __syncwarp orders shared-memory writes between the
 * lanes of its mask, for tests/check_warp.c.
 */

#include "thread_layout.cuh"

/* The next lane of `m` after `lane`, cyclically (`lane` itself if it is the
 * only one). */
__device__ inline unsigned next_lane(unsigned m, unsigned lane) {
  for (unsigned d = 1; d <= 32; ++d) {
    unsigned j = (lane + d) % 32;
    if ((m >> j) & 1u)
      return j;
  }
  return lane;
}

/* For `rounds` rounds, every lane of `mask` (those that exist) writes
 * t * 1000 + round into its slot of shared memory, waits at __syncwarp, reads
 * the slot of the next lane of the mask and waits again; it folds what it
 * read into out[i]. Without the ordering a lane reads a stale slot. With
 * mode 1 the full-warp form __syncwarp() is used (full warps only). */
extern "C" __global__ void exchange(unsigned mask, int rounds, int mode,
                                    unsigned *out) {
  __shared__ unsigned slot[1024];
  unsigned n = block_threads(), t = linear_thread();
  unsigned i = linear_block() * n + t;
  unsigned m = mask & present_lanes(t, n);
  unsigned lane = t % 32, base = t - lane;
  if (!((m >> lane) & 1u))
    return;
  unsigned from = base + next_lane(m, lane);
  unsigned acc = 0;
  for (int r = 0; r < rounds; ++r) {
    slot[t] = t * 1000u + (unsigned)r;
    if (mode == 1)
      __syncwarp();
    else
      __syncwarp(m);
    acc = acc * 31u + slot[from];
    if (mode == 1)
      __syncwarp();
    else
      __syncwarp(m);
  }
  out[i] = acc;
}
