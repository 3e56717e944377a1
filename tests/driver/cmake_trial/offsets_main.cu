// offsets_main.cu: a kernel that calls a __device__ function of another
// file (offsets.cu, in a static library), linked by FindCUDA's device link.
#include <cstdio>

extern __device__ int offset_of(int i);

__global__ void offsets(int *v) { v[threadIdx.x] = offset_of(threadIdx.x); }

int main() {
  int h[64] = {};
  int *d = nullptr;
  cudaMalloc(&d, sizeof h);
  offsets<<<1, 64>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  int bad = 0;
  for (int i = 0; i < 64; ++i)
    bad += h[i] != 10 * i + 1;
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
