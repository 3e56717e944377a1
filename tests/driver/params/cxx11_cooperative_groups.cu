// A C++11 program that includes <cooperative_groups.h>: nvcc 13 stops it
// with libcu++'s "#error libcu++ requires at least C++ 17" (the header
// includes libcu++); without -std it builds.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void sum(int *x) {
  cg::thread_block block = cg::this_thread_block();
  atomicAdd(x, 1);
  block.sync();
}

int main() {
  int *x;
  cudaMallocManaged(&x, sizeof(int));
  *x = 0;
  sum<<<2, 32>>>(x);
  cudaDeviceSynchronize();
  return *x == 64 ? 0 : 1;
}
