// CUDA arrays live in the device's memory, as cudaMalloc's bytes do: an
// array larger than what the device has left is refused with
// cudaErrorMemoryAllocation (not sticky), and a live array counts in
// cudaMemGetInfo. A program that asked for a 4096^3 3D array of floats
// (256 GiB, on a device of a tenth of that) was given it, then its texture
// was made and fetched; two arrays over the device's memory together were
// given too.
#include <cstdio>
#include "../check.cuh"

int main() {
  size_t free0 = 0, total = 0;
  CHECK(cudaMemGetInfo(&free0, &total) == cudaSuccess);
  cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
  cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();

  // 16384^3 floats (16 TiB): within the 3D limits, beyond any device's memory.
  cudaArray_t huge = nullptr;
  CHECK(cudaMalloc3DArray(&huge, &f1, make_cudaExtent(16384, 16384, 16384)) ==
        cudaErrorMemoryAllocation);
  CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);
  CHECK(cudaGetLastError() == cudaSuccess);  // not sticky
  cudaMipmappedArray_t mip = nullptr;
  CHECK(cudaMallocMipmappedArray(&mip, &f1, make_cudaExtent(16384, 16384, 16384), 4, 0) ==
        cudaErrorMemoryAllocation);
  cudaGetLastError();

  // Two arrays of a little over half the device each: one fits, both do not.
  const size_t slice = (size_t)16384 * 1024 * sizeof(float4);  // 256 MiB
  size_t depth = total / 2 / slice + 1;
  cudaArray_t a = nullptr, b = nullptr;
  CHECK(cudaMalloc3DArray(&a, &f4, make_cudaExtent(16384, 1024, depth)) == cudaSuccess);
  size_t free1 = 0;
  CHECK(cudaMemGetInfo(&free1, &total) == cudaSuccess);
  CHECK(free1 + depth * slice <= free0);  // the array's bytes are in use
  CHECK(cudaMalloc3DArray(&b, &f4, make_cudaExtent(16384, 1024, depth)) ==
        cudaErrorMemoryAllocation);
  cudaGetLastError();
  CHECK(cudaFreeArray(a) == cudaSuccess);
  CHECK(cudaMalloc3DArray(&b, &f4, make_cudaExtent(16384, 1024, depth)) == cudaSuccess);
  CHECK(cudaFreeArray(b) == cudaSuccess);

  // A small array still works, and its texture reads what was copied.
  cudaArray_t small = nullptr;
  CHECK(cudaMallocArray(&small, &f1, 4, 1) == cudaSuccess);
  float host[4] = {1, 2, 3, 4};
  CHECK(cudaMemcpy2DToArray(small, 0, 0, host, sizeof host, sizeof host, 1,
                            cudaMemcpyHostToDevice) == cudaSuccess);
  float back[4] = {};
  CHECK(cudaMemcpy2DFromArray(back, sizeof back, small, 0, 0, sizeof back, 1,
                              cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back[3] == 4.0f);
  CHECK(cudaFreeArray(small) == cudaSuccess);
  std::printf("device of %zu MiB: arrays of %zu MiB\n", total >> 20, (depth * slice) >> 20);
  return finish();
}
