// device_graph_rules.cu: what CUDA asks of a device graph and of its
// launches. Instantiation for device launch refuses the auto-free flag, a
// node other than kernel, memcpy, memset or child graph (the result says
// which node, cudaGraphInstantiateNodeOperationNotSupported), a graph with
// no work, and a copy of pageable host memory (pinned memory is fine). A
// launch from kernel code fails for a graph not instantiated for device
// launch, into a stream that is not a named graph stream, and from a
// kernel that does not run in a graph. A device graph updated after its
// upload runs from the device as uploaded (its old parameters) until it
// is uploaded again. The named graph streams are not streams of the host. A
// kernel of a device graph may not launch a grid (CUDA forbids dynamic
// parallelism there): a kernel whose body launches is refused at
// instantiation (cudaGraphInstantiateNodeOperationNotSupported, the kernel
// node as the error node), and so is one that launches through the device
// functions it calls (one or two calls deep).
// CUEMU_OPTIONS: -std=c++17 -rdc=true
// NVCC_OPTIONS: -rdc=true
#include <cstdlib>

#include "devgraph_kernels.cuh"

__global__ void set_value(int *out, int value) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    *out = value;
}

// err[0] = the launch's error.
__global__ void try_launch(cudaGraphExec_t exec, int mode, int *err) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    *err = (int)cudaGraphLaunch(exec, mode_stream(mode));
}

static void host_fn(void *) {}

__global__ void child(int *out) { *out = 7; }

// Launches a child grid from a device graph's kernel; err[0] = its error.
__global__ void launches_child(int *out, int *err) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    child<<<1, 1>>>(out);
    *err = (int)cudaGetLastError();
  }
}

// The same through a device function.
__device__ void launch_child(int *out, int *err) {
  child<<<1, 1>>>(out);
  *err = (int)cudaGetLastError();
}
__global__ void launches_child_indirectly(int *out, int *err) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    launch_child(out, err);
}

// Two calls deep, through a template.
template <typename T> __device__ void forward_launch(T *out, int *err) {
  launch_child(out, err);
}
__global__ void launches_child_two_deep(int *out, int *err) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    forward_launch<int>(out, err);
}

// Runs try_launch(exec, mode) in a host graph (or, with in_graph false, as
// a plain kernel); the launch's error.
static int launch_from_device(cudaGraphExec_t exec, int mode, int *err,
                              cudaStream_t stream, bool in_graph = true) {
  RT(cudaMemset(err, 0xff, sizeof(int)));
  if (in_graph) {
    cudaGraph_t g;
    RT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    try_launch<<<1, 32, 0, stream>>>(exec, mode, err);
    RT(cudaStreamEndCapture(stream, &g));
    cudaGraphExec_t e;
    RT(cudaGraphInstantiate(&e, g, 0));
    RT(cudaGraphLaunch(e, stream));
    RT(cudaStreamSynchronize(stream));
    RT(cudaGraphExecDestroy(e));
    RT(cudaGraphDestroy(g));
  } else {
    try_launch<<<1, 32, 0, stream>>>(exec, mode, err);
    RT(cudaStreamSynchronize(stream));
  }
  int h = -1;
  RT(cudaMemcpy(&h, err, sizeof h, cudaMemcpyDeviceToHost));
  return h;
}

static int read_int(const int *p) {
  int h = -1;
  RT(cudaMemcpy(&h, p, sizeof h, cudaMemcpyDeviceToHost));
  return h;
}

int main() {
  cudaStream_t stream;
  RT(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int *out, *err;
  RT(cudaMalloc(&out, sizeof(int)));
  RT(cudaMalloc(&err, sizeof(int)));
  RT(cudaMemset(out, 0, sizeof(int)));

  // A graph of one kernel node: *out = 1.
  cudaGraph_t g;
  RT(cudaGraphCreate(&g, 0));
  int value = 1;
  void *args[] = {&out, &value};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)set_value;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(32);
  kp.kernelParams = args;
  cudaGraphNode_t kernel_node;
  RT(cudaGraphAddKernelNode(&kernel_node, g, nullptr, 0, &kp));

  // Flags: not with auto-free.
  cudaGraphExec_t e = nullptr;
  CHECK(cudaGraphInstantiate(&e, g,
                             cudaGraphInstantiateFlagDeviceLaunch |
                                 cudaGraphInstantiateFlagAutoFreeOnLaunch) ==
        cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);

  // A host node: refused, and named.
  cudaGraph_t hg;
  RT(cudaGraphCreate(&hg, 0));
  cudaHostNodeParams hp = {host_fn, nullptr};
  cudaGraphNode_t host_node, k2;
  RT(cudaGraphAddKernelNode(&k2, hg, nullptr, 0, &kp));
  RT(cudaGraphAddHostNode(&host_node, hg, &k2, 1, &hp));
  cudaGraphInstantiateParams ip = {};
  ip.flags = cudaGraphInstantiateFlagDeviceLaunch;
  CHECK(cudaGraphInstantiateWithParams(&e, hg, &ip) == cudaErrorInvalidValue);
  CHECK(ip.result_out == cudaGraphInstantiateNodeOperationNotSupported);
  CHECK(ip.errNode_out == host_node);
  cudaGetLastError();

  // No work at all.
  cudaGraph_t empty;
  RT(cudaGraphCreate(&empty, 0));
  CHECK(cudaGraphInstantiate(&e, empty,
                             cudaGraphInstantiateFlagDeviceLaunch) ==
        cudaErrorInvalidValue);
  cudaGetLastError();

  // Copies: pageable host memory refused, pinned host memory accepted.
  int *pageable = (int *)std::malloc(sizeof(int)), *pinned;
  RT(cudaMallocHost(&pinned, sizeof(int)));
  cudaGraph_t cg;
  cudaGraphNode_t copy;
  RT(cudaGraphCreate(&cg, 0));
  RT(cudaGraphAddMemcpyNode1D(&copy, cg, nullptr, 0, out, pageable,
                              sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaGraphInstantiate(&e, cg, cudaGraphInstantiateFlagDeviceLaunch) ==
        cudaErrorInvalidValue);
  cudaGetLastError();
  RT(cudaGraphMemcpyNodeSetParams1D(copy, out, pinned, sizeof(int),
                                    cudaMemcpyHostToDevice));
  cudaGraphExec_t copy_exec = nullptr;
  RT(cudaGraphInstantiate(&copy_exec, cg,
                          cudaGraphInstantiateFlagDeviceLaunch));

  // The device graph, not uploaded yet: it does not run from the device.
  cudaGraphExec_t dev;
  RT(cudaGraphInstantiate(&dev, g, cudaGraphInstantiateFlagDeviceLaunch));
  CHECK(launch_from_device(dev, FIRE_AND_FORGET, err, stream) !=
        (int)cudaSuccess);
  CHECK(read_int(out) == 0);
  RT(cudaGraphUpload(dev, stream));
  CHECK(launch_from_device(dev, FIRE_AND_FORGET, err, stream) ==
        (int)cudaSuccess);
  CHECK(read_int(out) == 1);

  // Updated (*out = 2) but not uploaded again: the device still runs the
  // graph it was given (*out = 1), as CUDA's device graphs take an update
  // only when uploaded again; uploaded, it runs the new parameters. The
  // same for a whole-graph update (*out = 3).
  value = 2;
  RT(cudaGraphExecKernelNodeSetParams(dev, kernel_node, &kp));
  RT(cudaMemset(out, 0, sizeof(int)));
  CHECK(launch_from_device(dev, TAIL, err, stream) == (int)cudaSuccess);
  CHECK(read_int(out) == 1);
  RT(cudaGraphUpload(dev, stream));
  CHECK(launch_from_device(dev, TAIL, err, stream) == (int)cudaSuccess);
  CHECK(read_int(out) == 2);
  {
    value = 3;
    RT(cudaGraphKernelNodeSetParams(kernel_node, &kp));
    cudaGraphExecUpdateResultInfo info;
    RT(cudaGraphExecUpdate(dev, g, &info));
    RT(cudaMemset(out, 0, sizeof(int)));
    CHECK(launch_from_device(dev, FIRE_AND_FORGET, err, stream) ==
          (int)cudaSuccess);
    CHECK(read_int(out) == 2);
    RT(cudaGraphUpload(dev, stream));
    CHECK(launch_from_device(dev, FIRE_AND_FORGET, err, stream) ==
          (int)cudaSuccess);
    CHECK(read_int(out) == 3);
    // Back to what the rest of the program expects: dev sets *out = 2,
    // g's node *out = 1.
    value = 2;
    RT(cudaGraphExecKernelNodeSetParams(dev, kernel_node, &kp));
    RT(cudaGraphUpload(dev, stream));
    value = 1;
    RT(cudaGraphKernelNodeSetParams(kernel_node, &kp));
  }

  // Uploaded as part of its instantiation.
  {
    cudaGraphExec_t up = nullptr;
    cudaGraphInstantiateParams upp = {};
    upp.flags =
        cudaGraphInstantiateFlagDeviceLaunch | cudaGraphInstantiateFlagUpload;
    upp.uploadStream = stream;
    RT(cudaGraphInstantiateWithParams(&up, g, &upp));
    CHECK(upp.result_out == cudaGraphInstantiateSuccess);
    RT(cudaMemset(out, 0, sizeof(int)));
    CHECK(launch_from_device(up, SIBLING, err, stream) == (int)cudaSuccess);
    CHECK(read_int(out) == 1); // the graph's parameters: *out = 1
    RT(cudaGraphExecDestroy(up));
  }

  // A host graph, a plain stream, a kernel outside any graph.
  cudaGraphExec_t host_exec;
  RT(cudaGraphInstantiate(&host_exec, g, 0));
  RT(cudaGraphUpload(host_exec, stream));
  RT(cudaMemset(out, 0, sizeof(int)));
  CHECK(launch_from_device(host_exec, FIRE_AND_FORGET, err, stream) !=
        (int)cudaSuccess);
  CHECK(launch_from_device(dev, PLAIN, err, stream) != (int)cudaSuccess);
  CHECK(launch_from_device(dev, SIBLING, err, stream, false) !=
        (int)cudaSuccess);
  CHECK(read_int(out) == 0);

  // The device graph from the host: it runs; the named graph streams are
  // not streams of the host.
  RT(cudaGraphLaunch(dev, stream));
  RT(cudaStreamSynchronize(stream));
  CHECK(read_int(out) == 2);
  CHECK(cudaGraphLaunch(dev, cudaStreamGraphFireAndForget) != cudaSuccess);
  cudaGetLastError();

  // Dynamic parallelism in a device graph.
  {
    RT(cudaMemset(out, 0, sizeof(int)));
    RT(cudaMemset(err, 0, sizeof(int)));
    cudaGraph_t pg;
    RT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    launches_child<<<1, 32, 0, stream>>>(out, err);
    RT(cudaStreamEndCapture(stream, &pg));
    // Refused at instantiation (the kernel's own body launches), with the
    // kernel node as the error node.
    cudaGraphExec_t pe = nullptr;
    cudaGraphInstantiateParams ip = {};
    ip.flags = cudaGraphInstantiateFlagDeviceLaunch;
    CHECK(cudaGraphInstantiateWithParams(&pe, pg, &ip) == cudaErrorInvalidValue);
    CHECK(ip.result_out == cudaGraphInstantiateNodeOperationNotSupported);
    size_t count = 1;
    cudaGraphNode_t kernel_node = nullptr;
    RT(cudaGraphGetNodes(pg, &kernel_node, &count));
    CHECK(count == 1 && ip.errNode_out == kernel_node);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    RT(cudaGraphDestroy(pg));
    // The same kernel in a host graph is fine.
    RT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    launches_child<<<1, 32, 0, stream>>>(out, err);
    RT(cudaStreamEndCapture(stream, &pg));
    RT(cudaGraphInstantiate(&pe, pg, 0));
    RT(cudaGraphLaunch(pe, stream));
    RT(cudaStreamSynchronize(stream));
    CHECK(read_int(err) == (int)cudaSuccess && read_int(out) == 7);
    RT(cudaGraphExecDestroy(pe));
    RT(cudaGraphDestroy(pg));
  }
  // A kernel that launches through a device function it calls, directly or
  // two calls deep: refused at instantiation, as CUDA does, with the kernel
  // node as the error node; in a host graph it runs.
  for (int deep = 0; deep < 2; ++deep) {
    RT(cudaMemset(out, 0, sizeof(int)));
    RT(cudaMemset(err, 0, sizeof(int)));
    cudaGraph_t pg;
    RT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    if (deep)
      launches_child_two_deep<<<1, 32, 0, stream>>>(out, err);
    else
      launches_child_indirectly<<<1, 32, 0, stream>>>(out, err);
    RT(cudaStreamEndCapture(stream, &pg));
    cudaGraphExec_t pe = nullptr;
    cudaGraphInstantiateParams ip = {};
    ip.flags = cudaGraphInstantiateFlagDeviceLaunch;
    CHECK(cudaGraphInstantiateWithParams(&pe, pg, &ip) == cudaErrorInvalidValue);
    CHECK(ip.result_out == cudaGraphInstantiateNodeOperationNotSupported);
    size_t count = 1;
    cudaGraphNode_t kernel_node = nullptr;
    RT(cudaGraphGetNodes(pg, &kernel_node, &count));
    CHECK(count == 1 && ip.errNode_out == kernel_node);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    RT(cudaGraphInstantiate(&pe, pg, 0));
    RT(cudaGraphLaunch(pe, stream));
    RT(cudaStreamSynchronize(stream));
    CHECK(read_int(err) == (int)cudaSuccess && read_int(out) == 7);
    RT(cudaGraphExecDestroy(pe));
    RT(cudaGraphDestroy(pg));
  }
  // A kernel that calls no launching function is not taken for one that
  // launches: it instantiates for device launch.
  {
    cudaGraph_t pg;
    RT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    set_value<<<1, 32, 0, stream>>>(out, 3);
    RT(cudaStreamEndCapture(stream, &pg));
    cudaGraphExec_t pe = nullptr;
    RT(cudaGraphInstantiate(&pe, pg, cudaGraphInstantiateFlagDeviceLaunch));
    RT(cudaGraphExecDestroy(pe));
    RT(cudaGraphDestroy(pg));
  }

  RT(cudaGraphExecDestroy(dev));
  RT(cudaGraphExecDestroy(host_exec));
  RT(cudaGraphExecDestroy(copy_exec));
  RT(cudaGraphDestroy(g));
  RT(cudaGraphDestroy(hg));
  RT(cudaGraphDestroy(empty));
  RT(cudaGraphDestroy(cg));
  RT(cudaFreeHost(pinned));
  std::free(pageable);
  RT(cudaFree(out));
  RT(cudaFree(err));
  RT(cudaStreamDestroy(stream));
  return finish();
}
