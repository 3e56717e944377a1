/*
 * capture_to_graph_no_out.cu: a capture begun with
 * cudaStreamBeginCaptureToGraph fills a graph the program already holds (here
 * the body of a conditional WHILE node), so the program may end it with
 * cudaStreamEndCapture(stream, nullptr), as the graphConditionalNodes sample
 * does. The loop then counts a device counter down to zero, one body run
 * per step, each run logging the value it saw.
 */
#include <cuda_runtime.h>

#include "../check.cuh"

namespace {

/* Logs the counter, counts it down and keeps the loop going while it is
 * not zero. */
__global__ void step(int *counter, int *log, cudaGraphConditionalHandle h) {
  int v = *counter;
  log[v] = v + 100;
  *counter = v - 1;
  cudaGraphSetConditional(h, v - 1 > 0);
}

}  // namespace

int main() {
  int *counter, *log;
  CHECK(cudaMalloc(&counter, sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&log, 16 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemset(log, 0, 16 * sizeof(int)) == cudaSuccess);

  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0) == cudaSuccess);
  cudaGraphConditionalHandle handle;
  CHECK(cudaGraphConditionalHandleCreate(&handle, graph, 1,
                                         cudaGraphCondAssignDefault) ==
        cudaSuccess);
  cudaGraphNodeParams cp = {cudaGraphNodeTypeConditional};
  cp.conditional.handle = handle;
  cp.conditional.type = cudaGraphCondTypeWhile;
  cp.conditional.size = 1;
  cudaGraphNode_t loop;
  CHECK(cudaGraphAddNode(&loop, graph, NULL, NULL, 0, &cp) == cudaSuccess);
  cudaGraph_t body = cp.conditional.phGraph_out[0];

  cudaStream_t s;
  CHECK(cudaStreamCreate(&s) == cudaSuccess);
  CHECK(cudaStreamBeginCaptureToGraph(s, body, NULL, NULL, 0,
                                      cudaStreamCaptureModeGlobal) ==
        cudaSuccess);
  step<<<1, 1, 0, s>>>(counter, log, handle);
  CHECK(cudaStreamEndCapture(s, nullptr) == cudaSuccess);
  cudaStreamCaptureStatus status;
  CHECK(cudaStreamIsCapturing(s, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusNone);
  size_t n = 0;
  CHECK(cudaGraphGetNodes(body, NULL, &n) == cudaSuccess);
  CHECK(n == 1);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, NULL, NULL, 0) == cudaSuccess);
  int start = 6;
  CHECK(cudaMemcpy(counter, &start, sizeof start, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  int host[16], end = -1;
  CHECK(cudaMemcpy(host, log, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(cudaMemcpy(&end, counter, sizeof end, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(end == 0);
  for (int v = 0; v < 16; ++v)
    CHECK(host[v] == (v >= 1 && v <= 6 ? v + 100 : 0));

  /* An ordinary capture still needs somewhere to put its graph. */
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) ==
        cudaSuccess);
  step<<<1, 1, 0, s>>>(counter, log, handle);
  cudaGraph_t captured = NULL;
  CHECK(cudaStreamEndCapture(s, &captured) == cudaSuccess);
  CHECK(captured != NULL);
  CHECK(cudaGraphDestroy(captured) == cudaSuccess);

  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(counter) == cudaSuccess);
  CHECK(cudaFree(log) == cudaSuccess);
  return finish();
}
