// Graph API forms that the CUDA samples use and cuemu refused:
//   1. (graphConditionalNodes) the bodies of a conditional WHILE node and of an
//      IF/ELSE node filled by capturing a stream into them
//      (cudaStreamBeginCaptureToGraph), each capture ended without asking for the
//      graph back, cudaStreamEndCapture(stream, nullptr), as the programming
//      guide's examples do; the loop runs its body until a kernel clears the
//      condition;
//   2. (jacobiCudaGraphs) cuda_runtime.h's C++ conveniences: the four-argument
//      cudaGraphExecUpdate(exec, graph, &errorNode, &result) of CUDA 11 (kept by
//      CUDA 12 and 13) over a graph captured again each iteration with other
//      kernel arguments, a refused update (another topology) reported through
//      both outputs, and cudaUserObjectCreate(&object, new T, ...), which deletes
//      the T with the last reference.
#include <cuda_runtime.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

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

// The parameters of a conditional node; cudaGraphAddNode returns its
// bodies in phGraph_out.
static cudaGraphNodeParams conditional(cudaGraphConditionalHandle handle,
                                       cudaGraphConditionalNodeType type,
                                       unsigned size) {
  cudaGraphNodeParams p = {cudaGraphNodeTypeConditional};
  p.conditional = {handle, type, size};
  return p;
}

// Part 1: a conditional node's bodies filled by capture.
static void conditional_bodies_by_capture() {
  int *d;
  CHECK(cudaMallocManaged(&d, 4 * sizeof(int)) == cudaSuccess);
  int *counter = d, *body_runs = d + 1, *extra = d + 2, *branch = d + 3;

  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0) == cudaSuccess);
  cudaGraphConditionalHandle loop;
  CHECK(cudaGraphConditionalHandleCreate(&loop, graph, 1,
                                         cudaGraphCondAssignDefault) ==
        cudaSuccess);
  cudaGraphNode_t while_node;
  cudaGraphNodeParams cp = conditional(loop, cudaGraphCondTypeWhile, 1);
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
  cudaGraphNode_t if_node;
  cudaGraphNodeParams ip = conditional(pick, cudaGraphCondTypeIf, 2);
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
}

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}

static std::atomic<int> destroyed{0};

struct Tracked {
  int payload = 7;
  ~Tracked() { destroyed.fetch_add(1); }
};

static cudaGraph_t capture(cudaStream_t s, float a, const float *x, float *y,
                           int n, bool twice) {
  cudaGraph_t g = nullptr;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  axpy<<<(n + 63) / 64, 64, 0, s>>>(a, x, y, n);
  if (twice)
    axpy<<<(n + 63) / 64, 64, 0, s>>>(a, x, y, n);
  CHECK(cudaStreamEndCapture(s, &g) == cudaSuccess);
  return g;
}

// Part 2: the C++ conveniences of cuda_runtime.h.
static void cxx_conveniences() {
  const int n = 300;
  float *x, *y;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&y, n * sizeof(float)) == cudaSuccess);
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 10);
    y[i] = 0.0f;
  }
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s) == cudaSuccess);

  // Iterations 1..4: capture with a = k, update the executable graph in
  // place, launch. y ends as (1+2+3+4) * x.
  cudaGraphExec_t exec = nullptr;
  for (int k = 1; k <= 4; ++k) {
    cudaGraph_t g = capture(s, (float)k, x, y, n, false);
    if (!exec) {
      CHECK(cudaGraphInstantiate(&exec, g, nullptr, nullptr, 0) == cudaSuccess);
    } else {
      cudaGraphNode_t bad = reinterpret_cast<cudaGraphNode_t>(&s);
      cudaGraphExecUpdateResult r = cudaGraphExecUpdateError;
      CHECK(cudaGraphExecUpdate(exec, g, &bad, &r) == cudaSuccess);
      CHECK(r == cudaGraphExecUpdateSuccess);
      CHECK(bad == nullptr);
    }
    CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    CHECK(cudaGraphDestroy(g) == cudaSuccess);
  }
  int bad_values = 0;
  for (int i = 0; i < n; ++i)
    bad_values += y[i] != 10.0f * (float)(i % 10);
  CHECK(bad_values == 0);

  // A graph of two kernels cannot update one of one kernel.
  cudaGraph_t g2 = capture(s, 1.0f, x, y, n, true);
  cudaGraphExecUpdateResult r = cudaGraphExecUpdateSuccess;
  CHECK(cudaGraphExecUpdate(exec, g2, nullptr, &r) ==
        cudaErrorGraphExecUpdateFailure);
  CHECK(r == cudaGraphExecUpdateErrorTopologyChanged);
  cudaGetLastError();
  CHECK(cudaGraphDestroy(g2) == cudaSuccess);
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);

  // A user object wrapping a C++ object: created with one reference,
  // released, the object is deleted (CUDA runs such destructors
  // asynchronously, so wait for it a little).
  cudaUserObject_t obj;
  Tracked *t = new Tracked;
  CHECK(cudaUserObjectCreate(&obj, t, 1, cudaUserObjectNoDestructorSync) ==
        cudaSuccess);
  CHECK(destroyed.load() == 0);
  CHECK(cudaUserObjectRelease(obj, 1) == cudaSuccess);
  for (int i = 0; i < 200 && destroyed.load() == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK(destroyed.load() == 1);

  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(x) == cudaSuccess);
  CHECK(cudaFree(y) == cudaSuccess);
}

int main() {
  conditional_bodies_by_capture();
  cxx_conveniences();
  return finish();
}
