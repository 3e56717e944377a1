// race_host_pinned_read_pending.cu: a deliberately buggy program for the
// checkers (tests/checkers.sh): the host reads a pinned buffer that a
// cudaMemcpyAsync from the device still writes, having ordered only another
// stream after the copy (cudaStreamWaitEvent orders streams, not the host).
// On a GPU the host reads stale or half-written data.
// CHECK: race
// EXPECT: race host read pinned cudaMemcpyAsync line 40 line 44
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
    out[i] = 3 * i + 1;
}

int main() {
  const int n = 1024;
  int *d, *h, *go, *device_go;
  cudaStream_t copy, other;
  cudaEvent_t copied;
  cudaMalloc(&d, n * sizeof(int));
  cudaMallocHost(&h, n * sizeof(int));
  cudaHostAlloc(&go, sizeof(int), cudaHostAllocMapped);
  cudaHostGetDevicePointer(&device_go, go, 0);
  *go = 0;
  for (int i = 0; i < n; ++i)
    h[i] = -1;
  cudaStreamCreate(&copy);
  cudaStreamCreate(&other);
  cudaEventCreate(&copied);
  wait_for_host<<<1, 1, 0, copy>>>(device_go);
  fill<<<n / 256, 256, 0, copy>>>(d, n);
  cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, copy);
  cudaEventRecord(copied, copy);
  cudaStreamWaitEvent(other, copied, 0);
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += h[i];
  *(volatile int *)go = 1;
  printf("sum %ld\n", sum);
  cudaDeviceSynchronize();
  cudaEventDestroy(copied);
  cudaStreamDestroy(other);
  cudaStreamDestroy(copy);
  cudaFreeHost(go);
  cudaFreeHost(h);
  cudaFree(d);
  return 0;
}
