// race_shared_read_before_flag.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared WAR line 17 line 27
#include <cstdio>
#include <cuda_runtime.h>

/* A block scan whose thread 0 reads the block's total, with no barrier
 * after the scan's last writes, then publishes it with an atomic store for
 * the next block: the last thread's final write of the total may come after
 * the read. The atomic orders nothing for the writer, which never polls it.
 * The read is made by a function of its own: read in the kernel, beside the
 * scan's store with no barrier between, it would be stepped in lockstep with
 * the warp's stores (docs/warp-lockstep.md), the other warp's final writes
 * would come first and the race would be reported as a read after write,
 * leaving the atomic's rule for a read (docs/checkers.md) untested. */
__device__ __noinline__ int block_total(const int *s, unsigned n) {
  return s[n - 1];
}

__global__ void scan_then_publish(const int *in, int *total, int *ready) {
  __shared__ int s[64];
  s[threadIdx.x] = in[threadIdx.x];
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads();
    int v = threadIdx.x >= stride ? s[threadIdx.x - stride] : 0;
    __syncthreads();
    s[threadIdx.x] += v;
  }
  if (threadIdx.x == 0) {
    total[0] = block_total(s, blockDim.x);
    atomicExch(ready, 1);
  }
}

int main() {
  int *in, *total, *ready;
  cudaMallocManaged(&in, 64 * sizeof(int));
  cudaMallocManaged(&total, sizeof(int));
  cudaMallocManaged(&ready, sizeof(int));
  for (int i = 0; i < 64; ++i)
    in[i] = 1;
  scan_then_publish<<<1, 64>>>(in, total, ready);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
