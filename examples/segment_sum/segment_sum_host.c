/* segment_sum_host.c: the host implementations of segment_sum.cu. */
#define SEGMENT_THREADS 128

/* Adds the rows in index order: the reference the atomic kernel is compared
 * with, within a tolerance. */
void segment_sum_atomic(int n, const int *keys, const double *values,
                        int n_segments, double *totals) {
  for (int s = 0; s < n_segments; ++s) totals[s] = 0.0;
  for (int i = 0; i < n; ++i)
    if (keys[i] >= 0 && keys[i] < n_segments) totals[keys[i]] += values[i];
}

/* Adds in the ordered kernel's order: strided partial sums, then the tree. */
void segment_sum_ordered(int n, const int *keys, const double *values,
                         int n_segments, double *totals) {
  for (int s = 0; s < n_segments; ++s) {
    double partial[SEGMENT_THREADS];
    for (int t = 0; t < SEGMENT_THREADS; ++t) {
      double sum = 0.0;
      for (int i = t; i < n; i += SEGMENT_THREADS)
        if (keys[i] == s) sum += values[i];
      partial[t] = sum;
    }
    for (int stride = SEGMENT_THREADS / 2; stride > 0; stride /= 2)
      for (int t = 0; t < stride; ++t) partial[t] += partial[t + stride];
    totals[s] = partial[0];
  }
}
