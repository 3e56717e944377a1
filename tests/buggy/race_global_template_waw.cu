// race_global_template_waw.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global WAW line 14
#include <cstdio>
#include <cuda_runtime.h>

/* Every block writes the same result slot (a template kernel), each a
 * value of its own: which one stays depends on the blocks' order. (Equal
 * values would be no race that matters: compute-sanitizer's racecheck
 * gives a write of the value already there severity INFO.) */
template <typename T>
__global__ void store_total(T *total, const T *in) {
  if (threadIdx.x == 0)
    *total = in[blockIdx.x];
}

int main() {
  long long *t, *in;
  cudaMalloc(&t, sizeof(long long));
  cudaMalloc(&in, 4 * sizeof(long long));
  long long h[4] = {1, 2, 3, 4};
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  store_total<long long><<<4, 32>>>(t, in);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
