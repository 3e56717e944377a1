// graph_node_params.cu: the driver API's generic graph nodes, written as a
// driver-API program that JIT-compiles its kernels with NVRTC and loads them
// as a library: cuGraphAddNode with CUgraphNodeParams of every type it
// accepts (memory allocation and free, memset, kernel by CUkernel, memcpy,
// host, child graph, empty, event record and wait, a conditional while loop,
// an external semaphore signal), read back with the per-type GetParams calls,
// changed with cuGraphNodeSetParams and cuGraphExecNodeSetParams and
// relaunched; the dedicated memory-node and semaphore-node calls; external
// memory and semaphores of the driver API on memfd files; cuKernelGetAttribute
// and cuKernelSetAttribute per device without a current context;
// cuKernelGetParamInfo and cuFuncGetParamInfo; cuStreamGetDevice; capture
// with cuStreamGetCaptureInfo, cuStreamUpdateCaptureDependencies and
// cuStreamBeginCaptureToGraph, cuGraphInstantiateWithParams,
// cuGraphNodeSetEnabled and user objects; cuLaunchKernelEx with launch
// attributes, directly and into a capture; the devices' PCI bus ids.
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

static const char *source = R"(
struct Pair {
  char tag;
  double value;
};
// y = a * x + y
extern "C" __global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
extern "C" __global__ void scale(float *v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= s;
}
extern "C" __global__ void mixed(char c, Pair p, short s, double *out) {
  out[0] = c + p.tag + p.value + s;
}
// One step of a while loop: counts, and keeps the loop going below `limit`.
extern "C" __global__ void step(int *counter, int limit,
                                cudaGraphConditionalHandle handle) {
  int now = ++*counter;
  cudaGraphSetConditional(handle, now < limit ? 1u : 0u);
}
)";

static CUlibrary load_library() {
  nvrtcProgram prog;
  CHECK(nvrtcCreateProgram(&prog, source, "nodes.cu", 0, nullptr, nullptr) ==
        NVRTC_SUCCESS);
  const char *opts[] = {"-arch=sm_90"};
  CHECK(nvrtcCompileProgram(prog, 1, opts) == NVRTC_SUCCESS);
  size_t size = 0;
  CHECK(nvrtcGetCUBINSize(prog, &size) == NVRTC_SUCCESS);
  std::vector<char> image(size);
  CHECK(nvrtcGetCUBIN(prog, image.data()) == NVRTC_SUCCESS);
  nvrtcDestroyProgram(&prog);
  CUlibrary lib = nullptr;
  CU(cuLibraryLoadData(&lib, image.data(), nullptr, nullptr, 0, nullptr,
                       nullptr, 0));
  return lib;
}

static double host_sum;
static int host_calls;
static void CUDA_CB sum_host(void *data) {
  const float *v = static_cast<const float *>(data);
  host_sum = 0;
  for (int i = 0; i < 256; ++i)
    host_sum += v[i];
  ++host_calls;
}

// A memfd of `size` bytes (zero), as a semaphore or memory to import.
static int shared_file(size_t size) {
  int fd = memfd_create("graph_node_params", 0);
  CHECK(fd >= 0 && ftruncate(fd, static_cast<off_t>(size)) == 0);
  return fd;
}

static unsigned long long semaphore_value(int fd) {
  unsigned long long v = 0;
  CHECK(pread(fd, &v, sizeof v, 0) == static_cast<ssize_t>(sizeof v));
  return v;
}

// cuKernel* calls per device, before any context exists.
static void kernel_calls_without_context(CUlibrary lib) {
  CUkernel axpy, mixed;
  CU(cuLibraryGetKernel(&axpy, lib, "axpy"));
  CU(cuLibraryGetKernel(&mixed, lib, "mixed"));
  CUcontext none = nullptr;
  CU(cuCtxGetCurrent(&none));
  CHECK(none == nullptr);
  int threads0 = 0, threads1 = 0;
  CU(cuKernelGetAttribute(&threads0, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                          axpy, 0));
  CU(cuKernelGetAttribute(&threads1, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                          axpy, 1));
  CHECK(threads0 == 1024);
  CHECK(threads1 == 512); // CUEMU_DEVICE's 1:threads=512
  CU(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                          64 * 1024, axpy, 0));
  int dyn = 0;
  CU(cuKernelGetAttribute(&dyn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                          axpy, 0));
  CHECK(dyn == 64 * 1024);
  CHECK(cuKernelGetAttribute(&dyn, CU_FUNC_ATTRIBUTE_NUM_REGS, axpy, 2) ==
        CUDA_ERROR_INVALID_DEVICE);
  CHECK(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             0, axpy, -1) == CUDA_ERROR_INVALID_DEVICE);
  // A CUfunction call still needs a context.
  CHECK(cuFuncGetAttribute(&dyn, CU_FUNC_ATTRIBUTE_NUM_REGS,
                           reinterpret_cast<CUfunction>(axpy)) ==
        CUDA_ERROR_INVALID_CONTEXT);

  // The parameter layout: char at 0, Pair (alignment 8) at 8, short at 24,
  // the pointer at 32.
  size_t offset = 1, size = 0;
  CU(cuKernelGetParamInfo(mixed, 0, &offset, &size));
  CHECK(offset == 0 && size == 1);
  CU(cuKernelGetParamInfo(mixed, 1, &offset, &size));
  CHECK(offset == 8 && size == 16);
  CU(cuKernelGetParamInfo(mixed, 2, &offset, nullptr));
  CHECK(offset == 24);
  CU(cuKernelGetParamInfo(mixed, 3, &offset, &size));
  CHECK(offset == 32 && size == sizeof(void *));
  CHECK(cuKernelGetParamInfo(mixed, 4, &offset, &size) ==
        CUDA_ERROR_INVALID_VALUE);
  CU(cuKernelGetParamInfo(axpy, 3, &offset, &size));
  CHECK(offset == 24 && size == 4);
}

// cuLaunchKernelEx outside capture: a cooperative launch, the parameters
// in a buffer, and what it refuses.
static void launch_ex(CUfunction scale, CUstream stream) {
  const int n = 32;
  CUdeviceptr v;
  CU(cuMemAlloc(&v, n * sizeof(float)));
  CU(cuMemsetD32(v, 0x40000000u, n)); // 2.0f
  struct {
    CUdeviceptr v;
    float s;
    int n;
  } packed = {v, 5.0f, n};
  size_t size = sizeof packed;
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed,
                   CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
  CUlaunchAttribute coop;
  std::memset(&coop, 0, sizeof coop);
  coop.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
  coop.value.cooperative = 1;
  CUlaunchConfig config;
  std::memset(&config, 0, sizeof config);
  config.gridDimX = 2;
  config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = n / 2;
  config.blockDimY = config.blockDimZ = 1;
  config.hStream = stream;
  config.attrs = &coop;
  config.numAttrs = 1;
  CU(cuLaunchKernelEx(&config, scale, nullptr, extra));
  CU(cuStreamSynchronize(stream));
  float got[n];
  CU(cuMemcpyDtoH(got, v, sizeof got));
  CHECK(got[0] == 10.0f && got[n - 1] == 10.0f);
  // Both parameter forms, or a cluster that does not divide the grid.
  void *args[] = {&v, &packed.s, &packed.n};
  CHECK(cuLaunchKernelEx(&config, scale, args, extra) ==
        CUDA_ERROR_INVALID_VALUE);
  CUlaunchAttribute cluster;
  std::memset(&cluster, 0, sizeof cluster);
  cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  cluster.value.clusterDim.x = 3;
  cluster.value.clusterDim.y = cluster.value.clusterDim.z = 1;
  config.attrs = &cluster;
  CHECK(cuLaunchKernelEx(&config, scale, args, nullptr) != CUDA_SUCCESS);
  CHECK(cuLaunchKernelEx(nullptr, scale, args, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  CU(cuMemFree(v));
}

static int destroyed;
static void CUDA_CB destroy_object(void *data) {
  destroyed += *static_cast<int *>(data);
}

// Capture of cuLaunchKernel, read and steered while it goes on; a graph
// captured into, instantiated with parameters, a node disabled; a user
// object that the graph keeps until it is destroyed.
static void capture_calls(CUfunction scale, CUstream stream) {
  const int n = 64;
  CUdeviceptr v;
  CU(cuMemAlloc(&v, n * sizeof(float)));
  std::vector<float> ones(n, 1.0f), got(n);
  CU(cuMemcpyHtoD(v, ones.data(), n * sizeof(float)));
  float two = 2.0f, three = 3.0f;
  int count = n;
  void *by2[] = {&v, &two, &count};
  void *by3[] = {&v, &three, &count};

  CU(cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CU(cuLaunchKernel(scale, 1, 1, 1, n, 1, 1, 0, stream, by2, nullptr));
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  cuuint64_t id = 0;
  CUgraph captured = nullptr;
  const CUgraphNode *deps = nullptr;
  size_t ndeps = 0;
  CU(cuStreamGetCaptureInfo(stream, &status, &id, &captured, &deps, nullptr,
                            &ndeps));
  CHECK(status == CU_STREAM_CAPTURE_STATUS_ACTIVE && captured != nullptr);
  CHECK(ndeps == 1);
  CUgraphNode first = ndeps ? deps[0] : nullptr;
  // The next launch depends on nothing: the two run in either order.
  CU(cuStreamUpdateCaptureDependencies(stream, nullptr, nullptr, 0,
                                       CU_STREAM_SET_CAPTURE_DEPENDENCIES));
  CU(cuLaunchKernel(scale, 1, 1, 1, n, 1, 1, 0, stream, by3, nullptr));
  CUgraph graph;
  CU(cuStreamEndCapture(stream, &graph));
  CU(cuStreamGetCaptureInfo(stream, &status, nullptr, nullptr, nullptr,
                            nullptr, nullptr));
  CHECK(status == CU_STREAM_CAPTURE_STATUS_NONE);
  size_t roots = 0;
  CU(cuGraphGetRootNodes(graph, nullptr, &roots));
  CHECK(roots == 2);

  // One more launch captured into the graph, after the first node: a
  // cuLaunchKernelEx with a priority, which the node keeps.
  CU(cuStreamBeginCaptureToGraph(stream, graph, &first, nullptr, 1,
                                 CU_STREAM_CAPTURE_MODE_RELAXED));
  CUlaunchAttribute priority;
  std::memset(&priority, 0, sizeof priority);
  priority.id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
  priority.value.priority = -1;
  CUlaunchConfig config;
  std::memset(&config, 0, sizeof config);
  config.gridDimX = config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = n;
  config.blockDimY = config.blockDimZ = 1;
  config.hStream = stream;
  config.attrs = &priority;
  config.numAttrs = 1;
  CU(cuLaunchKernelEx(&config, scale, by2, nullptr));
  const CUgraphNode *last = nullptr;
  CU(cuStreamGetCaptureInfo(stream, &status, nullptr, nullptr, &last, nullptr,
                            &ndeps));
  CHECK(ndeps == 1);
  CUkernelNodeAttrValue kept;
  std::memset(&kept, 0, sizeof kept);
  CU(cuGraphKernelNodeGetAttribute(last[0], CU_LAUNCH_ATTRIBUTE_PRIORITY,
                                   &kept));
  CHECK(kept.priority == -1);
  CUgraph same;
  CU(cuStreamEndCapture(stream, &same));
  CHECK(same == graph);
  size_t nodes = 0;
  CU(cuGraphGetNodes(graph, nullptr, &nodes));
  CHECK(nodes == 3);

  int weight = 5;
  CUuserObject object;
  CU(cuUserObjectCreate(&object, &weight, destroy_object, 1,
                        CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
  CU(cuGraphRetainUserObject(graph, object, 1, CU_GRAPH_USER_OBJECT_MOVE));

  CUDA_GRAPH_INSTANTIATE_PARAMS ip;
  std::memset(&ip, 0, sizeof ip);
  ip.flags = CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD;
  ip.hUploadStream = stream;
  CUgraphExec exec;
  CU(cuGraphInstantiateWithParams(&exec, graph, &ip));
  CHECK(ip.result_out == CUDA_GRAPH_INSTANTIATE_SUCCESS &&
        ip.hErrNode_out == nullptr);
  CU(cuGraphLaunch(exec, stream));
  CU(cuStreamSynchronize(stream));
  CU(cuMemcpyDtoH(got.data(), v, n * sizeof(float)));
  CHECK(got[0] == 12.0f && got[n - 1] == 12.0f); // 1 * 2 * 3 * 2
  // Without the first node: the second captured one waits for it no more.
  unsigned enabled = 0;
  CU(cuGraphNodeSetEnabled(exec, first, 0));
  CU(cuGraphNodeGetEnabled(exec, first, &enabled));
  CHECK(enabled == 0);
  CU(cuGraphLaunch(exec, stream));
  CU(cuStreamSynchronize(stream));
  CU(cuMemcpyDtoH(got.data(), v, n * sizeof(float)));
  CHECK(got[0] == 72.0f); // 12 * 3 * 2

  CU(cuGraphExecDestroy(exec));
  CHECK(destroyed == 0);
  CU(cuGraphDestroy(graph));
  CHECK(destroyed == 5);
  CU(cuMemFree(v));
}

// External memory and semaphores of the driver API, outside graphs.
static void external_objects(CUfunction scale, CUstream stream) {
  const int n = 256;
  int fd = shared_file(4096);
  CUDA_EXTERNAL_MEMORY_HANDLE_DESC md;
  std::memset(&md, 0, sizeof md);
  md.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
  md.handle.fd = dup(fd);
  md.size = 4096;
  CUexternalMemory mem = nullptr;
  CU(cuImportExternalMemory(&mem, &md));
  CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd;
  std::memset(&bd, 0, sizeof bd);
  bd.offset = 1024;
  bd.size = n * sizeof(float);
  CUdeviceptr buf = 0;
  CU(cuExternalMemoryGetMappedBuffer(&buf, mem, &bd));
  std::vector<float> ones(n, 1.5f);
  CU(cuMemcpyHtoD(buf, ones.data(), n * sizeof(float)));
  float s = 4.0f;
  int count = n;
  void *args[] = {&buf, &s, &count};
  CU(cuLaunchKernel(scale, 1, 1, 1, n, 1, 1, 0, stream, args, nullptr));
  CU(cuStreamSynchronize(stream));
  float seen[n];
  CHECK(pread(fd, seen, sizeof seen, 1024) == static_cast<ssize_t>(sizeof seen));
  CHECK(seen[0] == 6.0f && seen[n - 1] == 6.0f);
  bd.offset = 4000; // past the imported size
  CUdeviceptr bad = 0;
  CHECK(cuExternalMemoryGetMappedBuffer(&bad, mem, &bd) ==
        CUDA_ERROR_INVALID_VALUE);
  CU(cuMemFree(buf));
  CU(cuDestroyExternalMemory(mem));
  md.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32;
  CHECK(cuImportExternalMemory(&mem, &md) == CUDA_ERROR_NOT_SUPPORTED);
  close(fd);

  // A binary semaphore: signalled, then waited for (which takes the signal).
  int sfd = shared_file(16);
  CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC sd;
  std::memset(&sd, 0, sizeof sd);
  sd.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
  sd.handle.fd = dup(sfd);
  CUexternalSemaphore sem = nullptr;
  CU(cuImportExternalSemaphore(&sem, &sd));
  CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
  std::memset(&sp, 0, sizeof sp);
  CU(cuSignalExternalSemaphoresAsync(&sem, &sp, 1, stream));
  CU(cuStreamSynchronize(stream)); // the signal runs in stream order
  CHECK(semaphore_value(sfd) == 1);
  CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp;
  std::memset(&wp, 0, sizeof wp);
  CU(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, stream));
  CU(cuStreamSynchronize(stream));
  CHECK(semaphore_value(sfd) == 0);
  CHECK(cuSignalExternalSemaphoresAsync(&sem, nullptr, 1, stream) ==
        CUDA_ERROR_INVALID_VALUE);
  CU(cuDestroyExternalSemaphore(sem));
  close(sfd);
}

int main() {
  setenv("CUEMU_DEVICE", "count=2,1:threads=512", 1); // before cuInit
  CU(cuInit(0));
  CUlibrary lib = load_library();
  kernel_calls_without_context(lib);

  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  CUstream stream;
  CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdevice of = -1;
  CU(cuStreamGetDevice(stream, &of));
  CHECK(of == 0);

  CUkernel axpy_k, scale_k, step_k, mixed_k;
  CU(cuLibraryGetKernel(&axpy_k, lib, "axpy"));
  CU(cuLibraryGetKernel(&scale_k, lib, "scale"));
  CU(cuLibraryGetKernel(&step_k, lib, "step"));
  CU(cuLibraryGetKernel(&mixed_k, lib, "mixed"));
  CUfunction scale_f;
  CU(cuKernelGetFunction(&scale_f, scale_k));
  size_t offset = 0;
  CU(cuFuncGetParamInfo(scale_f, 2, &offset, nullptr));
  CHECK(offset == 12);
  CHECK(cuFuncGetParamInfo(scale_f, 3, &offset, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);

  external_objects(scale_f, stream);
  capture_calls(scale_f, stream);
  launch_ex(scale_f, stream);

  const int n = 256;
  CUdeviceptr x, counter;
  CU(cuMemAlloc(&x, n * sizeof(float)));
  CU(cuMemAlloc(&counter, sizeof(int)));
  std::vector<float> hx(n), out(n, -1.0f);
  for (int i = 0; i < n; ++i)
    hx[i] = static_cast<float>(i);
  CU(cuMemcpyHtoD(x, hx.data(), n * sizeof(float)));
  CU(cuMemsetD32(counter, 0, 1));

  CUgraph graph;
  CU(cuGraphCreate(&graph, 0));

  // y: allocated by the graph, set to 1.0f, y = a * x + y, copied out, freed.
  CUgraphNodeParams p;
  std::memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
  p.alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.alloc.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.alloc.poolProps.location.id = 0;
  p.alloc.bytesize = n * sizeof(float);
  CUgraphNode alloc_node;
  CU(cuGraphAddNode(&alloc_node, graph, nullptr, nullptr, 0, &p));
  CUdeviceptr y = p.alloc.dptr;
  CHECK(y != 0);

  std::memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_MEMSET;
  p.memset.dst = y;
  p.memset.value = 0x3f800000u; // 1.0f
  p.memset.elementSize = 4;
  p.memset.width = n;
  p.memset.height = 1;
  p.memset.pitch = n * sizeof(float);
  CUgraphNode set_node;
  CU(cuGraphAddNode(&set_node, graph, &alloc_node, nullptr, 1, &p));

  float a = 2.0f;
  int count = n;
  void *axpy_args[] = {&a, &x, &y, &count};
  std::memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_KERNEL;
  p.kernel.kern = axpy_k; // func NULL: the library's kernel
  p.kernel.gridDimX = 2;
  p.kernel.gridDimY = p.kernel.gridDimZ = 1;
  p.kernel.blockDimX = 128;
  p.kernel.blockDimY = p.kernel.blockDimZ = 1;
  p.kernel.kernelParams = axpy_args;
  CUgraphNode kernel_node;
  CU(cuGraphAddNode(&kernel_node, graph, &set_node, nullptr, 1, &p));
  CUgraphNodeParams kernel_params = p;

  // A child graph that halves y: y = (2x + 1) / 2.
  CUgraph child;
  CU(cuGraphCreate(&child, 0));
  float half = 0.5f;
  void *scale_args[] = {&y, &half, &count};
  CUDA_KERNEL_NODE_PARAMS kp;
  std::memset(&kp, 0, sizeof kp);
  kp.func = scale_f;
  kp.gridDimX = 1;
  kp.gridDimY = kp.gridDimZ = 1;
  kp.blockDimX = n;
  kp.blockDimY = kp.blockDimZ = 1;
  kp.kernelParams = scale_args;
  CUgraphNode child_kernel;
  CU(cuGraphAddKernelNode(&child_kernel, child, nullptr, 0, &kp));
  std::memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_GRAPH;
  p.graph.graph = child;
  CUgraphNode child_node;
  CU(cuGraphAddNode(&child_node, graph, &kernel_node, nullptr, 1, &p));

  std::memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_MEMCPY;
  p.memcpy.copyParams.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  p.memcpy.copyParams.srcDevice = y;
  p.memcpy.copyParams.dstMemoryType = CU_MEMORYTYPE_HOST;
  p.memcpy.copyParams.dstHost = out.data();
  p.memcpy.copyParams.WidthInBytes = n * sizeof(float);
  p.memcpy.copyParams.Height = 1;
  p.memcpy.copyParams.Depth = 1;
  CUgraphNode copy_node;
  CU(cuGraphAddNode(&copy_node, graph, &child_node, nullptr, 1, &p));

  std::memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_HOST;
  p.host.fn = sum_host;
  p.host.userData = out.data();
  CUgraphNode host_node;
  CU(cuGraphAddNode(&host_node, graph, &copy_node, nullptr, 1, &p));

  std::memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_MEM_FREE;
  p.free.dptr = y;
  CUgraphNode free_node;
  CU(cuGraphAddNode(&free_node, graph, &copy_node, nullptr, 1, &p));

  // An event recorded after the copy, waited for by an empty join node.
  CUevent done;
  CU(cuEventCreate(&done, CU_EVENT_DEFAULT));
  std::memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_EVENT_RECORD;
  p.eventRecord.event = done;
  CUgraphNode record_node;
  CU(cuGraphAddNode(&record_node, graph, &copy_node, nullptr, 1, &p));
  CUevent other_event;
  CU(cuEventCreate(&other_event, CU_EVENT_DEFAULT));
  CU(cuGraphEventRecordNodeSetEvent(record_node, other_event));
  CUevent recorded = nullptr;
  CU(cuGraphEventRecordNodeGetEvent(record_node, &recorded));
  CHECK(recorded == other_event);
  CU(cuGraphEventRecordNodeSetEvent(record_node, done));
  std::memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_WAIT_EVENT;
  p.eventWait.event = done;
  CUgraphNode wait_node;
  CU(cuGraphAddNode(&wait_node, graph, &record_node, nullptr, 1, &p));
  std::memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_EMPTY;
  CUgraphNode join[] = {wait_node, host_node, free_node};
  CUgraphNode join_node;
  CU(cuGraphAddNode(&join_node, graph, join, nullptr, 3, &p));

  // A while loop whose body counts to 5.
  CUgraphConditionalHandle handle;
  CU(cuGraphConditionalHandleCreate(&handle, graph, ctx, 1,
                                    CU_GRAPH_COND_ASSIGN_DEFAULT));
  std::memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
  p.conditional.handle = handle;
  p.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
  p.conditional.size = 1;
  p.conditional.ctx = ctx;
  CUgraphNode loop_node;
  CU(cuGraphAddNode(&loop_node, graph, &join_node, nullptr, 1, &p));
  CHECK(p.conditional.phGraph_out != nullptr);
  CUgraph body = p.conditional.phGraph_out[0];
  int limit = 5;
  void *step_args[] = {&counter, &limit, &handle};
  CUgraphNodeParams sp;
  std::memset(&sp, 0, sizeof sp);
  sp.type = CU_GRAPH_NODE_TYPE_KERNEL;
  sp.kernel.kern = step_k;
  sp.kernel.gridDimX = sp.kernel.gridDimY = sp.kernel.gridDimZ = 1;
  sp.kernel.blockDimX = sp.kernel.blockDimY = sp.kernel.blockDimZ = 1;
  sp.kernel.kernelParams = step_args;
  CUgraphNode step_node;
  CU(cuGraphAddNode(&step_node, body, nullptr, nullptr, 0, &sp));

  // A timeline semaphore signalled with 7 at the end.
  int tfd = shared_file(16);
  CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC sd;
  std::memset(&sd, 0, sizeof sd);
  sd.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
  sd.handle.fd = dup(tfd);
  CUexternalSemaphore timeline;
  CU(cuImportExternalSemaphore(&timeline, &sd));
  CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sig;
  std::memset(&sig, 0, sizeof sig);
  sig.params.fence.value = 7;
  std::memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL;
  p.extSemSignal.extSemArray = &timeline;
  p.extSemSignal.paramsArray = &sig;
  p.extSemSignal.numExtSems = 1;
  CUgraphNode signal_node;
  CU(cuGraphAddNode(&signal_node, graph, &loop_node, nullptr, 1, &p));

  // What cuGraphAddNode refuses: a batch of no memory operations
  // (stream_memops.cu makes real ones), an unknown type, ...
  CUgraphNode refused;
  std::memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_BATCH_MEM_OP;
  CHECK(cuGraphAddNode(&refused, graph, nullptr, nullptr, 0, &p) ==
        CUDA_ERROR_INVALID_VALUE);
  p.type = static_cast<CUgraphNodeType>(99);
  CHECK(cuGraphAddNode(&refused, graph, nullptr, nullptr, 0, &p) ==
        CUDA_ERROR_INVALID_VALUE);
  std::memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
  p.alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_MANAGED;
  p.alloc.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.alloc.bytesize = 64;
  CHECK(cuGraphAddNode(&refused, graph, nullptr, nullptr, 0, &p) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuGraphAddNode(&refused, graph, nullptr, nullptr, 0, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  // A programmatic edge leaves a kernel's programmatic or launch-order
  // port and enters a kernel node: from the default port into an empty
  // node it is invalid (CUDA's rules for CUgraphEdgeData).
  CUgraphEdgeData programmatic;
  std::memset(&programmatic, 0, sizeof programmatic);
  programmatic.type = 1; // CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC
  std::memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_EMPTY;
  CHECK(cuGraphAddNode(&refused, graph, &kernel_node, &programmatic, 1, &p) ==
        CUDA_ERROR_INVALID_VALUE);
  programmatic.from_port = 1; // CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC
  CHECK(cuGraphAddNode(&refused, graph, &kernel_node, &programmatic, 1, &p) ==
        CUDA_ERROR_INVALID_VALUE);

  // Read back through the per-type calls.
  CUgraphNodeType type;
  CU(cuGraphNodeGetType(loop_node, &type));
  CHECK(type == CU_GRAPH_NODE_TYPE_CONDITIONAL);
  CU(cuGraphNodeGetType(alloc_node, &type));
  CHECK(type == CU_GRAPH_NODE_TYPE_MEM_ALLOC);
  CUDA_MEM_ALLOC_NODE_PARAMS ap;
  CU(cuGraphMemAllocNodeGetParams(alloc_node, &ap));
  CHECK(ap.dptr == y && ap.bytesize == n * sizeof(float));
  CHECK(ap.poolProps.allocType == CU_MEM_ALLOCATION_TYPE_PINNED);
  CHECK(ap.poolProps.location.type == CU_MEM_LOCATION_TYPE_DEVICE &&
        ap.poolProps.location.id == 0);
  CUdeviceptr freed = 0;
  CU(cuGraphMemFreeNodeGetParams(free_node, &freed));
  CHECK(freed == y);
  CHECK(cuGraphMemFreeNodeGetParams(alloc_node, &freed) ==
        CUDA_ERROR_INVALID_VALUE);
  CUDA_EXT_SEM_SIGNAL_NODE_PARAMS got;
  CU(cuGraphExternalSemaphoresSignalNodeGetParams(signal_node, &got));
  CHECK(got.numExtSems == 1 && got.extSemArray[0] == timeline &&
        got.paramsArray[0].params.fence.value == 7);

  CUgraphExec exec;
  CU(cuGraphInstantiate(&exec, graph, 0));
  CU(cuGraphLaunch(exec, stream));
  CU(cuStreamSynchronize(stream));
  double expect = 0;
  for (int i = 0; i < n; ++i)
    expect += (2.0 * i + 1.0) / 2.0;
  CHECK(out[3] == 3.5f && out[n - 1] == (2.0f * (n - 1) + 1.0f) / 2.0f);
  CHECK(host_calls == 1 && host_sum == expect);
  int steps = 0;
  CU(cuMemcpyDtoH(&steps, counter, sizeof steps));
  CHECK(steps == 5);
  CHECK(semaphore_value(tfd) == 7);
  CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wait7;
  std::memset(&wait7, 0, sizeof wait7);
  wait7.params.fence.value = 7;
  CU(cuWaitExternalSemaphoresAsync(&timeline, &wait7, 1, stream));

  // The executable graph's kernel gets a = 3 and its signal 11; the
  // counter restarts; relaunched: y = (3x + 1) / 2.
  a = 3.0f;
  CU(cuGraphExecNodeSetParams(exec, kernel_node, &kernel_params));
  sig.params.fence.value = 11;
  CUDA_EXT_SEM_SIGNAL_NODE_PARAMS sn = {&timeline, &sig, 1};
  CU(cuGraphExecExternalSemaphoresSignalNodeSetParams(exec, signal_node, &sn));
  CU(cuMemsetD32(counter, 2, 1));
  CU(cuGraphLaunch(exec, stream));
  CU(cuStreamSynchronize(stream));
  CHECK(out[3] == 5.0f && out[10] == 15.5f);
  CHECK(host_calls == 2);
  CU(cuMemcpyDtoH(&steps, counter, sizeof steps));
  CHECK(steps == 5);
  CHECK(semaphore_value(tfd) == 11);
  // The graph itself kept its signal value of 7.
  CU(cuGraphExternalSemaphoresSignalNodeGetParams(signal_node, &got));
  CHECK(got.paramsArray[0].params.fence.value == 7);

  // cuGraphNodeSetParams changes the graph's host node; a new instance
  // sees it, and the type must match.
  std::vector<float> other(n, 2.0f);
  std::memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_HOST;
  p.host.fn = sum_host;
  p.host.userData = other.data();
  CU(cuGraphNodeSetParams(host_node, &p));
  CUDA_HOST_NODE_PARAMS hp;
  CU(cuGraphHostNodeGetParams(host_node, &hp));
  CHECK(hp.userData == other.data());
  CHECK(cuGraphNodeSetParams(kernel_node, &p) != CUDA_SUCCESS);

  // The dedicated calls: an allocation, a set and a free node.
  CUgraph g2;
  CU(cuGraphCreate(&g2, 0));
  CUDA_MEM_ALLOC_NODE_PARAMS a2;
  std::memset(&a2, 0, sizeof a2);
  a2.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  a2.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  a2.poolProps.location.id = 0;
  a2.bytesize = 4 * sizeof(int);
  CUgraphNode a2_node, s2_node, c2_node, f2_node;
  CU(cuGraphAddMemAllocNode(&a2_node, g2, nullptr, 0, &a2));
  CHECK(a2.dptr != 0);
  CUDA_MEMSET_NODE_PARAMS s2;
  std::memset(&s2, 0, sizeof s2);
  s2.dst = a2.dptr;
  s2.value = 42;
  s2.elementSize = 4;
  s2.width = 4;
  s2.height = 1;
  CU(cuGraphAddMemsetNode(&s2_node, g2, &a2_node, 1, &s2, ctx));
  int got4[4] = {0, 0, 0, 0};
  CUDA_MEMCPY3D c2;
  std::memset(&c2, 0, sizeof c2);
  c2.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  c2.srcDevice = a2.dptr;
  c2.dstMemoryType = CU_MEMORYTYPE_HOST;
  c2.dstHost = got4;
  c2.WidthInBytes = sizeof got4;
  c2.Height = c2.Depth = 1;
  CU(cuGraphAddMemcpyNode(&c2_node, g2, &s2_node, 1, &c2, ctx));
  CU(cuGraphAddMemFreeNode(&f2_node, g2, &c2_node, 1, a2.dptr));
  a2.poolProps.location.id = 5;
  CUgraphNode bad_node;
  CHECK(cuGraphAddMemAllocNode(&bad_node, g2, nullptr, 0, &a2) ==
        CUDA_ERROR_INVALID_DEVICE);
  CUgraphExec e2;
  CU(cuGraphInstantiate(&e2, g2, 0));
  CU(cuGraphLaunch(e2, stream));
  CU(cuStreamSynchronize(stream));
  CHECK(got4[0] == 42 && got4[3] == 42);
  unsigned long long used = 1;
  CU(cuDeviceGetGraphMemAttribute(dev, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &used));
  CU(cuDeviceGraphMemTrim(dev));

  // Semaphore nodes by their own calls: a wait node for value 11 (met).
  CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS w11;
  std::memset(&w11, 0, sizeof w11);
  w11.params.fence.value = 11;
  CUDA_EXT_SEM_WAIT_NODE_PARAMS wn = {&timeline, &w11, 1};
  CUgraph g3;
  CU(cuGraphCreate(&g3, 0));
  CUgraphNode wait_sem;
  CU(cuGraphAddExternalSemaphoresWaitNode(&wait_sem, g3, nullptr, 0, &wn));
  CUDA_EXT_SEM_WAIT_NODE_PARAMS wgot;
  CU(cuGraphExternalSemaphoresWaitNodeGetParams(wait_sem, &wgot));
  CHECK(wgot.numExtSems == 1 && wgot.paramsArray[0].params.fence.value == 11);
  w11.params.fence.value = 10;
  CU(cuGraphExternalSemaphoresWaitNodeSetParams(wait_sem, &wn));
  CU(cuGraphExternalSemaphoresWaitNodeGetParams(wait_sem, &wgot));
  CHECK(wgot.paramsArray[0].params.fence.value == 10);
  CUgraphExec e3;
  CU(cuGraphInstantiate(&e3, g3, 0));
  CU(cuGraphExecExternalSemaphoresWaitNodeSetParams(e3, wait_sem, &wn));
  CU(cuGraphLaunch(e3, stream));
  CU(cuStreamSynchronize(stream));
  CUDA_EXT_SEM_SIGNAL_NODE_PARAMS none = {nullptr, &sig, 1};
  CHECK(cuGraphAddExternalSemaphoresSignalNode(&bad_node, g3, nullptr, 0,
                                               &none) ==
        CUDA_ERROR_INVALID_VALUE);

  // Each device by its PCI bus id, both ways and through both APIs.
  char bus0[32] = "", bus1[32] = "";
  CU(cuDeviceGetPCIBusId(bus0, sizeof bus0, 0));
  CHECK(cudaDeviceGetPCIBusId(bus1, sizeof bus1, 1) == cudaSuccess);
  CHECK(std::strlen(bus0) == 12 && bus0[4] == ':' && bus0[10] == '.');
  CHECK(std::strcmp(bus0, bus1) != 0);
  CUdevice found = -1;
  CU(cuDeviceGetByPCIBusId(&found, bus1));
  CHECK(found == 1);
  int rfound = -1;
  CHECK(cudaDeviceGetByPCIBusId(&rfound, bus0) == cudaSuccess && rfound == 0);
  CHECK(cudaDeviceGetByPCIBusId(&rfound, bus0 + 5) == cudaSuccess &&
        rfound == 0); // "bus:device.function"
  CHECK(cuDeviceGetByPCIBusId(&found, "not a bus id") ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuDeviceGetByPCIBusId(&found, "7777:77:1f.0") ==
        CUDA_ERROR_INVALID_DEVICE);
  CHECK(cuDeviceGetPCIBusId(bus0, sizeof bus0, 2) == CUDA_ERROR_INVALID_DEVICE);
  cudaGetLastError();

  // A stream of the second device names it.
  CUdevice dev1;
  CU(cuDeviceGet(&dev1, 1));
  CUcontext ctx1;
  CU(cuCtxCreate(&ctx1, nullptr, 0, dev1));
  CUstream s1;
  CU(cuStreamCreate(&s1, 0));
  CU(cuStreamGetDevice(s1, &of));
  CHECK(of == 1);
  CU(cuStreamDestroy(s1));
  CU(cuCtxDestroy(ctx1));
  CU(cuCtxSetCurrent(ctx));

  CU(cuGraphExecDestroy(e3));
  CU(cuGraphExecDestroy(e2));
  CU(cuGraphExecDestroy(exec));
  CU(cuGraphDestroy(g3));
  CU(cuGraphDestroy(g2));
  CU(cuGraphDestroy(child));
  CU(cuGraphDestroy(graph));
  CU(cuDestroyExternalSemaphore(timeline));
  close(tfd);
  CU(cuEventDestroy(done));
  CU(cuEventDestroy(other_event));
  CU(cuMemFree(x));
  CU(cuMemFree(counter));
  CU(cuStreamDestroy(stream));
  CU(cuLibraryUnload(lib));
  CU(cuDevicePrimaryCtxRelease(dev));
  (void)mixed_k;
  return finish();
}
