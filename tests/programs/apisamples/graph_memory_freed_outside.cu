/*
 * graph_memory_freed_outside.cu: memory that a graph's allocation node made
 * and no free node of that graph frees may be freed outside the graph, by
 * cudaFree, by cudaFreeAsync or by a free node of another graph, and the
 * graph launched again afterwards: each launch allocates it anew, at the
 * same address (the pattern of the graphMemoryNodes sample). Each launch
 * here writes the buffer and a kernel outside the graph reads it back.
 */
#include <cstring>

#include <cuda_runtime.h>

#include "../check.cuh"

namespace {

constexpr int kN = 4096;

__global__ void fill(int *out, int base, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = base + 3 * i;
}

/* Counts the elements that differ from base + 3 i. */
__global__ void count_wrong(const int *in, int base, int n, int *wrong) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] != base + 3 * i)
    atomicAdd(wrong, 1);
}

/* A graph that allocates kN ints, fills them with base + 3 i and leaves
 * them allocated; *base_slot is read by each launch. */
cudaGraphExec_t make_alloc_graph(int **dptr, int *base_slot) {
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0) == cudaSuccess);
  cudaMemAllocNodeParams alloc;
  std::memset(&alloc, 0, sizeof alloc);
  alloc.bytesize = kN * sizeof(int);
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.poolProps.location.id = 0;
  cudaGraphNode_t alloc_node, fill_node;
  CHECK(cudaGraphAddMemAllocNode(&alloc_node, graph, NULL, 0, &alloc) ==
        cudaSuccess);
  *dptr = static_cast<int *>(alloc.dptr);
  int n = kN;
  void *args[] = {dptr, base_slot, &n};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void *>(fill);
  kp.gridDim = dim3((kN + 255) / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&fill_node, graph, &alloc_node, 1, &kp) ==
        cudaSuccess);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, NULL, NULL, 0) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  return exec;
}

/* An executable graph whose only node frees ptr. */
cudaGraphExec_t make_free_graph(void *ptr) {
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0) == cudaSuccess);
  cudaGraphNode_t node;
  CHECK(cudaGraphAddMemFreeNode(&node, graph, NULL, 0, ptr) == cudaSuccess);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, NULL, NULL, 0) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  return exec;
}

/* Launches the graph, checks its buffer from a kernel outside it. */
void launch_and_check(cudaGraphExec_t exec, int *dptr, int base,
                      cudaStream_t s, int *wrong) {
  CHECK(cudaMemsetAsync(wrong, 0, sizeof(int), s) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
  count_wrong<<<(kN + 255) / 256, 256, 0, s>>>(dptr, base, kN, wrong);
  CHECK(cudaGetLastError() == cudaSuccess);
}

}  // namespace

int main() {
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  int *wrong;
  CHECK(cudaMallocManaged(&wrong, sizeof(int)) == cudaSuccess);
  int *dptr = NULL;
  /* The kernel node reads its base through the argument copy made when the
   * node was added, so each launch writes the same values. */
  int base = 7;
  cudaGraphExec_t exec = make_alloc_graph(&dptr, &base);
  CHECK(dptr != NULL);

  /* 1. Launch, then free with cudaFree after the stream is done. */
  launch_and_check(exec, dptr, 7, s, wrong);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(*wrong == 0);
  CHECK(cudaFree(dptr) == cudaSuccess);

  /* 2. Launch again, free in stream order with cudaFreeAsync. */
  launch_and_check(exec, dptr, 7, s, wrong);
  CHECK(cudaFreeAsync(dptr, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(*wrong == 0);

  /* 3. Launch again, free by a free node of another graph. */
  cudaGraphExec_t free_exec = make_free_graph(dptr);
  launch_and_check(exec, dptr, 7, s, wrong);
  CHECK(cudaGraphLaunch(free_exec, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(*wrong == 0);

  /* 4. Once more, freed by cudaFree; then everything is destroyed. */
  launch_and_check(exec, dptr, 7, s, wrong);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(*wrong == 0);
  CHECK(cudaFree(dptr) == cudaSuccess);
  CHECK(cudaGraphExecDestroy(free_exec) == cudaSuccess);
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(wrong) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  return finish();
}
