/* main.cu: a program of several files (two .cu, a .cpp and a .c). */
#include <cstdio>

#include "vec.cuh"

int main() {
  const int n = 1000;
  float *x, *y;
  float gx[n], gy[n];
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    x[i] = gx[i] = (float)i;
    y[i] = gy[i] = 1.0f;
  }
  saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  launch_scale(y, 0.5f, n);
  cudaDeviceSynchronize();
  saxpy_gold(2.0f, gx, gy, n);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += y[i] != gy[i] * 0.5f;
  bad += c_answer() != 42;
  bad += cudaGetLastError() != cudaSuccess;
  cudaFree(x);
  cudaFree(y);
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
