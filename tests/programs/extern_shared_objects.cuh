/*
 * extern_shared_objects.cuh: `extern __shared__` declarations that are not
 * arrays, in a header, as nvcc takes them: each is "treated as a static
 * definition" (nvcc's warning #20044-D), a __shared__ variable of its own
 * that does not alias the dynamic buffer of the `extern __shared__` arrays.
 */
#ifndef EXTERN_SHARED_OBJECTS_CUH
#define EXTERN_SHARED_OBJECTS_CUH

struct BlockTotals {
  int count;
  float sum;
};

namespace totals {
/* At namespace scope. */
extern __shared__ unsigned int block_hits;
}

/* Counts the positive values of its block in a scalar, and keeps every
 * value in the dynamic buffer: the scalar must not be data[0]. */
__global__ void count_positive(const float *in, int *counts, float *copy) {
  extern __shared__ int positive;
  extern __shared__ float data[];
  if (threadIdx.x == 0) positive = 0;
  data[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (data[threadIdx.x] > 0.0f) atomicAdd(&positive, 1);
  __syncthreads();
  copy[blockIdx.x * blockDim.x + threadIdx.x] = data[blockDim.x - 1 - threadIdx.x];
  if (threadIdx.x == 0) counts[blockIdx.x] = positive;
}

/* A structure, and the specifiers in another order. */
__global__ void totals_of(const float *in, BlockTotals *out) {
  __shared__ extern BlockTotals t;
  if (threadIdx.x == 0) {
    t.count = 0;
    t.sum = 0.0f;
    totals::block_hits = 0;
  }
  __syncthreads();
  atomicAdd(&t.count, 1);
  atomicAdd(&t.sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
  atomicAdd(&totals::block_hits, 1u);
  __syncthreads();
  if (threadIdx.x == 0) {
    out[blockIdx.x] = t;
    out[blockIdx.x].count += totals::block_hits; /* twice the count */
  }
}

/* In a kernel template. */
template <typename T>
__global__ void block_max(const T *in, T *out) {
  extern __shared__ T best;
  if (threadIdx.x == 0) best = in[blockIdx.x * blockDim.x];
  __syncthreads();
  for (unsigned i = 0; i < blockDim.x; i++) {
    if (threadIdx.x == i && in[blockIdx.x * blockDim.x + i] > best)
      best = in[blockIdx.x * blockDim.x + i];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = best;
}

#endif
