// race_host_pinned_write_pending_source.cu: a deliberately buggy program
// for the checkers (tests/checkers.sh): the host refills a pinned staging
// buffer (cudaHostAlloc) for the next batch while the cudaMemcpyAsync of
// the batch before may not have read it yet. On a GPU the device may get
// the next batch's values, or a mix.
// CHECK: race
// EXPECT: race host write pinned cudaMemcpyAsync line 42 line 40
#include <cstdio>
#include <cuda_runtime.h>

// Holds its stream until the host says go, as long work would.
__global__ void wait_for_host(volatile int *go) {
  while (*go == 0) {
  }
}

__global__ void total(const float *in, int n, float *out) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i)
    s += in[i];
  *out += s;
}

int main() {
  const int n = 4096, batches = 2;
  float *staging, *d, *out;
  int *go, *device_go;
  cudaStream_t s;
  cudaHostAlloc(&staging, n * sizeof(float), cudaHostAllocDefault);
  cudaHostAlloc(&go, sizeof(int), cudaHostAllocMapped);
  cudaHostGetDevicePointer(&device_go, go, 0);
  *go = 0;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  cudaMemset(out, 0, sizeof(float));
  cudaStreamCreate(&s);
  wait_for_host<<<1, 1, 0, s>>>(device_go);
  for (int b = 0; b < batches; ++b) {
    for (int i = 0; i < n; ++i)
      staging[i] = (float)(b + 1);
    // Missing: cudaStreamSynchronize(s) before the next batch's refill.
    cudaMemcpyAsync(d, staging, sizeof(float) * n, cudaMemcpyHostToDevice, s);
    total<<<1, 1, 0, s>>>(d, n, out);
  }
  *(volatile int *)go = 1;
  float result = 0.0f;
  cudaMemcpy(&result, out, sizeof result, cudaMemcpyDeviceToHost);
  printf("total %g (expected %g)\n", result, 3.0f * n);
  cudaStreamDestroy(s);
  cudaFree(out);
  cudaFree(d);
  cudaFreeHost(go);
  cudaFreeHost(staging);
  return 0;
}
