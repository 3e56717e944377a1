/*
 * schedule.cu: kernels whose results depend on the order in which the
 * scheduler runs threads, for tests/check_scheduler.c.
 */

/* A race, on purpose: every thread writes its index to one shared slot
 * without synchronisation; after the barrier, thread 0 reports which write
 * came last. */
extern "C" __global__ void last_writer(unsigned *out) {
  __shared__ unsigned slot;
  slot = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = slot;
}

/* Records, for each thread, the position at which it started in the whole
 * launch (`first`), the position at which it started within its block
 * (`in_block`) and the position at which it left the barrier within its
 * block (`resumed`). `block_counters` holds two zeroed counters per block. */
extern "C" __global__ void run_order(unsigned *counter,
                                     unsigned *block_counters,
                                     unsigned *first, unsigned *in_block,
                                     unsigned *resumed) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  first[id] = atomicAdd(counter, 1u);
  in_block[id] = atomicAdd(&block_counters[2 * blockIdx.x], 1u);
  __syncthreads();
  resumed[id] = atomicAdd(&block_counters[2 * blockIdx.x + 1], 1u);
}
