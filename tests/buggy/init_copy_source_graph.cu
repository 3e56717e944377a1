// init_copy_source_graph.cu: a deliberately buggy program for the checkers (tests/checkers.sh).
// CHECK: init
// EXPECT: init cudaMemcpy source 16 of the 128 bytes (the first: byte 112) line 17 line 38
#include <cstdio>
#include <cuda_runtime.h>

/* Writes the first `count` of the elements. */
__global__ void fill_first(float *out, int count) {
  int i = threadIdx.x;
  if (i < count)
    out[i] = 0.5f * i;
}

int main() {
  const int n = 32;
  float *dev, *host;
  cudaMalloc(&dev, n * sizeof(float));
  cudaMallocHost(&host, n * sizeof(float));
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  /* A graph of a kernel that writes all but the last 4 elements, then a
   * copy of them all: captured, and launched on the stream. */
  cudaGraph_t graph;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  fill_first<<<1, n, 0, stream>>>(dev, n - 4);
  cudaMemcpyAsync(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaStreamEndCapture(stream, &graph);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  /* The same copy of the first n - 4 elements alone: no report. */
  cudaGraph_t clean;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(host, dev, (n - 4) * sizeof(float), cudaMemcpyDeviceToHost,
                  stream);
  cudaStreamEndCapture(stream, &clean);
  cudaGraphExec_t clean_exec;
  cudaGraphInstantiate(&clean_exec, clean, 0);
  cudaGraphLaunch(exec, stream);
  cudaGraphLaunch(clean_exec, stream);
  cudaError_t e = cudaStreamSynchronize(stream);
  printf("%s %g\n", cudaGetErrorName(e), host[3]);
  cudaGraphExecDestroy(clean_exec);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(clean);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  cudaFreeHost(host);
  cudaFree(dev);
  return 0;
}
