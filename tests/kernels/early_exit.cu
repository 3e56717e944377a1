/*
 * early_exit.cu: threads that return before, between and after barriers,
 * for tests/check_scheduler.c. Every thread must run exactly once, and a
 * barrier must complete once every thread that has not exited arrives.
 */

/* Whether thread `t` of block `b` returns before the first barrier, and
 * whether it returns between the two barriers. The host test uses the same
 * rules. Block 3 exits entirely before the first barrier. */
__host__ __device__ inline bool exits_first(unsigned b, unsigned t) {
  return b == 3 || (t * 7 + b) % 5 == 0 || t == 0;
}
__host__ __device__ inline bool exits_second(unsigned b, unsigned t) {
  return (t + b) % 3 == 1 || t == 1;
}

/* Counts, per thread, its entries into the kernel and its passages through
 * each barrier. */
extern "C" __global__ void early_exit(unsigned *entries, unsigned *passed1,
                                      unsigned *passed2) {
  unsigned b = blockIdx.x, t = threadIdx.x;
  unsigned id = b * blockDim.x + t;
  atomicAdd(&entries[id], 1u);
  if (exits_first(b, t))
    return;
  __syncthreads();
  atomicAdd(&passed1[id], 1u);
  if (exits_second(b, t))
    return;
  __syncthreads();
  atomicAdd(&passed2[id], 1u);
}

/* Threads exit (mode 0: those at or above `live`; mode 1: the odd ones),
 * then the others vote. Exited threads contribute no predicate. Each live
 * thread writes what the five votes returned. */
extern "C" __global__ void exit_then_vote(int *results, unsigned live,
                                          int mode) {
  unsigned t = threadIdx.x;
  if (mode == 0 ? t >= live : (t % 2) == 1)
    return;
  int *r = results + 5 * t;
  r[0] = __syncthreads_count(t % 4 == 0);
  r[1] = __syncthreads_and(t < blockDim.x);
  r[2] = __syncthreads_and(t % 4 == 0);
  r[3] = __syncthreads_or(t == 2);
  r[4] = __syncthreads_or(0);
}
