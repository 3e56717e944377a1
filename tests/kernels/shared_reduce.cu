/*
 * shared_reduce.cu: tree reductions in shared memory, one partial sum per
 * block, with static and with dynamic shared memory. blockDim.x must be a
 * power of two of at most 1024. Integer sums are exact.
 */
#include <cuda_runtime.h>

__global__ void reduce_static(const int *in, long long *block_sums, int n) {
  __shared__ long long partial[1024];
  const unsigned t = threadIdx.x;
  long long sum = 0;
  for (int i = (int)(blockIdx.x * blockDim.x + t); i < n;
       i += (int)(gridDim.x * blockDim.x))
    sum += in[i];
  partial[t] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0)
    block_sums[blockIdx.x] = partial[0];
}

__global__ void reduce_dynamic(const int *in, long long *block_sums, int n) {
  extern __shared__ long long scratch[];
  const unsigned t = threadIdx.x;
  long long sum = 0;
  for (int i = (int)(blockIdx.x * blockDim.x + t); i < n;
       i += (int)(gridDim.x * blockDim.x))
    sum += in[i];
  scratch[t] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      scratch[t] += scratch[t + s];
    __syncthreads();
  }
  if (t == 0)
    block_sums[blockIdx.x] = scratch[0];
}
