/* histogram.cu: a shared-memory histogram and its launch. */
#include "histogram.cuh"

__global__ void histogram_kernel(const unsigned *data, unsigned *bins, int n) {
  __shared__ unsigned local[BINS];
  if (threadIdx.x < BINS)
    local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i] % BINS], 1u);
  __syncthreads();
  if (threadIdx.x < BINS)
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

void histogram_gpu(const unsigned *data, unsigned *bins, int n) {
  histogram_kernel<<<4, 128>>>(data, bins, n);
}
