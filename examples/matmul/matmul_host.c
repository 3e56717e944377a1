/* matmul_host.c: the host implementation of matmul.cu, accumulating with
 * fmaf in the kernel's order. */
#include <math.h>

void matmul(int m, int n, int k, const float *a, const float *b, float *c) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int p = 0; p < k; ++p)
        acc = fmaf(a[(long long)i * k + p], b[(long long)p * n + j], acc);
      c[(long long)i * n + j] = acc;
    }
}
