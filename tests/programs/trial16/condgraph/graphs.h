#pragma once
#include <cuda_runtime.h>
struct PowerGraph {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  double *x, *lambda;
  int *iters;
};
void build_power_graph(PowerGraph &g, int n, int maxIters, double tol, cudaStream_t s);
cudaGraph_t build_switch_graph(double *x, int n, const int *mode, double scale,
                               double addend);
