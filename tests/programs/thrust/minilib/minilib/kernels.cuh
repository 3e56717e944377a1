/*
 * minilib/kernels.cuh: the kernels of a small header-only CUDA library,
 * written the way CUB and Thrust write theirs: __global__ templates in a
 * system header (included through -isystem), hidden visibility on every
 * kernel, __launch_bounds__ that depend on the template's parameters,
 * unnamed template parameters, parameter packs, and bodies that differ
 * between the host and the device pass (__CUDA_ARCH__).
 */
#ifndef MINILIB_KERNELS_CUH
#define MINILIB_KERNELS_CUH

#include <cuda_runtime.h>

#define MINILIB_KERNEL __global__ __attribute__((__visibility__("hidden")))

namespace minilib {
inline namespace v1 {

/* Queried, never launched (as CUB's EmptyKernel). */
template <typename T> MINILIB_KERNEL void empty_kernel() {}

/* A policy names the block size. */
template <int Threads, int Items> struct policy {
  static constexpr int block_threads = Threads;
  static constexpr int items_per_thread = Items;
  static constexpr int tile = Threads * Items;
};

/* out[i] = f(in[i]); the second parameter is unnamed. */
template <typename Policy, typename = void, typename T, typename F>
MINILIB_KERNEL void __launch_bounds__(Policy::block_threads)
    transform_kernel(const T *in, T *out, int n, F f) {
  int base = blockIdx.x * Policy::tile + threadIdx.x;
#pragma unroll
  for (int k = 0; k < Policy::items_per_thread; ++k) {
    int i = base + k * Policy::block_threads;
    if (i < n)
      out[i] = f(in[i]);
  }
}

/* Block sums through static shared memory, one partial per block. */
template <typename Policy, typename T>
MINILIB_KERNEL void __launch_bounds__(Policy::block_threads, 2)
    block_sum_kernel(const T *in, T *partial, int n) {
  __shared__ T sums[Policy::block_threads];
  T acc = T();
  for (int i = blockIdx.x * Policy::block_threads + threadIdx.x; i < n;
       i += gridDim.x * Policy::block_threads)
    acc = acc + in[i];
  sums[threadIdx.x] = acc;
  __syncthreads();
  for (int s = Policy::block_threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      sums[threadIdx.x] = sums[threadIdx.x] + sums[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = sums[0];
}

/* An agent kernel as Thrust's: its body exists in the device pass only,
 * the host pass sees an empty one with an unnamed parameter. */
#ifdef __CUDA_ARCH__
template <typename Agent, typename... Args>
MINILIB_KERNEL void __launch_bounds__(Agent::block_threads)
    agent_kernel(Args... args) {
  extern __shared__ char shmem[];
  Agent::entry(shmem, args...);
}
#else
template <typename, typename... Args>
MINILIB_KERNEL void agent_kernel(Args...) {}
#endif

/* An explicit specialization of a kernel template. */
template <typename T> MINILIB_KERNEL void tag_kernel(int *out) { *out = 1; }
template <> MINILIB_KERNEL void tag_kernel<double>(int *out) { *out = 2; }

/* Which pass compiled the code that runs: 1 for the device pass. */
template <int Tag> MINILIB_KERNEL void pass_kernel(int *out) {
#ifdef __CUDA_ARCH__
  *out = __CUDA_ARCH__ + Tag;
#else
  *out = -1;
#endif
}

} // namespace v1
} // namespace minilib

#endif
