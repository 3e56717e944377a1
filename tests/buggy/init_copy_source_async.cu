// init_copy_source_async.cu: a deliberately buggy program for the checkers (tests/checkers.sh).
// CHECK: init
// EXPECT: init cudaMemcpy source 40 of the 256 bytes (the first: byte 216) line 27 line 33
#include <cstdio>
#include <cuda_runtime.h>

/* Writes the first `count` of the elements. */
__global__ void fill_first(int *out, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    out[i] = 2 * i;
}

int main() {
  const int n = 64;
  int *host, *dev;
  cudaMallocHost(&host, n * sizeof(int));
  cudaMalloc(&dev, n * sizeof(int));
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  /* Queued behind the kernel that writes every element: no report (the
   * copy's source is judged when the copy runs, not when it is issued). */
  fill_first<<<1, n, 0, stream>>>(dev, n);
  cudaMemcpyAsync(host, dev, n * sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  int *other;
  cudaMalloc(&other, n * sizeof(int));
  fill_first<<<1, n, 0, stream>>>(other, n - 10);
  cudaMemcpy2DAsync(host, 16, other, 16, 16, 13, cudaMemcpyDeviceToHost,
                    stream); /* rows 0 to 12 of 16 bytes: all written */
  /* The whole buffer, copied on the stream after a kernel that wrote all but
   * its last 10 elements. */
  cudaMemcpyAsync(host, other, n * sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaError_t e = cudaStreamSynchronize(stream);
  printf("%s %d\n", cudaGetErrorName(e), host[3]);
  cudaStreamDestroy(stream);
  cudaFree(other);
  cudaFree(dev);
  cudaFreeHost(host);
  return 0;
}
