// captured_alloc_dot.cu: stream-ordered allocation inside a captured
// graph with a fork and a join, as a training step's graph holds its
// temporaries: each branch allocates its scratch with cudaMallocAsync,
// the join frees both with cudaFreeAsync, and the executable graph is
// uploaded (cudaGraphUpload) before its first launch. The graph is then
// written with cudaGraphDebugDotPrint plainly and with the verbose,
// kernel-parameter and handle flags, and the files are read back.
#include <cstring>
#include <unistd.h>
#include <string>
#include <vector>
#include "samp_check.h"

template <typename T>
__global__ void axpyTmp(T *tmp, const T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tmp[i] = a * x[i];
}

template <typename T>
__global__ void combine(T *y, const T *t1, const T *t2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += t1[i] - t2[i];
}

static std::string slurp(const char *path) {
  std::string s;
  FILE *f = fopen(path, "r");
  if (!f) return s;
  char buf[4096];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, got);
  fclose(f);
  return s;
}

int main() {
  const int n = 3000;
  float *x, *y;
  checkCudaErrors(cudaMalloc(&x, n * sizeof(float)));
  checkCudaErrors(cudaMalloc(&y, n * sizeof(float)));
  std::vector<float> hx(n), hy(n, 0.0f);
  for (int i = 0; i < n; ++i) hx[i] = 0.5f * i;
  checkCudaErrors(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset(y, 0, n * sizeof(float)));

  cudaStream_t main_s, side_s;
  cudaEvent_t fork, join;
  checkCudaErrors(cudaStreamCreateWithFlags(&main_s, cudaStreamNonBlocking));
  checkCudaErrors(cudaStreamCreateWithFlags(&side_s, cudaStreamNonBlocking));
  checkCudaErrors(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  checkCudaErrors(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));

  checkCudaErrors(cudaStreamBeginCapture(main_s, cudaStreamCaptureModeGlobal));
  checkCudaErrors(cudaEventRecord(fork, main_s));
  checkCudaErrors(cudaStreamWaitEvent(side_s, fork, 0));
  float *t1, *t2;
  checkCudaErrors(cudaMallocAsync(&t1, n * sizeof(float), main_s));
  checkCudaErrors(cudaMallocAsync((void **)&t2, n * sizeof(float), side_s));
  axpyTmp<<<(n + 255) / 256, 256, 0, main_s>>>(t1, x, 3.0f, n);
  axpyTmp<<<(n + 255) / 256, 256, 0, side_s>>>(t2, x, 1.0f, n);
  checkCudaErrors(cudaEventRecord(join, side_s));
  checkCudaErrors(cudaStreamWaitEvent(main_s, join, 0));
  combine<<<(n + 255) / 256, 256, 0, main_s>>>(y, t1, t2, n);
  checkCudaErrors(cudaFreeAsync(t1, main_s));
  checkCudaErrors(cudaFreeAsync(t2, main_s));
  cudaGraph_t graph;
  checkCudaErrors(cudaStreamEndCapture(main_s, &graph));

  size_t count = 0;
  checkCudaErrors(cudaGraphGetNodes(graph, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  checkCudaErrors(cudaGraphGetNodes(graph, nodes.data(), &count));
  int allocs = 0, frees = 0, kernels = 0;
  for (auto nd : nodes) {
    cudaGraphNodeType t;
    checkCudaErrors(cudaGraphNodeGetType(nd, &t));
    allocs += t == cudaGraphNodeTypeMemAlloc;
    frees += t == cudaGraphNodeTypeMemFree;
    kernels += t == cudaGraphNodeTypeKernel;
    if (t == cudaGraphNodeTypeMemFree) {
      void *p = nullptr;
      checkCudaErrors(cudaGraphMemFreeNodeGetParams(nd, &p));
      if (p != t1 && p != t2) allocs = -100;
    }
  }
  printf("captured %zu nodes: %d alloc, %d free, %d kernel\n", count, allocs, frees, kernels);
  bool ok = allocs == 2 && frees == 2 && kernels == 3 && count == 7;

  cudaGraphExec_t exec;
  checkCudaErrors(cudaGraphInstantiate(&exec, graph, 0));
  checkCudaErrors(cudaGraphUpload(exec, main_s));
  for (int it = 0; it < 4; ++it) checkCudaErrors(cudaGraphLaunch(exec, main_s));
  checkCudaErrors(cudaStreamSynchronize(main_s));
  checkCudaErrors(cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (hy[i] != 4 * (2.0f * hx[i])) {
      printf("y[%d] = %f, expected %f\n", i, hy[i], 8.0f * hx[i]);
      ok = false;
      break;
    }

  char plain[64], verbose[64], some[64];
  snprintf(plain, sizeof plain, "/tmp/graph_plain_%d.dot", (int)getpid());
  snprintf(verbose, sizeof verbose, "/tmp/graph_verbose_%d.dot", (int)getpid());
  snprintf(some, sizeof some, "/tmp/graph_some_%d.dot", (int)getpid());
  checkCudaErrors(cudaGraphDebugDotPrint(graph, plain, 0));
  checkCudaErrors(cudaGraphDebugDotPrint(graph, verbose, cudaGraphDebugDotFlagsVerbose));
  checkCudaErrors(cudaGraphDebugDotPrint(
      graph, some,
      cudaGraphDebugDotFlagsKernelNodeParams | cudaGraphDebugDotFlagsKernelNodeAttributes |
          cudaGraphDebugDotFlagsEventNodeParams | cudaGraphDebugDotFlagsHandles));
  std::string p = slurp(plain), v = slurp(verbose), s = slurp(some);
  unlink(plain);
  unlink(verbose);
  unlink(some);
  bool dotOk = p.find("digraph") != std::string::npos && p.find("axpyTmp") != std::string::npos &&
               p.find("combine") != std::string::npos && p.find("->") != std::string::npos &&
               v.size() > p.size() && s.size() > p.size();
  if (!dotOk) printf("dot files: %zu, %zu and %zu bytes\n", p.size(), v.size(), s.size());
  ok = ok && dotOk;

  checkCudaErrors(cudaGraphExecDestroy(exec));
  checkCudaErrors(cudaGraphDestroy(graph));
  checkCudaErrors(cudaEventDestroy(fork));
  checkCudaErrors(cudaEventDestroy(join));
  checkCudaErrors(cudaStreamDestroy(main_s));
  checkCudaErrors(cudaStreamDestroy(side_s));
  checkCudaErrors(cudaFree(x));
  checkCudaErrors(cudaFree(y));
  return samp_result(ok, "capturedAllocDot");
}
