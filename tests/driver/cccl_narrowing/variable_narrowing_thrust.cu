// variable_narrowing_thrust.cu: a unit that includes Thrust, which
// cuemu-nvcc compiles with clang++ where g++ was asked for (docs/cccl.md),
// and whose host code narrows a variable's value in braces, as a launch
// helper's `int blocks{(n + threads - 1) / threads};` does with an
// unsigned n. nvcc (its host compiler g++) warns ("invalid narrowing
// conversion") and builds it; clang++ refused it as an error
// (driver_cccl_narrowing.sh).
#include <thrust/version.h>

#include <cstdio>

__global__ void fill(int *out, int value) { out[threadIdx.x] = value; }

static int blocks_for(unsigned n, unsigned threads) {
  int blocks{(n + threads - 1) / threads};
  return blocks;
}

int main() {
  int *d = nullptr;
  if (cudaMalloc(&d, sizeof(int)) != cudaSuccess)
    return 1;
  fill<<<1, 1>>>(d, blocks_for(1000u, 256u));
  int h = 0;
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::printf("%s\n", h == 4 && THRUST_VERSION > 0 ? "PASS" : "FAIL");
  return h == 4 ? 0 : 1;
}
