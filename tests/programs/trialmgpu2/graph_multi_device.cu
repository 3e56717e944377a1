// graph_multi_device.cu (trial of public-style multi-GPU samples, issue 16).
// One graph captured across streams of two devices: the origin stream on
// device 0 forks to a stream of device 1 with events, each device works on
// its half, device 1's half comes back by a peer copy, the streams join.
// The executable graph is launched many times, updated with new kernel
// parameters (cudaGraphExecUpdate from a recapture, then
// cudaGraphExecKernelNodeSetParams) and its nodes are checked per device.
#include <vector>
#include <cstring>
#include "mg_check.h"
#include "graph_kernels.cuh"

static const int N = 2048, H = N / 2;

struct Ctx {
  float *x0, *y0, *x1, *y1;
  cudaStream_t s0, s1;
  cudaEvent_t fork, join;
};

static void capture(Ctx &c, cudaGraph_t *g, float a) {
  MG_CHECK(cudaSetDevice(0));
  MG_CHECK(cudaStreamBeginCapture(c.s0, cudaStreamCaptureModeGlobal));
  MG_CHECK(cudaEventRecord(c.fork, c.s0));
  MG_CHECK(cudaSetDevice(1));
  MG_CHECK(cudaStreamWaitEvent(c.s1, c.fork, 0));
  cudaStreamCaptureStatus st;
  MG_CHECK(cudaStreamIsCapturing(c.s1, &st));
  if (st != cudaStreamCaptureStatusActive) { std::printf("s1 not capturing\n"); std::exit(1); }
  scale_add<<<H / 256, 256, 0, c.s1>>>(c.y1, c.x1, a, H);
  MG_CHECK(cudaGetLastError());
  MG_CHECK(cudaMemcpyPeerAsync(c.y0 + H, 0, c.y1, 1, H * sizeof(float), c.s1));
  MG_CHECK(cudaEventRecord(c.join, c.s1));
  MG_CHECK(cudaSetDevice(0));
  scale_add<<<H / 256, 256, 0, c.s0>>>(c.y0, c.x0, a, H);
  MG_CHECK(cudaGetLastError());
  MG_CHECK(cudaStreamWaitEvent(c.s0, c.join, 0));
  MG_CHECK(cudaStreamEndCapture(c.s0, g));
}

int main() {
  mg_device_count(2);
  Ctx c;
  std::vector<float> hx(N), hy(N);
  for (int i = 0; i < N; ++i) { hx[i] = (float)(i % 17); hy[i] = 1.0f; }
  MG_CHECK(cudaSetDevice(1));
  MG_CHECK(cudaMalloc(&c.x1, H * sizeof(float)));
  MG_CHECK(cudaMalloc(&c.y1, H * sizeof(float)));
  MG_CHECK(cudaMemcpy(c.x1, hx.data() + H, H * sizeof(float), cudaMemcpyHostToDevice));
  MG_CHECK(cudaMemcpy(c.y1, hy.data() + H, H * sizeof(float), cudaMemcpyHostToDevice));
  MG_CHECK(cudaStreamCreateWithFlags(&c.s1, cudaStreamNonBlocking));
  MG_CHECK(cudaEventCreateWithFlags(&c.join, cudaEventDisableTiming));
  MG_CHECK(cudaSetDevice(0));
  MG_CHECK(cudaMalloc(&c.x0, N * sizeof(float)));
  MG_CHECK(cudaMalloc(&c.y0, N * sizeof(float)));
  MG_CHECK(cudaMemcpy(c.x0, hx.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  MG_CHECK(cudaMemcpy(c.y0, hy.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  MG_CHECK(cudaStreamCreateWithFlags(&c.s0, cudaStreamNonBlocking));
  MG_CHECK(cudaEventCreateWithFlags(&c.fork, cudaEventDisableTiming));

  cudaGraph_t graph;
  capture(c, &graph, 2.0f);
  size_t nnodes = 0;
  MG_CHECK(cudaGraphGetNodes(graph, nullptr, &nnodes));
  std::vector<cudaGraphNode_t> nodes(nnodes);
  MG_CHECK(cudaGraphGetNodes(graph, nodes.data(), &nnodes));
  int kernels = 0, copies = 0;
  for (auto n : nodes) {
    cudaGraphNodeType t;
    MG_CHECK(cudaGraphNodeGetType(n, &t));
    if (t == cudaGraphNodeTypeKernel) ++kernels;
    if (t == cudaGraphNodeTypeMemcpy) ++copies;
  }
  size_t roots = 0;
  MG_CHECK(cudaGraphGetRootNodes(graph, nullptr, &roots));
  std::printf("captured %zu nodes (%d kernels, %d copies), %zu roots\n", nnodes, kernels, copies, roots);
  bool ok = kernels == 2 && copies == 1;

  cudaGraphExec_t exec;
  MG_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  const int launches = 5;
  for (int l = 0; l < launches; ++l) MG_CHECK(cudaGraphLaunch(exec, c.s0));
  MG_CHECK(cudaStreamSynchronize(c.s0));
  MG_CHECK(cudaMemcpy(hy.data(), c.y0, N * sizeof(float), cudaMemcpyDeviceToHost));
  // Device 1's y accumulates on device 1; device 0's copy of it is the last.
  for (int i = 0; i < N; ++i) {
    float want = 1.0f + launches * 2.0f * (float)(i % 17);
    if (hy[i] != want) { std::printf("y[%d] = %g, want %g\n", i, hy[i], want); ok = false; break; }
  }

  // Recapture with another scale and update the executable graph.
  cudaGraph_t graph2;
  capture(c, &graph2, -1.0f);
  cudaGraphExecUpdateResultInfo info;
  MG_CHECK(cudaGraphExecUpdate(exec, graph2, &info));
  ok = ok && info.result == cudaGraphExecUpdateSuccess;
  MG_CHECK(cudaGraphLaunch(exec, c.s0));
  MG_CHECK(cudaStreamSynchronize(c.s0));
  MG_CHECK(cudaMemcpy(hy.data(), c.y0, N * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i) {
    float want = 1.0f + (launches * 2.0f - 1.0f) * (float)(i % 17);
    if (hy[i] != want) { std::printf("after update y[%d] = %g, want %g\n", i, hy[i], want); ok = false; break; }
  }

  // A kernel node of device 1 keeps its device through a parameter update.
  for (auto n : nodes) {
    cudaGraphNodeType t;
    MG_CHECK(cudaGraphNodeGetType(n, &t));
    if (t != cudaGraphNodeTypeKernel) continue;
    cudaKernelNodeParams p;
    MG_CHECK(cudaGraphKernelNodeGetParams(n, &p));
    float *y = *(float **)p.kernelParams[0];
    cudaPointerAttributes a;
    MG_CHECK(cudaPointerGetAttributes(&a, y));
    float zero = 0.0f;
    void *args[] = {p.kernelParams[0], p.kernelParams[1], &zero, p.kernelParams[3]};
    p.kernelParams = args;
    MG_CHECK(cudaGraphExecKernelNodeSetParams(exec, n, &p));
    std::printf("kernel node on y of device %d\n", a.device);
  }
  MG_CHECK(cudaGraphLaunch(exec, c.s0));
  MG_CHECK(cudaStreamSynchronize(c.s0));
  std::vector<float> again(N);
  MG_CHECK(cudaMemcpy(again.data(), c.y0, N * sizeof(float), cudaMemcpyDeviceToHost));
  ok = ok && std::memcmp(again.data(), hy.data(), N * sizeof(float)) == 0;

  // Capture errors: a synchronous call in a capturing stream's thread.
  MG_CHECK(cudaStreamBeginCapture(c.s0, cudaStreamCaptureModeGlobal));
  MG_EXPECT(cudaMalloc(&c.x0, 16), cudaErrorStreamCaptureUnsupported);
  cudaGraph_t broken = nullptr;
  MG_EXPECT(cudaStreamEndCapture(c.s0, &broken), cudaErrorStreamCaptureInvalidated);
  (void)cudaGetLastError();
  ok = ok && broken == nullptr;

  MG_CHECK(cudaGraphExecDestroy(exec));
  MG_CHECK(cudaGraphDestroy(graph));
  MG_CHECK(cudaGraphDestroy(graph2));
  MG_CHECK(cudaDeviceSynchronize());
  return mg_finish(ok, "graph_multi_device");
}
