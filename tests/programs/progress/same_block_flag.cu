// A thread that polls a volatile flag in global memory which a thread of
// another warp of its own block sets, with no barrier and no __nanosleep in
// the loop: a GPU schedules the warps independently, so the flag is set and
// the loop ends. (cuemu runs a block's threads one at a time: the poller
// yields now and then, so the setter runs.)
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      printf("FAIL: %s: %s\n", #call, cudaGetErrorString(err_));           \
      return 1;                                                            \
    }                                                                      \
  } while (0)

__global__ void handoff(volatile int *flag, int *data, int *out) {
  if (threadIdx.x == 0) {
    while (*flag == 0) {
    }
    __threadfence_block();
    out[blockIdx.x] = data[blockIdx.x];
  } else if (threadIdx.x == 32) {
    data[blockIdx.x] = 100 + (int)blockIdx.x;
    __threadfence_block();
    *flag = 1;
  }
}

int main() {
  const int blocks = 4;
  int *flags, *data, *out;
  CHECK(cudaMalloc(&flags, blocks * sizeof(int)));
  CHECK(cudaMalloc(&data, blocks * sizeof(int)));
  CHECK(cudaMallocManaged(&out, blocks * sizeof(int)));
  CHECK(cudaMemset(flags, 0, blocks * sizeof(int)));
  for (int b = 0; b < blocks; ++b)
    out[b] = 0;
  // Each block polls its own flag.
  for (int b = 0; b < blocks; ++b) {
    handoff<<<1, 64>>>(flags + b, data + b, out + b);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
  for (int b = 0; b < blocks; ++b)
    if (out[b] != 100) {
      printf("FAIL: launch %d read %d, expected 100\n", b, out[b]);
      return 1;
    }
  printf("PASS\n");
  return 0;
}
