// programmatic_edges.cu: reduced from a fused-kernel library's use of
// programmatic dependent launch in graphs. Edges carry data
// (cudaGraphEdgeData): an edge between kernel nodes may leave the upstream
// kernel's programmatic or launch-completion port with the programmatic
// type, added by cudaGraphAddDependencies or cudaGraphAddNode, and a
// kernel launched with programmatic stream serialization is captured with
// such an edge. cuemu once refused every edge with data
// (cudaErrorNotSupported) and read every edge back as plain. The edge data
// is read back by cudaGraphGetEdges and the node queries (a query without
// room for it is cudaErrorLossyQuery), kept by cudaGraphClone, matched by
// cudaGraphRemoveDependencies and refused between other nodes; the graph
// runs with the downstream kernel after the upstream one, which
// programmatic dependent launch allows.
#include <cstdio>
#include <cstring>

#include "../check.cuh"

__global__ void produce(int *p) {
  p[threadIdx.x] = 2 * threadIdx.x;
  cudaTriggerProgrammaticLaunchCompletion();
}
__global__ void consume(int *q, const int *p) {
  cudaGridDependencySynchronize();
  q[threadIdx.x] = p[threadIdx.x] + 1;
}

static cudaGraphNode_t kernel_node(cudaGraph_t g, void *fn, void **args) {
  cudaGraphNodeParams np = {};
  np.type = cudaGraphNodeTypeKernel;
  np.kernel.func = fn;
  np.kernel.gridDim = dim3(1);
  np.kernel.blockDim = dim3(32);
  np.kernel.kernelParams = args;
  cudaGraphNode_t n;
  CHECK(cudaGraphAddNode(&n, g, nullptr, nullptr, 0, &np) == cudaSuccess);
  return n;
}

static int check_out(const int *q) {
  int h[32], bad = 0;
  CHECK(cudaMemcpy(h, q, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < 32; ++i)
    bad += h[i] != 2 * i + 1;
  return bad;
}

int main() {
  int *p, *q;
  CHECK(cudaMalloc(&p, 32 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&q, 32 * sizeof(int)) == cudaSuccess);
  void *pa[] = {&p};
  void *qa[] = {&q, &p};

  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
  cudaGraphNode_t a = kernel_node(g, (void *)produce, pa);
  cudaGraphNode_t b = kernel_node(g, (void *)consume, qa);
  cudaGraphEdgeData e = {};
  e.from_port = cudaGraphKernelNodePortProgrammatic;
  e.type = cudaGraphDependencyTypeProgrammatic;
  CHECK(cudaGraphAddDependencies(g, &a, &b, &e, 1) == cudaSuccess);

  cudaGraphNode_t from[2], to[2];
  cudaGraphEdgeData data[2];
  size_t n = 2;
  CHECK(cudaGraphGetEdges(g, from, to, data, &n) == cudaSuccess);
  CHECK(n == 1 && from[0] == a && to[0] == b);
  CHECK(data[0].from_port == cudaGraphKernelNodePortProgrammatic &&
        data[0].to_port == 0 &&
        data[0].type == cudaGraphDependencyTypeProgrammatic);
  n = 2;
  CHECK(cudaGraphGetEdges(g, from, to, nullptr, &n) == cudaErrorLossyQuery);
  cudaGetLastError();
  n = 0;
  CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &n) == cudaSuccess &&
        n == 1);
  n = 1;
  CHECK(cudaGraphNodeGetDependentNodes(a, to, data, &n) == cudaSuccess &&
        n == 1 && to[0] == b &&
        data[0].type == cudaGraphDependencyTypeProgrammatic);
  n = 1;
  CHECK(cudaGraphNodeGetDependencies(b, from, nullptr, &n) ==
        cudaErrorLossyQuery);
  cudaGetLastError();

  // The Graphviz file shows the edge's data.
  char path[64];
  std::snprintf(path, sizeof path, "/tmp/programmatic_edges.%d.dot", 1);
  CHECK(cudaGraphDebugDotPrint(g, path, cudaGraphDebugDotFlagsVerbose) ==
        cudaSuccess);
  if (FILE *f = std::fopen(path, "r")) {
    char text[8192] = {0};
    size_t got = std::fread(text, 1, sizeof text - 1, f);
    std::fclose(f);
    text[got] = 0;
    CHECK(std::strstr(text, "->") != nullptr);
#ifdef __CUEMU__ /* cuemu's format: CUDA's own labels its edges otherwise */
    CHECK(std::strstr(text, "programmatic") != nullptr);
#endif
    std::remove(path);
  } else {
    CHECK(!"no dot file");
  }

  // A clone keeps the data.
  cudaGraph_t c;
  CHECK(cudaGraphClone(&c, g) == cudaSuccess);
  n = 1;
  CHECK(cudaGraphGetEdges(c, from, to, data, &n) == cudaSuccess && n == 1 &&
        data[0].from_port == cudaGraphKernelNodePortProgrammatic);

  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(x, 0) == cudaSuccess);
  CHECK(cudaStreamSynchronize(0) == cudaSuccess);
  CHECK(check_out(q) == 0);
  CHECK(cudaGraphExecDestroy(x) == cudaSuccess);

  // Removing needs the edge's data; then a launch-completion edge.
  CHECK(cudaGraphRemoveDependencies(g, &a, &b, nullptr, 1) ==
        cudaErrorInvalidValue);
  cudaGetLastError();
  CHECK(cudaGraphRemoveDependencies(g, &a, &b, &e, 1) == cudaSuccess);
  n = 0;
  CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &n) == cudaSuccess &&
        n == 0);
  e.from_port = cudaGraphKernelNodePortLaunchCompletion;
  CHECK(cudaGraphAddDependencies(g, &a, &b, &e, 1) == cudaSuccess);
  n = 1;
  CHECK(cudaGraphGetEdges(g, from, to, data, &n) == cudaSuccess &&
        data[0].from_port == cudaGraphKernelNodePortLaunchCompletion);

  // Ports and the programmatic type belong to edges between kernel nodes;
  // no node has an incoming port.
  cudaGraphNodeParams mp = {};
  mp.type = cudaGraphNodeTypeMemset;
  mp.memset.dst = q;
  mp.memset.elementSize = 4;
  mp.memset.width = 32;
  mp.memset.height = 1;
  cudaGraphNode_t m;
  CHECK(cudaGraphAddNode(&m, g, &b, &e, 1, &mp) == cudaErrorInvalidValue);
  cudaGetLastError();
  CHECK(cudaGraphAddNode(&m, g, &b, nullptr, 1, &mp) == cudaSuccess);
  CHECK(cudaGraphRemoveDependencies(g, &b, &m, nullptr, 1) == cudaSuccess);
  CHECK(cudaGraphAddDependencies(g, &b, &m, &e, 1) == cudaErrorInvalidValue);
  cudaGetLastError();
  cudaGraphEdgeData in = {};
  in.to_port = 1;
  CHECK(cudaGraphAddDependencies(g, &b, &m, &in, 1) == cudaErrorInvalidValue);
  cudaGetLastError();
  cudaGraphEdgeData untyped_port = {};
  untyped_port.type = cudaGraphDependencyTypeProgrammatic;
  cudaGraphNode_t b2 = kernel_node(g, (void *)consume, qa);
  CHECK(cudaGraphAddDependencies(g, &a, &b2, &untyped_port, 1) ==
        cudaErrorInvalidValue);
  cudaGetLastError();
  cudaGraphEdgeData port_only = {};
  port_only.from_port = cudaGraphKernelNodePortProgrammatic;
  CHECK(cudaGraphAddDependencies(g, &a, &b2, &port_only, 1) ==
        cudaErrorInvalidValue);
  cudaGetLastError();
  n = 0;
  CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &n) == cudaSuccess &&
        n == 1);

  // Capture: a programmatic launch after a kernel gives a programmatic
  // edge; after a memset, a plain one.
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  cudaLaunchAttribute attr = {};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(1);
  cfg.blockDim = dim3(32);
  cfg.stream = s;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  cudaGraph_t cg;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  CHECK(cudaMemsetAsync(q, 0, 32 * sizeof(int), s) == cudaSuccess);
  produce<<<1, 32, 0, s>>>(p);
  CHECK(cudaLaunchKernelEx(&cfg, consume, q, (const int *)p) == cudaSuccess);
  CHECK(cudaStreamEndCapture(s, &cg) == cudaSuccess);
  n = 2;
  CHECK(cudaGraphGetEdges(cg, from, to, data, &n) == cudaSuccess && n == 2);
  int programmatic = 0, plain = 0;
  for (size_t i = 0; i < n; ++i) {
    if (data[i].type == cudaGraphDependencyTypeProgrammatic &&
        data[i].from_port == cudaGraphKernelNodePortProgrammatic)
      ++programmatic;
    if (data[i].type == 0 && data[i].from_port == 0)
      ++plain;
  }
  CHECK(programmatic == 1 && plain == 1);
  CHECK(cudaGraphInstantiate(&x, cg, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(x, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(check_out(q) == 0);

  CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
  CHECK(cudaGraphDestroy(cg) == cudaSuccess);
  CHECK(cudaGraphDestroy(c) == cudaSuccess);
  CHECK(cudaGraphDestroy(g) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(p) == cudaSuccess);
  CHECK(cudaFree(q) == cudaSuccess);
  return finish();
}
