// peer_memcheck.cu: memcheck (--check=mem) and peer access: a kernel on
// one device that touches another device's memory is reported unless
// cudaDeviceEnablePeerAccess allowed it, as on GPUs without access to each
// other, where such a kernel faults.
// CUEMU_OPTIONS: --check=mem
#include <cstdlib>

#include "../check.cuh"

__global__ void sum_into(float *dst, const float *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] += src[i];
}

int main() {
#ifdef __CUEMU__
  /* Its memcheck reports are expected: they leave the exit status 0
   * (they count for it otherwise, docs/checkers.md). */
  setenv("CUEMU_CHECK_EXIT_STATUS", "0", 1);
#endif
#ifdef __CUEMU__
  setenv("CUEMU_DEVICE", "count=2", 1); // before the first CUDA call
  setenv("CUEMU_QUIET", "1", 1);
#endif
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  if (count < 2) {
    std::printf("needs two devices\n");
    return finish();
  }
  const int n = 256;
  float *a[2];
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d) == cudaSuccess);
    CHECK(cudaMalloc(&a[d], n * sizeof(float)) == cudaSuccess);
    CHECK(cudaMemset(a[d], 0, n * sizeof(float)) == cudaSuccess);
  }
  // Device 1 may read device 0's memory.
  CHECK(cudaSetDevice(1) == cudaSuccess);
  CHECK(cudaDeviceEnablePeerAccess(0, 0) == cudaSuccess);
  sum_into<<<1, n>>>(a[1], a[0], n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  // Device 0 may not read device 1's: memcheck stops the kernel.
  CHECK(cudaSetDevice(0) == cudaSuccess);
  sum_into<<<1, n>>>(a[0], a[1], n);
  CHECK(cudaDeviceSynchronize() != cudaSuccess);
  // Device 1 is unaffected.
  CHECK(cudaSetDevice(1) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaFree(a[1]) == cudaSuccess);
  return finish();
}
