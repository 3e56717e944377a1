// The driver API's graphs over the runtime's: a module JIT-compiled with
// NVRTC, a graph built node by node (cuGraphAddKernelNode with
// CUDA_KERNEL_NODE_PARAMS, memset, memcpy, host, child graph, empty, event
// record and wait nodes, added dependencies), instantiated, launched,
// changed with cuGraphExecKernelNodeSetParams and relaunched; a graph
// captured from a stream with cuLaunchKernel and the Async copies and sets,
// updated into an executable graph with cuGraphExecUpdate; the capture
// errors as CUresults.
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>

#include <cstring>
#include <vector>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

static const char *source = R"(
extern "C" __global__ void fill(float *p, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v;
}
// y = a * x + y
extern "C" __global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
)";

static double host_sum;
static void CUDA_CB sum_host(void *data) {
  const float *v = static_cast<const float *>(data);
  host_sum = 0;
  for (int i = 0; i < 256; ++i)
    host_sum += v[i];
}

static CUmodule jit() {
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, source, "graph_kernels.cu", 0, nullptr,
                           nullptr) == NVRTC_SUCCESS);
  const char *opts[] = {"-arch=compute_90"};
  CHECK(nvrtcCompileProgram(prog, 1, opts) == NVRTC_SUCCESS);
  size_t size = 0;
  nvrtcGetPTXSize(prog, &size);
  std::vector<char> ptx(size);
  nvrtcGetPTX(prog, ptx.data());
  nvrtcDestroyProgram(&prog);
  CUmodule mod = nullptr;
  CU(cuModuleLoadData(&mod, ptx.data()));
  return mod;
}

int main() {
  const int n = 256;
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  CUmodule mod = jit();
  CUfunction fill, axpy;
  CU(cuModuleGetFunction(&fill, mod, "fill"));
  CU(cuModuleGetFunction(&axpy, mod, "axpy"));
  CUdeviceptr x, y;
  CU(cuMemAlloc(&x, n * sizeof(float)));
  CU(cuMemAlloc(&y, n * sizeof(float)));
  std::vector<float> out(n, 0.0f);
  CUstream s;
  CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CUevent ev;
  CU(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));

  // ---- Built node by node. ----
  // memset x = 1.0f | kernel fill y = 2 -> empty -> axpy(a=3) -> copy y to
  // host -> host node (sum); an event record after the copy, a child graph
  // (waits on the event) with one more fill of x.
  CUgraph g;
  CU(cuGraphCreate(&g, 0));
  CUgraphNode setx, filly, join, k, copy, hostn, rec;
  CUDA_MEMSET_NODE_PARAMS ms = {};
  float one = 1.0f;
  std::memcpy(&ms.value, &one, 4);
  ms.dst = x;
  ms.elementSize = 4;
  ms.width = n;
  ms.height = 1;
  CU(cuGraphAddMemsetNode(&setx, g, nullptr, 0, &ms, ctx));
  float two = 2.0f, a = 3.0f;
  int count = n;
  void *fill_args[] = {&y, &two, &count};
  CUDA_KERNEL_NODE_PARAMS kp = {};
  kp.func = fill;
  kp.gridDimX = n / 64;
  kp.gridDimY = kp.gridDimZ = 1;
  kp.blockDimX = 64;
  kp.blockDimY = kp.blockDimZ = 1;
  kp.kernelParams = fill_args;
  CU(cuGraphAddKernelNode(&filly, g, nullptr, 0, &kp));
  CUgraphNode both[] = {setx, filly};
  CU(cuGraphAddEmptyNode(&join, g, both, 2));
  void *axpy_args[] = {&a, &x, &y, &count};
  CUDA_KERNEL_NODE_PARAMS ka = kp;
  ka.func = axpy;
  ka.kernelParams = axpy_args;
  CU(cuGraphAddKernelNode(&k, g, &join, 1, &ka));
  CUDA_MEMCPY3D cp = {};
  cp.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  cp.srcDevice = y;
  cp.dstMemoryType = CU_MEMORYTYPE_HOST;
  cp.dstHost = out.data();
  cp.WidthInBytes = n * sizeof(float);
  cp.Height = 1;
  cp.Depth = 1;
  CU(cuGraphAddMemcpyNode(&copy, g, nullptr, 0, &cp, ctx));
  CU(cuGraphAddDependencies(g, &k, &copy, nullptr, 1));
  CUDA_HOST_NODE_PARAMS hp = {sum_host, out.data()};
  CU(cuGraphAddHostNode(&hostn, g, &copy, 1, &hp));
  CU(cuGraphAddEventRecordNode(&rec, g, &copy, 1, ev));
  CUgraph child;
  CU(cuGraphCreate(&child, 0));
  CUgraphNode wait, refill, childn;
  CU(cuGraphAddEventWaitNode(&wait, child, nullptr, 0, ev));
  float zero = 0.0f;
  void *refill_args[] = {&x, &zero, &count};
  CUDA_KERNEL_NODE_PARAMS kr = kp;
  kr.kernelParams = refill_args;
  CU(cuGraphAddKernelNode(&refill, child, &wait, 1, &kr));
  CU(cuGraphAddChildGraphNode(&childn, g, &rec, 1, child));

  size_t nodes = 0, roots = 0, edges = 0;
  CU(cuGraphGetNodes(g, nullptr, &nodes));
  CU(cuGraphGetRootNodes(g, nullptr, &roots));
  CU(cuGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
  CHECK(nodes == 8 && roots == 2 && edges == 7);
  CUgraphNodeType type;
  CU(cuGraphNodeGetType(copy, &type));
  CHECK(type == CU_GRAPH_NODE_TYPE_MEMCPY);
  CUDA_KERNEL_NODE_PARAMS back = {};
  CU(cuGraphKernelNodeGetParams(k, &back));
  CHECK(back.func == axpy && back.gridDimX == n / 64 &&
        *static_cast<float *>(back.kernelParams[0]) == 3.0f);
  CUDA_MEMCPY3D cback = {};
  CU(cuGraphMemcpyNodeGetParams(copy, &cback));
  CHECK(cback.dstMemoryType == CU_MEMORYTYPE_HOST &&
        cback.dstHost == out.data() && cback.srcDevice == y &&
        cback.WidthInBytes == n * sizeof(float));

  CUgraphExec exec;
  CU(cuGraphInstantiate(&exec, g, 0));
  CU(cuGraphLaunch(exec, s));
  CU(cuStreamSynchronize(s));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && out[i] == 5.0f; // 3 * 1 + 2
  CHECK(ok);
  CHECK(host_sum == 5.0 * n);
  std::vector<float> hx(n, -1.0f);
  CU(cuMemcpyDtoH(hx.data(), x, n * sizeof(float)));
  CHECK(hx[0] == 0.0f && hx[n - 1] == 0.0f); // the child graph ran last

  // The executable graph's kernel takes a = 10: y = 10 * 1 + 2.
  a = 10.0f;
  CU(cuGraphExecKernelNodeSetParams(exec, k, &ka));
  CU(cuGraphLaunch(exec, s));
  CU(cuStreamSynchronize(s));
  CHECK(out[7] == 12.0f && host_sum == 12.0 * n);

  // ---- A CUDA array in driver memcpy nodes (a cudaArray_t is a CUarray):
  // rows 1..2 of a host plane into the array at row 0, column 2 (bytes 8),
  // then the array back. ----
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &fdesc, 8, 4) == cudaSuccess);
  std::vector<float> plane(8 * 4), back_plane(8 * 4, -1.0f);
  for (int i = 0; i < 32; ++i)
    plane[i] = 1.0f + i;
  CUgraph ga;
  CU(cuGraphCreate(&ga, 0));
  CUDA_MEMCPY3D up = {};
  up.srcMemoryType = CU_MEMORYTYPE_HOST;
  up.srcHost = plane.data();
  up.srcPitch = 8 * sizeof(float);
  up.srcY = 1;
  up.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  up.dstArray = reinterpret_cast<CUarray>(arr);
  up.dstXInBytes = 2 * sizeof(float);
  up.WidthInBytes = 4 * sizeof(float);
  up.Height = 2;
  up.Depth = 1;
  CUDA_MEMCPY3D down = {};
  down.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  down.srcArray = reinterpret_cast<CUarray>(arr);
  down.dstMemoryType = CU_MEMORYTYPE_HOST;
  down.dstHost = back_plane.data();
  down.dstPitch = 8 * sizeof(float);
  down.WidthInBytes = 8 * sizeof(float);
  down.Height = 4;
  down.Depth = 1;
  CUgraphNode nup, ndown;
  CU(cuGraphAddMemcpyNode(&nup, ga, nullptr, 0, &up, ctx));
  CU(cuGraphAddMemcpyNode(&ndown, ga, &nup, 1, &down, ctx));
  CUDA_MEMCPY3D aback = {};
  CU(cuGraphMemcpyNodeGetParams(nup, &aback));
  CHECK(aback.dstMemoryType == CU_MEMORYTYPE_ARRAY &&
        aback.dstArray == up.dstArray && aback.dstXInBytes == 8 &&
        aback.WidthInBytes == 16 && aback.srcY == 1);
  CUgraphExec ax;
  CU(cuGraphInstantiate(&ax, ga, 0));
  CU(cuGraphLaunch(ax, s));
  CU(cuStreamSynchronize(s));
  // Row 0, columns 2..5 hold plane's row 1, columns 0..3; row 1 its row 2.
  CHECK(back_plane[2] == plane[8] && back_plane[5] == plane[11] &&
        back_plane[8 + 2] == plane[16] && back_plane[8 + 5] == plane[19]);
  CU(cuGraphExecDestroy(ax));
  CU(cuGraphDestroy(ga));
  cudaFreeArray(arr);

  // ---- Captured from a stream. ----
  auto capture = [&](float factor, CUgraph *graph) {
    CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUstreamCaptureStatus st;
    CU(cuStreamIsCapturing(s, &st));
    CHECK(st == CU_STREAM_CAPTURE_STATUS_ACTIVE);
    CU(cuMemsetD32Async(x, 0x40000000u, n, s)); // 2.0f
    CU(cuMemcpyHtoDAsync(y, out.data(), n * sizeof(float), s));
    void *args[] = {&factor, &x, &y, &count};
    CU(cuLaunchKernel(axpy, n / 64, 1, 1, 64, 1, 1, 0, s, args, nullptr));
    CU(cuMemcpyDtoHAsync(out.data(), y, n * sizeof(float), s));
    CU(cuStreamEndCapture(s, graph));
  };
  std::fill(out.begin(), out.end(), 1.0f);
  CUgraph cg1, cg2;
  capture(4.0f, &cg1);
  CHECK(out[0] == 1.0f); // nothing ran during the capture
  CU(cuGraphGetNodes(cg1, nullptr, &nodes));
  CHECK(nodes == 4);
  CUgraphExec cx;
  CU(cuGraphInstantiate(&cx, cg1, 0));
  CU(cuGraphLaunch(cx, s));
  CU(cuStreamSynchronize(s));
  CHECK(out[0] == 9.0f && out[n - 1] == 9.0f); // 4 * 2 + 1
  // The same work with another factor, updated into the executable graph:
  // y = 0.5 * 2 + 9.
  capture(0.5f, &cg2);
  CUgraphExecUpdateResultInfo info = {};
  CU(cuGraphExecUpdate(cx, cg2, &info));
  CHECK(info.result == CU_GRAPH_EXEC_UPDATE_SUCCESS);
  CU(cuGraphLaunch(cx, s));
  CU(cuStreamSynchronize(s));
  CHECK(out[3] == 10.0f);
  // A graph of another shape cannot be updated in.
  CHECK(cuGraphExecUpdate(cx, g, &info) ==
        CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
  CHECK(info.result == CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED);

  // ---- Errors during a capture. ----
  CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CHECK(cuStreamSynchronize(s) == CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  CUgraph bad = nullptr;
  CHECK(cuStreamEndCapture(s, &bad) == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
  CHECK(bad == nullptr);
  CHECK(cuStreamEndCapture(s, &bad) == CUDA_ERROR_ILLEGAL_STATE);
  CUstreamCaptureStatus none;
  CU(cuStreamIsCapturing(s, &none));
  CHECK(none == CU_STREAM_CAPTURE_STATUS_NONE);
  CHECK(cuGraphAddKernelNode(&k, g, nullptr, 0, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);

  CU(cuGraphExecDestroy(exec));
  CU(cuGraphExecDestroy(cx));
  CU(cuGraphDestroy(g));
  CU(cuGraphDestroy(child));
  CU(cuGraphDestroy(cg1));
  CU(cuGraphDestroy(cg2));
  CU(cuEventDestroy(ev));
  CU(cuStreamDestroy(s));
  CU(cuMemFree(x));
  CU(cuMemFree(y));
  CU(cuModuleUnload(mod));
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}
