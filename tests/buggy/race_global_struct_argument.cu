// race_global_struct_argument.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global WAR atomic line 25 line 27
#include <cstdio>
#include <cuda_runtime.h>

/* Thread 0 passes a bin, a small struct read straight from global memory,
 * by value to a device function, while the other threads add to that bin
 * with atomicAdd, with no barrier between. The argument's load is the
 * read that races: g++'s instrumentation checks the loads of assignments,
 * not a call's by-value argument, and the race went unreported before
 * (emulator/compile/cuemu_gcc_plugin_call_args.cc). */
struct Bin {
  unsigned count;
};

__device__ __noinline__ float share(Bin b, unsigned total) {
  return total ? (float)b.count / total : 0.0f;
}

__global__ void tally(Bin *bins, float *shares) {
  unsigned t = threadIdx.x;
  /* The bins are still being counted: the read below races with the adds. */
  if (t == 0)
    shares[0] = share(bins[0], blockDim.x);
  else
    atomicAdd(&bins[0].count, 1u);
}

int main() {
  Bin *bins;
  float *shares;
  cudaMalloc(&bins, sizeof(Bin));
  cudaMalloc(&shares, sizeof(float));
  cudaMemset(bins, 0, sizeof(Bin));
  tally<<<1, 64>>>(bins, shares);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
