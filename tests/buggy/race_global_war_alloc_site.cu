// race_global_war_alloc_site.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global WAR allocated line 14 line 15 line 22
#include <cstdio>
#include <cuda_runtime.h>

/* Each thread reads its right neighbour's entry and then overwrites its
 * own, with no barrier between: thread t's write changes what thread t-1
 * read before (a WAR race that the checker holds back until the write is
 * seen to change the location). The report names the cudaMalloc line of
 * the array, as every other report on global memory does. */
__global__ void shift_left(int *a) {
  int t = threadIdx.x;
  int next = a[t + 1];
  a[t] = next + 100;
}

int main() {
  int h[33];
  for (int i = 0; i < 33; ++i) h[i] = i;
  int *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  shift_left<<<1, 32>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
