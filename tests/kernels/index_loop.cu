/*
 * index_loop.cu: a kernel for tests/check_launch.c that records, per thread
 * of a block, the global index it computes as CUDA code usually does and
 * how often it ran: the test calls its thunk directly, at block indices
 * whose global indices reach 2^31 (where the thunk leaves its loop over
 * global indices, a signed int, for the general loop) and wrap past 2^32.
 */
extern "C" __global__ void record_index(int *index, unsigned *runs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  index[threadIdx.x] = i;
  runs[threadIdx.x] += 1;
}
