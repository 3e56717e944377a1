// race_shared_half_read_atomic.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared WAR atomic line 20 line 21
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

/* A block sums its weights into two __half bins of shared memory with
 * atomicAdd, and thread 0 converts the second bin with __half2float
 * without the __syncthreads() that must come before: its plain read races
 * with the other threads' atomic adds to that half (a plain access and an
 * atomic one of the same bytes, unordered). */
__global__ void bin_weights(const float *w, float *out) {
  __shared__ __half bins[2];
  unsigned t = threadIdx.x;
  if (t < 2)
    bins[t] = __float2half(0.0f);
  __syncthreads();
  if (t == 0)
    out[blockIdx.x] = __half2float(bins[1]);
  atomicAdd(&bins[t & 1], __float2half(w[t]));
  __syncthreads();
  if (t == 0)
    out[blockIdx.x] += __half2float(bins[0]);
}

int main() {
  const int n = 64;
  float h[n];
  for (int i = 0; i < n; ++i)
    h[i] = 0.5f;
  float *w, *out;
  cudaMalloc(&w, sizeof h);
  cudaMalloc(&out, sizeof(float));
  cudaMemcpy(w, h, sizeof h, cudaMemcpyHostToDevice);
  bin_weights<<<1, n>>>(w, out);
  float r;
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g\n", r);
  return 0;
}
