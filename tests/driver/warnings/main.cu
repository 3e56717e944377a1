// main.cu: host code; with -DHOST_WARNING it has the one comparison that
// g++ -Wall warns about (line 19), which nvcc reports once; with
// -DHOST_ERROR, an error (line 12).
#include <cstdio>

#include <cuda_runtime.h>

#include "kernels.cuh"

static int checks_failed;
#ifdef HOST_ERROR
static const char *broken = 2.5; // an error that both passes compile
#endif

static void check(bool ok, const char *what) {
  int passed = ok;
  unsigned required = 1;
#ifdef HOST_WARNING
  if (passed < required) {
#else
  if (passed < (int)required) {
#endif
    std::printf("check failed: %s\n", what);
    ++checks_failed;
  }
}

int main() {
  const int n = 8;
  int host[n] = {5, 3, 7, 1, 8, 2, 6, 4};
  int *x, *counts;
  float *f;
  cudaMallocManaged(&x, n * sizeof(int));
  cudaMallocManaged(&counts, n * sizeof(int));
  cudaMallocManaged(&f, n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    x[i] = host[i];
    f[i] = (float)i;
  }
  count_below(x, n, counts);
  scale<<<1, 4>>>(f, n, 1.0f); // 2 x / 2 * 1
  check(cudaDeviceSynchronize() == cudaSuccess, "the launches ran");
  for (int i = 0; i < n; ++i) {
    int expected = 0;
    for (int j = 0; j < n; ++j)
      expected += host[j] < host[i];
    check(counts[i] == expected, "count_below");
    check(f[i] == (float)i, "scale: 2 * i / 2");
  }
  cudaFree(x);
  cudaFree(counts);
  cudaFree(f);
  if (checks_failed == 0)
    std::printf("PASS\n");
  return checks_failed != 0;
}
