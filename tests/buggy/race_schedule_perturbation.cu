// race_schedule_perturbation.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// ENV: CUEMU_CHECK_SCHEDULES=1
// EXPECT: race schedule perturbation forward reverse line 18
#include <cstdio>
#include <cuda_runtime.h>

/* Every thread stores its index in one word: the result is whichever
 * thread the schedule runs last. Without racecheck (built with memcheck
 * only, for the allocation's line), the race shows by running the launch
 * in two orders (CUEMU_CHECK_SCHEDULES=1, which works in any build). */
__global__ void last_one(int *out) {
  *out = (int)threadIdx.x;
}

int main() {
  int *d;
  cudaMalloc(&d, sizeof(int));
  last_one<<<1, 64>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
