// NVCC_OPTIONS: -I../include -rdc=true
#include "check.h"
#include "kernels.cuh"
#include "pipeline.h"

__global__ void normalize_kernel(float *data, int n, const float *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] / *sum;
}

cudaGraph_t make_child_graph(float *data, int n, const float *sum) {
  cudaGraph_t child;
  checkCuda(cudaGraphCreate(&child, 0));
  cudaKernelNodeParams kp = {};
  void *args[] = {&data, &n, (void *)&sum};
  kp.func = (void *)normalize_kernel;
  kp.gridDim = dim3((n + 255) / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  cudaGraphNode_t node;
  checkCuda(cudaGraphAddKernelNode(&node, child, nullptr, 0, &kp));
  return child;
}
