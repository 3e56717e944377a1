/*
 * warp_reduce.cu: the warp reductions (__reduce_add_sync, _min_, _max_ for
 * int and unsigned, _and_, _or_, _xor_ for unsigned) for tests/check_warp.c.
 * They need sm_80 on the GPU.
 */

#include "thread_layout.cuh"

/* The lanes of `mask` that exist in the caller's warp reduce in[i] as int
 * (add, min, max at out[3 * i]). */
extern "C" __global__ void reduce_int(const int *in, unsigned mask, int *out) {
  unsigned n = block_threads(), t = linear_thread();
  unsigned i = linear_block() * n + t;
  unsigned m = mask & present_lanes(t, n);
  if (!lane_in_mask(m, t))
    return;
  int v = in[i];
  out[3 * i] = __reduce_add_sync(m, v);
  out[3 * i + 1] = __reduce_min_sync(m, v);
  out[3 * i + 2] = __reduce_max_sync(m, v);
}

/* The same as unsigned, with and, or and xor (six results at out[6 * i]). */
extern "C" __global__ void reduce_unsigned(const unsigned *in, unsigned mask,
                                           unsigned *out) {
  unsigned n = block_threads(), t = linear_thread();
  unsigned i = linear_block() * n + t;
  unsigned m = mask & present_lanes(t, n);
  if (!lane_in_mask(m, t))
    return;
  unsigned v = in[i];
  out[6 * i] = __reduce_add_sync(m, v);
  out[6 * i + 1] = __reduce_min_sync(m, v);
  out[6 * i + 2] = __reduce_max_sync(m, v);
  out[6 * i + 3] = __reduce_and_sync(m, v);
  out[6 * i + 4] = __reduce_or_sync(m, v);
  out[6 * i + 5] = __reduce_xor_sync(m, v);
}
