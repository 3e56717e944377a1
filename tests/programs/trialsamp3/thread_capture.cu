// thread_capture.cu: graphs captured concurrently by several host threads,
// each in cudaStreamCaptureModeThreadLocal on its own stream, while another
// thread allocates and frees memory (allowed: no capture of its own). Each
// capturing thread adds a node to its capture by hand, as libraries do
// when they splice work into a user's capture: cudaStreamGetCaptureInfo
// (with edge data) gives the graph and the dependencies, cudaGraphAddKernelNode
// adds the node after them, cudaStreamUpdateCaptureDependencies makes the
// stream follow it. cudaThreadExchangeStreamCaptureMode changes the
// thread's mode for a moment.
#include <atomic>
#include <thread>
#include <vector>
#include "samp_check.h"

__global__ void scaleBy(float *v, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= s;
}
__global__ void addOffset(float *v, int n, float o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += o;
}

constexpr int N = 4096, WORKERS = 3;
static std::atomic<int> failures{0};
static std::atomic<int> captured{0};

static void fail(const char *what, int who) {
  printf("worker %d: %s\n", who, what);
  failures++;
}

static void worker(int id, float *data) {
  checkCudaErrors(cudaSetDevice(0));
  cudaStream_t s;
  checkCudaErrors(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  checkCudaErrors(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  scaleBy<<<N / 256, 256, 0, s>>>(data, N, 2.0f);

  cudaStreamCaptureStatus status;
  unsigned long long captureId = 0;
  cudaGraph_t graph = nullptr;
  const cudaGraphNode_t *deps = nullptr;
  const cudaGraphEdgeData *edges = nullptr;
  size_t numDeps = 0;
  checkCudaErrors(cudaStreamGetCaptureInfo(s, &status, &captureId, &graph, &deps,
                                           &edges, &numDeps));
  if (status != cudaStreamCaptureStatusActive || !graph || numDeps != 1 || !captureId)
    fail("capture info", id);
  if (edges && (edges[0].type != cudaGraphDependencyTypeDefault || edges[0].from_port))
    fail("edge data of a plain dependency", id);

  // Splice in the offset kernel after what the stream has captured so far.
  float offset = (float)id;
  int n = N;
  void *args[] = {&data, &n, &offset};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)addOffset;
  kp.gridDim = dim3(N / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  cudaGraphNode_t spliced;
  checkCudaErrors(cudaGraphAddKernelNode(&spliced, graph, deps, numDeps, &kp));
  checkCudaErrors(cudaStreamUpdateCaptureDependencies(s, &spliced, nullptr, 1,
                                                      cudaStreamSetCaptureDependencies));
  checkCudaErrors(cudaStreamGetCaptureInfo(s, &status, nullptr, nullptr, &deps, nullptr,
                                           &numDeps));
  if (numDeps != 1 || deps[0] != spliced) fail("dependencies after the update", id);

  // A relaxed moment: this thread may call cudaMalloc during its capture.
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  checkCudaErrors(cudaThreadExchangeStreamCaptureMode(&mode));
  if (mode != cudaStreamCaptureModeGlobal) fail("previous mode", id);
  void *tmp;
  checkCudaErrors(cudaMalloc(&tmp, 64));
  checkCudaErrors(cudaFree(tmp));
  checkCudaErrors(cudaThreadExchangeStreamCaptureMode(&mode));

  scaleBy<<<N / 256, 256, 0, s>>>(data, N, 3.0f);
  cudaGraph_t g;
  checkCudaErrors(cudaStreamEndCapture(s, &g));
  if (g != graph) fail("the graph of the capture", id);
  size_t count = 0;
  checkCudaErrors(cudaGraphGetNodes(g, nullptr, &count));
  if (count != 3) fail("three nodes", id);
  captured++;
  while (captured.load() < WORKERS) std::this_thread::yield();

  cudaGraphExec_t exec;
  checkCudaErrors(cudaGraphInstantiate(&exec, g, 0));
  checkCudaErrors(cudaGraphLaunch(exec, s));
  checkCudaErrors(cudaGraphLaunch(exec, s));
  checkCudaErrors(cudaStreamSynchronize(s));
  checkCudaErrors(cudaGraphExecDestroy(exec));
  checkCudaErrors(cudaGraphDestroy(g));
  checkCudaErrors(cudaStreamDestroy(s));
}

static void allocator(std::atomic<bool> *stop) {
  checkCudaErrors(cudaSetDevice(0));
  int rounds = 0;
  while (!stop->load() || rounds < 10) {
    void *p;
    checkCudaErrors(cudaMalloc(&p, 1 << 16));
    checkCudaErrors(cudaMemset(p, 0, 1 << 16));
    checkCudaErrors(cudaFree(p));
    ++rounds;
  }
}

int main() {
  std::vector<float *> bufs(WORKERS);
  std::vector<float> init(N);
  for (int i = 0; i < N; ++i) init[i] = (float)(i % 17);
  for (auto &b : bufs) {
    checkCudaErrors(cudaMalloc(&b, N * sizeof(float)));
    checkCudaErrors(cudaMemcpy(b, init.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  }
  std::atomic<bool> stop{false};
  std::thread alloc(allocator, &stop);
  std::vector<std::thread> threads;
  for (int i = 0; i < WORKERS; ++i) threads.emplace_back(worker, i, bufs[i]);
  for (auto &t : threads) t.join();
  stop = true;
  alloc.join();

  bool ok = failures.load() == 0;
  std::vector<float> h(N);
  for (int w = 0; w < WORKERS; ++w) {
    checkCudaErrors(cudaMemcpy(h.data(), bufs[w], N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; ++i) {
      float v = init[i];
      for (int l = 0; l < 2; ++l) v = (v * 2.0f + w) * 3.0f;
      if (h[i] != v) {
        printf("worker %d element %d: %f, expected %f\n", w, i, h[i], v);
        ok = false;
        break;
      }
    }
    checkCudaErrors(cudaFree(bufs[w]));
  }
  return samp_result(ok, "threadCapture");
}
