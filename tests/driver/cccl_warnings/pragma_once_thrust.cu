// A unit that includes Thrust and gives preprocessor warnings: `#pragma once`
// in the main file (a .cu file that other units also include, as
// cuda_launch_config.cu is in a public LCS program) and a #warning. nvcc 13
// gives g++'s message for each; cuemu-nvcc preprocesses such a unit with g++
// and again with clang++ (docs/cccl.md) and gave each warning twice, g++'s
// then clang++'s ("[-Wpragma-once-outside-header]", "1 warning generated.").
#pragma once
#warning "this unit warns once"
#include <thrust/version.h>
#include <cstdio>

__global__ void version_kernel(int *out) { *out = THRUST_VERSION; }

int main() {
  int *d, h = 0;
  cudaMalloc(&d, sizeof(int));
  version_kernel<<<1, 1>>>(d);
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  printf(h == THRUST_VERSION ? "PASS\n" : "FAIL: %d\n", h);
  return h == THRUST_VERSION ? 0 : 1;
}
