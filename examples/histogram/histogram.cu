/*
 * histogram.cu: a 256-bin histogram of bytes. Each block counts its part of
 * the data (a grid-stride loop) into its own bins in shared memory with
 * shared-memory atomicAdd, then adds its non-zero bins into the global
 * histogram with one global atomicAdd each. bins is added to, not
 * overwritten.
 */
#define HISTOGRAM_BINS 256

extern "C" __global__ void histogram(int n, const unsigned char *data,
                                     unsigned int *bins) {
  __shared__ unsigned int local[HISTOGRAM_BINS];
  for (unsigned b = threadIdx.x; b < HISTOGRAM_BINS; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < HISTOGRAM_BINS; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}
