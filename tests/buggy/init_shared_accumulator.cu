// init_shared_accumulator.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: init
// ENV: CUEMU_CHECK_SHARED_INIT=1
// EXPECT: init uninitialised shared line 12
#include <cstdio>
#include <cuda_runtime.h>

/* An accumulator in shared memory that nobody zeroes. */
__global__ void count_odd(const int *in, int *out) {
  __shared__ int total;
  if (in[threadIdx.x] & 1)
    atomicAdd(&total, 1);
  __syncthreads();
  if (threadIdx.x == 0)
    *out = total;
}

int main() {
  int host[32];
  for (int i = 0; i < 32; ++i)
    host[i] = i;
  int *in, *out;
  cudaMalloc(&in, 32 * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  count_odd<<<1, 32>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
