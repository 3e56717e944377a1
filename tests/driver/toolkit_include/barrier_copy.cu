/*
 * barrier_copy.cu: a kernel that stages a tile in shared memory with
 * cuda::memcpy_async and a block-scope cuda::barrier (libcu++'s, from
 * <cuda/barrier>), built with the toolkit's include folder named by -I, as
 * FindCUDA's CUDA_INCLUDE_DIRS names it in a CMake project. Each block
 * writes its tile reversed. Prints PASS when every element is right.
 */
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda_runtime.h>
#include <cstdio>

namespace cg = cooperative_groups;

constexpr int kTile = 128;
constexpr int kTiles = 4;

__global__ void reverse_tiles(const float *in, float *out) {
  __shared__ cuda::barrier<cuda::thread_scope::thread_scope_block> ready;
  __shared__ float tile[kTile];
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&ready, block.size());
  block.sync();
  const int base = blockIdx.x * kTile;
  cuda::memcpy_async(&tile[threadIdx.x], &in[base + threadIdx.x],
                     cuda::aligned_size_t<sizeof(float)>(sizeof(float)), ready);
  ready.arrive_and_wait();
  out[base + threadIdx.x] = tile[kTile - 1 - threadIdx.x];
}

int main() {
  const int n = kTile * kTiles;
  float *in = nullptr, *out = nullptr;
  if (cudaMallocManaged(&in, n * sizeof(float)) != cudaSuccess ||
      cudaMallocManaged(&out, n * sizeof(float)) != cudaSuccess) {
    printf("FAIL: cudaMallocManaged\n");
    return 1;
  }
  for (int i = 0; i < n; ++i)
    in[i] = 0.5f * i;
  reverse_tiles<<<kTiles, kTile>>>(in, out);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  int bad = 0;
  for (int b = 0; b < kTiles; ++b)
    for (int i = 0; i < kTile; ++i)
      if (out[b * kTile + i] != in[b * kTile + kTile - 1 - i])
        ++bad;
  cudaFree(in);
  cudaFree(out);
  if (bad) {
    printf("FAIL: %d elements wrong\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
