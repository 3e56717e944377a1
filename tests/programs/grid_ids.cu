/*
 * grid_ids.cu: PTX's %gridid is the launch's temporal grid number: every
 * thread of one launch reads the same value, and two launches read two
 * values (the PTX ISA: "the temporal grid launch number for this
 * context", which debuggers use to tell concurrent grids apart). Prints
 * PASS when all is well.
 */
#include <cuda_runtime.h>

#include "check.cuh"

__global__ void read_grid_id(unsigned long long *out) {
  unsigned long long id;
  asm volatile("mov.u64 %0, %%gridid;" : "=l"(id));
  out[blockIdx.x * blockDim.x + threadIdx.x] = id;
}

int main() {
  constexpr int kBlocks = 4, kThreads = 64, kLaunches = 3;
  constexpr int kPerLaunch = kBlocks * kThreads;
  unsigned long long *ids = nullptr;
  CHECK(cudaMallocManaged(&ids, kLaunches * kPerLaunch * sizeof *ids) ==
        cudaSuccess);
  for (int l = 0; l < kLaunches; ++l)
    read_grid_id<<<kBlocks, kThreads>>>(ids + l * kPerLaunch);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int l = 0; l < kLaunches; ++l) {
    for (int i = 1; i < kPerLaunch; ++i)
      CHECK(ids[l * kPerLaunch + i] == ids[l * kPerLaunch]);
    for (int m = 0; m < l; ++m)
      CHECK(ids[l * kPerLaunch] != ids[m * kPerLaunch]);
  }
  CHECK(cudaFree(ids) == cudaSuccess);
  return finish();
}
