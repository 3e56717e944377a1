// graph_update_queued.cu: an executable graph's launches queued on a held
// stream keep the parameters they were launched with while the host
// updates the graph (cudaGraphExecKernelNodeSetParams, cudaGraphExecUpdate,
// cudaGraphExecNodeSetParams) and destroys it, without waiting for them:
// each launch adds its own value, so the sum shows which parameters each
// one ran with, and the host is never held (a valve thread would raise the
// flag otherwise, and the test fails).
// CUEMU_OPTIONS: -std=c++17
#include <cuda_runtime.h>

#include "../check.cuh"
#include "ordered_kernels.cuh"

#define RT(call) CHECK((call) == cudaSuccess)

// data[i] += k * (i + 1).
__global__ void add_scaled(int *data, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += k * (i + 1);
}

static const int N = 1024;

struct KernelNode {
  int *data;
  int n, k;
  void *args[3];
  cudaKernelNodeParams params = {};
  KernelNode(int *d, int k_) : data(d), n(N), k(k_) {
    args[0] = &data;
    args[1] = &n;
    args[2] = &k;
    params.func = (void *)add_scaled;
    params.gridDim = dim3(N / 256);
    params.blockDim = dim3(256);
    params.kernelParams = args;
  }
};

int main() {
  RT(cudaSetDeviceFlags(cudaDeviceMapHost));
  cudaStream_t s;
  RT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int *data;
  RT(cudaMalloc(&data, N * sizeof(int)));
  RT(cudaMemset(data, 0, N * sizeof(int)));

  cudaGraph_t graph, other;
  RT(cudaGraphCreate(&graph, 0));
  RT(cudaGraphCreate(&other, 0));
  KernelNode one(data, 1), hundred(data, 100);
  cudaGraphNode_t node, other_node;
  RT(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &one.params));
  RT(cudaGraphAddKernelNode(&other_node, other, nullptr, 0, &hundred.params));
  cudaGraphExec_t exec;
  RT(cudaGraphInstantiate(&exec, graph, 0));
  RT(cudaDeviceSynchronize());

  Hold hold(5.0);
  hold_until<<<1, 32, 0, s>>>(hold.dflag);
  RT(cudaGraphLaunch(exec, s)); // adds 1 * (i + 1)
  KernelNode ten(data, 10);
  RT(cudaGraphExecKernelNodeSetParams(exec, node, &ten.params));
  RT(cudaGraphLaunch(exec, s)); // adds 10 * (i + 1)
  cudaGraphExecUpdateResultInfo info;
  RT(cudaGraphExecUpdate(exec, other, &info));
  CHECK(info.result == cudaGraphExecUpdateSuccess);
  RT(cudaGraphLaunch(exec, s)); // adds 100 * (i + 1)
  KernelNode thousand(data, 1000);
  cudaGraphNodeParams generic = {};
  generic.type = cudaGraphNodeTypeKernel;
  generic.kernel.func = thousand.params.func;
  generic.kernel.gridDim = thousand.params.gridDim;
  generic.kernel.blockDim = thousand.params.blockDim;
  generic.kernel.kernelParams = thousand.args;
  RT(cudaGraphExecNodeSetParams(exec, node, &generic));
  RT(cudaGraphLaunch(exec, s)); // adds 1000 * (i + 1)
  RT(cudaGraphExecDestroy(exec)); // the queued launches still run
  if (!streams_run_inline()) {
    CHECK(cudaStreamQuery(s) == cudaErrorNotReady);
    cudaGetLastError();
  }
  CHECK(hold.release()); // nothing above waited for the held stream
  RT(cudaStreamSynchronize(s));
  int host[N];
  RT(cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < N; ++i)
    bad += host[i] != 1111 * (i + 1);
  CHECK(bad == 0);
  RT(cudaGraphDestroy(graph));
  RT(cudaGraphDestroy(other));
  RT(cudaFree(data));
  RT(cudaStreamDestroy(s));
  RT(cudaGetLastError());
  return finish();
}
