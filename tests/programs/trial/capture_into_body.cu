// The body of a conditional WHILE node filled by capturing a stream into
// it (cudaStreamBeginCaptureToGraph), and the capture ended without asking
// for the graph back, cudaStreamEndCapture(stream, nullptr), as the CUDA
// samples' graphConditionalNodes and the programming guide's examples do
// (cuemu refused the null pointer). The loop runs its body until a kernel
// of the body clears the condition; an IF node with an ELSE body follows.
#include <cuda_runtime.h>
#include <cstdio>

#include "../check.cuh"

__global__ void count_down(int *counter, int *body_runs,
                           cudaGraphConditionalHandle handle) {
  ++*body_runs;
  if (--*counter == 0)
    cudaGraphSetConditional(handle, 0);
}

__global__ void add_one(int *x) { ++*x; }

__global__ void set_if(const int *value, cudaGraphConditionalHandle handle) {
  cudaGraphSetConditional(handle, *value & 1);
}

int main() {
  int *d;
  CHECK(cudaMallocManaged(&d, 4 * sizeof(int)) == cudaSuccess);
  int *counter = d, *body_runs = d + 1, *extra = d + 2, *branch = d + 3;

  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0) == cudaSuccess);
  cudaGraphConditionalHandle loop;
  CHECK(cudaGraphConditionalHandleCreate(&loop, graph, 1,
                                         cudaGraphCondAssignDefault) ==
        cudaSuccess);
  cudaGraphNodeParams cp = {cudaGraphNodeTypeConditional};
  cp.conditional.handle = loop;
  cp.conditional.type = cudaGraphCondTypeWhile;
  cp.conditional.size = 1;
  cudaGraphNode_t while_node;
  CHECK(cudaGraphAddNode(&while_node, graph, nullptr, nullptr, 0, &cp) ==
        cudaSuccess);
  cudaGraph_t body = cp.conditional.phGraph_out[0];

  cudaStream_t s;
  CHECK(cudaStreamCreate(&s) == cudaSuccess);
  CHECK(cudaStreamBeginCaptureToGraph(s, body, nullptr, nullptr, 0,
                                      cudaStreamCaptureModeGlobal) ==
        cudaSuccess);
  add_one<<<1, 1, 0, s>>>(extra);
  count_down<<<1, 1, 0, s>>>(counter, body_runs, loop);
  CHECK(cudaStreamEndCapture(s, nullptr) == cudaSuccess);
  cudaStreamCaptureStatus status;
  CHECK(cudaStreamIsCapturing(s, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusNone);

  // IF/ELSE after the loop: the ELSE body adds 10, the IF body 100.
  cudaGraphConditionalHandle pick;
  CHECK(cudaGraphConditionalHandleCreate(&pick, graph) == cudaSuccess);
  cudaGraphNodeParams kp = {cudaGraphNodeTypeKernel};
  void *set_args[2] = {&counter, &pick};
  kp.kernel.func = (void *)set_if;
  kp.kernel.gridDim = dim3(1);
  kp.kernel.blockDim = dim3(1);
  kp.kernel.kernelParams = set_args;
  cudaGraphNode_t set_node;
  CHECK(cudaGraphAddNode(&set_node, graph, &while_node, nullptr, 1, &kp) ==
        cudaSuccess);
  cudaGraphNodeParams ip = {cudaGraphNodeTypeConditional};
  ip.conditional.handle = pick;
  ip.conditional.type = cudaGraphCondTypeIf;
  ip.conditional.size = 2;
  cudaGraphNode_t if_node;
  CHECK(cudaGraphAddNode(&if_node, graph, &set_node, nullptr, 1, &ip) ==
        cudaSuccess);
  for (int k = 0; k < 2; ++k) {
    CHECK(cudaStreamBeginCaptureToGraph(s, ip.conditional.phGraph_out[k],
                                        nullptr, nullptr, 0,
                                        cudaStreamCaptureModeGlobal) ==
          cudaSuccess);
    for (int i = 0; i < (k == 0 ? 100 : 10); ++i)
      add_one<<<1, 1, 0, s>>>(branch);
    CHECK(cudaStreamEndCapture(s, nullptr) == cudaSuccess);
  }

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0) ==
        cudaSuccess);
  d[0] = 7;
  d[1] = d[2] = d[3] = 0;
  CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(*body_runs == 7);
  CHECK(*extra == 7);
  CHECK(*counter == 0);
  CHECK(*branch == 10); // counter 0 is even: the ELSE body

  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  return finish();
}
