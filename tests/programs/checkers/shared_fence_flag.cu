// shared_fence_flag.cu: a correct program built with every checker, whose
// threads hand shared memory over inside a block without a barrier: a
// producer writes a shared word, fences, then raises a flag; a consumer of
// another warp polls the flag, then reads the word. The flag is polled once
// through an atomic (atomicAdd of 0 on a shared int) and once through a
// volatile read of global memory (a volatile shared flag races by itself,
// as compute-sanitizer's racecheck says). The fence orders the write before the read of the
// thread that polled: racecheck reports nothing. (A thread that writes the
// same word without polling anything after the fence still races with the
// producer: tests/buggy/race_shared_fence_no_observer.cu.)
// CUEMU_OPTIONS: --check=all
#include <cuda_runtime.h>

#include "../check.cuh"

__global__ void handover(volatile int *flags, int *out) {
  __shared__ int word[2];
  __shared__ int flag_atomic;
  if (threadIdx.x == 0)
    flag_atomic = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    while (atomicAdd(&flag_atomic, 0) == 0) {
    }
    out[blockIdx.x * 2] = word[0];
  } else if (threadIdx.x == 1) {
    while (flags[blockIdx.x] == 0) {
    }
    out[blockIdx.x * 2 + 1] = word[1];
  } else if (threadIdx.x == 32) {
    word[0] = 10 + (int)blockIdx.x;
    __threadfence_block();
    atomicExch(&flag_atomic, 1);
  } else if (threadIdx.x == 33) {
    word[1] = 20 + (int)blockIdx.x;
    __threadfence();
    flags[blockIdx.x] = 1;
  }
}

int main() {
  const int blocks = 3;
  int *flags, *out;
  CHECK(cudaMalloc(&flags, blocks * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemset(flags, 0, blocks * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&out, 2 * blocks * sizeof(int)) == cudaSuccess);
  handover<<<blocks, 64>>>(flags, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int b = 0; b < blocks; ++b) {
    CHECK(out[2 * b] == 10 + b);
    CHECK(out[2 * b + 1] == 20 + b);
  }
  return finish();
}
