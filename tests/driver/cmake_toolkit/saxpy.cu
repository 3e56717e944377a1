// saxpy.cu: a kernel and its check, linked with blocks.cpp and
// CUDA::cudart.
#include <cstdio>

int expected_blocks(int n, int block);
int device_count();

__global__ void saxpy(int n, float a, const float *x, float *y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1000;
  float x[n], y[n];
  for (int i = 0; i < n; ++i) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }
  float *dx, *dy;
  cudaMalloc(&dx, sizeof x);
  cudaMalloc(&dy, sizeof y);
  cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice);
  saxpy<<<expected_blocks(n, 128), 128>>>(n, 2.0f, dx, dy);
  cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
  int bad = device_count() < 1;
  for (int i = 0; i < n; ++i)
    bad += y[i] != 2.0f * i + 1.0f;
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
