// launch_ex_kernels.cu: a cluster kernel, a cooperative kernel and one
// with dynamic shared memory, for launch_ex (built as a .fatbin).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// A cluster kernel: each block adds its rank in the cluster, read through distributed shared memory.
extern "C" __global__ void cluster_sum(int *out) {
  __shared__ int mine;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) mine = (int)cluster.block_rank() + 1;
  cluster.sync();
  if (threadIdx.x == 0) {
    int total = 0;
    for (unsigned r = 0; r < cluster.num_blocks(); ++r) total += *cluster.map_shared_rank(&mine, r);
    out[blockIdx.x] = total;
  }
  cluster.sync();
}
// A cooperative kernel: a grid-wide sum with grid.sync.
extern "C" __global__ void grid_sum(const int *in, int *partial, int *result, int n) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int s[256];
  int acc = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) acc += in[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) { if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k]; __syncthreads(); }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
  grid.sync();
  if (grid.thread_rank() == 0) { int t = 0; for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b]; *result = t; }
}
extern "C" __global__ void dyn_smem(float *out) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = threadIdx.x * 2.0f;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}
