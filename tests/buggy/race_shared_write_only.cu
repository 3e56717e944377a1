// race_shared_write_only.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared WAW line 14
#include <cstdio>
#include <cuda_runtime.h>

/* Every thread writes the one __shared__ word and reads it back at once,
 * with no barrier: on a GPU the lanes read whichever write landed last.
 * Optimized as one thread's code, the read takes the value just stored and
 * the variable is never read again, so g++ removed every store to it (a
 * static that is only written) and racecheck saw no access at all. */
__global__ void broadcast(int *out) {
  __shared__ int word;
  word = (int)threadIdx.x;
  out[threadIdx.x] = word;
}

int main() {
  int *out;
  cudaMalloc(&out, 64 * sizeof(int));
  broadcast<<<1, 64>>>(out);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  cudaFree(out);
  return 0;
}
