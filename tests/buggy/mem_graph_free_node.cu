// mem_graph_free_node.cu: a deliberately buggy graph for the checkers
// (tests/checkers.sh): a kernel node ordered after the free node of a graph
// allocation reads it. The first launch is right (the reads come before the
// free); the second graph, as a captured stream would have it with the
// free moved up, is wrong.
// CHECK: mem
// EXPECT: mem use after line 14
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(float *v, int n) { v[threadIdx.x % n] = 1.0f; }

__global__ void sum(const float *v, int n, float *out) {
  float s = v[threadIdx.x % n];
  atomicAdd(out, s);
}

// alloc -> fill -> (sum, free) in the order given.
static cudaGraphExec_t build(float *out, bool free_first) {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = 64 * sizeof(float);
  cudaGraphNode_t alloc, fill_node, sum_node, free_node;
  cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap);
  float *v = static_cast<float *>(ap.dptr);
  int n = 64;
  void *fill_args[] = {&v, &n};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void *>(fill);
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(64);
  kp.kernelParams = fill_args;
  cudaGraphAddKernelNode(&fill_node, g, &alloc, 1, &kp);
  void *sum_args[] = {&v, &n, &out};
  kp.func = reinterpret_cast<void *>(sum);
  kp.kernelParams = sum_args;
  if (free_first) {
    cudaGraphAddMemFreeNode(&free_node, g, &fill_node, 1, v);
    cudaGraphAddKernelNode(&sum_node, g, &free_node, 1, &kp);
  } else {
    cudaGraphAddKernelNode(&sum_node, g, &fill_node, 1, &kp);
    cudaGraphAddMemFreeNode(&free_node, g, &sum_node, 1, v);
  }
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphDestroy(g);
  return exec;
}

int main() {
  float *out;
  cudaMalloc(&out, sizeof(float));
  cudaMemset(out, 0, sizeof(float));
  cudaGraphExec_t right = build(out, false), wrong = build(out, true);
  cudaGraphLaunch(right, 0);
  cudaGraphLaunch(right, 0);
  cudaError_t e = cudaDeviceSynchronize();
  float host = 0;
  cudaMemcpy(&host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("right: %s %g\n", cudaGetErrorName(e), host);
  cudaGraphLaunch(wrong, 0);
  e = cudaDeviceSynchronize();
  printf("wrong: %s\n", cudaGetErrorName(e));
  return 0;
}
