// A unit that includes Thrust and whose host code converts as particle
// programs do: `2.0f * rand() / RAND_MAX` makes RAND_MAX a float (2^31 - 1
// rounds to 2^31), and a constant 2.5 is stored in an int. g++ gives no
// warning for either without -Wconversion, and nvcc builds the unit
// silently; clang++, which compiles such a unit in g++'s place
// (docs/cccl.md), warned about both by default, quoting cuemu's rewritten
// line (RAND_MAX spelt out, printf renamed).
#include <thrust/version.h>
#include <cstdio>
#include <cstdlib>

__global__ void count_inside(const float *x, int n, int *inside) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] >= -1.0f && x[i] <= 1.0f)
    atomicAdd(inside, 1);
}

int main() {
  const int n = 64;
  int per_cell = 2.5; // particles per cell, truncated to 2
  float h[n];
  srand(7);
  for (int i = 0; i < n; ++i) h[i] = 2.0f * rand() / RAND_MAX - 1.0f;
  float *x;
  int *inside, got = 0;
  cudaMalloc(&x, sizeof h);
  cudaMalloc(&inside, sizeof(int));
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(inside, 0, sizeof(int));
  count_inside<<<2, 32>>>(x, n, inside);
  cudaMemcpy(&got, inside, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(x);
  cudaFree(inside);
  int ok = got == n && per_cell == 2;
  printf(ok ? "PASS\n" : "FAIL: %d inside\n", got);
  return ok ? 0 : 1;
}
