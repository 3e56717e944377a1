// cg_kernels.cuh: the kernels of a distributed conjugate gradient on a
// 1-D Laplacian with a diagonal shift. Each device owns rows [0, n) of its
// slice; p carries one halo element on each side (p[-1], p[n]).
#pragma once
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

constexpr double kShift = 0.05;

__global__ void laplaceApply(const double *p, double *Ap, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) Ap[i] = (2.0 + kShift) * p[i] - p[i - 1] - p[i + 1];
}

// A grid-wide dot product: blocks reduce into partials, the grid meets,
// block 0 sums the partials. Launched cooperatively.
template <int THREADS>
__global__ void gridDot(const double *a, const double *b, int n, double *partials,
                        double *result) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ double s[THREADS];
  double v = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) v += a[i] * b[i];
  s[block.thread_rank()] = v;
  block.sync();
  for (int k = THREADS / 2; k > 0; k >>= 1) {
    if (block.thread_rank() < k) s[block.thread_rank()] += s[block.thread_rank() + k];
    block.sync();
  }
  if (block.thread_rank() == 0) partials[blockIdx.x] = s[0];
  grid.sync();
  if (blockIdx.x == 0 && block.thread_rank() == 0) {
    double t = 0;
    for (unsigned j = 0; j < gridDim.x; ++j) t += partials[j];
    *result = t;
  }
}

__global__ void axpyPair(double *x, double *r, const double *p, const double *Ap,
                         double alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] += alpha * p[i];
    r[i] -= alpha * Ap[i];
  }
}

__global__ void updateDirection(double *p, const double *r, double beta, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = r[i] + beta * p[i];
}
