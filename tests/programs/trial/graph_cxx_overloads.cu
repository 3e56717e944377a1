// The C++ conveniences of cuda_runtime.h for graphs, as the CUDA samples'
// jacobiCudaGraphs uses them: the four-argument cudaGraphExecUpdate(exec,
// graph, &errorNode, &result) of CUDA 11 (kept by CUDA 12 and 13) over a
// graph captured again each iteration with other kernel arguments, a
// refused update (another topology) reported through both outputs, and
// cudaUserObjectCreate(&object, new T, ...), which deletes the T with the
// last reference.
#include <cuda_runtime.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "../check.cuh"

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

int main() {
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
  return finish();
}
