/*
 * shared_index_wrap.cu: a kernel that indexes a __shared__ array with an
 * unsigned 32-bit index below zero (past[~i], the form of a merge-path
 * kernel's binary search). On a GPU a shared-memory address has 32 bits,
 * so the index wraps back into the block's window and reads
 * past[-(i + 1)]: each block reverses its 64 values. cuemu's shared memory
 * is ordinary 64-bit memory: the read lands 4 x 2^32 bytes past the
 * array, the launch fails with cudaErrorIllegalAddress, and the report
 * says why (tests/shared_index_wrap.sh). Prints PASS when the values come
 * back reversed, as on a GPU.
 */
#include <cstdio>

#include <cuda_runtime.h>

__global__ void reverse_tile(const unsigned *in, unsigned *out) {
  __shared__ unsigned tile[64];
  unsigned i = threadIdx.x;
  tile[i] = in[i];
  __syncthreads();
  const unsigned *past = tile + 64;
  out[i] = past[~i];  // wrap
}

int main() {
  unsigned host[64], *in = nullptr, *out = nullptr;
  for (unsigned i = 0; i < 64; ++i)
    host[i] = 1000 + i;
  if (cudaMalloc(&in, sizeof host) != cudaSuccess ||
      cudaMalloc(&out, sizeof host) != cudaSuccess) {
    std::printf("FAIL: cudaMalloc\n");
    return 1;
  }
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  reverse_tile<<<1, 64>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("launch: %s\n", cudaGetErrorName(e));
    return 1;
  }
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (unsigned i = 0; i < 64; ++i)
    if (host[i] != 1000 + 63 - i) {
      std::printf("FAIL: out[%u] = %u, not %u\n", i, host[i], 1000 + 63 - i);
      return 1;
    }
  std::printf("PASS\n");
  return 0;
}
