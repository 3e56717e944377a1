/*
 * barriers.cu: block barriers for tests/check_scheduler.c: the voting forms
 * of __syncthreads, a divergent barrier, a large local array kept across
 * barriers, cooperative groups' thread block, and many barriers in a row.
 */
#include <cooperative_groups.h>

#include "thread_layout.cuh"

namespace cg = cooperative_groups;

/* Every thread reads its value (threads at or past `n`, the end of the
 * data, vote as if their value were 0) and votes three times; each writes
 * the three results at its linear index in the launch. */
extern "C" __global__ void vote(const int *data, unsigned n, int *results) {
  unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
  unsigned i = linear_block() * nthreads + linear_thread();
  int v = i < n ? data[i] : 0;
  int *r = results + 3 * i;
  r[0] = __syncthreads_count(v & 6);
  r[1] = __syncthreads_and(i >= n || v > 0);
  r[2] = __syncthreads_or(v > 1000);
}

/* Threads below 16 wait at one barrier and the others at another, in the
 * last block of the grid only. */
extern "C" __global__ void divergent(int *out) {
  if (blockIdx.x == gridDim.x - 1) {
    if (threadIdx.x < 16) {
      __syncthreads(); /* marker: DIVERGENT_LOW */
    } else {
      __syncthreads(); /* marker: DIVERGENT_HIGH */
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

/* Fills a 16 KiB local array, then checks it after each of two barriers
 * while the other threads of the block fill and check theirs. Counts the
 * words that changed. */
extern "C" __global__ void local_array(unsigned *errors) {
  volatile unsigned local[4096];
  unsigned t = linear_thread();
  for (unsigned i = 0; i < 4096; ++i)
    local[i] = (i * 2654435761u) ^ (t << 20) ^ blockIdx.x;
  __syncthreads();
  unsigned bad = 0;
  for (unsigned i = 0; i < 4096; ++i)
    bad += local[i] != ((i * 2654435761u) ^ (t << 20) ^ blockIdx.x);
  __syncthreads();
  for (unsigned i = 0; i < 4096; ++i)
    bad += local[i] != ((i * 2654435761u) ^ (t << 20) ^ blockIdx.x);
  if (bad)
    atomicAdd(errors, bad);
}

/* Compares cooperative groups' view of the thread block with the built-in
 * variables and counts the mismatches; also exchanges values through shared
 * memory across thread_block::sync() and cg::sync(). */
extern "C" __global__ void cg_block(unsigned *errors, unsigned *ranks) {
  __shared__ unsigned slots[1024];
  cg::thread_block block = cg::this_thread_block();
  unsigned t = linear_thread();
  unsigned n = blockDim.x * blockDim.y * blockDim.z;
  unsigned bad = 0;
  bad += block.thread_rank() != t;
  bad += block.size() != n;
  dim3 g = block.group_index(), i = block.thread_index(),
       d = block.dim_threads();
  bad += g.x != blockIdx.x || g.y != blockIdx.y || g.z != blockIdx.z;
  bad += i.x != threadIdx.x || i.y != threadIdx.y || i.z != threadIdx.z;
  bad += d.x != blockDim.x || d.y != blockDim.y || d.z != blockDim.z;
  slots[t] = t * 3 + 1;
  block.sync();
  bad += slots[n - 1 - t] != (n - 1 - t) * 3 + 1;
  cg::sync(block);
  slots[t] = t * 5;
  block.sync();
  bad += slots[(t + 1) % n] != ((t + 1) % n) * 5;
  ranks[linear_block() * n + t] = (unsigned)block.thread_rank();
  if (bad)
    atomicAdd(errors, bad);
}

/* `rounds` rounds of two barriers: each thread publishes a value, reads its
 * neighbour's, and adds it up. A barrier that let a thread through early
 * would make it read the previous round's value. */
extern "C" __global__ void many_barriers(unsigned long long *sum, int rounds) {
  __shared__ unsigned buf[1024];
  unsigned t = threadIdx.x, n = blockDim.x;
  unsigned long long acc = 0;
  for (int r = 0; r < rounds; ++r) {
    buf[t] = t + (unsigned)r;
    __syncthreads();
    acc += buf[(t + 1) % n];
    __syncthreads();
  }
  atomicAdd(sum, acc);
}
