// coop_beyond_device.cu: a cooperative launch sized from the problem, not
// from occupancy (a public benchmark suite's FDTD step: a 7 x 13 grid of
// 32 x 8 blocks, 91 blocks of 256 threads, which every sm_90 GPU holds at
// once). The default emulated device (8 SMs, 8 such blocks each) refuses
// it with cudaErrorCooperativeLaunchTooLarge, as a GPU with fewer SMs
// would; the program prints the refusal, and tests/programs_trialaltis.sh
// checks that cuemu also says on stderr, once, which setting holds more
// blocks (CUEMU_DEVICE=sms=N). With enough SMs the launch runs: each block
// sums what the blocks before it wrote, after grid.sync(), and the program
// prints PASS.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

struct step_params {
  int *cells;
  int *sums;
};

__global__ void stencil_step(step_params p) {
  cg::grid_group grid = cg::this_grid();
  unsigned block = blockIdx.y * gridDim.x + blockIdx.x;
  unsigned thread = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned per_block = blockDim.x * blockDim.y;
  p.cells[block * per_block + thread] = (int)block;
  grid.sync();
  if (thread == 0) {
    int sum = 0;
    for (unsigned b = 0; b < block; b++)
      sum += p.cells[b * per_block + (b % per_block)];
    p.sums[block] = sum;
  }
}

int main() {
  const dim3 block(32, 8), grid(7, 13);
  const unsigned blocks = grid.x * grid.y, per_block = block.x * block.y;
  step_params p;
  cudaMalloc(&p.cells, blocks * per_block * sizeof(int));
  cudaMalloc(&p.sums, blocks * sizeof(int));
  void *args[] = {&p};
  // Twice: the refusal is printed once a process.
  for (int attempt = 0; attempt < 2; attempt++) {
    cudaError_t e = cudaLaunchCooperativeKernel((void *)stencil_step, grid,
                                                block, args, 0, 0);
    if (e != cudaSuccess) {
      printf("refused: %s\n", cudaGetErrorName(e));
      continue;
    }
    int sums[91];
    cudaMemcpy(sums, p.sums, sizeof sums, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (unsigned b = 0; b < blocks; b++)
      if (sums[b] != (int)(b * (b - 1) / 2))
        bad++;
    printf(bad ? "FAIL: %d sums wrong\n" : "PASS\n", bad);
  }
  cudaFree(p.cells);
  cudaFree(p.sums);
  return 0;
}
