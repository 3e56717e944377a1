// race_shared_plain_max.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared RAW line 19 line 19
#include <cstdio>
#include <cuda_runtime.h>

/* Each thread raises a shared maximum with a plain read and write, no
 * atomic and no barrier between the threads: a lane can read the maximum
 * while another writes it, and a smaller value written back loses a larger
 * one. Thread 0 writes its value first; thread 1's value is smaller, so
 * its write leaves the maximum as it was (a write of the value already
 * there is not reported), and only its read races. clang++ puts no hook on
 * a read that a write of the same location follows in its block. */
__global__ void block_max(const int *in, int *out) {
  __shared__ int best;
  if (threadIdx.x == 0)
    best = 0;
  __syncthreads();
  best = max(best, in[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0)
    *out = best;
}

int main() {
  int host[2] = {7, 3}, *in, *out;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  block_max<<<1, 2>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  cudaFree(in);
  cudaFree(out);
  return 0;
}
