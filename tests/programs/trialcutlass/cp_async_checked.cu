// cp_async_checked.cu: a checked build (--check=all) of a kernel whose
// cp.async copies fill dynamic shared memory to its last byte, as CuTe's
// SM80 GEMM fills its pipeline stages (SM80_CP_ASYNC_CACHEALWAYS). cuemu
// zeroes the bytes past src-size with a memset, one of no bytes after a
// full copy, which memcheck took for an access just past the buffer:
// "out-of-bounds write of 0 bytes ... extern __shared__ buffer+N".
// CUEMU_OPTIONS: --check=all
#include <cstdio>
#include <cstdint>

__global__ void stage(const int4 *src, int4 *dst, int n) {
  extern __shared__ int4 buffer[];
  const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(&buffer[threadIdx.x]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(to), "l"(&src[threadIdx.x]));
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  dst[threadIdx.x] = buffer[(threadIdx.x + 1) % n];
}

int main() {
  const int n = 64;
  int4 host[n], got[n];
  for (int i = 0; i < n; ++i) host[i] = make_int4(i, 2 * i, 3 * i, 4 * i);
  int4 *src, *dst;
  cudaMalloc(&src, sizeof host);
  cudaMalloc(&dst, sizeof got);
  cudaMemcpy(src, host, sizeof host, cudaMemcpyHostToDevice);
  stage<<<1, n, n * sizeof(int4)>>>(src, dst, n);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(e));
    return 1;
  }
  cudaMemcpy(got, dst, sizeof got, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (got[i].x != (i + 1) % n || got[i].w != 4 * ((i + 1) % n)) {
      printf("FAIL: element %d is (%d, %d)\n", i, got[i].x, got[i].w);
      return 1;
    }
  printf("PASS\n");
  return 0;
}
