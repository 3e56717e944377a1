/*
 * shared_isolation.cu: blocks running at the same time on different workers
 * must each see their own shared memory, static and dynamic.
 *
 * Each block fills its shared array with values derived from its block id
 * and the round, waits at a barrier, reads back another thread's value and
 * counts every value that is not its own in mismatches[blockIdx.x]. Several
 * rounds with barriers make the blocks of two workers interleave.
 * checks[blockIdx.x] counts the comparisons made, so a block that did not
 * run is seen too.
 */
#include <cuda_runtime.h>

__global__ void static_shared_isolation(unsigned *mismatches,
                                        unsigned *checks, int rounds) {
  __shared__ unsigned buf[1024];
  const unsigned t = threadIdx.x, n = blockDim.x, b = blockIdx.x;
  for (int r = 0; r < rounds; ++r) {
    const unsigned mine = b * 4096u + (unsigned)r;
    buf[t] = mine;
    __syncthreads();
    if (buf[(t + 1) % n] != mine)
      atomicAdd(&mismatches[b], 1u);
    atomicAdd(&checks[b], 1u);
    __syncthreads();
  }
}

__global__ void dynamic_shared_isolation(unsigned *mismatches,
                                         unsigned *checks, int rounds) {
  extern __shared__ unsigned dyn[];
  const unsigned t = threadIdx.x, n = blockDim.x, b = blockIdx.x;
  for (int r = 0; r < rounds; ++r) {
    const unsigned mine = b * 4096u + (unsigned)r;
    dyn[t] = mine;
    __syncthreads();
    if (dyn[(t + 1) % n] != mine)
      atomicAdd(&mismatches[b], 1u);
    atomicAdd(&checks[b], 1u);
    __syncthreads();
  }
}

/* Fills `bytes` bytes of dynamic shared memory with a pattern of the block,
 * then every thread checks a shifted range, so that each byte is written by
 * one thread and read by another. */
__global__ void dynamic_shared_fill(unsigned *mismatches, unsigned *checks,
                                    unsigned bytes) {
  extern __shared__ unsigned char area[];
  const unsigned t = threadIdx.x, n = blockDim.x, b = blockIdx.x;
  for (unsigned i = t; i < bytes; i += n)
    area[i] = (unsigned char)(i * 7u + b * 13u + 1u);
  __syncthreads();
  const unsigned shift = bytes / 2u + 1u;
  for (unsigned i = t; i < bytes; i += n) {
    const unsigned j = (i + shift) % bytes;
    if (area[j] != (unsigned char)(j * 7u + b * 13u + 1u))
      atomicAdd(&mismatches[b], 1u);
    atomicAdd(&checks[b], 1u);
  }
}
