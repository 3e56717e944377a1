// same_value_writes.cu: a correct program built with every checker, whose
// threads write, unordered, the value a location already holds: every thread
// clears a shared flag at the top of each round, the threads whose slice
// holds a match all set it, and every thread marks the round's global slot
// with the same number. Whatever the order, the locations end as they would
// with one writer: compute-sanitizer's racecheck gives such a hazard
// severity INFO, which it does not show by default, and cuemu's racecheck
// reports nothing (a multinomial sampler of a public benchmark clears its
// `found` flag this way). A write that changes what an unordered write of
// another thread left stays a race (tests/buggy/race_shared_waw.cu).
// CUEMU_OPTIONS: --check=all
#include <cuda_runtime.h>

#include "../check.cuh"

constexpr int kThreads = 128;
constexpr int kRounds = 4;

/* Round r: does any of the block's elements equal r? */
__global__ void rounds(const int *data, int *found_out, int *marks) {
  __shared__ bool found;
  __shared__ int matches;
  for (int r = 0; r < kRounds; ++r) {
    found = false; // every thread: the same value
    if (threadIdx.x == 0)
      matches = 0;
    __syncthreads();
    int v = data[blockIdx.x * kThreads + threadIdx.x];
    if (v == r) {
      found = true; // each thread with a match: the same value
      atomicAdd(&matches, 1);
    }
    marks[blockIdx.x * kRounds + r] = r + 1; // every thread: the same value
    __syncthreads();
    if (threadIdx.x == 0)
      found_out[blockIdx.x * kRounds + r] = found ? matches : -1;
    __syncthreads();
  }
}

int main() {
  const int blocks = 3;
  int h[blocks * kThreads];
  for (int i = 0; i < blocks * kThreads; ++i)
    h[i] = (i % kThreads == 5 || i % kThreads == 77) ? (i / kThreads) : 9;
  int *data, *found, *marks;
  CHECK(cudaMalloc(&data, sizeof h) == cudaSuccess);
  CHECK(cudaMalloc(&found, blocks * kRounds * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&marks, blocks * kRounds * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemcpy(data, h, sizeof h, cudaMemcpyHostToDevice) == cudaSuccess);
  rounds<<<blocks, kThreads>>>(data, found, marks);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int f[blocks * kRounds], m[blocks * kRounds];
  CHECK(cudaMemcpy(f, found, sizeof f, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(m, marks, sizeof m, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int b = 0; b < blocks; ++b)
    for (int r = 0; r < kRounds; ++r) {
      CHECK(f[b * kRounds + r] == (r == b ? 2 : -1));
      CHECK(m[b * kRounds + r] == r + 1);
    }
  return finish();
}
