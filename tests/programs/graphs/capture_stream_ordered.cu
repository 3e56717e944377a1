/*
 * capture_stream_ordered.cu: cudaMallocAsync and cudaFreeAsync in a stream
 * capture become memory allocation and free nodes (CUDA Graphs' stream-
 * ordered memory); the graph runs its allocation, kernel, copy and free on
 * every launch.
 */
#include <cstdio>

#include "../check.cuh"

__global__ void iota(int *p, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = base + i;
}

int main() {
  const int n = 1000;
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s) == cudaSuccess);
  int *host = nullptr;
  CHECK(cudaMallocHost(&host, n * sizeof(int)) == cudaSuccess);

  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) ==
        cudaSuccess);
  int *scratch = nullptr;
  CHECK(cudaMallocAsync(&scratch, n * sizeof(int), s) == cudaSuccess);
  CHECK(scratch != nullptr);
  iota<<<(n + 127) / 128, 128, 0, s>>>(scratch, n, 7);
  CHECK(cudaMemcpyAsync(host, scratch, n * sizeof(int),
                        cudaMemcpyDeviceToHost, s) == cudaSuccess);
  CHECK(cudaFreeAsync(scratch, s) == cudaSuccess);
  CHECK(cudaStreamEndCapture(s, &graph) == cudaSuccess);

  /* Allocation, kernel, copy and free, in a chain. */
  size_t count = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &count) == cudaSuccess);
  CHECK(count == 4);
  cudaGraphNode_t nodes[4];
  CHECK(cudaGraphGetNodes(graph, nodes, &count) == cudaSuccess);
  int allocs = 0, frees = 0;
  for (size_t i = 0; i < count; ++i) {
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(nodes[i], &type) == cudaSuccess);
    allocs += type == cudaGraphNodeTypeMemAlloc;
    frees += type == cudaGraphNodeTypeMemFree;
  }
  CHECK(allocs == 1 && frees == 1);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < n; ++i)
      host[i] = -1;
    CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    int bad = 0;
    for (int i = 0; i < n; ++i)
      bad += host[i] != 7 + i;
    CHECK(bad == 0);
  }
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFreeHost(host) == cudaSuccess);
  return finish();
}
