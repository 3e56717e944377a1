/*
 * warp_match.cu: __match_any_sync and __match_all_sync for
 * tests/check_warp.c, for every type CUDA matches (unsigned, int, unsigned
 * long, long, unsigned long long, long long, float and double). Values
 * match when their bits are equal, as on the GPU.
 */

#include "thread_layout.cuh"

/* The lanes of `mask` that exist in the caller's warp match in[i]; each
 * writes __match_any_sync's result, __match_all_sync's and its predicate
 * at out[3 * i]. */
template <typename T>
__device__ void match(const T *in, unsigned mask, unsigned *out) {
  unsigned n = block_threads(), t = linear_thread();
  unsigned i = linear_block() * n + t;
  unsigned m = mask & present_lanes(t, n);
  if (!lane_in_mask(m, t))
    return;
  T v = in[i];
  int pred = 7;
  out[3 * i] = __match_any_sync(m, v);
  out[3 * i + 1] = __match_all_sync(m, v, &pred);
  out[3 * i + 2] = (unsigned)pred;
}

extern "C" __global__ void match_unsigned(const unsigned int *in, unsigned mask,
                                          unsigned *out) {
  match<unsigned int>(in, mask, out);
}
extern "C" __global__ void match_int(const int *in, unsigned mask,
                                     unsigned *out) {
  match<int>(in, mask, out);
}
extern "C" __global__ void match_unsigned_long(const unsigned long *in,
                                               unsigned mask, unsigned *out) {
  match<unsigned long>(in, mask, out);
}
extern "C" __global__ void match_long(const long *in, unsigned mask,
                                      unsigned *out) {
  match<long>(in, mask, out);
}
extern "C" __global__ void
match_unsigned_long_long(const unsigned long long *in, unsigned mask,
                         unsigned *out) {
  match<unsigned long long>(in, mask, out);
}
extern "C" __global__ void match_long_long(const long long *in, unsigned mask,
                                           unsigned *out) {
  match<long long>(in, mask, out);
}
extern "C" __global__ void match_float(const float *in, unsigned mask,
                                       unsigned *out) {
  match<float>(in, mask, out);
}
extern "C" __global__ void match_double(const double *in, unsigned mask,
                                        unsigned *out) {
  match<double>(in, mask, out);
}
