// graph_pinned_synced.cu: a correct program built with every checker whose
// host reads pinned memory that graph launches copy into only after it has
// synchronised with them, so racecheck reports none of its reads
// (tests/buggy/race_host_pinned_graph_pending.cu is the read it reports):
// a launch waited for with cudaStreamSynchronize, two launches of one graph
// in a row and an event recorded after them, and a launch whose copy node
// is disabled (its guard is never set, so reading the buffer it names is
// no race).
// CUEMU_OPTIONS: --check=all
#include <cuda_runtime.h>

#include "../check.cuh"

__global__ void fill(int *out, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = base + i;
}

int main() {
  const int n = 4096;
  int *d, *h;
  CHECK(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocHost(&h, n * sizeof(int)) == cudaSuccess);
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) ==
        cudaSuccess);
  cudaEvent_t done;
  CHECK(cudaEventCreate(&done) == cudaSuccess);

  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) ==
        cudaSuccess);
  fill<<<n / 256, 256, 0, stream>>>(d, n, 7);
  CHECK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost,
                        stream) == cudaSuccess);
  CHECK(cudaStreamEndCapture(stream, &graph) == cudaSuccess);
  CHECK(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);

  for (int round = 0; round < 5; ++round) {
    CHECK(cudaGraphLaunch(exec, stream) == cudaSuccess);
    CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
    CHECK(h[n - 1] == 7 + n - 1);
    h[0] = -1; /* written by the host between launches */
  }
  CHECK(cudaGraphLaunch(exec, stream) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, stream) == cudaSuccess);
  CHECK(cudaEventRecord(done, stream) == cudaSuccess);
  CHECK(cudaEventSynchronize(done) == cudaSuccess);
  CHECK(h[0] == 7);

  /* The copy node disabled: the launch never writes h. */
  size_t count = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &count) == cudaSuccess);
  cudaGraphNode_t nodes[4];
  CHECK(count == 2 && cudaGraphGetNodes(graph, nodes, &count) == cudaSuccess);
  for (size_t i = 0; i < count; ++i) {
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(nodes[i], &type) == cudaSuccess);
    if (type == cudaGraphNodeTypeMemcpy)
      CHECK(cudaGraphNodeSetEnabled(exec, nodes[i], 0) == cudaSuccess);
  }
  h[0] = -5;
  CHECK(cudaGraphLaunch(exec, stream) == cudaSuccess);
  CHECK(h[0] == -5);
  CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK(h[0] == -5);

  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaEventDestroy(done) == cudaSuccess);
  CHECK(cudaStreamDestroy(stream) == cudaSuccess);
  CHECK(cudaFreeHost(h) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  return finish();
}
