// race_shared_warp_reduce_template.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race shared RAW line 14 line 15
#include <cstdio>
#include <cuda_runtime.h>

/* NVIDIA's pre-Volta reduction with the last warp unrolled through a
 * volatile pointer and no __syncwarp(): cuemu runs the warp's volatile
 * accesses in lockstep, so the sum is what a GPU gives, but nothing orders
 * one lane's store before another lane's load of the same word (a race
 * since Volta's independent thread scheduling), which racecheck reports. */
template <unsigned blockSize, typename T>
__device__ void warp_reduce(volatile T *s, unsigned t) {
  if (blockSize >= 64) s[t] += s[t + 32];
  if (blockSize >= 32) s[t] += s[t + 16];
  if (blockSize >= 16) s[t] += s[t + 8];
  if (blockSize >= 8) s[t] += s[t + 4];
  if (blockSize >= 4) s[t] += s[t + 2];
  if (blockSize >= 2) s[t] += s[t + 1];
}
template <unsigned blockSize, typename T>
__global__ void reduce(const T *in, T *out) {
  __shared__ T s[blockSize];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockSize + t];
  __syncthreads();
  for (unsigned k = blockSize / 2; k > 32; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t < 32) warp_reduce<blockSize>(s, t);
  if (t == 0) out[blockIdx.x] = s[0];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 256 * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  cudaMemset(in, 0, 256 * sizeof(float));
  reduce<256, float><<<1, 256>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}
