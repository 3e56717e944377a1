/*
 * cluster_dsmem.cu: thread block clusters (sm_90): a histogram whose bins
 * are spread over the shared memory of the blocks of a cluster
 * (distributed shared memory, the pattern of CUDA's own sample), a ring
 * exchange of static shared memory between the four blocks of 2 x 2
 * clusters with their ranks and indices, a launch without clusters (every
 * block a cluster of one), and a grid that is not a whole number of
 * clusters.
 */
#include <cstdio>
#include <vector>

#include <cooperative_groups.h>

#include "../check.cuh"

namespace cg = cooperative_groups;

#define BINS 64
#define CLUSTER 2

/* Each block of a cluster keeps BINS / CLUSTER bins; every thread counts
 * into the block that owns its value's bin. */
__global__ void __cluster_dims__(CLUSTER, 1, 1)
    cluster_histogram(const int *in, int n, int *bins) {
  extern __shared__ int slice[];
  cg::cluster_group cluster = cg::this_cluster();
  const int per_block = BINS / CLUSTER;
  for (int i = threadIdx.x; i < per_block; i += blockDim.x)
    slice[i] = 0;
  cluster.sync(); /* every block's slice is zeroed before anyone counts */
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    int bin = in[i];
    int *owner = cluster.map_shared_rank(slice, bin / per_block);
    atomicAdd(owner + bin % per_block, 1);
  }
  cluster.sync(); /* no block leaves while others may count into it */
  for (int i = threadIdx.x; i < per_block; i += blockDim.x)
    atomicAdd(&bins[cluster.block_rank() * per_block + i], slice[i]);
}

struct Seen {
  int rank, blocks, dim_x, dim_y, index_x, index_y, neighbour, owner;
};

__global__ void __cluster_dims__(2, 2, 1) ring(Seen *seen) {
  __shared__ int mine;
  auto cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  if (threadIdx.x == 0)
    mine = 100 + static_cast<int>(rank) + 10 * blockIdx.y + 1000 * blockIdx.x;
  cluster.sync();
  unsigned next = (rank + 1) % cluster.num_blocks();
  int *theirs = cluster.map_shared_rank(&mine, next);
  Seen s;
  s.rank = static_cast<int>(rank);
  s.blocks = static_cast<int>(cluster.num_blocks());
  s.dim_x = static_cast<int>(cluster.dim_blocks().x);
  s.dim_y = static_cast<int>(cluster.dim_blocks().y);
  s.index_x = static_cast<int>(cluster.block_index().x);
  s.index_y = static_cast<int>(cluster.block_index().y);
  s.neighbour = *theirs;
  s.owner = static_cast<int>(cluster.query_shared_rank(theirs));
  cluster.sync();
  if (threadIdx.x == 0)
    seen[blockIdx.y * gridDim.x + blockIdx.x] = s;
}

__global__ void alone(int *out) {
  __shared__ int v;
  auto cluster = cg::this_cluster();
  if (threadIdx.x == 0)
    v = 7;
  cluster.sync();
  if (threadIdx.x == 0)
    out[blockIdx.x] = static_cast<int>(cluster.num_blocks()) * 10 +
                      *cluster.map_shared_rank(&v, 0) +
                      static_cast<int>(cluster.block_rank()) * 100;
}

int main() {
  const int n = 10000;
  std::vector<int> h(n), expect(BINS, 0);
  for (int i = 0; i < n; ++i) {
    h[i] = (i * 37 + i / 7) % BINS;
    expect[h[i]]++;
  }
  int *in, *bins;
  cudaMalloc(&in, n * sizeof(int));
  cudaMallocManaged(&bins, BINS * sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, BINS * sizeof(int));
  /* One cluster: the two blocks' slices make the BINS bins. */
  cluster_histogram<<<CLUSTER, 128, BINS / CLUSTER * sizeof(int)>>>(in, n,
                                                                     bins);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int b = 0; b < BINS; ++b)
    CHECK(bins[b] == expect[b]);

  Seen *seen;
  cudaMallocManaged(&seen, 16 * sizeof(Seen));
  ring<<<dim3(4, 4), 32>>>(seen);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const Seen &s = seen[y * 4 + x];
      int rank = (y % 2) * 2 + x % 2;
      CHECK(s.rank == rank);
      CHECK(s.blocks == 4 && s.dim_x == 2 && s.dim_y == 2);
      CHECK(s.index_x == x % 2 && s.index_y == y % 2);
      int next = (rank + 1) % 4;
      int nx = x - x % 2 + next % 2, ny = y - y % 2 + next / 2;
      CHECK(s.neighbour == 100 + next + 10 * ny + 1000 * nx);
      CHECK(s.owner == next);
    }

  int *out;
  cudaMallocManaged(&out, 3 * sizeof(int));
  alone<<<3, 64>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int b = 0; b < 3; ++b)
    CHECK(out[b] == 17);

  /* Three blocks are not a whole number of clusters of two. */
  cluster_histogram<<<3, 128, BINS / CLUSTER * sizeof(int)>>>(in, n, bins);
  CHECK(cudaGetLastError() == cudaErrorInvalidClusterSize);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  return finish();
}
