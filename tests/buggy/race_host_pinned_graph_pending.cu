// race_host_pinned_graph_pending.cu: a deliberately buggy program for the
// checkers (tests/checkers.sh): the host reads a pinned buffer that a copy
// node of a graph it has launched still writes, without synchronising
// with the launch. On a GPU the host reads stale or half-written data.
// CHECK: race
// EXPECT: race host read pinned line 43 line 46
#include <cstdio>
#include <cuda_runtime.h>

// Holds its stream until the host says go, as long work would.
__global__ void wait_for_host(volatile int *go) {
  while (*go == 0) {
  }
}

__global__ void fill(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 5 * i + 2;
}

int main() {
  const int n = 2048;
  int *d, *h, *go, *device_go;
  cudaStream_t stream;
  cudaMalloc(&d, n * sizeof(int));
  cudaMallocHost(&h, n * sizeof(int));
  cudaHostAlloc(&go, sizeof(int), cudaHostAllocMapped);
  cudaHostGetDevicePointer(&device_go, go, 0);
  *go = 0;
  for (int i = 0; i < n; ++i)
    h[i] = -1;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  /* A graph of a kernel and the copy of its result to the host. */
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  fill<<<n / 256, 256, 0, stream>>>(d, n);
  cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaStreamEndCapture(stream, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  wait_for_host<<<1, 1, 0, stream>>>(device_go);
  cudaGraphLaunch(exec, stream);
  /* The launch is queued behind the wait: the copy has not run. */
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += h[i];
  *(volatile int *)go = 1;
  printf("sum %ld\n", sum);
  cudaStreamSynchronize(stream);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  cudaFreeHost(go);
  cudaFreeHost(h);
  cudaFree(d);
  return 0;
}
