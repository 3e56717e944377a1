/*
 * graph_order.cu: CUEMU_GRAPH_ORDER runs the nodes that are ready together
 * in another order, so that a graph missing a dependency shows it. A
 * producer and a consumer kernel with no edge between them give the right
 * answer in the order they were added, and the wrong one in reverse (or
 * under some seeds); the same graph with the edge is right in every order.
 * (On a GPU the order is not set: the missing edge is a race there.)
 */
#include <cuda_runtime.h>

#include <cstdlib>

#include "../check.cuh"
#include "graph_kernels.cuh"

/* Builds producer (x = 3 * in) then consumer (out = 2 * x), with the edge
 * between them or without it; returns the executable graph. */
static cudaGraphExec_t build(bool with_edge, float *in, float *x, float *out,
                             int n, cudaGraph_t *graph) {
  CUDA_OK(cudaGraphCreate(graph, 0));
  float three = 3.0f, two = 2.0f;
  void *produce_args[] = {&x, &in, &three, &n};
  void *consume_args[] = {&out, &x, &two, &n};
  cudaKernelNodeParams p = {};
  p.func = reinterpret_cast<void *>(&scale_into);
  p.gridDim = dim3(blocks_for(n, 64));
  p.blockDim = dim3(64);
  p.kernelParams = produce_args;
  cudaGraphNode_t producer, consumer;
  CUDA_OK(cudaGraphAddKernelNode(&producer, *graph, nullptr, 0, &p));
  p.kernelParams = consume_args;
  CUDA_OK(cudaGraphAddKernelNode(&consumer, *graph, with_edge ? &producer
                                                             : nullptr,
                                 with_edge ? 1 : 0, &p));
  cudaGraphExec_t exec;
  CUDA_OK(cudaGraphInstantiate(&exec, *graph, 0));
  return exec;
}

/* Launches once with fresh buffers; true when out is 6 * in. */
static bool run(cudaGraphExec_t exec, float *in, float *x, float *out, int n) {
  float h[64];
  for (int i = 0; i < n; ++i)
    h[i] = static_cast<float>(i + 1);
  CUDA_OK(cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(x, 0, n * sizeof(float)));
  CUDA_OK(cudaGraphLaunch(exec, 0));
  CUDA_OK(cudaMemcpy(h, out, n * sizeof(float), cudaMemcpyDeviceToHost));
  bool right = true;
  for (int i = 0; i < n; ++i)
    right = right && h[i] == 6.0f * static_cast<float>(i + 1);
  return right;
}

int main() {
  const int n = 64;
  float *in, *x, *out;
  CUDA_OK(cudaMalloc(&in, n * sizeof(float)));
  CUDA_OK(cudaMalloc(&x, n * sizeof(float)));
  CUDA_OK(cudaMalloc(&out, n * sizeof(float)));
  cudaGraph_t right_graph, wrong_graph;
  cudaGraphExec_t right = build(true, in, x, out, n, &right_graph);
  cudaGraphExec_t wrong = build(false, in, x, out, n, &wrong_graph);

  const char *orders[] = {"forward", "reverse", "random:1", "random:7"};
  for (const char *order : orders) {
    setenv("CUEMU_GRAPH_ORDER", order, 1);
    for (int l = 0; l < 8; ++l)
      CHECK(run(right, in, x, out, n));
  }
#ifdef CUEMU_GRAPH_API_H
  setenv("CUEMU_GRAPH_ORDER", "forward", 1);
  CHECK(run(wrong, in, x, out, n)); /* hidden in the order of addition */
  setenv("CUEMU_GRAPH_ORDER", "reverse", 1);
  CHECK(!run(wrong, in, x, out, n)); /* exposed */
  setenv("CUEMU_GRAPH_ORDER", "random:42", 1);
  int wrong_runs = 0, right_runs = 0;
  for (int l = 0; l < 32; ++l) {
    if (run(wrong, in, x, out, n))
      ++right_runs;
    else
      ++wrong_runs;
  }
  CHECK(wrong_runs > 0 && right_runs > 0); /* both orders come up */
  /* A malformed value (a seed is needed) fails the launch itself, before
   * anything runs: the output keeps what the last run wrote. */
  CUDA_OK(cudaMemset(out, 0, n * sizeof(float)));
  setenv("CUEMU_GRAPH_ORDER", "random", 1);
  CHECK(cudaGraphLaunch(right, 0) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CUDA_OK(cudaDeviceSynchronize());
  float first = -1.0f;
  CUDA_OK(cudaMemcpy(&first, out, sizeof first, cudaMemcpyDeviceToHost));
  CHECK(first == 0.0f);
#endif
  unsetenv("CUEMU_GRAPH_ORDER");

  CUDA_OK(cudaGraphExecDestroy(right));
  CUDA_OK(cudaGraphExecDestroy(wrong));
  CUDA_OK(cudaGraphDestroy(right_graph));
  CUDA_OK(cudaGraphDestroy(wrong_graph));
  CUDA_OK(cudaFree(in));
  CUDA_OK(cudaFree(x));
  CUDA_OK(cudaFree(out));
  return finish();
}
