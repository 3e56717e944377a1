// NVCC_OPTIONS: -I../include -Xcompiler -fopenmp
#include <cooperative_groups.h>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "jacobi.h"
#include "mgpu_check.h"
namespace cg = cooperative_groups;

__global__ void grid_sum(const real *in, int n, double *partial, double *out) {
  cg::grid_group grid = cg::this_grid();
  double v = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) v += in[i];
  // Warp, then block, then grid.
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  for (int o = 16; o > 0; o >>= 1) v += warp.shfl_down(v, o);
  __shared__ double wsum[32];
  if (warp.thread_rank() == 0) wsum[warp.meta_group_rank()] = v;
  cg::this_thread_block().sync();
  if (threadIdx.x == 0) {
    double b = 0;
    for (int w = 0; w < (int)(blockDim.x / 32); ++w) b += wsum[w];
    partial[blockIdx.x] = b;
  }
  grid.sync();
  if (grid.thread_rank() == 0) {
    double t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    *out = t;
  }
}

double cooperative_sum(const int *counts, real **chunks, int ndev) {
  std::vector<double> results(ndev, 0.0);
#pragma omp parallel num_threads(ndev)
  {
    int dev = 0;
#ifdef _OPENMP
    dev = omp_get_thread_num();
#endif
    CUDA_RT_CALL(cudaSetDevice(dev));
    int coop = 0, sms = 0, perSm = 0;
    CUDA_RT_CALL(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    CUDA_RT_CALL(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_RT_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, grid_sum, 256, 0));
    int blocks = sms * perSm;
    if (blocks > 64) blocks = 64;
    double *partial, *out;
    cudaStream_t s;
    CUDA_RT_CALL(cudaStreamCreate(&s));
    CUDA_RT_CALL(cudaMallocAsync(&partial, blocks * sizeof(double), s));
    CUDA_RT_CALL(cudaMallocAsync(&out, sizeof(double), s));
    const real *in = chunks[dev];
    int n = counts[dev];
    void *args[] = {(void *)&in, &n, &partial, &out};
    if (coop)
      CUDA_RT_CALL(cudaLaunchCooperativeKernel((void *)grid_sum, blocks, 256, args, 0, s));
    CUDA_RT_CALL(cudaMemcpyAsync(&results[dev], out, sizeof(double),
                                 cudaMemcpyDeviceToHost, s));
    CUDA_RT_CALL(cudaFreeAsync(partial, s));
    CUDA_RT_CALL(cudaFreeAsync(out, s));
    CUDA_RT_CALL(cudaStreamSynchronize(s));
    CUDA_RT_CALL(cudaStreamDestroy(s));
  }
  double t = 0;
  for (double r : results) t += r;
  return t;
}
