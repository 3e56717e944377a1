// atomic_plain_ordered.cu: a correct program built with every checker: plain
// accesses and atomics of the same words, each pair ordered as CUDA's memory
// model allows, which racecheck must not report (a plain access and an atomic
// of one word unordered race: tests/buggy/race_*_atomic.cu). Atomics against
// atomics never race; a counter cleared with a plain store before a
// __syncthreads() and then counted into with atomicAdd; a sum made with
// atomicAdd and read with a plain load after __syncthreads() (a block
// reduction's total, in shared and in global memory) or after grid.sync() of
// a cooperative launch (every block's adds); and the threadfence reduction:
// each block stores its partial sum, fences and draws a ticket with
// atomicInc, and the block that draws the last one reads the partial sums
// and clears the ticket counter with a plain store, as CUDA's
// threadFenceReduction sample does (the clearing thread's own atomicInc read
// what the other blocks' atomics wrote). Also a sum of doubles made with the
// CUDA Programming Guide's compare-and-swap loop, whose first guess is a plain
// read of the word the other threads' compare-and-swaps write: the
// compare-and-swap checks the guess, so no result depends on the race.
// CUEMU_OPTIONS: --check=all
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "../check.cuh"

namespace cg = cooperative_groups;

/* Atomics of every kind on the same words, from every thread of every
 * block. */
__global__ void atomics_only(unsigned *words) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&words[0], 1u);
  atomicMax(&words[1], i);
  atomicExch(&words[2], i);
  unsigned old = atomicCAS(&words[3], 0u, i + 1);
  (void)old;
  atomicInc(&words[4], 1000000u);
  atomicOr(&words[5], 1u << (i % 32));
}

/* A per-block counter in global memory and one in shared memory, cleared
 * with plain stores before a barrier, counted into with atomicAdd, and
 * read with plain loads after another barrier. */
__global__ void clear_count_read(const int *in, int *count, int *sum,
                                 int *out) {
  __shared__ int shared_sum;
  unsigned t = threadIdx.x, b = blockIdx.x;
  if (t == 0) {
    count[b] = 0;
    sum[b] = 0;
    shared_sum = 0;
  }
  __syncthreads();
  int v = in[b * blockDim.x + t];
  atomicAdd(&count[b], 1);
  atomicAdd(&sum[b], v);
  atomicAdd(&shared_sum, v);
  __syncthreads();
  if (t == 0)
    out[b] = shared_sum + sum[b] + count[b];
}

/* Every block adds to one total; after grid.sync() every thread reads it. */
__global__ void grid_total(const int *in, int *total, int *out) {
  cg::grid_group grid = cg::this_grid();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(total, in[i]);
  grid.sync();
  out[i] = *total;
}

/* An add of doubles by compare-and-swap: the guess read plainly, then
 * checked and replaced until it is the word's value. */
__device__ double cas_add(double *address, double val) {
  unsigned long long *word = (unsigned long long *)address;
  unsigned long long old = *word, assumed;
  do {
    assumed = old;
    old = atomicCAS(word, assumed,
                    __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}

__global__ void cas_sum(const int *in, double *total) {
  cas_add(total, (double)in[blockIdx.x * blockDim.x + threadIdx.x]);
}

/* The blocks that have stored their partial sums (atomicInc's ticket). */
__device__ unsigned int retirement_count = 0;

/* A whole sum in one launch: the last block to finish adds the partial
 * sums and clears the ticket counter for the next launch. */
__global__ void fence_sum(const int *in, int *partial, int *result) {
  __shared__ int block_sum;
  __shared__ bool am_last;
  unsigned t = threadIdx.x, b = blockIdx.x;
  if (t == 0)
    block_sum = 0;
  __syncthreads();
  atomicAdd(&block_sum, in[b * blockDim.x + t]);
  __syncthreads();
  if (t == 0) {
    partial[b] = block_sum;
    __threadfence();
    unsigned ticket = atomicInc(&retirement_count, gridDim.x);
    am_last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (!am_last)
    return;
  if (t == 0)
    block_sum = 0;
  __syncthreads();
  for (unsigned k = t; k < gridDim.x; k += blockDim.x)
    atomicAdd(&block_sum, partial[k]);
  __syncthreads();
  if (t == 0) {
    *result = block_sum;
    retirement_count = 0;
  }
}

int main() {
  const int blocks = 4, threads = 64, n = blocks * threads;
  int host_in[n], expect = 0;
  for (int i = 0; i < n; ++i) {
    host_in[i] = (i * 7) % 13 - 6;
    expect += host_in[i];
  }
  int *in, *count, *sum, *out, *total, *partial, *result;
  unsigned *words;
  CHECK(cudaMalloc(&in, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&count, blocks * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&sum, blocks * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&out, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&total, sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&partial, blocks * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&result, sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&words, 6 * sizeof(unsigned)) == cudaSuccess);
  CHECK(cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice) ==
        cudaSuccess);

  CHECK(cudaMemset(words, 0, 6 * sizeof(unsigned)) == cudaSuccess);
  atomics_only<<<blocks, threads>>>(words);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  unsigned host_words[6];
  CHECK(cudaMemcpy(host_words, words, sizeof host_words,
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(host_words[0] == (unsigned)n);
  CHECK(host_words[1] == (unsigned)n - 1);
  CHECK(host_words[2] < (unsigned)n);
  CHECK(host_words[3] >= 1 && host_words[3] <= (unsigned)n);
  CHECK(host_words[4] == (unsigned)n);
  CHECK(host_words[5] == 0xffffffffu);

  clear_count_read<<<blocks, threads>>>(in, count, sum, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int host_out[n];
  CHECK(cudaMemcpy(host_out, out, blocks * sizeof(int),
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int b = 0; b < blocks; ++b) {
    int s = 0;
    for (int t = 0; t < threads; ++t)
      s += host_in[b * threads + t];
    CHECK(host_out[b] == 2 * s + threads);
  }

  CHECK(cudaMemset(total, 0, sizeof(int)) == cudaSuccess);
  void *args[] = {&in, &total, &out};
  CHECK(cudaLaunchCooperativeKernel((void *)grid_total, dim3(blocks),
                                    dim3(threads), args, 0, 0) ==
        cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  for (int i = 0; i < n; ++i)
    CHECK(host_out[i] == expect);

  double *dtotal, host_dtotal = 0;
  CHECK(cudaMalloc(&dtotal, sizeof(double)) == cudaSuccess);
  CHECK(cudaMemset(dtotal, 0, sizeof(double)) == cudaSuccess);
  cas_sum<<<blocks, threads>>>(in, dtotal);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(&host_dtotal, dtotal, sizeof(double),
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(host_dtotal == (double)expect);
  cudaFree(dtotal);

  /* Twice: the first launch's last block cleared the counter. */
  for (int run = 0; run < 2; ++run) {
    CHECK(cudaMemset(result, 0, sizeof(int)) == cudaSuccess);
    fence_sum<<<blocks, threads>>>(in, partial, result);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    int host_result = 0;
    CHECK(cudaMemcpy(&host_result, result, sizeof(int),
                     cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(host_result == expect);
  }

  cudaFree(in);
  cudaFree(count);
  cudaFree(sum);
  cudaFree(out);
  cudaFree(total);
  cudaFree(partial);
  cudaFree(result);
  cudaFree(words);
  return finish();
}
