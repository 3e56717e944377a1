/* kernel.cuh: level-synchronous BFS.  One persistent kernel walks every
 * level: blocks fill a block-local queue in shared memory, copy it to the
 * next global frontier and meet at a grid-wide barrier built from atomics,
 * as the GPUs before cooperative launches did. */
#ifndef BFS_KERNEL_CUH
#define BFS_KERNEL_CUH

#include "config.h"

struct Node {
  int x; /* index of the first edge */
  int y; /* number of edges */
};

struct Edge {
  int x; /* destination */
  int y; /* cost (unused by BFS) */
};

/* The barrier's arrival count and generation. */
__device__ volatile int g_barrier_count;
__device__ volatile int g_barrier_generation;
/* The frontier sizes, double-buffered by level parity. */
__device__ int g_frontier_size[2];

__device__ void grid_barrier(int nblocks)
{
  __syncthreads();
  if (threadIdx.x == 0) {
    int generation = g_barrier_generation;
    __threadfence();
    if (atomicAdd((int *)&g_barrier_count, 1) == nblocks - 1) {
      g_barrier_count = 0;
      __threadfence();
      g_barrier_generation = generation + 1;
    } else {
      while (g_barrier_generation == generation) {
      }
    }
    __threadfence();
  }
  __syncthreads();
}

__global__ void BFS_persistent(const Node *__restrict__ g_graph_nodes, const Edge *__restrict__ g_graph_edges,
                               int *g_color, int *g_cost, int *g_q0, int *g_q1, int source)
{
  __shared__ int local_q[LOCAL_QUEUE_SIZE];
  __shared__ int local_q_tail;
  __shared__ int global_offset;
  __shared__ int frontier_size;

  const int nblocks = gridDim.x;
  int level = 0;

  if (blockIdx.x == 0 && threadIdx.x == 0) {
    g_q0[0] = source;
    g_frontier_size[0] = 1;
    g_frontier_size[1] = 0;
  }
  grid_barrier(nblocks);

  while (true) {
    int *q_in = (level & 1) ? g_q1 : g_q0;
    int *q_out = (level & 1) ? g_q0 : g_q1;
    if (threadIdx.x == 0) {
      frontier_size = *(volatile int *)&g_frontier_size[level & 1];
      local_q_tail = 0;
    }
    __syncthreads();
    if (frontier_size == 0)
      break;

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < frontier_size; i += nblocks * blockDim.x) {
      int pid = q_in[i];
      g_color[pid] = BLACK;
      int cur_cost = g_cost[pid];
      Node cur_node = g_graph_nodes[pid];
      for (int e = cur_node.x; e < cur_node.x + cur_node.y; e++) {
        int id = g_graph_edges[e].x;
        if (atomicCAS(&g_color[id], WHITE, GRAY) == WHITE) {
          g_cost[id] = cur_cost + 1;
          int slot = atomicAdd(&local_q_tail, 1);
          if (slot < LOCAL_QUEUE_SIZE) {
            local_q[slot] = id;
          } else {
            /* The block's queue is full: straight to the global one. */
            q_out[atomicAdd(&g_frontier_size[(level + 1) & 1], 1)] = id;
          }
        }
      }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      int n = min(local_q_tail, LOCAL_QUEUE_SIZE);
      local_q_tail = n;
      global_offset = atomicAdd(&g_frontier_size[(level + 1) & 1], n);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < local_q_tail; i += blockDim.x)
      q_out[global_offset + i] = local_q[i];

    grid_barrier(nblocks);
    /* Every block has read this level's size: the next level but one may reuse it. */
    if (blockIdx.x == 0 && threadIdx.x == 0)
      g_frontier_size[level & 1] = 0;
    grid_barrier(nblocks);
    level++;
  }
}

#endif
