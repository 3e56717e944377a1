// api_error_copy_too_long.cu: a deliberately buggy program for the checkers
// (tests/checkers.sh): a copy longer than its device allocation fails with
// cudaErrorInvalidValue, unchecked, three times from one line, and the
// kernel then sums memory nothing wrote.
// CHECK: mem
// EXPECT: api cudaErrorInvalidValue cudaMemcpy line 26
#include <cstdio>
#include <cuda_runtime.h>

__global__ void sum(const int *a, int n, int *out) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i];
  *out = s;
}

int main() {
  const int n = 64;
  int host[n + 8];
  for (int i = 0; i < n + 8; ++i)
    host[i] = i;
  int *d, *out;
  cudaMalloc(&d, n * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  for (int pass = 0; pass < 3; ++pass)
    cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice);
  sum<<<1, 1>>>(d, n, out);
  int s = 0;
  cudaMemcpy(&s, out, sizeof s, cudaMemcpyDeviceToHost);
  printf("sum %d\n", s);
  cudaFree(d);
  cudaFree(out);
  return 0;
}
