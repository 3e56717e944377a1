/*
 * memory_nodes.cu: memory allocation and free nodes: the allocation's
 * address is known when the node is made and stays the same at every
 * launch; kernels and copies between the two nodes use it; a graph with
 * memory nodes has one executable graph at a time.
 */
#include <cuda_runtime.h>

#include <vector>

#include "../check.cuh"
#include "graph_kernels.cuh"

int main() {
  const int n = 300;
  std::vector<float> hin(n), hout(n);
  float *din;
  CUDA_OK(cudaMalloc(&din, n * sizeof(float)));
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreate(&stream));

  cudaGraph_t graph;
  CUDA_OK(cudaGraphCreate(&graph, 0));
  cudaMemAllocNodeParams alloc = {};
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.poolProps.location.id = 0;
  alloc.bytesize = n * sizeof(float);
  cudaGraphNode_t nalloc, nkernel, ncopy, nfree;
  CUDA_OK(cudaGraphAddMemAllocNode(&nalloc, graph, nullptr, 0, &alloc));
  CHECK(alloc.dptr != nullptr);
  float *scratch = static_cast<float *>(alloc.dptr);

  float factor = -1.5f;
  int count = n;
  void *args[] = {&scratch, &din, &factor, &count};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void *>(&scale_into);
  kp.gridDim = dim3(blocks_for(n, 128));
  kp.blockDim = dim3(128);
  kp.kernelParams = args;
  CUDA_OK(cudaGraphAddKernelNode(&nkernel, graph, &nalloc, 1, &kp));
  CUDA_OK(cudaGraphAddMemcpyNode1D(&ncopy, graph, &nkernel, 1, hout.data(),
                                   scratch, n * sizeof(float),
                                   cudaMemcpyDeviceToHost));
  CUDA_OK(cudaGraphAddMemFreeNode(&nfree, graph, &ncopy, 1, scratch));

  cudaMemAllocNodeParams back = {};
  CUDA_OK(cudaGraphMemAllocNodeGetParams(nalloc, &back));
  CHECK(back.bytesize == n * sizeof(float) && back.dptr == scratch);
  void *freed = nullptr;
  CUDA_OK(cudaGraphMemFreeNodeGetParams(nfree, &freed));
  CHECK(freed == scratch);
  cudaGraphNodeType type;
  CUDA_OK(cudaGraphNodeGetType(nfree, &type));
  CHECK(type == cudaGraphNodeTypeMemFree);

  cudaGraphExec_t exec;
  CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  for (int l = 0; l < 10; ++l) {
    for (int i = 0; i < n; ++i)
      hin[i] = static_cast<float>(i * (l + 1) % 97);
    CUDA_OK(cudaMemcpy(din, hin.data(), n * sizeof(float),
                       cudaMemcpyHostToDevice));
    CUDA_OK(cudaGraphLaunch(exec, stream));
    CUDA_OK(cudaStreamSynchronize(stream));
    int bad = 0;
    for (int i = 0; i < n; ++i)
      bad += hout[i] != -1.5f * hin[i];
    CHECK(bad == 0);
  }

  /* One executable graph at a time. */
  cudaGraphExec_t second = nullptr;
  CHECK(cudaGraphInstantiate(&second, graph, 0) != cudaSuccess);
  cudaGetLastError();
  CUDA_OK(cudaGraphExecDestroy(exec));
  CUDA_OK(cudaGraphInstantiate(&second, graph, 0));
  CUDA_OK(cudaGraphLaunch(second, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  CHECK(hout[7] == -1.5f * hin[7]);
  CUDA_OK(cudaGraphExecDestroy(second));

  unsigned long long used = 1;
  CUDA_OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh,
                                         &used));
  CUDA_OK(cudaGraphDestroy(graph));
  CUDA_OK(cudaStreamDestroy(stream));
  CUDA_OK(cudaFree(din));
  return finish();
}
