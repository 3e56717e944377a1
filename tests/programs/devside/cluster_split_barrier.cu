/*
 * cluster_split_barrier.cu: the split cluster barrier of sm_90
 * (cluster.barrier_arrive() / barrier_wait()) across the blocks of 2 x 2
 * clusters, mixed with cluster.sync(): a thread that arrived goes on
 * working until its wait (here: it publishes a value that only a thread
 * which has not waited yet can produce, so a wait that blocked like a
 * whole barrier at arrive would deadlock), and no thread passes its wait
 * before every thread of every block of its cluster has arrived (each
 * block reads its neighbours' shared memory written before their
 * arrival). The same inline PTX (barrier.cluster.arrive / wait and the
 * cluster special registers) agrees. Without clusters the barrier is the
 * block's.
 */
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>

#include "../check.cuh"

namespace cg = cooperative_groups;

constexpr int kThreads = 64;

/* Each round: even threads arrive, then publish a mark and meet the odd
 * threads at __syncthreads(); the odd threads read the marks and arrive
 * only then (if arriving blocked like a whole barrier, the even threads
 * would wait for the odd ones, which wait for them at __syncthreads()).
 * After the wait, each block reads its cluster neighbour's slots, written
 * before the neighbour's threads arrived (DSMEM); cluster.sync() keeps
 * them alive while they are read. */
__global__ void __cluster_dims__(2, 2, 1)
    neighbour_sums(int *out, int *marks_seen, int rounds) {
  __shared__ int slot[kThreads];
  __shared__ int mark[kThreads];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  unsigned next = (rank + 1) % cluster.num_blocks();
  int block = blockIdx.y * gridDim.x + blockIdx.x;
  bool even = threadIdx.x % 2 == 0;
  for (int r = 0; r < rounds; ++r) {
    slot[threadIdx.x] = static_cast<int>((rank + 1) * 1000 + threadIdx.x + r);
    if (even) {
      auto token = cluster.barrier_arrive();
      (void)token;
      mark[threadIdx.x] = r + 1;
    }
    __syncthreads();
    if (!even) {
      atomicAdd(&marks_seen[block], mark[threadIdx.x - 1]);
      cluster.barrier_arrive();
    }
    cluster.barrier_wait();
    int *theirs = cluster.map_shared_rank(slot, next);
    int v = theirs[(threadIdx.x + 1) % kThreads];
    cluster.sync(); /* the neighbour reads ours until here */
    out[(r * gridDim.x * gridDim.y + block) * kThreads + threadIdx.x] = v;
  }
}

/* The same exchange in inline PTX. */
__global__ void __cluster_dims__(2, 1, 1) ptx_exchange(unsigned *out) {
  __shared__ unsigned value;
  unsigned rank, nrank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(nrank));
  if (threadIdx.x == 0)
    value = 100 + rank;
  asm volatile("barrier.cluster.arrive;" ::: "memory");
  asm volatile("barrier.cluster.wait;" ::: "memory");
  cg::cluster_group cluster = cg::this_cluster();
  unsigned other = *cluster.map_shared_rank(&value, rank ^ 1u);
  asm volatile("barrier.cluster.arrive.release;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire;" ::: "memory");
  if (threadIdx.x == 0)
    out[blockIdx.x] = other * 100 + nrank * 10 + rank;
}

/* Without clusters: a block-wide split barrier. */
__global__ void block_split(int *out) {
  __shared__ int seen[32];
  cg::cluster_group cluster = cg::this_cluster();
  seen[threadIdx.x] = threadIdx.x * 3;
  cluster.barrier_arrive();
  cluster.barrier_wait();
  out[threadIdx.x] = seen[31 - threadIdx.x] + static_cast<int>(cluster.num_blocks());
}

int main() {
  const int rounds = 3;
  dim3 grid(4, 2);
  int blocks = grid.x * grid.y;
  int *out, *late;
  CHECK(cudaMallocManaged(&out, rounds * blocks * kThreads * sizeof(int)) ==
        cudaSuccess);
  CHECK(cudaMallocManaged(&late, blocks * sizeof(int)) == cudaSuccess);
  for (int b = 0; b < blocks; ++b)
    late[b] = 0;
  neighbour_sums<<<grid, kThreads>>>(out, late, rounds);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int r = 0; r < rounds; ++r)
    for (int by = 0; by < 2; ++by)
      for (int bx = 0; bx < 4; ++bx) {
        int block = by * 4 + bx;
        unsigned rank = (by % 2) * 2 + bx % 2;
        unsigned next = (rank + 1) % 4;
        for (int t = 0; t < kThreads; ++t) {
          int expect = static_cast<int>((next + 1) * 1000 + (t + 1) % kThreads + r);
          CHECK(out[(r * blocks + block) * kThreads + t] == expect);
        }
      }
  /* Each round, 32 odd threads read marks r + 1. */
  for (int b = 0; b < blocks; ++b)
    CHECK(late[b] == (kThreads / 2) * (1 + 2 + 3));

  unsigned *pout;
  CHECK(cudaMallocManaged(&pout, 4 * sizeof(unsigned)) == cudaSuccess);
  ptx_exchange<<<4, 32>>>(pout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (unsigned b = 0; b < 4; ++b)
    CHECK(pout[b] == (100 + ((b % 2) ^ 1u)) * 100 + 2 * 10 + b % 2);

  int *bout;
  CHECK(cudaMallocManaged(&bout, 32 * sizeof(int)) == cudaSuccess);
  block_split<<<1, 32>>>(bout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int t = 0; t < 32; ++t)
    CHECK(bout[t] == (31 - t) * 3 + 1);
  return finish();
}
