// race_shared_template.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared RAW line 14 line 15
#include <cstdio>
#include <cuda_runtime.h>

/* A kernel template whose instantiation races: the barrier sits on the
 * wrong side of the write. */
template <typename T, int N>
__global__ void rotate(T *out) {
  __shared__ T buf[N];
  unsigned t = threadIdx.x;
  __syncthreads();
  buf[t] = T(t);
  out[t] = buf[(t + N - 1) % N];
}

int main() {
  double *d;
  cudaMalloc(&d, 64 * sizeof(double));
  rotate<double, 64><<<1, 64>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
