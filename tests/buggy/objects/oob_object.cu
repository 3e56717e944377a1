// oob_object.cu: a deliberately buggy kernel, compiled with checkers into a
// library (cuemu-nvcc --check=mem -lib) that a plain link puts in a program
// (tests/checkers_objects.sh).
// EXPECT: mem out-of-bounds write line 11
#include <cuda_runtime.h>

/* The last block writes past the end of the buffer. */
__global__ void fill(float *v, float x) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= 100)
    v[i] = x;
}

/* The program's kernel (objects_main.cpp). */
int run_kernel() {
  float *v;
  cudaMalloc(&v, 100 * sizeof(float));
  fill<<<4, 32>>>(v, 1.0f);
  cudaError_t e = cudaDeviceSynchronize();
  cudaFree(v);
  return e == cudaSuccess ? 0 : 1;
}
