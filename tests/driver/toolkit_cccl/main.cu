// main.cu: runs dot_kernel and checks it against the host's sum.
#include <cstdio>
#include <vector>
#include "dot.cuh"
int main() {
  const int n = 5000;
  std::vector<double> a(n), b(n);
  double expect = 0.0;
  for (int i = 0; i < n; i++) {
    a[i] = i % 17;
    b[i] = 0.5 * (i % 5);
    expect += a[i] * b[i];
  }
  double *da, *db, *out, got = 0.0;
  cudaMalloc(&da, n * sizeof(double));
  cudaMalloc(&db, n * sizeof(double));
  cudaMalloc(&out, sizeof(double));
  cudaMemcpy(da, a.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, sizeof(double));
  dot_kernel<<<8, DOT_BLOCK>>>(da, db, n, out);
  cudaError_t err = cudaMemcpy(&got, out, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(out);
  printf("dot %.1f, expected %.1f\n", got, expect);
  int ok = err == cudaSuccess && got == expect;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
