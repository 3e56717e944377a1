// A grid launched from kernel code whose kernel holds a 96 KB local array:
// its threads' stacks are sized from its own frame, as the grids launched
// from the host are (the child used to run with its parent's stack and
// overflowed it: "hardware stack error").
// CUEMU_OPTIONS: -rdc=true
// NVCC_OPTIONS: -rdc=true
#include <cstdio>

#define SCRATCH 24000

__global__ void child_scratch(float *out) {
  float table[SCRATCH];
  for (int i = 0; i < SCRATCH; ++i)
    table[i] = (float)(i % 13) + threadIdx.x;
  float s = 0.0f;
  for (int i = 0; i < SCRATCH; i += 5)
    s += table[i];
  out[threadIdx.x] = s;
}

__global__ void parent(float *out) {
  if (threadIdx.x == 0)
    child_scratch<<<1, 32>>>(out);
}

int main() {
  float *d, h[32];
  cudaMalloc(&d, sizeof h);
  parent<<<1, 32>>>(d);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("parent: %s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < 32; ++t) {
    float want = 0.0f;
    for (int i = 0; i < SCRATCH; i += 5)
      want += (float)(i % 13) + t;
    if (h[t] != want)
      ++bad;
  }
  cudaFree(d);
  printf(bad ? "FAIL (%d)\n" : "PASS\n", bad);
  return bad != 0;
}
