// __activemask() in a lane that the other lanes of its warp wait for. Lane 0
// takes the mask and then raises a flag; lanes 1..31 poll the flag with
// __nanosleep between reads (independent thread scheduling, Volta and
// later). The pollers never reach the __activemask, so it must not wait for
// them: cuemu kept lane 0 waiting while they polled, and the block ran until
// its spin timeout (with and without a __syncthreads() before). The mask
// then holds lane 0 alone. And the converse, which must stay as it was:
// every lane sleeps a few times before the same __activemask, so the lanes
// that yielded do reach it and the mask holds the whole warp.
#include <cstdio>
#include "../check.cuh"

__global__ void flag_after_mask(unsigned *mask, int *flag, int *seen,
                                int barrier) {
  unsigned t = threadIdx.x;
  if (barrier)
    __syncthreads();
  if (t % 32 == 0) {
    mask[t / 32] = __activemask();
    atomicExch(&flag[t / 32], 1);
  } else {
    while (atomicAdd(&flag[t / 32], 0) == 0)
      __nanosleep(10);
    seen[t] = 1;
  }
}

__global__ void sleep_then_mask(unsigned *mask, int rounds) {
  for (int i = 0; i < rounds; ++i)
    __nanosleep(10);
  mask[threadIdx.x] = __activemask();
}

int main() {
  const int threads = 64;
  unsigned *mask;
  int *flag, *seen;
  cudaMallocManaged(&mask, threads * sizeof(unsigned));
  cudaMallocManaged(&flag, 2 * sizeof(int));
  cudaMallocManaged(&seen, threads * sizeof(int));
  for (int barrier = 0; barrier < 2; ++barrier) {
    for (int i = 0; i < threads; ++i) mask[i] = 0, seen[i] = 0;
    flag[0] = flag[1] = 0;
    flag_after_mask<<<1, threads>>>(mask, flag, seen, barrier);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(mask[0] == 1u && mask[1] == 1u);
    for (int i = 0; i < threads; ++i)
      CHECK(seen[i] == (i % 32 != 0));
  }
  for (int rounds = 1; rounds <= 3; ++rounds) {
    for (int i = 0; i < threads; ++i) mask[i] = 0;
    sleep_then_mask<<<1, threads>>>(mask, rounds);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    for (int i = 0; i < threads; ++i)
      CHECK(mask[i] == 0xffffffffu);
  }
  return finish();
}
