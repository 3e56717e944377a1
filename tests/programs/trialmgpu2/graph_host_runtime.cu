// graph_host_runtime.cu (trial of public-style multi-GPU samples, issue 16).
// Host nodes in graphs: a pipeline whose host nodes consume what the device
// produced and stage the next input (graph copies between pinned host
// buffers and the device), host nodes on a graph of device 1 launched into
// its stream, and host functions that try to call the CUDA runtime (which
// CUDA forbids: such a call may fail with cudaErrorNotPermitted, and must
// not hang).
#include <vector>
#include <atomic>
#include <cstring>
#include "mg_check.h"
#include "graph_kernels.cuh"

static const int N = 512;

struct Pipeline {
  float *staging;       // pinned: read by the graph's H2D copy
  float *out_host;      // pinned: written by the graph's D2H copy
  int round = 0;
  double total = 0;
  std::vector<int> order;
};

static void CUDART_CB stage_input(void *p) {
  Pipeline *pl = (Pipeline *)p;
  for (int i = 0; i < N; ++i) pl->staging[i] = (float)(pl->round + 1);
  pl->order.push_back(1);
}

static void CUDART_CB consume_output(void *p) {
  Pipeline *pl = (Pipeline *)p;
  double s = 0;
  for (int i = 0; i < N; ++i) s += pl->out_host[i];
  pl->total += s;
  pl->round++;
  pl->order.push_back(2);
}

static std::atomic<int> forbidden_result{-1};
static void CUDART_CB call_runtime(void *p) {
  float *dev = (float *)p;
  float x = 0;
  cudaError_t e = cudaMemcpy(&x, dev, sizeof x, cudaMemcpyDeviceToHost);
  forbidden_result = (int)e;
}

int main() {
  mg_device_count(2);
  bool ok = true;
  for (int dev = 0; dev < 2; ++dev) {
    MG_CHECK(cudaSetDevice(dev));
    Pipeline pl;
    MG_CHECK(cudaMallocHost(&pl.staging, N * sizeof(float)));
    MG_CHECK(cudaHostAlloc(&pl.out_host, N * sizeof(float), cudaHostAllocPortable));
    float *d_in, *d_out;
    MG_CHECK(cudaMalloc(&d_in, N * sizeof(float)));
    MG_CHECK(cudaMalloc(&d_out, N * sizeof(float)));
    MG_CHECK(cudaMemset(d_out, 0, N * sizeof(float)));
    cudaStream_t s;
    MG_CHECK(cudaStreamCreate(&s));

    // stage -> H2D -> kernel -> D2H -> consume, built explicitly.
    cudaGraph_t g;
    MG_CHECK(cudaGraphCreate(&g, 0));
    cudaHostNodeParams hp = {};
    hp.fn = stage_input;
    hp.userData = &pl;
    cudaGraphNode_t stage, h2d, k, d2h, consume;
    MG_CHECK(cudaGraphAddHostNode(&stage, g, nullptr, 0, &hp));
    MG_CHECK(cudaGraphAddMemcpyNode1D(&h2d, g, &stage, 1, d_in, pl.staging, N * sizeof(float), cudaMemcpyHostToDevice));
    float a = 2.0f;
    int n = N;
    void *args[] = {&d_out, &d_in, &a, &n};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)scale_add;
    kp.gridDim = dim3(N / 128);
    kp.blockDim = dim3(128);
    kp.kernelParams = args;
    MG_CHECK(cudaGraphAddKernelNode(&k, g, &h2d, 1, &kp));
    MG_CHECK(cudaGraphAddMemcpyNode1D(&d2h, g, &k, 1, pl.out_host, d_out, N * sizeof(float), cudaMemcpyDeviceToHost));
    hp.fn = consume_output;
    MG_CHECK(cudaGraphAddHostNode(&consume, g, &d2h, 1, &hp));
    cudaGraphExec_t e;
    MG_CHECK(cudaGraphInstantiate(&e, g, 0));
    const int rounds = 4;
    for (int r = 0; r < rounds; ++r) MG_CHECK(cudaGraphLaunch(e, s));
    MG_CHECK(cudaStreamSynchronize(s));
    // d_out accumulates 2*(r+1) per round: after round r, each element is
    // 2*(1+..+r+1); the consumed totals sum those.
    double want = 0;
    for (int r = 0; r < rounds; ++r) want += (double)N * 2.0 * (r + 1) * (r + 2) / 2;
    std::printf("device %d: %d rounds, total %.0f (want %.0f)\n", dev, pl.round, pl.total, want);
    ok = ok && pl.round == rounds && pl.total == want;
    for (size_t i = 0; i < pl.order.size(); ++i) ok = ok && pl.order[i] == (int)(i % 2) + 1;

    // Host node parameters changed in the executable graph.
    Pipeline other = pl;
    other.total = 0;
    hp.fn = consume_output;
    hp.userData = &other;
    MG_CHECK(cudaGraphExecHostNodeSetParams(e, consume, &hp));
    MG_CHECK(cudaGraphLaunch(e, s));
    MG_CHECK(cudaStreamSynchronize(s));
    ok = ok && other.total > 0 && pl.round == rounds;

    // A host function calling the runtime, as a graph node and as a stream
    // host function: it must return (an error is allowed), never hang.
    cudaGraph_t bad;
    MG_CHECK(cudaGraphCreate(&bad, 0));
    hp.fn = call_runtime;
    hp.userData = d_out;
    cudaGraphNode_t h;
    MG_CHECK(cudaGraphAddHostNode(&h, bad, nullptr, 0, &hp));
    cudaGraphExec_t be;
    MG_CHECK(cudaGraphInstantiate(&be, bad, 0));
    MG_CHECK(cudaGraphLaunch(be, s));
    MG_CHECK(cudaStreamSynchronize(s));
    std::printf("device %d: cudaMemcpy in a host node gave %s\n", dev,
                cudaGetErrorName((cudaError_t)forbidden_result.load()));
    forbidden_result = -1;
    MG_CHECK(cudaLaunchHostFunc(s, call_runtime, d_out));
    MG_CHECK(cudaStreamSynchronize(s));
    std::printf("device %d: cudaMemcpy in a host function gave %s\n", dev,
                cudaGetErrorName((cudaError_t)forbidden_result.load()));
    ok = ok && forbidden_result.load() != -1;
    (void)cudaGetLastError();

    MG_CHECK(cudaGraphExecDestroy(be));
    MG_CHECK(cudaGraphDestroy(bad));
    MG_CHECK(cudaGraphExecDestroy(e));
    MG_CHECK(cudaGraphDestroy(g));
    MG_CHECK(cudaStreamDestroy(s));
    MG_CHECK(cudaFree(d_in));
    MG_CHECK(cudaFree(d_out));
    MG_CHECK(cudaFreeHost(pl.staging));
    MG_CHECK(cudaFreeHost(pl.out_host));
  }
  return mg_finish(ok, "graph_host_runtime");
}
