// race_global_union_find_min.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global RAW atomic line 16 line 26
#include <cstdio>
#include <cuda_runtime.h>

/* The union step of a connected-components labelling by union-find: each
 * thread joins its pixel's tree to its left neighbour's with atomicMin on
 * the parent array, while the other threads' finds walk that array with
 * plain loads. The plain loads race with the atomics (a data race under
 * CUDA's memory model, which such labellers accept by design). Built with
 * -G, the report must still name these lines, not the shims' atomics
 * (tests/checkers_debug_lines.sh). */
__device__ unsigned find_root(const unsigned *parent, unsigned n) {
  unsigned steps = 0;
  while (parent[n] != n && steps++ < 64)
    n = parent[n];
  return n;
}

__global__ void join_left(unsigned *parent, const int *pixels, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n && pixels[i] == pixels[i - 1]) {
    unsigned a = find_root(parent, i), b = find_root(parent, i - 1);
    if (a != b)
      atomicMin(&parent[a > b ? a : b], a < b ? a : b);
  }
}

int main() {
  const int n = 64;
  int h_pixels[n];
  unsigned h_parent[n];
  for (int i = 0; i < n; ++i) {
    h_pixels[i] = (i / 8) % 2;
    h_parent[i] = i;
  }
  int *pixels;
  unsigned *parent;
  cudaMalloc(&pixels, sizeof h_pixels);
  cudaMalloc(&parent, sizeof h_parent);
  cudaMemcpy(pixels, h_pixels, sizeof h_pixels, cudaMemcpyHostToDevice);
  cudaMemcpy(parent, h_parent, sizeof h_parent, cudaMemcpyHostToDevice);
  join_left<<<1, n>>>(parent, pixels, n);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
