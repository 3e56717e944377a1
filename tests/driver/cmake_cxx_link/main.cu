// Multiplies two small matrices with cuBLAS (gemm_calls.cu) and compares
// with the host's product (expect.cpp, a C++ library).
#include <cstdio>

void expected_product(const float *a, const float *b, float *c, int n);
int device_product(const float *a, const float *b, float *c, int n);

int main() {
  const int n = 8;
  float a[n * n], b[n * n], got[n * n], want[n * n];
  for (int i = 0; i < n * n; ++i) {
    a[i] = float(i % 7) - 3;
    b[i] = float((i * 3) % 5) * 0.5f;
  }
  int step = device_product(a, b, got, n);
  if (step) {
    printf("FAIL: cuBLAS step %d failed (1: cublasCreate)\n", step);
    return 1;
  }
  expected_product(a, b, want, n);
  for (int i = 0; i < n * n; ++i)
    if (got[i] != want[i]) {
      printf("FAIL: element %d is %g, want %g\n", i, got[i], want[i]);
      return 1;
    }
  printf("PASS\n");
  return 0;
}
