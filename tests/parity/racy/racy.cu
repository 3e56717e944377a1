/* racy.cu: wrong on purpose: a shared-memory tree reduction with no
 * __syncthreads() between its steps, so a thread may read a partial sum
 * before its owner has written it. The result depends on the order the
 * threads run in (a race on a GPU; racecheck reports it). */
#define RACY_THREADS 256

extern "C" __global__ void racy_sum(int n, const int *x, int *sums) {
  __shared__ int s[RACY_THREADS];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * RACY_THREADS + t;
  if (blockDim.x != RACY_THREADS) __trap();
  s[t] = i < n ? x[i] : 0;
  __syncthreads();
  for (unsigned stride = RACY_THREADS / 2; stride > 0; stride /= 2)
    if (t < stride) s[t] += s[t + stride]; /* no barrier: the race */
  if (t == 0) sums[blockIdx.x] = s[0];
}
