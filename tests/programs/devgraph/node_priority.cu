// node_priority.cu: kernel node priorities. Stream capture copies the
// stream's priority into a captured kernel node's priority attribute (a
// launch attribute of cudaLaunchKernelEx wins); a node's priority is set
// and read back; cudaGraphInstantiateFlagUseNodePriority is accepted alone
// and with device launch, and cudaGraphExecGetFlags gives it back; the
// graph runs.
// CUEMU_OPTIONS: -std=c++17 -rdc=true
// NVCC_OPTIONS: -rdc=true
#include "devgraph_kernels.cuh"

__global__ void add_one(int *out) { atomicAdd(out, 1); }

static int node_priority(cudaGraph_t g, size_t index) {
  cudaGraphNode_t nodes[4];
  size_t n = 4;
  RT(cudaGraphGetNodes(g, nodes, &n));
  cudaKernelNodeAttrValue v = {};
  if (index >= n)
    return 12345;
  RT(cudaGraphKernelNodeGetAttribute(nodes[index],
                                     cudaKernelNodeAttributePriority, &v));
  return v.priority;
}

int main() {
  int least = 0, greatest = 0;
  RT(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  CHECK(greatest < least);
  cudaStream_t high, plain;
  RT(cudaStreamCreateWithPriority(&high, cudaStreamNonBlocking, greatest));
  RT(cudaStreamCreateWithFlags(&plain, cudaStreamNonBlocking));
  int *out;
  RT(cudaMalloc(&out, sizeof(int)));
  RT(cudaMemset(out, 0, sizeof(int)));

  // Captured on the high-priority stream: the nodes get its priority,
  // unless the launch sets one.
  cudaGraph_t g;
  RT(cudaStreamBeginCapture(high, cudaStreamCaptureModeGlobal));
  add_one<<<1, 32, 0, high>>>(out);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(32);
  config.stream = high;
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributePriority;
  attr.val.priority = least;
  config.attrs = &attr;
  config.numAttrs = 1;
  RT(cudaLaunchKernelEx(&config, add_one, out));
  RT(cudaStreamEndCapture(high, &g));
  CHECK(node_priority(g, 0) == greatest);
  CHECK(node_priority(g, 1) == least);

  // Captured on a stream of the default priority.
  cudaGraph_t p;
  RT(cudaStreamBeginCapture(plain, cudaStreamCaptureModeGlobal));
  add_one<<<1, 32, 0, plain>>>(out);
  RT(cudaStreamEndCapture(plain, &p));
  CHECK(node_priority(p, 0) == 0);

  // Set and read back.
  cudaGraphNode_t nodes[1];
  size_t n = 1;
  RT(cudaGraphGetNodes(p, nodes, &n));
  cudaKernelNodeAttrValue v = {};
  v.priority = greatest;
  RT(cudaGraphKernelNodeSetAttribute(nodes[0], cudaKernelNodeAttributePriority,
                                     &v));
  CHECK(node_priority(p, 0) == greatest);

  // Instantiated to use the node priorities; with device launch too.
  cudaGraphExec_t e, d;
  RT(cudaGraphInstantiate(&e, g, cudaGraphInstantiateFlagUseNodePriority));
  unsigned long long flags = 0;
  RT(cudaGraphExecGetFlags(e, &flags));
  CHECK(flags == cudaGraphInstantiateFlagUseNodePriority);
  RT(cudaGraphInstantiate(&d, p,
                          cudaGraphInstantiateFlagUseNodePriority |
                              cudaGraphInstantiateFlagDeviceLaunch));
  RT(cudaGraphExecGetFlags(d, &flags));
  CHECK(flags == (cudaGraphInstantiateFlagUseNodePriority |
                  cudaGraphInstantiateFlagDeviceLaunch));
  RT(cudaGraphLaunch(e, plain));
  RT(cudaGraphLaunch(d, plain));
  RT(cudaStreamSynchronize(plain));
  int h = 0;
  RT(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h == 3 * 32);

  RT(cudaGraphExecDestroy(e));
  RT(cudaGraphExecDestroy(d));
  RT(cudaGraphDestroy(g));
  RT(cudaGraphDestroy(p));
  RT(cudaFree(out));
  RT(cudaStreamDestroy(high));
  RT(cudaStreamDestroy(plain));
  return finish();
}
