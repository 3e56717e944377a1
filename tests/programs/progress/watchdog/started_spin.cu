// started_spin.cu: a launch whose every block has started and whose threads
// still never end. The threads vote into a shared flag with atomicOr and read
// it back with no barrier between (the race of a public union-find
// decoder): in forward order thread 0 reads the flag before the other warp
// has voted and leaves the loop, and the other warp waits for thread 0
// to count the rounds down, which it no longer does, so the block spins. No
// block waits for a block that has not started, and the watchdog's report
// under CUEMU_TIMEOUT says so and names the tools that find such a race
// (tests/progress_watchdog.sh). On a GPU the outcome depends on timing.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void rounds(int *out) {
  __shared__ int any, left;
  if (threadIdx.x == 0)
    left = 3;
  __syncthreads();
  while (true) {
    if (threadIdx.x == 0) {
      any = 0;
      left--;
    }
    __syncthreads();
    if (threadIdx.x >= 32)
      atomicOr(&any, 1);
    if (!any || left <= 0) // No barrier after the votes: a race.
      break;
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}

int main() {
  int *out;
  if (cudaMalloc(&out, 64 * sizeof(int)) != cudaSuccess)
    return 1;
  rounds<<<1, 64>>>(out);
  cudaError_t err = cudaDeviceSynchronize();
  printf("%s\n", err == cudaSuccess ? "ended" : cudaGetErrorString(err));
  return 0;
}
