/*
 * sample_threadfence_reduction.cu: a sum of a large array in a single
 * launch, with the "last block" pattern of the threadfence-reduction
 * samples: each block reduces its share in shared memory and thread 0
 * stores the block's partial sum, makes it visible to the whole device with
 * __threadfence(), and takes a ticket with atomicInc(). The block that draws
 * the last ticket knows that every partial sum is visible; it adds them up,
 * writes the result and resets the counter (atomicInc wraps it to 0), so
 * the kernel can be launched again. Run several times with different grid
 * sizes. Prints PASS and exits 0 when all is well.
 */
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "check.cuh"

#define THREADS 128

/* The tickets drawn so far; atomicInc brings it back to 0 after the last. */
__device__ unsigned retired_blocks = 0;

/* Sums `threads` values of `shared` into shared[0] (threads a power of 2). */
__device__ void reduce_shared(volatile float *shared, unsigned threads) {
  const unsigned t = threadIdx.x;
  for (unsigned s = threads / 2; s > 0; s >>= 1) {
    if (t < s)
      shared[t] += shared[t + s];
    __syncthreads();
  }
}

__global__ void sum_single_pass(const float *in, float *partial, float *out,
                                unsigned n) {
  __shared__ float shared[THREADS];
  __shared__ bool last_block;
  const unsigned t = threadIdx.x;

  /* Each thread adds up a grid-stride share. */
  float sum = 0.0f;
  for (unsigned i = blockIdx.x * blockDim.x + t; i < n;
       i += blockDim.x * gridDim.x)
    sum += in[i];
  shared[t] = sum;
  __syncthreads();
  reduce_shared(shared, blockDim.x);

  if (t == 0) {
    partial[blockIdx.x] = shared[0];
    /* The partial sum must be visible to every block before the ticket. */
    __threadfence();
    unsigned ticket = atomicInc(&retired_blocks, gridDim.x - 1);
    last_block = ticket == gridDim.x - 1;
  }
  __syncthreads();

  if (last_block) {
    /* Volatile reads: the other blocks' sums, not stale copies. */
    const volatile float *sums = partial;
    float total = 0.0f;
    for (unsigned i = t; i < gridDim.x; i += blockDim.x)
      total += sums[i];
    shared[t] = total;
    __syncthreads();
    reduce_shared(shared, blockDim.x);
    if (t == 0)
      *out = shared[0];
  }
}

int main() {
  const unsigned n = 300007;
  std::vector<float> host(n);
  double expected = 0.0;
  for (unsigned i = 0; i < n; ++i) {
    /* Small integers: every partial sum is exact in float. */
    host[i] = (float)((i * 7u) % 13u) - 3.0f;
    expected += host[i];
  }

  const unsigned max_blocks = 200;
  float *in = nullptr, *partial = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMalloc(&partial, max_blocks * sizeof(float)) == cudaSuccess);
  CHECK(cudaMalloc(&out, sizeof(float)) == cudaSuccess);
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(float),
                   cudaMemcpyHostToDevice) == cudaSuccess);

  const unsigned grids[] = {1, 7, 64, max_blocks, 64};
  for (unsigned blocks : grids) {
    float result = -12345.0f;
    CHECK(cudaMemset(out, 0, sizeof(float)) == cudaSuccess);
    sum_single_pass<<<blocks, THREADS>>>(in, partial, out, n);
    CHECK(cudaGetLastError() == cudaSuccess);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(cudaMemcpy(&result, out, sizeof result, cudaMemcpyDeviceToHost) ==
          cudaSuccess);
    if ((double)result != expected)
      std::fprintf(stderr, "%u blocks: the sum is %g, not %g\n", blocks,
                   (double)result, expected);
    CHECK((double)result == expected);
  }

  CHECK(cudaFree(in) == cudaSuccess);
  CHECK(cudaFree(partial) == cudaSuccess);
  CHECK(cudaFree(out) == cudaSuccess);
  return finish();
}
