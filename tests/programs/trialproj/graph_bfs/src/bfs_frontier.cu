// NVCC_OPTIONS: -rdc=true -I../include
#include "cuda_utils.cuh"
#include "bfs.cuh"
__global__ void expand(const int *__restrict__ row, const int *__restrict__ col, int *dist,
                       const int *in_q, int in_n, int *out_q, int *out_n, int level, int use_cg) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= in_n) return;
  int u = in_q[t];
  for (int e = row[u]; e < row[u + 1]; ++e) {
    int v = col[e];
    if (atomicCAS(&dist[v], -1, level + 1) == -1) {
      int pos = use_cg ? atomicAggInc(out_n) : atomicAggIncManual(out_n);
      out_q[pos] = v;
    }
  }
}
void bfs_frontier(const DeviceGraph &g, int src, int *d_dist, int use_cg) {
  int *q0, *q1, *cnt;
  CUDA_TRY(cudaMalloc(&q0, g.n * sizeof(int))); CUDA_TRY(cudaMalloc(&q1, g.n * sizeof(int)));
  CUDA_TRY(cudaMallocHost(&cnt, sizeof(int)));
  CUDA_TRY(cudaMemset(d_dist, 0xff, g.n * sizeof(int)));
  int zero = 0;
  CUDA_TRY(cudaMemcpy(d_dist + src, &zero, sizeof(int), cudaMemcpyHostToDevice));
  CUDA_TRY(cudaMemcpy(q0, &src, sizeof(int), cudaMemcpyHostToDevice));
  int *d_cnt; CUDA_TRY(cudaMalloc(&d_cnt, sizeof(int)));
  int n = 1, level = 0;
  while (n > 0) {
    CUDA_TRY(cudaMemsetAsync(d_cnt, 0, sizeof(int)));
    expand<<<(n + 127) / 128, 128>>>(g.row, g.col, d_dist, q0, n, q1, d_cnt, level, use_cg);
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaMemcpyAsync(cnt, d_cnt, sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaStreamSynchronize(0));
    n = *cnt; std::swap(q0, q1); ++level;
  }
  cudaFree(q0); cudaFree(q1); cudaFree(d_cnt); cudaFreeHost(cnt);
}
