// driver_enum_names.cu: names of CUDA 13's cuda.h that driver-API
// programs use and that cuemu's cuda.h lacked: CUDAAPI in the program's
// own declarations, the JIT options' values (CUjit_cacheMode,
// CUjit_fallback, CUjit_target), CUshared_carveout,
// CUgraphDebugDot_flags, CUevent_sched_flags, the CU_KERNEL_NODE_ATTRIBUTE_
// names and the launch attribute value's field types. The JIT options are
// given to cuModuleLoadDataEx with a module made by NVRTC, and the kernel
// runs.
// CUEMU_OPTIONS: -lcuda -lnvrtc
// NVCC_OPTIONS: -lcuda -lnvrtc
#include <cuda.h>
#include <nvrtc.h>

#include <cstdio>
#include <vector>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

// A program's own pointer types, spelled as CUDA's header spells them.
typedef CUresult(CUDAAPI *alloc_fn)(CUdeviceptr *, size_t);
static CUresult CUDAAPI my_alloc(CUdeviceptr *p, size_t n) { return cuMemAlloc(p, n); }

static const char *source =
    "extern \"C\" __global__ void twice(int *v) { v[threadIdx.x] *= 2; }\n";

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuCtxCreate(&ctx, nullptr, CU_CTX_SCHED_BLOCKING_SYNC, dev));

  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, source, "twice.cu", 0, nullptr, nullptr) == NVRTC_SUCCESS);
  const char *arch = "-arch=compute_90";
  CHECK(nvrtcCompileProgram(prog, 1, &arch) == NVRTC_SUCCESS);
  size_t size = 0;
  CHECK(nvrtcGetPTXSize(prog, &size) == NVRTC_SUCCESS);
  std::vector<char> ptx(size);
  CHECK(nvrtcGetPTX(prog, ptx.data()) == NVRTC_SUCCESS);
  nvrtcDestroyProgram(&prog);

  CUjit_option options[] = {CU_JIT_CACHE_MODE, CU_JIT_FALLBACK_STRATEGY, CU_JIT_TARGET,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {(void *)(size_t)CU_JIT_CACHE_OPTION_CA, (void *)(size_t)CU_PREFER_PTX,
                    (void *)(size_t)CU_TARGET_COMPUTE_90, (void *)(size_t)3};
  CUmodule mod;
  CU(cuModuleLoadDataEx(&mod, ptx.data(), 4, options, values));
  CUfunction twice;
  CU(cuModuleGetFunction(&twice, mod, "twice"));
  CU(cuFuncSetAttribute(twice, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                        CU_SHAREDMEM_CARVEOUT_MAX_SHARED));
  int carveout = 0;
  CU(cuFuncGetAttribute(&carveout, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, twice));
  CHECK(carveout == CU_SHAREDMEM_CARVEOUT_MAX_SHARED);

  alloc_fn alloc = my_alloc;
  CUdeviceptr d;
  CU(alloc(&d, 32 * sizeof(int)));
  std::vector<int> h(32);
  for (int i = 0; i < 32; ++i)
    h[i] = i;
  CU(cuMemcpyHtoD(d, h.data(), 32 * sizeof(int)));

  // A kernel node with attributes written as C++ writes them.
  CUgraph graph;
  CU(cuGraphCreate(&graph, 0));
  void *args[] = {&d};
  CUDA_KERNEL_NODE_PARAMS kp = {};
  kp.func = twice;
  kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
  kp.blockDimX = 32;
  kp.blockDimY = kp.blockDimZ = 1;
  kp.kernelParams = args;
  CUgraphNode node;
  CU(cuGraphAddKernelNode(&node, graph, nullptr, 0, &kp));
  CUkernelNodeAttrValue v = {};
  v.priority = 0;
  CU(cuGraphKernelNodeSetAttribute(node, CU_KERNEL_NODE_ATTRIBUTE_PRIORITY, &v));
  v = {};
  v.clusterSchedulingPolicyPreference = CU_CLUSTER_SCHEDULING_POLICY_LOAD_BALANCING;
  CUlaunchMemSyncDomainMap map = {};
  map.default_ = 0;
  map.remote = 1;
  CHECK(map.remote == 1);
  CUgraphDeviceNode no_node = nullptr;
  CHECK(no_node == nullptr);
  CUevent_sched_flags sched = CU_EVENT_SCHED_BLOCKING_SYNC;
  CHECK(sched == 0x04);
  CHECK(CU_KERNEL_NODE_ATTRIBUTE_MEM_SYNC_DOMAIN == CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN);
  CHECK(CU_TARGET_COMPUTE_90A == CU_COMPUTE_ACCELERATED_TARGET_BASE + 90);
  CU(cuGraphDebugDotPrint(graph, "driver_enum_names.dot",
                          CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE | CU_GRAPH_DEBUG_DOT_FLAGS_HANDLES));
  std::remove("driver_enum_names.dot");
  CUgraphExec exec;
  CU(cuGraphInstantiate(&exec, graph, 0));
  CU(cuGraphLaunch(exec, nullptr));
  CU(cuCtxSynchronize());
  CU(cuMemcpyDtoH(h.data(), d, 32 * sizeof(int)));
  for (int i = 0; i < 32; ++i)
    CHECK(h[i] == 2 * i);
  CU(cuGraphExecDestroy(exec));
  CU(cuGraphDestroy(graph));
  CU(cuMemFree(d));
  CU(cuModuleUnload(mod));
  CU(cuCtxDestroy(ctx));
  return finish();
}
