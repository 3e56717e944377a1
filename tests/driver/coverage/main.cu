// main.cu: a program built with host coverage (-Xcompiler --coverage), whose
// host function takes one branch and never the other.
#include <cstdio>
#include "scale.cuh"

static int pick_blocks(int n, int threads) {
  if (n <= 0)
    return 0; // never taken: gcov marks it unexecuted
  return (n + threads - 1) / threads;
}

int main() {
  const int n = 1000;
  float *x;
  cudaMallocManaged(&x, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    x[i] = (float)i;
  scale<<<pick_blocks(n, 128), 128>>>(x, 2.0f, n);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += x[i] != 2.0f * (float)i;
  cudaFree(x);
  if (bad) {
    printf("FAIL: %d wrong values\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
