// NVCC_OPTIONS: -rdc=true -I../include
#include "cuda_utils.cuh"
#include "bfs.cuh"
// Level-synchronous BFS in one persistent cooperative kernel: grid.sync() between levels.
__global__ void bfs_grid(const int *__restrict__ row, const int *__restrict__ col, int *dist, int n,
                         int *changed) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ int block_changed;
  for (int level = 0;; ++level) {
    if (block.thread_rank() == 0) block_changed = 0;
    block.sync();
    for (int u = grid.thread_rank(); u < n; u += grid.size()) {
      if (dist[u] != level) continue;
      for (int e = row[u]; e < row[u + 1]; ++e)
        if (atomicCAS(&dist[col[e]], -1, level + 1) == -1) block_changed = 1;
    }
    block.sync();
    if (block.thread_rank() == 0 && block_changed) atomicAdd(&changed[level & 1], 1);
    if (grid.thread_rank() == 0) changed[(level + 1) & 1] = 0;
    grid.sync();
    if (changed[level & 1] == 0) break;
    grid.sync();
  }
}
void bfs_persistent(const DeviceGraph &g, int src, int *d_dist) {
  int dev = 0, coop = 0, sms = 0, per_sm = 0;
  CUDA_TRY(cudaGetDevice(&dev));
  CUDA_TRY(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  if (!coop) { std::fprintf(stderr, "no cooperative launch\n"); std::exit(1); }
  const int threads = 128;
  CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, bfs_grid, threads, 0));
  int blocks = std::min(sms * per_sm, 4);
  int *changed; CUDA_TRY(cudaMalloc(&changed, 2 * sizeof(int)));
  CUDA_TRY(cudaMemset(changed, 0, 2 * sizeof(int)));
  CUDA_TRY(cudaMemset(d_dist, 0xff, g.n * sizeof(int)));
  int zero = 0; CUDA_TRY(cudaMemcpy(d_dist + src, &zero, sizeof(int), cudaMemcpyHostToDevice));
  int n = g.n; const int *row = g.row, *col = g.col;
  void *args[] = {(void *)&row, (void *)&col, (void *)&d_dist, (void *)&n, (void *)&changed};
  CUDA_TRY(cudaLaunchCooperativeKernel((void *)bfs_grid, dim3(blocks), dim3(threads), args, 0, 0));
  CUDA_TRY(cudaDeviceSynchronize());
  cudaFree(changed);
}
