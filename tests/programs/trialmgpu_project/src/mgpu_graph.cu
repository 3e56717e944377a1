// NVCC_OPTIONS: -I../common -Xcompiler -fopenmp
// mgpu_graph.cu - one CUDA graph spanning two devices: captured with
// streams of both devices (event fork/join), then extended by hand with a
// peer memcpy node and a kernel node whose device is chosen at capture, and
// re-launched after updating a kernel node's parameters.
#include <vector>
#include "mgpu_check.h"

__global__ void init(float *x, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = v + i;
}

__global__ void square(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * x[i];
}

__global__ void add_into(float *dst, const float *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] += src[i];
}

int main() {
  int ndev = 0;
  CUDA_CHECK(cudaGetDeviceCount(&ndev));
  int d0 = 0, d1 = ndev > 1 ? 1 : 0;
  const int n = 1 << 12;
  const size_t bytes = n * sizeof(float);
  float *a0, *b0, *a1;
  cudaStream_t s0, s1;
  cudaEvent_t fork, join;
  CUDA_CHECK(cudaSetDevice(d1));
  CUDA_CHECK(cudaMalloc(&a1, bytes));
  CUDA_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CUDA_CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  CUDA_CHECK(cudaSetDevice(d0));
  CUDA_CHECK(cudaMalloc(&a0, bytes));
  CUDA_CHECK(cudaMalloc(&b0, bytes));
  CUDA_CHECK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
  CUDA_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));

  // Capture: s0 (device 0) forks work to s1 (device 1) and joins it back.
  cudaGraph_t graph;
  CUDA_CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
  init<<<n / 256, 256, 0, s0>>>(a0, n, 1.0f);
  CUDA_CHECK(cudaEventRecord(fork, s0));
  CUDA_CHECK(cudaStreamWaitEvent(s1, fork, 0));
  CUDA_CHECK(cudaSetDevice(d1));
  init<<<n / 256, 256, 0, s1>>>(a1, n, 100.0f);
  square<<<n / 256, 256, 0, s1>>>(a1, n);
  CUDA_CHECK(cudaEventRecord(join, s1));
  CUDA_CHECK(cudaSetDevice(d0));
  CUDA_CHECK(cudaStreamWaitEvent(s0, join, 0));
  CUDA_CHECK(cudaStreamEndCapture(s0, &graph));

  size_t num_nodes = 0;
  CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &num_nodes));
  std::vector<cudaGraphNode_t> nodes(num_nodes);
  CUDA_CHECK(cudaGraphGetNodes(graph, nodes.data(), &num_nodes));
  // Find the sinks to hang the manual nodes from.
  size_t num_leaves = 0;
  CUDA_CHECK(cudaGraphGetRootNodes(graph, nullptr, &num_leaves));
  std::vector<cudaGraphNode_t> sinks;
  for (auto nd : nodes) {
    size_t out = 0;
    CUDA_CHECK(cudaGraphNodeGetDependentNodes(nd, nullptr, nullptr, &out));
    if (out == 0) sinks.push_back(nd);
  }
  // Which device does each captured kernel node run on?
  int on_dev1 = 0;
  for (auto nd : nodes) {
    cudaGraphNodeType t;
    CUDA_CHECK(cudaGraphNodeGetType(nd, &t));
    if (t != cudaGraphNodeTypeKernel) continue;
    cudaKernelNodeParams kp;
    CUDA_CHECK(cudaGraphKernelNodeGetParams(nd, &kp));
    void *p = *(void **)kp.kernelParams[0];
    cudaPointerAttributes pa;
    CUDA_CHECK(cudaPointerGetAttributes(&pa, p));
    on_dev1 += pa.device == d1 && d1 != d0;
  }

  // Peer copy a1 (device 1) -> b0 (device 0) as a memcpy node.
  cudaPitchedPtr src_ptr = make_cudaPitchedPtr(a1, bytes, n, 1);
  cudaPitchedPtr dst_ptr = make_cudaPitchedPtr(b0, bytes, n, 1);
  cudaExtent extent = make_cudaExtent(bytes, 1, 1);
  cudaGraphNode_t copy_node;
  cudaGraphNodeParams np = {};
  np.type = cudaGraphNodeTypeMemcpy;
  np.memcpy.copyParams.srcPtr = src_ptr;
  np.memcpy.copyParams.dstPtr = dst_ptr;
  np.memcpy.copyParams.extent = extent;
  np.memcpy.copyParams.kind = cudaMemcpyDefault;
  CUDA_CHECK(cudaGraphAddNode(&copy_node, graph, sinks.data(), nullptr, sinks.size(), &np));
  // A second, classic memcpy node (1D) copying b0 into a scratch on device 1.
  float *scratch1;
  CUDA_CHECK(cudaSetDevice(d1));
  CUDA_CHECK(cudaMalloc(&scratch1, bytes));
  CUDA_CHECK(cudaSetDevice(d0));
  cudaGraphNode_t copy_back;
  CUDA_CHECK(cudaGraphAddMemcpyNode1D(&copy_back, graph, &copy_node, 1, scratch1, b0, bytes,
                                      cudaMemcpyDefault));
  // Kernel node on device 0: a0 += b0.
  cudaKernelNodeParams kp = {};
  int nn = n;
  void *args[] = {&a0, &b0, &nn};
  kp.func = (void *)add_into;
  kp.gridDim = dim3(n / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  cudaGraphNode_t add_node;
  CUDA_CHECK(cudaGraphAddKernelNode(&add_node, graph, &copy_node, 1, &kp));

  cudaGraphExec_t exec;
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CUDA_CHECK(cudaGraphLaunch(exec, s0));
  CUDA_CHECK(cudaStreamSynchronize(s0));

  std::vector<float> ha(n), hs(n);
  CUDA_CHECK(cudaMemcpy(ha.data(), a0, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(hs.data(), scratch1, bytes, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float sq = (100.0f + i) * (100.0f + i);
    if (ha[i] != 1.0f + i + sq || hs[i] != sq) bad++;
  }
  std::printf("launch 1: %d mismatches, %zu captured nodes, %d kernels on device %d\n", bad, num_nodes,
              on_dev1, d1);

  // Update the device-1 init value through the exec graph and relaunch.
  bool updated = false;
  for (auto nd : nodes) {
    cudaGraphNodeType t;
    CUDA_CHECK(cudaGraphNodeGetType(nd, &t));
    if (t != cudaGraphNodeTypeKernel) continue;
    cudaKernelNodeParams p;
    CUDA_CHECK(cudaGraphKernelNodeGetParams(nd, &p));
    if (p.func == (void *)init && *(float **)p.kernelParams[0] == a1) {
      float v = 5.0f;
      void *nargs[] = {&a1, &nn, &v};
      p.kernelParams = nargs;
      CUDA_CHECK(cudaGraphExecKernelNodeSetParams(exec, nd, &p));
      updated = true;
    }
  }
  CUDA_CHECK(cudaGraphLaunch(exec, s0));
  CUDA_CHECK(cudaStreamSynchronize(s0));
  CUDA_CHECK(cudaMemcpy(ha.data(), a0, bytes, cudaMemcpyDeviceToHost));
  int bad2 = 0;
  for (int i = 0; i < n; ++i) {
    float sq = (5.0f + i) * (5.0f + i);
    if (ha[i] != 1.0f + i + sq) bad2++;
  }
  std::printf("launch 2: %d mismatches (updated: %d)\n", bad2, (int)updated);

  CUDA_CHECK(cudaGraphExecDestroy(exec));
  CUDA_CHECK(cudaGraphDestroy(graph));
  CUDA_CHECK(cudaFree(a0));
  CUDA_CHECK(cudaFree(b0));
  CUDA_CHECK(cudaFree(a1));
  CUDA_CHECK(cudaFree(scratch1));
  bool ok = bad == 0 && bad2 == 0 && updated && (d1 == d0 || on_dev1 == 2);
  return mgpu_report(ok, "mgpu_graph");
}
