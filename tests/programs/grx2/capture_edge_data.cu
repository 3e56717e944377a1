// capture_edge_data.cu: edge data given to stream capture, in the way a
// library that chains programmatic-dependent kernels into a caller's graph
// does it. cudaStreamBeginCaptureToGraph and
// cudaStreamUpdateCaptureDependencies take the data of the edges from the
// stream's dependencies to the next captured node, which
// cudaStreamGetCaptureInfo reads back beside the dependencies (asking for
// the dependencies alone when one edge has data is cudaErrorLossyQuery)
// and the graph then holds. cuemu once refused any such data
// (cudaErrorNotSupported). Data that CUDA does not define is refused at
// once; data that names ports of a kernel, followed by a memset, makes the
// capture fail.
#include <cstdio>
#include <cstring>

#include "../check.cuh"

__global__ void produce(int *p) {
  p[threadIdx.x] = 3 * threadIdx.x;
  cudaTriggerProgrammaticLaunchCompletion();
}
__global__ void consume(int *q, const int *p) {
  cudaGridDependencySynchronize();
  q[threadIdx.x] = p[threadIdx.x] + 7;
}

static int check_out(const int *q) {
  int h[32], bad = 0;
  CHECK(cudaMemcpy(h, q, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < 32; ++i)
    bad += h[i] != 3 * i + 7;
  return bad;
}

static cudaGraphEdgeData edge(unsigned char port, unsigned char type) {
  cudaGraphEdgeData e;
  std::memset(&e, 0, sizeof e);
  e.from_port = port;
  e.type = type;
  return e;
}

/* The data of the one edge of a two-node graph, from `from`. */
static cudaGraphEdgeData only_edge(cudaGraph_t g, cudaGraphNode_t *from) {
  cudaGraphNode_t f[2], t[2];
  cudaGraphEdgeData d[2];
  size_t n = 2;
  CHECK(cudaGraphGetEdges(g, f, t, d, &n) == cudaSuccess);
  CHECK(n == 1);
  *from = f[0];
  return d[0];
}

int main() {
  int *p, *q;
  CHECK(cudaMalloc(&p, 32 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMalloc(&q, 32 * sizeof(int)) == cudaSuccess);
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);

  /* 1. Into a graph that already holds the producer: the capture begins
   * after it with a programmatic edge. */
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
  void *pa[] = {&p};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)produce;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(32);
  kp.kernelParams = pa;
  cudaGraphNode_t a;
  CHECK(cudaGraphAddKernelNode(&a, g, nullptr, 0, &kp) == cudaSuccess);
  cudaGraphEdgeData prog =
      edge(cudaGraphKernelNodePortProgrammatic,
           cudaGraphDependencyTypeProgrammatic);
  CHECK(cudaStreamBeginCaptureToGraph(s, g, &a, &prog, 1,
                                      cudaStreamCaptureModeGlobal) ==
        cudaSuccess);
  cudaStreamCaptureStatus st;
  const cudaGraphNode_t *deps = nullptr;
  const cudaGraphEdgeData *data = nullptr;
  size_t ndeps = 0;
  CHECK(cudaStreamGetCaptureInfo(s, &st, nullptr, nullptr, &deps, &data,
                                 &ndeps) == cudaSuccess);
  CHECK(st == cudaStreamCaptureStatusActive && ndeps == 1 && deps[0] == a);
  CHECK(data && data[0].from_port == cudaGraphKernelNodePortProgrammatic &&
        data[0].type == cudaGraphDependencyTypeProgrammatic);
  /* The dependencies without their data: a lossy query. */
  CHECK(cudaStreamGetCaptureInfo(s, &st, nullptr, nullptr, &deps, nullptr,
                                 &ndeps) == cudaErrorLossyQuery);
  (void)cudaGetLastError();
  consume<<<1, 32, 0, s>>>(q, p);
  CHECK(cudaGetLastError() == cudaSuccess);
  /* After the consumer the dependency is plain again. */
  CHECK(cudaStreamGetCaptureInfo(s, &st, nullptr, nullptr, &deps, &data,
                                 &ndeps) == cudaSuccess);
  CHECK(ndeps == 1 && deps[0] != a && data[0].from_port == 0 &&
        data[0].type == 0);
  cudaGraph_t out = nullptr;
  CHECK(cudaStreamEndCapture(s, &out) == cudaSuccess && out == g);
  cudaGraphNode_t from = nullptr;
  cudaGraphEdgeData e = only_edge(g, &from);
  CHECK(from == a && e.from_port == cudaGraphKernelNodePortProgrammatic &&
        e.type == cudaGraphDependencyTypeProgrammatic);
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(x, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(check_out(q) == 0);
  CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
  CHECK(cudaGraphDestroy(g) == cudaSuccess);

  /* 2. A plain capture whose dependencies are replaced, with the
   * launch-completion port, before the consumer. */
  CHECK(cudaMemset(q, 0, 32 * sizeof(int)) == cudaSuccess);
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) ==
        cudaSuccess);
  produce<<<1, 32, 0, s>>>(p);
  CHECK(cudaStreamGetCaptureInfo(s, &st, nullptr, &g, &deps, &data,
                                 &ndeps) == cudaSuccess);
  CHECK(ndeps == 1);
  cudaGraphNode_t prod = deps[0];
  cudaGraphEdgeData done =
      edge(cudaGraphKernelNodePortLaunchCompletion,
           cudaGraphDependencyTypeProgrammatic);
  /* Data CUDA does not define is refused and changes nothing: a port
   * into the downstream node, a type past the programmatic one, a
   * reserved byte. */
  cudaGraphEdgeData bad = done;
  bad.to_port = 1;
  CHECK(cudaStreamUpdateCaptureDependencies(
            s, &prod, &bad, 1, cudaStreamSetCaptureDependencies) ==
        cudaErrorInvalidValue);
  bad = done;
  bad.type = 2;
  CHECK(cudaStreamUpdateCaptureDependencies(
            s, &prod, &bad, 1, cudaStreamSetCaptureDependencies) ==
        cudaErrorInvalidValue);
  bad = done;
  bad.reserved[2] = 1;
  CHECK(cudaStreamUpdateCaptureDependencies(
            s, &prod, &bad, 1, cudaStreamSetCaptureDependencies) ==
        cudaErrorInvalidValue);
  (void)cudaGetLastError();
  CHECK(cudaStreamGetCaptureInfo(s, &st, nullptr, nullptr, &deps, &data,
                                 &ndeps) == cudaSuccess);
  CHECK(st == cudaStreamCaptureStatusActive && ndeps == 1 &&
        data[0].type == 0);
  CHECK(cudaStreamUpdateCaptureDependencies(
            s, &prod, &done, 1, cudaStreamSetCaptureDependencies) ==
        cudaSuccess);
  CHECK(cudaStreamGetCaptureInfo(s, &st, nullptr, nullptr, &deps, &data,
                                 &ndeps) == cudaSuccess);
  CHECK(ndeps == 1 && deps[0] == prod &&
        data[0].from_port == cudaGraphKernelNodePortLaunchCompletion &&
        data[0].type == cudaGraphDependencyTypeProgrammatic);
  consume<<<1, 32, 0, s>>>(q, p);
  CHECK(cudaStreamEndCapture(s, &g) == cudaSuccess);
  e = only_edge(g, &from);
  CHECK(from == prod &&
        e.from_port == cudaGraphKernelNodePortLaunchCompletion &&
        e.type == cudaGraphDependencyTypeProgrammatic);
  CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(x, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(check_out(q) == 0);
  CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
  CHECK(cudaGraphDestroy(g) == cudaSuccess);

  /* 3. A programmatic edge into a memset node is not one CUDA allows:
   * the capture fails. */
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) ==
        cudaSuccess);
  produce<<<1, 32, 0, s>>>(p);
  CHECK(cudaStreamGetCaptureInfo(s, &st, nullptr, nullptr, &deps, nullptr,
                                 &ndeps) == cudaSuccess);
  prod = deps[0];
  CHECK(cudaStreamUpdateCaptureDependencies(
            s, &prod, &prog, 1, cudaStreamSetCaptureDependencies) ==
        cudaSuccess);
  cudaError_t ms = cudaMemsetAsync(q, 0, 32 * sizeof(int), s);
  g = nullptr;
  cudaError_t end = cudaStreamEndCapture(s, &g);
  CHECK(ms != cudaSuccess || end != cudaSuccess);
  CHECK(end != cudaSuccess && g == nullptr);
  (void)cudaGetLastError();

  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(p) == cudaSuccess);
  CHECK(cudaFree(q) == cudaSuccess);
  return finish();
}
