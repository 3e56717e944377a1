/*
 * rt_launch.cu: cudaLaunchKernel (by typed pointer, by address, a kernel
 * template's instance), kernels compared and chosen by address, a
 * cooperative reduction with grid.sync() through
 * cudaLaunchCooperativeKernel, dynamic shared memory above 48 KiB after
 * cudaFuncSetAttribute, cudaFuncGetAttributes, occupancy, and the error
 * paths (bad configuration, too much shared memory, a destroyed stream, a
 * cooperative grid too large). Prints PASS and exits 0 when all is well.
 */
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "check.cuh"

namespace cg = cooperative_groups;

__global__ void copy(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

__global__ void negate(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = -in[i];
}

template <typename T, int K> __global__ void scale(T *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= K;
}

/* Each block sums its slice into partial[blockIdx.x]; after grid.sync()
 * block 0 sums the partial sums. */
__global__ void reduce(const int *in, int *partial, int *out, int n) {
  extern __shared__ int sums[];
  cg::grid_group grid = cg::this_grid();
  int sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    sum += in[i];
  sums[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      sums[threadIdx.x] += sums[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = sums[0];
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      total += partial[b];
    *out = total;
  }
}

/* Uses `words` ints of dynamic shared memory: each thread fills a stride
 * and thread 0 sums all of it. */
__global__ void big_shared(int *out, int words) {
  extern __shared__ int buf[];
  for (int i = threadIdx.x; i < words; i += blockDim.x)
    buf[i] = 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (int i = 0; i < words; ++i)
      total += buf[i];
    *out = total;
  }
}

static const int N = 4096;

int main() {
  int *in, *out;
  CHECK(cudaMallocManaged(&in, N * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&out, N * sizeof(int)) == cudaSuccess);
  for (int i = 0; i < N; ++i)
    in[i] = i % 100;
  int n = N;

  /* Kernels compared and chosen by address. */
  void (*pick)(const int *, int *, int) = &copy;
  CHECK(pick == &copy);
  CHECK(pick == copy);
  CHECK(pick != &negate);
  pick = negate;
  CHECK(pick == &negate);
  pick<<<N / 256, 256>>>(in, out, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[5] == -5 && out[N - 1] == -(N - 1) % 100);

  /* cudaLaunchKernel by typed pointer, by address, and a template's
   * instance. */
  void *args[] = {&in, &out, &n};
  CHECK(cudaLaunchKernel(copy, dim3(N / 256), dim3(256), args) ==
        cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[5] == 5 && out[N - 1] == (N - 1) % 100);
  CHECK(cudaLaunchKernel((const void *)negate, dim3(N / 256), dim3(256), args,
                         0, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[7] == -7);
  CHECK(cudaLaunchKernel(pick == &negate ? copy : negate, N / 128, 128, args,
                         0, cudaStreamPerThread) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[7] == 7);
  void *scale_args[] = {&out, &n};
  CHECK(cudaLaunchKernel(scale<int, 3>, dim3(N / 256), dim3(256),
                         scale_args) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[7] == 21 && out[N - 1] == 3 * ((N - 1) % 100));

  /* Launch errors are returned and recorded. */
  CHECK(cudaLaunchKernel(copy, dim3(1), dim3(2048), args) ==
        cudaErrorInvalidConfiguration);
  CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
  CHECK(cudaGetLastError() == cudaSuccess);
  cudaStream_t gone;
  CHECK(cudaStreamCreate(&gone) == cudaSuccess);
  CHECK(cudaStreamDestroy(gone) == cudaSuccess);
  CHECK(cudaLaunchKernel(copy, dim3(1), dim3(32), args, 0, gone) ==
        cudaErrorInvalidResourceHandle);
  CHECK(cudaGetLastError() == cudaErrorInvalidResourceHandle);

  /* A cooperative reduction. */
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, reduce, 128, 128 * sizeof(int)) == cudaSuccess);
  CHECK(per_sm >= 1);
  int *partial, *total;
  CHECK(cudaMallocManaged(&partial, 64 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&total, sizeof(int)) == cudaSuccess);
  *total = -1;
  void *reduce_args[] = {&in, &partial, &total, &n};
  CHECK(cudaLaunchCooperativeKernel(reduce, dim3(8), dim3(128), reduce_args,
                                    128 * sizeof(int)) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int expect = 0;
  for (int i = 0; i < N; ++i)
    expect += in[i];
  CHECK(*total == expect);
  *total = -1;
  CHECK(cudaLaunchCooperativeKernel((const void *)reduce, dim3(4), dim3(128),
                                    reduce_args, 128 * sizeof(int),
                                    0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*total == expect);
  /* More blocks than can be resident: cudaErrorCooperativeLaunchTooLarge. */
  cudaError_t large = cudaLaunchCooperativeKernel(
      reduce, dim3(1 << 20), dim3(128), reduce_args, 128 * sizeof(int));
  CHECK(large == cudaErrorCooperativeLaunchTooLarge);
  CHECK(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge);

  /* Dynamic shared memory above 48 KiB needs cudaFuncSetAttribute. */
  const int words = 64 * 1024 / (int)sizeof(int);
  const size_t bytes = words * sizeof(int);
  *out = 0;
  big_shared<<<1, 256, bytes>>>(out, words);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*out == 0);
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, big_shared) == cudaSuccess);
  CHECK(attr.maxThreadsPerBlock == 1024);
  CHECK(attr.maxDynamicSharedSizeBytes == 48 * 1024);
  CHECK(cudaFuncSetAttribute(big_shared,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)bytes) == cudaSuccess);
  CHECK(cudaFuncGetAttributes(&attr, big_shared) == cudaSuccess);
  CHECK(attr.maxDynamicSharedSizeBytes == (int)bytes);
  big_shared<<<1, 256, bytes>>>(out, words);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*out == words);
  *out = 0;
  int w = words;
  void *big_args[] = {&out, &w};
  CHECK(cudaLaunchKernel(big_shared, dim3(1), dim3(256), big_args, bytes) ==
        cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*out == words);
  CHECK(cudaFuncSetAttribute(big_shared,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             1 << 30) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);

  /* Occupancy. */
  int blocks = -1;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, copy, 256, 0) ==
        cudaSuccess);
  CHECK(blocks >= 1 && blocks * 256 <= 2048);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, big_shared, 256,
                                                      bytes) == cudaSuccess);
  CHECK(blocks >= 1 && blocks * bytes <= 228 * 1024);
  int min_grid = 0, block_size = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block_size, copy) ==
        cudaSuccess);
  CHECK(block_size >= 32 && block_size <= 1024 && block_size % 32 == 0);
  CHECK(min_grid >= 1);
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block_size, copy, 0,
                                           100) == cudaSuccess);
  CHECK(block_size >= 32 && block_size <= 100);

  CHECK(cudaFree(in) == cudaSuccess);
  CHECK(cudaFree(out) == cudaSuccess);
  CHECK(cudaFree(partial) == cudaSuccess);
  CHECK(cudaFree(total) == cudaSuccess);
  return finish();
}
