/* block_sum_host.c: the host implementation of block_sum.cu, adding in the
 * order of the kernel's tree so that every sum has the kernel's bits. */
#include <string.h>

#define BLOCK_SUM_THREADS 256

void block_sum(int n, const float *x, float *sums) {
  int blocks = (n + BLOCK_SUM_THREADS - 1) / BLOCK_SUM_THREADS;
  for (int b = 0; b < blocks; ++b) {
    float s[BLOCK_SUM_THREADS];
    for (int t = 0; t < BLOCK_SUM_THREADS; ++t) {
      int i = b * BLOCK_SUM_THREADS + t;
      s[t] = i < n ? x[i] : 0.0f;
    }
    for (int stride = BLOCK_SUM_THREADS / 2; stride > 0; stride /= 2)
      for (int t = 0; t < stride; ++t) s[t] += s[t + stride];
    sums[b] = s[0];
  }
}
