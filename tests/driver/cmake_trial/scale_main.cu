// scale_main.cu: a kernel built by FindCUDA's cuda_add_executable, with a
// macro from its OPTIONS and the host flags of the build type.
#include <cstdio>

#ifndef SCALE_FACTOR
#error "cuda_add_executable's OPTIONS did not reach the compile"
#endif

__global__ void scale(int *v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= SCALE_FACTOR;
}

int main() {
  const int n = 300;
  int h[n];
  for (int i = 0; i < n; ++i)
    h[i] = i;
  int *d = nullptr;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale<<<(n + 127) / 128, 128>>>(d, n);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += h[i] != SCALE_FACTOR * i;
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
