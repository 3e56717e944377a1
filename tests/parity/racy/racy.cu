/* racy.cu: wrong on purpose: a shared-memory tree reduction with no
 * __syncthreads() between its steps, so a thread may read a partial sum
 * before its owner has written it. The result depends on the order the
 * threads run in (a race on a GPU; racecheck reports it). Each step is a
 * call of a function that is not inlined: cuemu runs a loop of the steps,
 * or the steps written out in the kernel, with each warp's lanes in step,
 * as a GPU's converged warp would (docs/warp-lockstep.md), which hides
 * this race from a comparison of schedules. */
#define RACY_THREADS 256
__device__ __noinline__ void racy_step(int *s, unsigned t, unsigned stride) {
  if (t < stride) s[t] += s[t + stride];
}
#define RACY_STEP(stride) racy_step(s, t, (stride));
extern "C" __global__ void racy_sum(int n, const int *x, int *sums) {
  __shared__ int s[RACY_THREADS];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * RACY_THREADS + t;
  if (blockDim.x != RACY_THREADS) __trap();
  s[t] = i < n ? x[i] : 0; __syncthreads();
  RACY_STEP(128) RACY_STEP(64) RACY_STEP(32) RACY_STEP(16) RACY_STEP(8) RACY_STEP(4) RACY_STEP(2) RACY_STEP(1)
  if (t == 0) sums[blockIdx.x] = s[0];
}
