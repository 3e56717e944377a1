// init_copy_source_unwritten.cu: a deliberately buggy program for the checkers (tests/checkers.sh).
// CHECK: init
// EXPECT: init cudaMemcpy source 48 of the 400 bytes first: byte 352 line 24 line 27
#include <cstdio>
#include <cuda_runtime.h>

/* Fills the first n - 12 of the n elements: the last 12 stay unwritten. */
__global__ void fill_most(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 12)
    out[i] = i;
}

int main() {
  const int n = 100;
  int host[n], *dev, *copy;
  cudaMalloc(&dev, n * sizeof(int));
  cudaMalloc(&copy, n * sizeof(int));
  fill_most<<<1, 128>>>(dev, n);
  /* The written part alone: no report. */
  cudaMemcpy(host, dev, (n - 12) * sizeof(int), cudaMemcpyDeviceToHost);
  /* A device-to-device copy of it all reads them (reported); the copy's
   * bytes count as written, so copying it back is not reported. */
  cudaMemcpy(copy, dev, n * sizeof(int), cudaMemcpyDeviceToDevice);
  cudaMemcpy(host, copy, n * sizeof(int), cudaMemcpyDeviceToHost);
  /* The whole buffer back to the host: its last 48 bytes were never written. */
  cudaError_t e = cudaMemcpy(host, dev, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("%s %d\n", cudaGetErrorName(e), host[0] + host[n - 13]);
  cudaFree(dev);
  cudaFree(copy);
  return 0;
}
