// update_edge_data.cu: cudaGraphExecUpdate pairs the edges of the two
// graphs with their edge data (cudaGraphEdgeData, CUDA 12.3): an update
// whose graph has a programmatic edge where the executable graph has a
// full dependency, or the other way round, is refused as a change of
// topology (cudaErrorGraphExecUpdateFailure, result
// cudaGraphExecUpdateErrorTopologyChanged, errorNode the downstream node
// of the new graph and errorFromNode its mismatched dependency), as a
// dependency that does not match; the same edge data updates. cuemu once
// compared the nodes of the edges only.
#include "../check.cuh"

__global__ void produce(int *p) { p[threadIdx.x] = threadIdx.x; }

__global__ void consume(int *q, const int *p) {
  q[threadIdx.x] = 2 * p[threadIdx.x] + 1;
}

static cudaGraphNode_t kernel_node(cudaGraph_t g, void *f, void **args) {
  cudaKernelNodeParams kp = {};
  kp.func = f;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(32);
  kp.kernelParams = args;
  cudaGraphNode_t n = nullptr;
  CHECK(cudaGraphAddKernelNode(&n, g, nullptr, 0, &kp) == cudaSuccess);
  return n;
}

/* produce -> consume, the edge programmatic or a full dependency. */
static cudaGraph_t build(int programmatic, int *p, int *q,
                         cudaGraphNode_t *down) {
  static void *pa[1], *qa[2];
  static int *sp, *sq;
  sp = p;
  sq = q;
  pa[0] = &sp;
  qa[0] = &sq;
  qa[1] = &sp;
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
  cudaGraphNode_t a = kernel_node(g, (void *)produce, pa);
  cudaGraphNode_t b = kernel_node(g, (void *)consume, qa);
  cudaGraphEdgeData e = {};
  if (programmatic) {
    e.from_port = cudaGraphKernelNodePortProgrammatic;
    e.type = cudaGraphDependencyTypeProgrammatic;
  }
  CHECK(cudaGraphAddDependencies(g, &a, &b, &e, 1) == cudaSuccess);
  *down = b;
  return g;
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
  for (int first = 0; first < 2; ++first) {
    cudaGraphNode_t down;
    cudaGraph_t g = build(first, p, q, &down);
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);

    // The other kind of edge: refused, the executable graph unchanged.
    cudaGraph_t other = build(!first, p, q, &down);
    cudaGraphExecUpdateResultInfo info = {};
    CHECK(cudaGraphExecUpdate(x, other, &info) ==
          cudaErrorGraphExecUpdateFailure);
    CHECK(info.result == cudaGraphExecUpdateErrorTopologyChanged);
    CHECK(info.errorNode == down);
    CHECK(info.errorFromNode != nullptr && info.errorFromNode != down);
    CHECK(cudaGetLastError() == cudaErrorGraphExecUpdateFailure);

    // The same kind: updated, and it runs.
    cudaGraph_t same = build(first, p, q, &down);
    info = {};
    CHECK(cudaGraphExecUpdate(x, same, &info) == cudaSuccess);
    CHECK(info.result == cudaGraphExecUpdateSuccess);
    CHECK(cudaMemset(q, 0, 32 * sizeof(int)) == cudaSuccess);
    CHECK(cudaGraphLaunch(x, 0) == cudaSuccess);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(check_out(q) == 0);

    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    CHECK(cudaGraphDestroy(g) == cudaSuccess);
    CHECK(cudaGraphDestroy(other) == cudaSuccess);
    CHECK(cudaGraphDestroy(same) == cudaSuccess);
  }
  CHECK(cudaFree(p) == cudaSuccess);
  CHECK(cudaFree(q) == cudaSuccess);
  return finish();
}
