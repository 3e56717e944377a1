// barrier_after_early_return.cu: a correct program built with every
// checker, whose threads return early and whose remaining threads then meet
// at __syncthreads(). On Volta and later a thread that has exited counts as
// arrived (PTX's exit: "if the exiting threads are holding up the barrier,
// the barrier is released"), so the barrier completes and orders the
// threads that reached it: synccheck reports nothing (only the vote forms,
// __syncthreads_count/_and/_or, are reported after an exit:
// tests/buggy/sync_count_after_exit.cu), and racecheck finds the shared
// accesses that the barrier orders ordered. The last block's tail threads
// return before the first barrier (the grid's size is not a multiple of the
// block's), and in the second kernel the upper half of each block, part of
// a warp included, returns between the barriers of a loop.
// CUEMU_OPTIONS: --check=all
#include <cuda_runtime.h>

#include "../check.cuh"

constexpr int kThreads = 128;

/* A block sum of the elements below n: the tail threads return first. */
__global__ void tail_sum(const int *in, int *out, int n) {
  __shared__ int partial[kThreads];
  int i = blockIdx.x * kThreads + threadIdx.x;
  partial[threadIdx.x] = 0;
  __syncthreads();
  if (i >= n)
    return;
  partial[threadIdx.x] = in[i];
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if ((int)threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0];
}

/* Each round halves the live threads: those that have nothing left to add
 * return, and the others meet at the round's barrier. */
__global__ void halving_sum(const int *in, int *out) {
  __shared__ int partial[kThreads];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * kThreads + t];
  __syncthreads();
  for (unsigned stride = kThreads / 2; stride > 0; stride /= 2) {
    if (t >= stride)
      return;
    partial[t] += partial[t + stride];
    __syncthreads();
  }
  out[blockIdx.x] = partial[0];
}

int main() {
  const int n = 300, blocks = 3;
  int h[blocks * kThreads];
  for (int i = 0; i < blocks * kThreads; ++i)
    h[i] = i % 7;
  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof h) == cudaSuccess);
  CHECK(cudaMalloc(&out, 2 * blocks * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice) == cudaSuccess);
  tail_sum<<<blocks, kThreads>>>(in, out, n);
  halving_sum<<<blocks, kThreads>>>(in, out + blocks);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int r[2 * blocks];
  CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int b = 0; b < blocks; ++b) {
    int tail = 0, whole = 0;
    for (int k = 0; k < kThreads; ++k) {
      int i = b * kThreads + k;
      tail += i < n ? h[i] : 0;
      whole += h[i];
    }
    CHECK(r[b] == tail);
    CHECK(r[blocks + b] == whole);
  }
  return finish();
}
