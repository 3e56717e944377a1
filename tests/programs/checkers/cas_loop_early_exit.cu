// cas_loop_early_exit.cu: a correct program built with every checker:
// compare-and-swap loops that read their first guess with a plain load and
// may leave before any compare-and-swap (the word already holds a larger
// maximum, a smaller minimum), as the atomicMax of a float and the
// atomicMin of a 64-bit integer are commonly written. The guess is only
// ever checked by the compare-and-swap, so racecheck must not report it
// against the other threads' swaps (it takes the guess for a relaxed atomic
// read: emulator/compile/cuemu_gcc_plugin_cas_guess.cc), whichever way the
// loop ends. tests/checkers_race_clang.sh builds it with clang++ too.
// CUEMU_OPTIONS: --check=all
#include <cuda_runtime.h>

#include "../check.cuh"

/* Leaves through `break` when the word is already at least `value`. */
__device__ float atomic_max_float(float *address, float value) {
  int *word = reinterpret_cast<int *>(address);
  int old = *word, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= value)
      break;
    old = atomicCAS(word, assumed, __float_as_int(value));
  } while (assumed != old);
  return __int_as_float(old);
}

/* A while loop whose condition may fail before the first swap. */
__device__ void atomic_min_u64(unsigned long long *word,
                               unsigned long long value) {
  unsigned long long old = *word;
  while (value < old) {
    unsigned long long seen = atomicCAS(word, old, value);
    if (seen == old)
      break;
    old = seen;
  }
}

/* A guess through a member of a structure in shared memory, per block. */
struct extremes {
  float max;
  unsigned long long min;
};

__global__ void reduce(const float *in, float *max, unsigned long long *min,
                       float *block_max) {
  __shared__ extremes local;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) {
    local.max = 0.0f;
    local.min = ~0ull;
  }
  __syncthreads();
  float v = in[i];
  atomic_max_float(max, v);
  atomic_min_u64(min, static_cast<unsigned long long>(v * 1000.0f));
  atomic_max_float(&local.max, v);
  atomic_min_u64(&local.min, static_cast<unsigned long long>(v));
  __syncthreads();
  if (threadIdx.x == 0)
    block_max[blockIdx.x] = local.max + 0.0f * local.min;
}

int main() {
  const int threads = 128, blocks = 32, n = threads * blocks;
  float *in, *max, *block_max;
  unsigned long long *min;
  CHECK(cudaMallocManaged(&in, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&max, sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&min, sizeof(unsigned long long)) == cudaSuccess);
  CHECK(cudaMallocManaged(&block_max, blocks * sizeof(float)) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    in[i] = static_cast<float>((i * 7919) % n) + 1.0f;
  *max = 0.0f;
  *min = ~0ull;
  /* Twice: the second launch's loops all leave early, the word already
   * holding the extremes. */
  for (int run = 0; run < 2; ++run) {
    reduce<<<blocks, threads>>>(in, max, min, block_max);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(*max == static_cast<float>(n));
    CHECK(*min == 1000ull);
  }
  for (int b = 0; b < blocks; ++b) {
    float expect = 0.0f;
    for (int t = 0; t < threads; ++t)
      expect = in[b * threads + t] > expect ? in[b * threads + t] : expect;
    CHECK(block_max[b] == expect);
  }
  cudaFree(in);
  cudaFree(max);
  cudaFree(min);
  cudaFree(block_max);
  return finish();
}
