// reduce.cuh: a header-only library of kernel templates (functor
// reductions, a warp shuffle reduction) that the tests instantiate.
#pragma once
#include <cuda_runtime.h>
#include <type_traits>

namespace kern {

template <typename T>
struct Plus {
  __host__ __device__ T operator()(T a, T b) const { return a + b; }
  static constexpr T identity() { return T(0); }
};

template <typename T>
struct Max {
  __host__ __device__ T operator()(T a, T b) const { return a > b ? a : b; }
  static constexpr T identity() { return std::numeric_limits<T>::lowest(); }
};

template <typename T>
__device__ __forceinline__ T warp_reduce_sum(T v) {
  for (int off = warpSize / 2; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

template <typename T, int BLOCK, typename Op>
__global__ void block_reduce(const T* in, T* out, int n, Op op) {
  extern __shared__ unsigned char smem_raw[];
  T* smem = reinterpret_cast<T*>(smem_raw);
  T acc = Op::identity();
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x)
    acc = op(acc, in[i]);
  smem[threadIdx.x] = acc;
  __syncthreads();
#pragma unroll
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) smem[threadIdx.x] = op(smem[threadIdx.x], smem[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = smem[0];
}

template <typename T, int BLOCK = 128, typename Op>
T reduce(const T* d_in, int n, Op op, cudaStream_t stream = 0) {
  const int grid = 8;
  T* d_part;
  cudaMalloc(&d_part, grid * sizeof(T));
  block_reduce<T, BLOCK><<<grid, BLOCK, BLOCK * sizeof(T), stream>>>(d_in, d_part, n, op);
  T h[grid];
  cudaMemcpyAsync(h, d_part, sizeof h, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  cudaFree(d_part);
  T r = Op::identity();
  for (int i = 0; i < grid; ++i) r = op(r, h[i]);
  return r;
}

}  // namespace kern
