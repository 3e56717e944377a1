/*
 * block_sum.cu: the sum of each block's BLOCK_SUM_THREADS elements of x, by
 * a tree reduction in shared memory with a barrier between the steps. Block
 * b writes sums[b]; threads past the end of x contribute 0. The tree's order
 * of additions is fixed (s[t] += s[t + stride], stride = 128, 64, ..., 1), so
 * the host, adding in the same order, gets the same bits.
 */
#define BLOCK_SUM_THREADS 256

extern "C" __global__ void block_sum(int n, const float *x, float *sums) {
  __shared__ float s[BLOCK_SUM_THREADS];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * BLOCK_SUM_THREADS + t;
  /* The tree below assumes exactly BLOCK_SUM_THREADS threads. */
  if (blockDim.x != BLOCK_SUM_THREADS) __trap();
  s[t] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = BLOCK_SUM_THREADS / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = s[0];
}
