/* racy_host.c: the correct per-block sums that racy.cu means to compute. */
#define RACY_THREADS 256

void racy_sum(int n, const int *x, int *sums) {
  int blocks = (n + RACY_THREADS - 1) / RACY_THREADS;
  for (int b = 0; b < blocks; ++b) {
    int sum = 0;
    for (int t = 0; t < RACY_THREADS && b * RACY_THREADS + t < n; ++t)
      sum += x[b * RACY_THREADS + t];
    sums[b] = sum;
  }
}
