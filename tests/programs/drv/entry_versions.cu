// entry_versions.cu: cuGetProcAddress at the CUDA version a program was
// written for gives that version's ABI, typed by cudaTypedefs.h's
// PFN_cuName_vVERSION: CUDA 11's cuCtxCreate (no parameters structure),
// CUDA 13's cuCtxGetDevice and cuCtxSynchronize (with a context),
// CUDA 11's graph edges and capture queries (no edge data), CUDA 11's
// unified-memory hints (a device ordinal), and the current ABI from 13000.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cudaTypedefs.h>

#include "../check.cuh"

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
  CU(cuStreamDestroy(s));
  if (ctx)
    CU(cuCtxDestroy(ctx));
  return finish();
}
