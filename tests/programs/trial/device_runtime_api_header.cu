// A program that launches kernels from kernels (dynamic parallelism)
// includes <cuda_device_runtime_api.h> by name for the device runtime's
// declarations: the named streams and cudaGetParameterBuffer. nvcc 13 builds
// it (with -rdc=true) with no warning. cuemu had no shim of this name, so the
// toolkit's header was read and its declarations conflicted with cuemu's
// ("conflicting declaration of 'cudaError_t cudaGraphLaunch(...)'"). A parent
// kernel must launch its children into the default, the fire-and-forget and
// the tail-launch streams, and each child's work must be done.
// CUEMU_OPTIONS: -rdc=true
// NVCC_OPTIONS: -rdc=true
#include <cuda_runtime.h>
#include <cuda_device_runtime_api.h>
#include "../check.cuh"

__global__ void grow(int *cells, int amount) { atomicAdd(&cells[threadIdx.x], amount); }

// Block b's thread 0 seeds the children: each of four cells gains 1 + 10 + 100 per block.
__global__ void seed(int *cells) {
  if (threadIdx.x == 0) {
    grow<<<1, 4>>>(cells, 1);
    grow<<<1, 4, 0, cudaStreamFireAndForget>>>(cells, 10);
    grow<<<1, 4, 0, cudaStreamTailLaunch>>>(cells, 100);
  }
}

int main() {
  int *d, h[4];
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  seed<<<3, 32>>>(d);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4; ++i) CHECK(h[i] == 3 * 111);
  cudaFree(d);
  return finish();
}
