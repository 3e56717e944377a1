// race_object.cu: a deliberately buggy kernel, compiled with checkers into an
// object (cuemu-nvcc --check=race -c) that a plain link puts in a program
// (tests/checkers_objects.sh).
// EXPECT: race shared WAR line 14 line 12
#include <cuda_runtime.h>

/* Each thread reads its neighbour's slot with no barrier after the
 * stores. */
__global__ void shift_left(int *out) {
  __shared__ int slot[64];
  unsigned t = threadIdx.x;
  slot[t] = (int)t;
  if (t + 1 < blockDim.x)
    out[t] = slot[t + 1];
}

/* The program's kernel (objects_main.cpp). */
int run_kernel() {
  int *out;
  cudaMalloc(&out, 64 * sizeof(int));
  shift_left<<<1, 64>>>(out);
  cudaError_t e = cudaDeviceSynchronize();
  cudaFree(out);
  return e == cudaSuccess ? 0 : 1;
}
