/*
 * memory_nodes.cu: memory allocation and free nodes: the allocation's
 * address is known when the node is made and stays the same at every
 * launch; kernels and copies between the two nodes use it; a graph with
 * memory nodes has one executable graph at a time. And copies to and from
 * a __constant__ symbol captured from a stream: the host values are read
 * at each launch.
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

  /* Symbol copies in a capture. */
  {
    float coeffs[2] = {0.0f, 0.0f}, readback[2] = {0.0f, 0.0f};
    cudaGraph_t captured;
    CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    CUDA_OK(cudaMemcpyToSymbolAsync(line_coeffs, coeffs, sizeof coeffs, 0,
                                    cudaMemcpyHostToDevice, stream));
    eval_line<<<blocks_for(n, 128), 128, 0, stream>>>(din, din, n);
    CUDA_OK(cudaMemcpyFromSymbolAsync(readback, line_coeffs, sizeof readback,
                                      0, cudaMemcpyDeviceToHost, stream));
    CUDA_OK(cudaMemcpyAsync(hout.data(), din, n * sizeof(float),
                            cudaMemcpyDeviceToHost, stream));
    CUDA_OK(cudaStreamEndCapture(stream, &captured));
    cudaGraphExec_t line;
    CUDA_OK(cudaGraphInstantiate(&line, captured, 0));
    for (int l = 1; l <= 3; ++l) {
      for (int i = 0; i < n; ++i)
        hin[i] = static_cast<float>(i % 10);
      CUDA_OK(cudaMemcpy(din, hin.data(), n * sizeof(float),
                         cudaMemcpyHostToDevice));
      coeffs[0] = static_cast<float>(l);
      coeffs[1] = static_cast<float>(2 * l);
      CUDA_OK(cudaGraphLaunch(line, stream));
      CUDA_OK(cudaStreamSynchronize(stream));
      CHECK(readback[0] == coeffs[0] && readback[1] == coeffs[1]);
      CHECK(hout[13] == coeffs[0] + coeffs[1] * 3.0f);
    }
    CUDA_OK(cudaGraphExecDestroy(line));
    CUDA_OK(cudaGraphDestroy(captured));
  }

  unsigned long long used = 1;
  CUDA_OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh,
                                         &used));
  CUDA_OK(cudaGraphDestroy(graph));
  CUDA_OK(cudaStreamDestroy(stream));
  CUDA_OK(cudaFree(din));
  return finish();
}
