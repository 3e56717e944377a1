// NVCC_OPTIONS: -I../include -rdc=true
#include <cstdio>
#include "check.h"
#include "kernels.cuh"
#include "pipeline.h"

static constexpr int kBlock = 256;

static void CUDART_CB count_host(void *user) {
  Pipeline *p = static_cast<Pipeline *>(user);
  p->hostCalls++;
}

void pipeline_build_captured(Pipeline &p, cudaStream_t s, float a, float b) {
  cudaStream_t side;
  cudaEvent_t fork, join;
  checkCuda(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
  checkCuda(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  checkCuda(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  int grid = (p.n + kBlock - 1) / kBlock;
  if (grid > 64) grid = 64;

  checkCuda(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  checkCuda(cudaEventRecord(fork, s));
  checkCuda(cudaStreamWaitEvent(side, fork, 0));
  checkCuda(cudaMemsetAsync(p.dsum, 0, sizeof(float), side));
  axpb_kernel<float><<<grid, kBlock, 0, s>>>(p.dy, p.dx, a, b, p.n);
  checkCuda(cudaEventRecord(join, side));
  checkCuda(cudaStreamWaitEvent(s, join, 0));
  reduce_kernel<float, kBlock><<<grid, kBlock, 0, s>>>(p.dy, p.dsum, p.n);
  cudaStreamCaptureStatus st;
  unsigned long long id;
  checkCuda(cudaStreamGetCaptureInfo(s, &st, &id));
  if (st != cudaStreamCaptureStatusActive) {
    std::fprintf(stderr, "capture not active\n");
    std::exit(1);
  }
  checkCuda(cudaMemcpyAsync(p.hsum, p.dsum, sizeof(float),
                            cudaMemcpyDeviceToHost, s));
  checkCuda(cudaLaunchHostFunc(s, count_host, &p));
  checkCuda(cudaStreamEndCapture(s, &p.graph));

  // Append a child graph after every leaf node.
  size_t numNodes = 0;
  checkCuda(cudaGraphGetNodes(p.graph, nullptr, &numNodes));
  cudaGraph_t child = make_child_graph(p.dy, p.n, p.dsum);
  size_t numLeaves = 0;
  cudaGraphNode_t nodes[32];
  checkCuda(cudaGraphGetNodes(p.graph, nodes, &numNodes));
  cudaGraphNode_t leaves[32];
  for (size_t i = 0; i < numNodes; ++i) {
    size_t outs = 0;
    checkCuda(cudaGraphNodeGetDependentNodes(nodes[i], nullptr, nullptr, &outs));
    if (outs == 0) leaves[numLeaves++] = nodes[i];
    cudaGraphNodeType t;
    checkCuda(cudaGraphNodeGetType(nodes[i], &t));
    if (t == cudaGraphNodeTypeKernel) {
      cudaKernelNodeParams kp;
      checkCuda(cudaGraphKernelNodeGetParams(nodes[i], &kp));
      if (kp.func == (void *)axpb_kernel<float>) p.saxpyNode = nodes[i];
    }
    if (t == cudaGraphNodeTypeHost) p.hostNode = nodes[i];
  }
  cudaGraphNode_t childNode;
  checkCuda(cudaGraphAddChildGraphNode(&childNode, p.graph, leaves, numLeaves,
                                       child));
  checkCuda(cudaGraphDestroy(child));
  cudaGraphInstantiateParams ip = {};
  ip.flags = cudaGraphInstantiateFlagUpload;
  ip.uploadStream = s;
  checkCuda(cudaGraphInstantiateWithParams(&p.exec, p.graph, &ip));
  if (ip.result_out != cudaGraphInstantiateSuccess) std::exit(1);
  checkCuda(cudaEventDestroy(fork));
  checkCuda(cudaEventDestroy(join));
  checkCuda(cudaStreamDestroy(side));
}

void pipeline_build_explicit(Pipeline &p, float a, float b) {
  checkCuda(cudaGraphCreate(&p.graph, 0));
  int grid = (p.n + kBlock - 1) / kBlock;
  if (grid > 64) grid = 64;
  cudaGraphNode_t memsetNode, axpbNode, reduceNode, copyNode, childNode;

  cudaMemsetParams mp = {};
  mp.dst = p.dsum;
  mp.value = 0;
  mp.elementSize = sizeof(float);
  mp.width = 1;
  mp.height = 1;
  checkCuda(cudaGraphAddMemsetNode(&memsetNode, p.graph, nullptr, 0, &mp));

  cudaKernelNodeParams kp = {};
  void *axpbArgs[] = {&p.dy, &p.dx, &a, &b, &p.n};
  kp.func = (void *)axpb_kernel<float>;
  kp.gridDim = dim3(grid);
  kp.blockDim = dim3(kBlock);
  kp.kernelParams = axpbArgs;
  checkCuda(cudaGraphAddKernelNode(&axpbNode, p.graph, nullptr, 0, &kp));
  p.saxpyNode = axpbNode;

  cudaGraphNode_t deps[2] = {memsetNode, axpbNode};
  void *redArgs[] = {&p.dy, &p.dsum, &p.n};
  kp.func = (void *)reduce_kernel<float, kBlock>;
  kp.kernelParams = redArgs;
  checkCuda(cudaGraphAddKernelNode(&reduceNode, p.graph, deps, 2, &kp));

  checkCuda(cudaGraphAddMemcpyNode1D(&copyNode, p.graph, &reduceNode, 1,
                                     p.hsum, p.dsum, sizeof(float),
                                     cudaMemcpyDeviceToHost));
  cudaHostNodeParams hp = {count_host, &p};
  checkCuda(cudaGraphAddHostNode(&p.hostNode, p.graph, &copyNode, 1, &hp));
  cudaGraph_t child = make_child_graph(p.dy, p.n, p.dsum);
  checkCuda(cudaGraphAddChildGraphNode(&childNode, p.graph, &p.hostNode, 1,
                                       child));
  checkCuda(cudaGraphDestroy(child));
  cudaGraphNode_t errNode;
  char log[256];
  checkCuda(cudaGraphInstantiate(&p.exec, p.graph, &errNode, log, sizeof log));
}

// Re-captures the same topology with new scalars and updates the exec in
// place; falls back to re-instantiation when the update is refused.
bool pipeline_update_scale(Pipeline &p, cudaStream_t s, float a, float b) {
  cudaKernelNodeParams kp;
  checkCuda(cudaGraphKernelNodeGetParams(p.saxpyNode, &kp));
  void *args[] = {&p.dy, &p.dx, &a, &b, &p.n};
  kp.kernelParams = args;
  checkCuda(cudaGraphExecKernelNodeSetParams(p.exec, p.saxpyNode, &kp));
  // Also exercise whole-graph update via a modified copy.
  cudaGraph_t copy;
  checkCuda(cudaGraphClone(&copy, p.graph));
  cudaGraphNode_t inCopy;
  checkCuda(cudaGraphNodeFindInClone(&inCopy, p.saxpyNode, copy));
  checkCuda(cudaGraphKernelNodeSetParams(inCopy, &kp));
  cudaGraphExecUpdateResultInfo info;
  cudaError_t e = cudaGraphExecUpdate(p.exec, copy, &info);
  bool ok = (e == cudaSuccess && info.result == cudaGraphExecUpdateSuccess);
  if (!ok) {
    (void)cudaGetLastError();
    checkCuda(cudaGraphExecDestroy(p.exec));
    checkCuda(cudaGraphInstantiate(&p.exec, copy, 0));
  }
  checkCuda(cudaGraphDestroy(p.graph));
  p.graph = copy;
  p.saxpyNode = inCopy;
  (void)s;
  return ok;
}

void pipeline_free(Pipeline &p) {
  if (p.exec) checkCuda(cudaGraphExecDestroy(p.exec));
  if (p.graph) checkCuda(cudaGraphDestroy(p.graph));
  p.exec = nullptr;
  p.graph = nullptr;
}
