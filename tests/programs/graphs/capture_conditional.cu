/*
 * capture_conditional.cu: a conditional node added in the middle of a
 * stream capture (cudaStreamGetCaptureInfo gives the capture's graph and
 * dependencies, cudaGraphAddNode adds the node after them,
 * cudaStreamUpdateCaptureDependencies makes the stream follow it), with its
 * body filled by capturing another stream into it
 * (cudaStreamBeginCaptureToGraph). The body doubles a vector while a kernel
 * in it finds the largest element below a bound.
 */
#include <cuda_runtime.h>

#include <vector>

#include "../check.cuh"
#include "graph_kernels.cuh"

/* Sets the loop's condition: continue while max(v) < bound. */
__global__ void below_bound(const float *v, int n, float bound,
                            cudaGraphConditionalHandle handle) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    float m = v[0];
    for (int i = 1; i < n; ++i)
      m = v[i] > m ? v[i] : m;
    cudaGraphSetConditional(handle, m < bound ? 1u : 0u);
  }
}

int main() {
  const int n = 100;
  const float bound = 1000.0f;
  std::vector<float> h(n);
  float *d;
  CUDA_OK(cudaMalloc(&d, n * sizeof(float)));
  cudaStream_t s, body_stream;
  CUDA_OK(cudaStreamCreate(&s));
  CUDA_OK(cudaStreamCreate(&body_stream));

  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CUDA_OK(cudaMemcpyAsync(d, h.data(), n * sizeof(float),
                          cudaMemcpyHostToDevice, s));

  /* The conditional node, after what the stream captured so far. */
  cudaStreamCaptureStatus status;
  cudaGraph_t graph = nullptr;
  const cudaGraphNode_t *deps = nullptr;
  size_t ndeps = 0;
  CUDA_OK(cudaStreamGetCaptureInfo(s, &status, nullptr, &graph, &deps,
                                   nullptr, &ndeps));
  CHECK(status == cudaStreamCaptureStatusActive && ndeps == 1);
  cudaGraphConditionalHandle handle;
  CUDA_OK(cudaGraphConditionalHandleCreate(&handle, graph, 1,
                                           cudaGraphCondAssignDefault));
  cudaGraphNodeParams cp = {cudaGraphNodeTypeConditional};
  cp.conditional.handle = handle;
  cp.conditional.type = cudaGraphCondTypeWhile;
  cp.conditional.size = 1;
  cudaGraphNode_t loop;
  CUDA_OK(cudaGraphAddNode(&loop, graph, deps, nullptr, ndeps, &cp));
  CUDA_OK(cudaStreamUpdateCaptureDependencies(s, &loop, nullptr, 1,
                                              cudaStreamSetCaptureDependencies));

  /* Its body, captured from another stream. */
  cudaGraph_t body = cp.conditional.phGraph_out[0];
  CUDA_OK(cudaStreamBeginCaptureToGraph(body_stream, body, nullptr, nullptr, 0,
                                        cudaStreamCaptureModeGlobal));
  scale_into<<<blocks_for(n, 64), 64, 0, body_stream>>>(d, d, 2.0f, n);
  below_bound<<<1, 32, 0, body_stream>>>(d, n, bound, handle);
  cudaGraph_t same = nullptr;
  CUDA_OK(cudaStreamEndCapture(body_stream, &same));
  CHECK(same == body);

  CUDA_OK(cudaMemcpyAsync(h.data(), d, n * sizeof(float),
                          cudaMemcpyDeviceToHost, s));
  cudaGraph_t captured;
  CUDA_OK(cudaStreamEndCapture(s, &captured));
  CHECK(captured == graph);
  size_t nodes = 0;
  CUDA_OK(cudaGraphGetNodes(captured, nullptr, &nodes));
  CHECK(nodes == 3); /* copy, loop, copy */

  cudaGraphExec_t exec;
  CUDA_OK(cudaGraphInstantiate(&exec, captured, 0));
  for (int start = 1; start <= 9; start += 4) {
    for (int i = 0; i < n; ++i)
      h[i] = static_cast<float>(start + i % 7);
    /* The host reference: double everything until the largest element
     * reaches the bound (at least once: the default value is 1). */
    std::vector<float> ref(h);
    float m;
    do {
      m = 0.0f;
      for (float &v : ref) {
        v *= 2.0f;
        m = v > m ? v : m;
      }
    } while (m < bound);
    CUDA_OK(cudaGraphLaunch(exec, s));
    CUDA_OK(cudaStreamSynchronize(s));
    int bad = 0;
    for (int i = 0; i < n; ++i)
      bad += h[i] != ref[i];
    CHECK(bad == 0);
  }

  CUDA_OK(cudaGraphExecDestroy(exec));
  CUDA_OK(cudaGraphDestroy(captured));
  CUDA_OK(cudaStreamDestroy(s));
  CUDA_OK(cudaStreamDestroy(body_stream));
  CUDA_OK(cudaFree(d));
  return finish();
}
