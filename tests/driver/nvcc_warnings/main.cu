// main.cu: launches with two, three and four configuration arguments, for
// nvcc's -Wdefault-stream-launch and -Wmissing-launch-bounds.
#include <cstdio>
#include "kernels.cuh"

int main() {
  int *d = nullptr, h[32];
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMalloc(&d, sizeof h);
  fill_default(d, 1);
  add<<<1, 32>>>(d, 2);
  scale<3><<<1, 32, 0>>>(d);
  add<<<1, 32, 0, s>>>(d, 1);
  cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  int ok = 1;
  for (int i = 0; i < 32; ++i)
    ok &= h[i] == 10;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  cudaFree(d);
  cudaStreamDestroy(s);
  return ok ? 0 : 1;
}
