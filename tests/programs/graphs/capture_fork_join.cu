/*
 * capture_fork_join.cu: a graph captured from three streams joined by
 * events (a fork after the upload, a join before the sum), with kernels
 * launched by <<<>>>, cudaLaunchKernel and a kernel template (its template
 * arguments deduced), copies, a
 * memset and a host function; nothing runs during the capture; the graph
 * has the nodes and edges the capture implies, and relaunched many times
 * (with new inputs read from host memory at each launch) gives the host
 * reference each time.
 */
#include <cuda_runtime.h>

#include <cstring>
#include <vector>

#include "../check.cuh"
#include "graph_kernels.cuh"

static int host_calls = 0;
static void CUDART_CB count_call(void *data) {
  ++*static_cast<int *>(data);
}

int main() {
  const int n = 1000;
  const unsigned threads = 128;
  std::vector<float> hx(n), hout(n, -1.0f);
  float *dx, *d2x, *dx1, *dout, *dacc;
  CUDA_OK(cudaMalloc(&dx, n * sizeof(float)));
  CUDA_OK(cudaMalloc(&d2x, n * sizeof(float)));
  CUDA_OK(cudaMalloc(&dx1, n * sizeof(float)));
  CUDA_OK(cudaMalloc(&dout, n * sizeof(float)));
  CUDA_OK(cudaMalloc(&dacc, n * sizeof(float)));

  cudaStream_t s0, s1, s2;
  CUDA_OK(cudaStreamCreate(&s0));
  CUDA_OK(cudaStreamCreate(&s1));
  CUDA_OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t fork, join1, join2;
  CUDA_OK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CUDA_OK(cudaEventCreateWithFlags(&join1, cudaEventDisableTiming));
  CUDA_OK(cudaEventCreateWithFlags(&join2, cudaEventDisableTiming));

  for (int i = 0; i < n; ++i)
    hx[i] = static_cast<float>(i % 17) - 3.0f;

  CUDA_OK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  CUDA_OK(cudaStreamIsCapturing(s1, &status));
  CHECK(status == cudaStreamCaptureStatusNone);

  CUDA_OK(cudaMemcpyAsync(dx, hx.data(), n * sizeof(float),
                          cudaMemcpyHostToDevice, s0));
  CUDA_OK(cudaMemsetAsync(dacc, 0, n * sizeof(float), s0));
  CUDA_OK(cudaEventRecord(fork, s0));
  CUDA_OK(cudaStreamWaitEvent(s1, fork, 0));
  CUDA_OK(cudaStreamWaitEvent(s2, fork, 0));
  CUDA_OK(cudaStreamIsCapturing(s1, &status));
  CHECK(status == cudaStreamCaptureStatusActive);

  /* Branch 1: d2x = 2 x, by <<<>>>. */
  scale_into<<<blocks_for(n, threads), threads, 0, s1>>>(d2x, dx, 2.0f, n);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaEventRecord(join1, s1));

  /* Branch 2: dx1 = 0.5 x by cudaLaunchKernel, from argument variables
   * that change after the call (the capture copies the values). */
  {
    float a = 0.5f;
    int count = n;
    float *out = dx1;
    const float *in = dx;
    void *args[] = {&out, &in, &a, &count};
    CUDA_OK(cudaLaunchKernel(reinterpret_cast<const void *>(&scale_into),
                             dim3(blocks_for(n, threads)), dim3(threads), args,
                             0, s2));
    a = 100.0f;
    count = 0;
    out = nullptr;
  }
  /* ... then dacc += 1.0 * dx1 by a kernel template whose template
   * arguments are deduced. */
  axpy<<<blocks_for(n, threads), threads, 0, s2>>>(1.0f, dx1, dacc, n);
  CUDA_OK(cudaEventRecord(join2, s2));

  /* The join, then dout = d2x + dacc = 2.5 x, back to the host. */
  CUDA_OK(cudaStreamWaitEvent(s0, join1, 0));
  CUDA_OK(cudaStreamWaitEvent(s0, join2, 0));
  unsigned long long id = 0;
  const cudaGraphNode_t *deps = nullptr;
  size_t ndeps = 0;
  cudaGraph_t capturing = nullptr;
  CUDA_OK(cudaStreamGetCaptureInfo(s0, &status, &id, &capturing, &deps,
                                   nullptr, &ndeps));
  CHECK(status == cudaStreamCaptureStatusActive);
  CHECK(id != 0);
  CHECK(capturing != nullptr);
  CHECK(ndeps == 2); /* the last node of each branch */
  add_into<<<blocks_for(n, threads), threads, 0, s0>>>(dout, d2x, dacc, n);
  CUDA_OK(cudaMemcpyAsync(hout.data(), dout, n * sizeof(float),
                          cudaMemcpyDeviceToHost, s0));
  CUDA_OK(cudaLaunchHostFunc(s0, count_call, &host_calls));

  /* Nothing ran. */
  CHECK(host_calls == 0);
  CHECK(hout[5] == -1.0f);

  cudaGraph_t graph = nullptr;
  CUDA_OK(cudaStreamEndCapture(s0, &graph));
  CHECK(graph != nullptr);
  CUDA_OK(cudaStreamIsCapturing(s2, &status));
  CHECK(status == cudaStreamCaptureStatusNone);

  /* memcpy, memset, 3 kernels in the branches, add, memcpy, host. */
  size_t count = 0;
  CUDA_OK(cudaGraphGetNodes(graph, nullptr, &count));
  CHECK(count == 8);
  std::vector<cudaGraphNode_t> nodes(count);
  CUDA_OK(cudaGraphGetNodes(graph, nodes.data(), &count));
  size_t kernels = 0, copies = 0, hosts = 0, memsets = 0;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type;
    CUDA_OK(cudaGraphNodeGetType(node, &type));
    kernels += type == cudaGraphNodeTypeKernel;
    copies += type == cudaGraphNodeTypeMemcpy;
    hosts += type == cudaGraphNodeTypeHost;
    memsets += type == cudaGraphNodeTypeMemset;
  }
  CHECK(kernels == 4 && copies == 2 && hosts == 1 && memsets == 1);
  size_t edges = 0;
  CUDA_OK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges));
  /* copy->memset, memset->scale, memset->scale_into(0.5), ->axpy,
   * scale->add, axpy->add, add->copy, copy->host */
  CHECK(edges == 8);
  size_t roots = 0;
  CUDA_OK(cudaGraphGetRootNodes(graph, nullptr, &roots));
  CHECK(roots == 1);

  cudaGraphExec_t exec;
  CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  const int launches = 40;
  for (int l = 0; l < launches; ++l) {
    for (int i = 0; i < n; ++i)
      hx[i] = static_cast<float>((i * 7 + l) % 23) - 11.0f;
    CUDA_OK(cudaGraphLaunch(exec, s0));
    CUDA_OK(cudaStreamSynchronize(s0));
    int bad = 0;
    for (int i = 0; i < n; ++i)
      bad += hout[i] != 2.5f * hx[i];
    CHECK(bad == 0);
  }
  CHECK(host_calls == launches);

  CUDA_OK(cudaGraphExecDestroy(exec));
  CUDA_OK(cudaGraphDestroy(graph));
  CUDA_OK(cudaEventDestroy(fork));
  CUDA_OK(cudaEventDestroy(join1));
  CUDA_OK(cudaEventDestroy(join2));
  CUDA_OK(cudaStreamDestroy(s0));
  CUDA_OK(cudaStreamDestroy(s1));
  CUDA_OK(cudaStreamDestroy(s2));
  CUDA_OK(cudaFree(dx));
  CUDA_OK(cudaFree(d2x));
  CUDA_OK(cudaFree(dx1));
  CUDA_OK(cudaFree(dout));
  CUDA_OK(cudaFree(dacc));
  return finish();
}
