/*
 * static_member_child_launch.cu: a launch in kernel code (dynamic
 * parallelism) whose argument is a static const data member initialised in
 * its class and defined nowhere, as a host launch of
 * static_member_argument.cu's. nvcc's device-side launch takes its
 * arguments by value and reads the constant; cuemu's device-side launcher
 * bound a forwarding reference to it, and cuemu-cc's device pass refused
 * the program with nvcc's words for an odr-used host variable:
 * 'identifier "Batch::kSize" is undefined in device code'. Built at -O0,
 * where nothing folds the constant.
 * CUEMU_OPTIONS: -O0 -rdc=true
 * NVCC_OPTIONS: -rdc=true
 * Prints PASS and exits 0 when all is well.
 */
#include <cstdint>

#include <cuda_runtime.h>

#include "../check.cuh"

struct Batch {
  static const uint32_t kSize = 1024;
  static const int kOffset = -8;
};

__global__ void fill(uint32_t *out, uint32_t size, int offset) {
  out[threadIdx.x] = size + static_cast<uint32_t>(offset) + threadIdx.x;
}

template <typename T> __global__ void fill_any(T *out, uint32_t size) {
  out[threadIdx.x] = static_cast<T>(size) + threadIdx.x;
}

__global__ void parent(uint32_t *out) {
  fill<<<1, 4>>>(out, Batch::kSize, Batch::kOffset);
  fill_any<<<1, 4>>>(out + 4, Batch::kSize);
}

int main() {
  uint32_t *d = nullptr;
  CHECK(cudaMalloc(&d, 8 * sizeof(uint32_t)) == cudaSuccess);
  parent<<<1, 1>>>(d);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  uint32_t h[8] = {0};
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < 4; i++) {
    CHECK(h[i] == 1016u + i);
    CHECK(h[4 + i] == 1024u + i);
  }
  cudaFree(d);
  return finish();
}
