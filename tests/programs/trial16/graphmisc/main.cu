// Graph features that libraries use: user objects that live as long as a
// graph, event record/wait nodes across streams, disabled nodes, and
// driver-API kernel nodes built with the packed parameter buffer.
#include <cuda.h>
#include <cuda_runtime.h>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <vector>
#include "checks.h"

__global__ void add_k(int *p, int by) { p[threadIdx.x] += by; }

static std::atomic<int> destroyed{0};
static void CUDART_CB on_destroy(void *p) {
  destroyed.fetch_add(1);
  delete static_cast<std::vector<int> *>(p);
}

static bool user_objects() {
  cudaGraph_t g;
  RT(cudaGraphCreate(&g, 0));
  cudaUserObject_t obj;
  auto *payload = new std::vector<int>(1000, 1);
  RT(cudaUserObjectCreate(&obj, payload, on_destroy, 1, cudaUserObjectNoDestructorSync));
  RT(cudaGraphRetainUserObject(g, obj, 1, cudaGraphUserObjectMove));
  int *d;
  RT(cudaMalloc(&d, 32 * sizeof(int)));
  RT(cudaMemset(d, 0, 32 * sizeof(int)));
  cudaGraphNode_t k;
  cudaKernelNodeParams kp = {};
  int by = 3;
  void *args[] = {&d, &by};
  kp.func = (void *)add_k;
  kp.gridDim = 1;
  kp.blockDim = 32;
  kp.kernelParams = args;
  RT(cudaGraphAddKernelNode(&k, g, nullptr, 0, &kp));
  cudaGraphExec_t e;
  RT(cudaGraphInstantiate(&e, g, 0));
  RT(cudaGraphDestroy(g));  // the exec keeps the object alive
  int before = destroyed.load();
  cudaStream_t s;
  RT(cudaStreamCreate(&s));
  RT(cudaGraphLaunch(e, s));
  RT(cudaGraphExecDestroy(e));  // released once the launch is done
  RT(cudaStreamSynchronize(s));
  // The destructor runs asynchronously; poll briefly.
  for (int i = 0; i < 200 && destroyed.load() == before; ++i) {
    RT(cudaDeviceSynchronize());
  }
  int h[32];
  RT(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  bool ok = before == 0 && destroyed.load() == 1 && h[5] == 3;
  printf("user object: destroyed %d (before launch %d): %s\n", destroyed.load(), before,
         ok ? "ok" : "WRONG");
  RT(cudaFree(d));
  RT(cudaStreamDestroy(s));
  return ok;
}

static bool event_nodes_and_disable() {
  int *d;
  RT(cudaMalloc(&d, 32 * sizeof(int)));
  RT(cudaMemset(d, 0, 32 * sizeof(int)));
  cudaEvent_t ev;
  RT(cudaEventCreate(&ev));
  cudaGraph_t g;
  RT(cudaGraphCreate(&g, 0));
  cudaGraphNode_t k1, k2, rec;
  cudaKernelNodeParams kp = {};
  int one = 1, ten = 10;
  void *a1[] = {&d, &one};
  void *a2[] = {&d, &ten};
  kp.func = (void *)add_k;
  kp.gridDim = 1;
  kp.blockDim = 32;
  kp.kernelParams = a1;
  RT(cudaGraphAddKernelNode(&k1, g, nullptr, 0, &kp));
  kp.kernelParams = a2;
  RT(cudaGraphAddKernelNode(&k2, g, &k1, 1, &kp));
  RT(cudaGraphAddEventRecordNode(&rec, g, &k2, 1, ev));
  cudaGraphExec_t e;
  RT(cudaGraphInstantiate(&e, g, 0));
  cudaStream_t s1, s2;
  RT(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  RT(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  RT(cudaGraphLaunch(e, s1));
  RT(cudaStreamWaitEvent(s2, ev, 0));
  int h[32];
  RT(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s2));
  RT(cudaStreamSynchronize(s2));
  bool ok = h[0] == 11;
  // Disable k2: only +1 happens.
  RT(cudaGraphNodeSetEnabled(e, k2, 0));
  unsigned en = 1;
  RT(cudaGraphNodeGetEnabled(e, k2, &en));
  RT(cudaGraphLaunch(e, s1));
  RT(cudaStreamWaitEvent(s2, ev, 0));
  RT(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s2));
  RT(cudaStreamSynchronize(s2));
  ok = ok && en == 0 && h[0] == 12;
  // Re-enable and change k1's argument in the exec.
  RT(cudaGraphNodeSetEnabled(e, k2, 1));
  int hundred = 100;
  void *a3[] = {&d, &hundred};
  kp.kernelParams = a3;
  RT(cudaGraphExecKernelNodeSetParams(e, k1, &kp));
  RT(cudaGraphLaunch(e, s1));
  RT(cudaStreamWaitEvent(s2, ev, 0));
  RT(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s2));
  RT(cudaStreamSynchronize(s2));
  ok = ok && h[0] == 122 && h[31] == 122;
  printf("event node, disabled node, exec params: %d: %s\n", h[0], ok ? "ok" : "WRONG");
  RT(cudaGraphExecDestroy(e));
  RT(cudaGraphDestroy(g));
  RT(cudaEventDestroy(ev));
  RT(cudaStreamDestroy(s1));
  RT(cudaStreamDestroy(s2));
  RT(cudaFree(d));
  return ok;
}

static bool driver_nodes(const char *cubin) {
  CUmodule mod;
  DRV(cuModuleLoad(&mod, cubin));
  CUfunction f;
  DRV(cuModuleGetFunction(&f, mod, "inc"));
  CUdeviceptr d;
  DRV(cuMemAlloc(&d, 32 * sizeof(int)));
  CUstream s;
  DRV(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  // Capture driver launches (both parameter forms) and a memset.
  DRV(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
  DRV(cuMemsetD32Async(d, 0, 32, s));
  int by = 2;
  void *args[] = {&d, &by};
  DRV(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, args, nullptr));
  struct {
    CUdeviceptr p;
    int by;
  } buf = {d, 5};
  size_t sz = sizeof buf;
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &sz,
                   CU_LAUNCH_PARAM_END};
  DRV(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, nullptr, extra));
  CUgraph g;
  DRV(cuStreamEndCapture(s, &g));
  // Add one more node by hand, with `extra`.
  size_t n = 0;
  DRV(cuGraphGetNodes(g, nullptr, &n));
  std::vector<CUgraphNode> nodes(n);
  DRV(cuGraphGetNodes(g, nodes.data(), &n));
  CUgraphNode last = nullptr;
  for (CUgraphNode x : nodes) {
    size_t outs = 0;
    DRV(cuGraphNodeGetDependentNodes(x, nullptr, nullptr, &outs));
    if (!outs) last = x;
  }
  struct {
    CUdeviceptr p;
    int by;
  } buf2 = {d, 1000};
  size_t sz2 = sizeof buf2;
  void *extra2[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf2, CU_LAUNCH_PARAM_BUFFER_SIZE, &sz2,
                    CU_LAUNCH_PARAM_END};
  CUDA_KERNEL_NODE_PARAMS kp = {};
  kp.func = f;
  kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
  kp.blockDimX = 32;
  kp.blockDimY = kp.blockDimZ = 1;
  kp.extra = extra2;
  CUgraphNode added;
  DRV(cuGraphAddKernelNode(&added, g, &last, 1, &kp));
  CUgraphExec e;
  DRV(cuGraphInstantiate(&e, g, 0));
  DRV(cuGraphLaunch(e, s));
  DRV(cuGraphLaunch(e, s));
  int h[32];
  DRV(cuStreamSynchronize(s));
  DRV(cuMemcpyDtoH(h, d, sizeof h));
  bool ok = n == 3 && h[0] == 1007 && h[31] == 1007;
  printf("driver graph: %zu captured nodes, value %d: %s\n", n, h[0], ok ? "ok" : "WRONG");
  DRV(cuGraphExecDestroy(e));
  DRV(cuGraphDestroy(g));
  DRV(cuStreamDestroy(s));
  DRV(cuMemFree(d));
  DRV(cuModuleUnload(mod));
  return ok;
}

// PTX is compiled by the driver for any device no older than its target:
// PTX for compute_80 loads on sm_90, PTX for compute_100 does not (the JIT
// compile fails: CUDA_ERROR_INVALID_PTX).
static bool ptx_targets() {
  CUmodule mod;
  CUresult older = cuModuleLoad(&mod, "kern80.ptx");
  if (older == CUDA_SUCCESS) DRV(cuModuleUnload(mod));
  CUresult newer = cuModuleLoad(&mod, "kern100.ptx");
  if (newer == CUDA_SUCCESS) DRV(cuModuleUnload(mod));
  const char *a = "", *b = "";
  cuGetErrorName(older, &a);
  cuGetErrorName(newer, &b);
  bool ok = older == CUDA_SUCCESS && newer == CUDA_ERROR_INVALID_PTX;
  printf("PTX for compute_80: %s, for compute_100: %s: %s\n", a, b, ok ? "ok" : "WRONG");
  return ok;
}

int main(int argc, char **argv) {
  RT(cudaFree(0));
  bool ok = user_objects();
  ok = event_nodes_and_disable() && ok;
  ok = driver_nodes(argc > 1 ? argv[1] : "kern.cubin") && ok;
  ok = ptx_targets() && ok;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
