// race_schedule_device_variable.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// ENV: CUEMU_CHECK_SCHEDULES=1
// EXPECT: race schedule perturbation __device__ variable best_so_far line 16
#include <cstdio>
#include <cuda_runtime.h>

/* Every thread stages its candidate in one namespace-scope __device__
 * array that host code never names, so the array holds whichever thread
 * the schedule runs last. Without racecheck (built with memcheck only),
 * the race shows by running the launch in two orders
 * (CUEMU_CHECK_SCHEDULES=1). A particle swarm's personal-best update
 * staged its particles this way. The report names the array as what it
 * is, a __device__ variable defined at line 16, as racecheck's reports
 * do, not as an allocation. */
__device__ float best_so_far[2];

__global__ void stage(const float *candidates) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  best_so_far[0] = candidates[2 * i];
  best_so_far[1] = candidates[2 * i + 1];
}

int main() {
  float h[128], *d;
  for (int i = 0; i < 128; i++) h[i] = (float)i;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  stage<<<2, 32>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
