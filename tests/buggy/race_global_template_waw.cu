// race_global_template_waw.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global WAW line 11
#include <cstdio>
#include <cuda_runtime.h>

/* Every block writes the same result slot (a template kernel). */
template <typename T>
__global__ void store_total(T *total, const T *in) {
  if (threadIdx.x == 0)
    *total = in[blockIdx.x];
}

int main() {
  long long *t, *in;
  cudaMalloc(&t, sizeof(long long));
  cudaMalloc(&in, 4 * sizeof(long long));
  cudaMemset(in, 0, 4 * sizeof(long long));
  store_total<long long><<<4, 32>>>(t, in);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
