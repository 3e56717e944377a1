// entry_versions.cu: cuGetProcAddress at the CUDA version a program was
// written for gives that version's ABI, typed by cudaTypedefs.h's
// PFN_cuName_vVERSION: CUDA 11's cuCtxCreate (no parameters structure),
// CUDA 13's cuCtxGetDevice and cuCtxSynchronize (with a context),
// CUDA 11's graph edges and capture queries (no edge data), CUDA 11's
// unified-memory hints (a device ordinal), CUDA 11's kernel nodes
// (CUDA_KERNEL_NODE_PARAMS_v1), graph instantiation (error node and log)
// and update (error node and result), CUDA 10.0's capture without a mode,
// CUDA 12.2's generic node without edge data, CUDA 8's batch of stream
// memory operations, CUDA 2.0's pinned allocation and array copies with
// 32-bit sizes, and the current ABI from 13000.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cudaTypedefs.h>

#include "../check.cuh"

__global__ void add_to(int *p, int v) { *p += v; }

// The ABI versions that cudaTypedefs.h declares only inside the driver.
typedef CUresult (*instantiate_v11000)(CUgraphExec *, CUgraph, CUgraphNode *,
                                       char *, size_t);
typedef CUresult (*begin_capture_v10000)(CUstream);
typedef CUresult (*alloc_host_v2000)(void **, unsigned int);
typedef CUresult (*htoa_v2000)(CUarray, unsigned int, const void *,
                               unsigned int);
typedef CUresult (*atoh_v2000)(void *, CUarray, unsigned int, unsigned int);

#define CU(call) CHECK((call) == CUDA_SUCCESS)

template <class F> static F entry(const char *name, int version) {
  void *fn = nullptr;
  CUdriverProcAddressQueryResult q;
  CU(cuGetProcAddress(name, &fn, version, 0, &q));
  CHECK(q == CU_GET_PROC_ADDRESS_SUCCESS && fn);
  return reinterpret_cast<F>(fn);
}

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  auto ctx_create =
      entry<PFN_cuCtxCreate_v3020>("cuCtxCreate", 11000);
  CUcontext ctx = nullptr;
  if (ctx_create) {
    CU(ctx_create(&ctx, 0, dev));
    CUcontext current = nullptr;
    CU(cuCtxGetCurrent(&current));
    CHECK(ctx && current == ctx);
  }

  // CUDA 13's cuCtxGetDevice takes the context; CUDA 2.0's does not.
  auto get_device13 = entry<PFN_cuCtxGetDevice_v13000>("cuCtxGetDevice", 13000);
  auto get_device2 = entry<PFN_cuCtxGetDevice_v2000>("cuCtxGetDevice", 12000);
  auto sync13 = entry<PFN_cuCtxSynchronize_v13000>("cuCtxSynchronize", 13000);
  if (get_device13 && get_device2 && sync13 && ctx) {
    CUdevice d13 = -1, d2 = -1;
    CU(get_device13(&d13, ctx));
    CU(get_device2(&d2));
    CHECK(d13 == dev && d2 == dev);
    CU(sync13(ctx));
    CU(sync13(nullptr));
  }

  // A two-node graph's edges and a capture, through CUDA 11's ABI.
  CUgraph g;
  CU(cuGraphCreate(&g, 0));
  CUgraphNode a, b;
  CU(cuGraphAddEmptyNode(&a, g, nullptr, 0));
  CU(cuGraphAddEmptyNode(&b, g, nullptr, 0));
  auto add_deps =
      entry<PFN_cuGraphAddDependencies_v10000>("cuGraphAddDependencies", 11080);
  auto get_edges = entry<PFN_cuGraphGetEdges_v10000>("cuGraphGetEdges", 12000);
  auto get_deps = entry<PFN_cuGraphNodeGetDependencies_v10000>(
      "cuGraphNodeGetDependencies", 12000);
  if (add_deps && get_edges && get_deps) {
    CU(add_deps(g, &a, &b, 1));
    size_t n = 0;
    CU(get_edges(g, nullptr, nullptr, &n));
    CHECK(n == 1);
    CUgraphNode from = nullptr, to = nullptr;
    CU(get_edges(g, &from, &to, &n));
    CHECK(from == a && to == b);
    CUgraphNode dep = nullptr;
    n = 1;
    CU(get_deps(b, &dep, &n));
    CHECK(n == 1 && dep == a);
  }
  CU(cuGraphDestroy(g));

  CUstream s;
  CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  auto capture_info = entry<PFN_cuStreamGetCaptureInfo_v11030>(
      "cuStreamGetCaptureInfo", 12000);
  if (capture_info) {
    CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    cuuint64_t id = 0;
    CUgraph graph = nullptr;
    const CUgraphNode *deps = nullptr;
    size_t ndeps = 7;
    CU(capture_info(s, &status, &id, &graph, &deps, &ndeps));
    CHECK(status == CU_STREAM_CAPTURE_STATUS_ACTIVE && graph && ndeps == 0);
    CUgraph captured;
    CU(cuStreamEndCapture(s, &captured));
    CU(cuGraphDestroy(captured));
  }

  // CUDA 11's prefetch: a device ordinal.
  CUdeviceptr m;
  CU(cuMemAllocManaged(&m, 4096, CU_MEM_ATTACH_GLOBAL));
  auto prefetch =
      entry<PFN_cuMemPrefetchAsync_v8000>("cuMemPrefetchAsync", 11000);
  if (prefetch) {
    CU(prefetch(m, 4096, dev, s));
    CU(cuStreamSynchronize(s));
    int where = -5;
    CU(cuMemRangeGetAttribute(&where, sizeof where,
                              CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m,
                              4096));
    CHECK(where == dev);
  }
  // From 12.2 on: the current ABI, another function.
  void *v8000 = (void *)prefetch, *current = nullptr;
  CUdriverProcAddressQueryResult q;
  CU(cuGetProcAddress("cuMemPrefetchAsync", &current, 12020, 0, &q));
  CHECK(current && current != v8000);
  CU(cuMemFree(m));

  // CUDA 11's kernel nodes, instantiation and update; CUDA 10.0's capture.
  int *counter;
  CU(cuMemAllocManaged((CUdeviceptr *)&counter, sizeof(int),
                       CU_MEM_ATTACH_GLOBAL));
  *counter = 0;
  cudaKernel_t k;
  CHECK(cudaGetKernel(&k, add_to) == cudaSuccess);
  CUfunction f;
  CU(cuKernelGetFunction(&f, (CUkernel)k));
  auto add_kernel =
      entry<PFN_cuGraphAddKernelNode_v10000>("cuGraphAddKernelNode", 11000);
  auto get_kernel = entry<PFN_cuGraphKernelNodeGetParams_v10000>(
      "cuGraphKernelNodeGetParams", 11080);
  auto set_kernel = entry<PFN_cuGraphKernelNodeSetParams_v10000>(
      "cuGraphKernelNodeSetParams", 11000);
  auto exec_set_kernel = entry<PFN_cuGraphExecKernelNodeSetParams_v10010>(
      "cuGraphExecKernelNodeSetParams", 11000);
  auto instantiate = entry<instantiate_v11000>("cuGraphInstantiate", 12000);
  auto update = entry<PFN_cuGraphExecUpdate_v10020>("cuGraphExecUpdate", 11000);
  auto begin10 = entry<begin_capture_v10000>("cuStreamBeginCapture", 10000);
  auto add_node12 = entry<PFN_cuGraphAddNode_v12020>("cuGraphAddNode", 12020);
  if (add_kernel && get_kernel && set_kernel && exec_set_kernel &&
      instantiate && update && begin10 && add_node12) {
    int v = 1;
    void *args[] = {&counter, &v};
    CUDA_KERNEL_NODE_PARAMS_v1 kp = {};
    kp.func = f;
    kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
    kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
    kp.kernelParams = args;
    CUgraph kg;
    CU(cuGraphCreate(&kg, 0));
    CUgraphNode kn, en;
    CU(add_kernel(&kn, kg, nullptr, 0, &kp));
    CUgraphNodeParams empty = {};
    empty.type = CU_GRAPH_NODE_TYPE_EMPTY;
    CU(add_node12(&en, kg, &kn, 1, &empty));
    CUDA_KERNEL_NODE_PARAMS_v1 back = {};
    CU(get_kernel(kn, &back));
    CHECK(back.func == f && back.gridDimX == 1 && back.blockDimX == 1);
    v = 10; // the node keeps its own copy of the arguments
    CUgraphExec ge = nullptr;
    CUgraphNode bad = (CUgraphNode)1;
    char log[64] = "x";
    CU(instantiate(&ge, kg, &bad, log, sizeof log));
    CHECK(ge && bad == nullptr && log[0] == 0);
    CU(cuGraphLaunch(ge, s));
    CU(cuStreamSynchronize(s));
    CHECK(*counter == 1);
    int w = 100;
    void *args2[] = {&counter, &w};
    kp.kernelParams = args2;
    CU(exec_set_kernel(ge, kn, &kp));
    CU(cuGraphLaunch(ge, s));
    CU(cuStreamSynchronize(s));
    CHECK(*counter == 101);
    // An update from a graph whose kernel node has new arguments: allowed.
    int u = 1000;
    void *args3[] = {&counter, &u};
    kp.kernelParams = args3;
    CU(set_kernel(kn, &kp));
    CUgraphNode err = (CUgraphNode)1;
    CUgraphExecUpdateResult result = CU_GRAPH_EXEC_UPDATE_ERROR;
    CU(update(ge, kg, &err, &result));
    CHECK(result == CU_GRAPH_EXEC_UPDATE_SUCCESS && err == nullptr);
    CU(cuGraphLaunch(ge, s));
    CU(cuStreamSynchronize(s));
    CHECK(*counter == 1101);
    // A graph of another shape: refused, with the reason.
    CUgraph other;
    CU(cuGraphCreate(&other, 0));
    CUgraphNode lone;
    CU(cuGraphAddEmptyNode(&lone, other, nullptr, 0));
    CHECK(update(ge, other, &err, &result) != CUDA_SUCCESS);
    CHECK(result != CU_GRAPH_EXEC_UPDATE_SUCCESS);
    CU(cuGraphDestroy(other));
    CU(cuGraphExecDestroy(ge));
    CU(cuGraphDestroy(kg));

    // CUDA 10.0's capture is global.
    CU(begin10(s));
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    CU(cuStreamIsCapturing(s, &status));
    CHECK(status == CU_STREAM_CAPTURE_STATUS_ACTIVE);
    CUgraph captured;
    CU(cuStreamEndCapture(s, &captured));
    CU(cuGraphDestroy(captured));
  }
  CU(cuMemFree((CUdeviceptr)counter));

  // CUDA 8's batch of memory operations: a write.
  auto batch8 = entry<PFN_cuStreamBatchMemOp_v8000>("cuStreamBatchMemOp", 11000);
  CUdeviceptr word;
  CU(cuMemAlloc(&word, sizeof(cuuint32_t)));
  if (batch8) {
    CUstreamBatchMemOpParams op = {};
    op.writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    op.writeValue.address = word;
    op.writeValue.value = 42;
    CU(batch8(s, 1, &op, 0));
    CU(cuStreamSynchronize(s));
    cuuint32_t got = 0;
    CU(cuMemcpyDtoH(&got, word, sizeof got));
    CHECK(got == 42);
  }
  CU(cuMemFree(word));

  // CUDA 2.0's pinned allocation and array copies (32-bit sizes).
  auto alloc_host = entry<alloc_host_v2000>("cuMemAllocHost", 2000);
  auto htoa = entry<htoa_v2000>("cuMemcpyHtoA", 2000);
  auto atoh = entry<atoh_v2000>("cuMemcpyAtoH", 3000);
  if (alloc_host && htoa && atoh) {
    float *pinned = nullptr;
    CU(alloc_host((void **)&pinned, 64 * sizeof(float)));
    for (int i = 0; i < 64; ++i)
      pinned[i] = float(i);
    CUDA_ARRAY_DESCRIPTOR ad = {};
    ad.Width = 64;
    ad.Height = 1;
    ad.Format = CU_AD_FORMAT_FLOAT;
    ad.NumChannels = 1;
    CUarray arr;
    CU(cuArrayCreate(&arr, &ad));
    CU(htoa(arr, 0, pinned, 64 * sizeof(float)));
    float back[8] = {};
    CU(atoh(back, arr, 8 * sizeof(float), sizeof back));
    CHECK(back[0] == 8.0f && back[7] == 15.0f);
    CU(cuArrayDestroy(arr));
    CU(cuMemFreeHost(pinned));
  }
  // The 32-bit device pointers of CUDA 2.0 hold no address: not given.
  void *none = (void *)1;
  CU(cuGetProcAddress("cuMemAlloc", &none, 2000, 0, &q));
  CHECK(q == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT && none == nullptr);
  CU(cuStreamDestroy(s));
  if (ctx)
    CU(cuCtxDestroy(ctx));
  return finish();
}
