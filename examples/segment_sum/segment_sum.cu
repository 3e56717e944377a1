/*
 * segment_sum.cu: totals[s] = the sum of values[i] over the rows whose key
 * is s, for s in [0, n_segments); rows with a key outside that range (a
 * negative key: a dropped row) add nothing (segment_sum of CuNumpy's
 * algorithms; keys need not be sorted). totals is overwritten.
 *
 * segment_sum_atomic: one thread per row, one atomicAdd each; totals must
 * start at 0. The order of the additions depends on the schedule.
 *
 * segment_sum_ordered: one block of SEGMENT_THREADS threads per segment; each
 * thread adds the matching rows i = t, t + SEGMENT_THREADS, ... in order,
 * and the block adds the threads' partial sums with a tree in shared memory.
 * The order is fixed, so the result is reproducible bit for bit.
 */
#define SEGMENT_THREADS 128

extern "C" __global__ void segment_sum_atomic(int n, const int *keys,
                                              const double *values,
                                              int n_segments,
                                              double *totals) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && keys[i] >= 0 && keys[i] < n_segments)
    atomicAdd(&totals[keys[i]], values[i]);
}

extern "C" __global__ void segment_sum_ordered(int n, const int *keys,
                                               const double *values,
                                               int n_segments,
                                               double *totals) {
  __shared__ double partial[SEGMENT_THREADS];
  unsigned t = threadIdx.x;
  int segment = blockIdx.x;
  double sum = 0.0;
  if (blockDim.x != SEGMENT_THREADS) __trap();
  for (int i = t; i < n; i += SEGMENT_THREADS)
    if (keys[i] == segment) sum += values[i];
  partial[t] = sum;
  __syncthreads();
  for (unsigned stride = SEGMENT_THREADS / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0 && segment < n_segments) totals[segment] = partial[0];
}
