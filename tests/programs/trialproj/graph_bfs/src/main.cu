// NVCC_OPTIONS: -rdc=true -I../include
#include <cstdio>
#include "graph.h"
#include "bfs.cuh"
#include "cuda_utils.cuh"
int main(int argc, char **argv) {
  CSRGraph g = make_grid_graph(48, 40);
  DeviceGraph dg{g.n, g.m, nullptr, nullptr};
  CUDA_TRY(cudaMalloc(&dg.row, (g.n + 1) * sizeof(int))); CUDA_TRY(cudaMalloc(&dg.col, g.m * sizeof(int)));
  CUDA_TRY(cudaMemcpy(dg.row, g.row.data(), (g.n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_TRY(cudaMemcpy(dg.col, g.col.data(), g.m * sizeof(int), cudaMemcpyHostToDevice));
  int *d_dist; CUDA_TRY(cudaMalloc(&d_dist, g.n * sizeof(int)));
  std::vector<int> ref = bfs_host(g, 5), got(g.n);
  int bad = 0;
  for (int variant = 0; variant < 3; ++variant) {
    if (variant < 2) bfs_frontier(dg, 5, d_dist, variant); else bfs_persistent(dg, 5, d_dist);
    CUDA_TRY(cudaMemcpy(got.data(), d_dist, g.n * sizeof(int), cudaMemcpyDeviceToHost));
    int diff = 0; for (int i = 0; i < g.n; ++i) diff += got[i] != ref[i];
    std::printf("variant %d: %d mismatches (max depth %d)\n", variant, diff, ref[g.n - 1]);
    bad += diff;
  }
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
