/*
 * bench_program.cu: a small whole program (a kernel, its launch, the CUDA
 * runtime) whose compile run_bench.sh times: cuemu-cc's two passes against
 * one pass of the same translation unit (--module).
 */
#include <cstdio>
#include <vector>

__global__ void bench_saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 16;
  std::vector<float> hx(n, 1.0f), hy(n, 2.0f);
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  bench_saxpy<<<(n + 255) / 256, 256>>>(3.0f, x, y, n);
  cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("%g\n", hy[0]);
  cudaFree(x);
  cudaFree(y);
  return hy[0] == 5.0f ? 0 : 1;
}
