#include "common.h"
#include "graphs.h"
#include "solver_kernels.cuh"

void build_power_graph(PowerGraph &g, int n, int maxIters, double tol,
                       cudaStream_t s) {
  CHECK_CUDA(cudaGraphCreate(&g.graph, 0));
  // Scratch vector y lives only inside the graph.
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = n * sizeof(double);
  cudaGraphNode_t allocNode, fillNode, zeroNode, loopNode, freeNode;
  CHECK_CUDA(cudaGraphAddMemAllocNode(&allocNode, g.graph, nullptr, 0, &ap));
  double *y = (double *)ap.dptr;

  cudaKernelNodeParams kp = {};
  double one = 1.0;
  void *fillArgs[] = {&g.x, &n, &one};
  kp.func = (void *)fill;
  kp.gridDim = dim3((n + 127) / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = fillArgs;
  CHECK_CUDA(cudaGraphAddKernelNode(&fillNode, g.graph, nullptr, 0, &kp));
  CHECK_CUDA(cudaGraphAddMemsetNode(&zeroNode, g.graph, nullptr, 0,
                                    [&] {
                                      static cudaMemsetParams m;
                                      m = {};
                                      m.dst = g.iters;
                                      m.elementSize = 4;
                                      m.width = 1;
                                      m.height = 1;
                                      return &m;
                                    }()));
  cudaGraphConditionalHandle handle;
  CHECK_CUDA(cudaGraphConditionalHandleCreate(&handle, g.graph, 1,
                                              cudaGraphCondAssignDefault));
  cudaGraphNodeParams cp = {cudaGraphNodeTypeConditional};
  cp.conditional.handle = handle;
  cp.conditional.type = cudaGraphCondTypeWhile;
  cp.conditional.size = 1;
  cudaGraphNode_t deps[3] = {allocNode, fillNode, zeroNode};
  CHECK_CUDA(cudaGraphAddNode(&loopNode, g.graph, deps, nullptr, 3, &cp));
  cudaGraph_t body = cp.conditional.phGraph_out[0];

  // Fill the body by capturing a stream into it.
  CHECK_CUDA(cudaStreamBeginCaptureToGraph(s, body, nullptr, nullptr, 0,
                                           cudaStreamCaptureModeRelaxed));
  matvec<<<(n + 127) / 128, 128, 0, s>>>(g.x, y, n);
  norm_and_scale<<<1, 256, 0, s>>>(y, g.x, n, g.lambda, g.iters, maxIters, tol,
                                   handle);
  cudaGraph_t captured;
  CHECK_CUDA(cudaStreamEndCapture(s, &captured));
  if (captured != body) {
    fprintf(stderr, "capture returned another graph\n");
    exit(1);
  }
  CHECK_CUDA(cudaGraphAddMemFreeNode(&freeNode, g.graph, &loopNode, 1, y));
  CHECK_CUDA(cudaGraphInstantiate(&g.exec, g.graph, 0));
}

cudaGraph_t build_switch_graph(double *x, int n, const int *mode, double scale,
                               double addend) {
  cudaGraph_t graph;
  CHECK_CUDA(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle h;
  CHECK_CUDA(cudaGraphConditionalHandleCreate(&h, graph, 0, 0));
  cudaGraphNode_t chooseNode, switchNode;
  cudaKernelNodeParams kp = {};
  void *chooseArgs[] = {(void *)&mode, &h};
  kp.func = (void *)choose_branch;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = chooseArgs;
  CHECK_CUDA(cudaGraphAddKernelNode(&chooseNode, graph, nullptr, 0, &kp));
  cudaGraphNodeParams cp = {cudaGraphNodeTypeConditional};
  cp.conditional.handle = h;
  cp.conditional.type = cudaGraphCondTypeSwitch;
  cp.conditional.size = 3;
  CHECK_CUDA(cudaGraphAddNode(&switchNode, graph, &chooseNode, nullptr, 1, &cp));
  // Branch 0: scale; branch 1: add; branch 2: left empty.
  cudaGraphNode_t n0, n1;
  void *a0[] = {&x, &n, &scale};
  kp.func = (void *)scale_by;
  kp.gridDim = dim3((n + 127) / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = a0;
  CHECK_CUDA(cudaGraphAddKernelNode(&n0, cp.conditional.phGraph_out[0], nullptr, 0, &kp));
  void *a1[] = {&x, &n, &addend};
  kp.func = (void *)add_const;
  kp.kernelParams = a1;
  CHECK_CUDA(cudaGraphAddKernelNode(&n1, cp.conditional.phGraph_out[1], nullptr, 0, &kp));
  return graph;
}
