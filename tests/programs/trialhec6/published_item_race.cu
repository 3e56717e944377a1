// A block takes work items through a global counter: thread 0 fetches the
// next item with atomicAdd and publishes it in shared memory, and every
// thread tests it before a barrier, with no barrier between the others'
// reads and thread 0's next store. Items whose number is a multiple of 3
// are skipped by a branch with its own barrier. The others' reads race
// with thread 0's store; a GPU's timing (the atomic's latency) usually lets
// every thread read first. cuemu runs thread 0 first and the block's
// threads disagree on the branch: a divergent barrier, whose report says
// how to find the race. With CUEMU_SCHEDULE=reverse the threads read first
// and the program prints PASS. (Found by a trial of a public in-place
// transposition benchmark.)
#include <cstdio>
#include <cuda_runtime.h>

__global__ void take_items(int *counter, int items, int *done) {
  __shared__ int item;
  if (threadIdx.x == 0)
    item = atomicAdd(counter, 1);
  __syncthreads();
  while (item < items) {
    if (item % 3 == 0) {
      if (threadIdx.x == 0)
        item = atomicAdd(counter, 1);
      __syncthreads(); // skip
      continue;
    }
    atomicAdd(&done[item], 1);
    __syncthreads(); // count
    if (threadIdx.x == 0)
      item = atomicAdd(counter, 1);
    __syncthreads();
  }
}

int main() {
  const int items = 30, threads = 64;
  int *counter, *done;
  cudaMalloc(&counter, sizeof(int));
  cudaMalloc(&done, items * sizeof(int));
  cudaMemset(counter, 0, sizeof(int));
  cudaMemset(done, 0, items * sizeof(int));
  take_items<<<2, threads>>>(counter, items, done);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("launch failed: %s\n", cudaGetErrorString(e));
    return 1;
  }
  int h[items];
  cudaMemcpy(h, done, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < items; i++)
    if (h[i] != (i % 3 ? threads : 0)) {
      printf("item %d: %d\n", i, h[i]);
      return 1;
    }
  printf("PASS\n");
  return 0;
}
