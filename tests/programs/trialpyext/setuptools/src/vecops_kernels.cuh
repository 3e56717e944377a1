// vecops_kernels.cuh: kernels of the _vecops extension.
#pragma once
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

namespace vecops {

template <typename T>
__global__ void add(const T* a, const T* b, T* out, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

template <unsigned BLOCK>
__global__ void dot(const double* a, const double* b, long n, double* result) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ double warp_sums[BLOCK / 32];
  double v = 0;
  for (long i = blockIdx.x * (long)BLOCK + threadIdx.x; i < n; i += (long)gridDim.x * BLOCK)
    v += a[i] * b[i];
  v = cg::reduce(warp, v, cg::plus<double>());
  if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = v;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    v = warp.thread_rank() < BLOCK / 32 ? warp_sums[warp.thread_rank()] : 0.0;
    v = cg::reduce(warp, v, cg::plus<double>());
    if (warp.thread_rank() == 0) atomicAdd(result, v);
  }
}

// Inclusive scan of one block of up to 1024 elements (Hillis-Steele).
__global__ void scan_block(const int* in, int* out, int n) {
  extern __shared__ int buf[];
  int t = threadIdx.x;
  buf[t] = t < n ? in[t] : 0;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    int v = t >= off ? buf[t - off] : 0;
    __syncthreads();
    buf[t] += v;
    __syncthreads();
  }
  if (t < n) out[t] = buf[t];
}

}  // namespace vecops
