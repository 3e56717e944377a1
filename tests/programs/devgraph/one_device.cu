// one_device.cu: a device graph's nodes must reside on one device (CUDA's
// cudaGraphInstantiate). A graph whose kernel nodes were added while
// different devices were current is refused for device launch with
// cudaErrorInvalidValue, the result
// cudaGraphInstantiateMultipleDevicesNotSupported and the second device's
// node as the error node, also when that node is inside a child graph; the
// same graph instantiates for the host, and a graph made on device 1 alone
// instantiates for device launch. Two emulated devices (CUEMU_DEVICE, set
// before the first CUDA call; with fewer devices the program says so and
// passes). cuemu once accepted the mixed graph.
// CUEMU_OPTIONS: -std=c++17 -rdc=true
// NVCC_OPTIONS: -rdc=true
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "../check.cuh"

__global__ void set_value(int *out, int value) {
  if (threadIdx.x == 0)
    *out = value;
}

static cudaGraphNode_t add_kernel(cudaGraph_t g, int *out, int value) {
  cudaKernelNodeParams p = {};
  void *args[] = {&out, &value};
  p.func = (void *)set_value;
  p.gridDim = dim3(1);
  p.blockDim = dim3(32);
  p.kernelParams = args;
  cudaGraphNode_t n = nullptr;
  CHECK(cudaGraphAddKernelNode(&n, g, nullptr, 0, &p) == cudaSuccess);
  return n;
}

static void refused(cudaGraph_t g, cudaGraphNode_t expected_node) {
  cudaGraphExec_t exec = nullptr;
  cudaGraphInstantiateParams ip = {};
  ip.flags = cudaGraphInstantiateFlagDeviceLaunch;
  CHECK(cudaGraphInstantiateWithParams(&exec, g, &ip) == cudaErrorInvalidValue);
  CHECK(ip.result_out == cudaGraphInstantiateMultipleDevicesNotSupported);
  CHECK(ip.errNode_out == expected_node);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaGraphInstantiate(&exec, g, cudaGraphInstantiateFlagDeviceLaunch) ==
        cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
}

int main() {
  setenv("CUEMU_DEVICE", "count=2", 0); // before the first CUDA call
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  if (count < 2) {
    std::printf("one device only: nothing to check\nPASS\n");
    return 0;
  }
  int *out0 = nullptr, *out1 = nullptr;
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaMallocManaged(&out0, sizeof(int)) == cudaSuccess);
  CHECK(cudaSetDevice(1) == cudaSuccess);
  CHECK(cudaMallocManaged(&out1, sizeof(int)) == cudaSuccess);

  // A node on each device.
  cudaGraph_t g;
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
  add_kernel(g, out0, 1);
  CHECK(cudaSetDevice(1) == cudaSuccess);
  cudaGraphNode_t second = add_kernel(g, out1, 2);
  CHECK(cudaSetDevice(0) == cudaSuccess);
  refused(g, second);

  // For the host, the same graph is fine.
  cudaGraphExec_t exec = nullptr;
  CHECK(cudaGraphInstantiate(&exec, g, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*out0 == 1 && *out1 == 2);
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);

  // The device-1 node inside a child graph of a device-0 graph.
  cudaGraph_t inner, outer;
  CHECK(cudaSetDevice(1) == cudaSuccess);
  CHECK(cudaGraphCreate(&inner, 0) == cudaSuccess);
  add_kernel(inner, out1, 3);
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaGraphCreate(&outer, 0) == cudaSuccess);
  add_kernel(outer, out0, 4);
  cudaGraphNode_t child_node = nullptr;
  CHECK(cudaGraphAddChildGraphNode(&child_node, outer, nullptr, 0, inner) == cudaSuccess);
  cudaGraph_t embedded = nullptr;
  CHECK(cudaGraphChildGraphNodeGetGraph(child_node, &embedded) == cudaSuccess);
  size_t n = 1;
  cudaGraphNode_t inner_node = nullptr;
  CHECK(cudaGraphGetNodes(embedded, &inner_node, &n) == cudaSuccess && n == 1);
  refused(outer, inner_node);

  // Every node on device 1: a device graph there.
  cudaGraph_t g1;
  CHECK(cudaSetDevice(1) == cudaSuccess);
  CHECK(cudaGraphCreate(&g1, 0) == cudaSuccess);
  add_kernel(g1, out1, 5);
  CHECK(cudaGraphInstantiate(&exec, g1, cudaGraphInstantiateFlagDeviceLaunch) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*out1 == 5);
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);

  CHECK(cudaGraphDestroy(g1) == cudaSuccess);
  CHECK(cudaGraphDestroy(outer) == cudaSuccess);
  CHECK(cudaGraphDestroy(inner) == cudaSuccess);
  CHECK(cudaGraphDestroy(g) == cudaSuccess);
  CHECK(cudaFree(out0) == cudaSuccess);
  CHECK(cudaFree(out1) == cudaSuccess);
  return finish();
}
