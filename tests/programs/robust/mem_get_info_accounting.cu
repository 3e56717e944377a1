// mem_get_info_accounting.cu: cudaMemGetInfo's free memory did not change
// with allocations (it was the host's free memory, or the configured
// total): cudaMalloc(1 GiB) left it as it was. On a GPU, live device
// allocations take their bytes from it and freeing gives them back. The
// device's memory is set (CUEMU_DEVICE mem=4096, before any CUDA call), so
// the figures are exact here.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "../check.cuh"

static size_t free_now() {
  size_t free_bytes = 0, total = 0;
  CHECK(cudaMemGetInfo(&free_bytes, &total) == cudaSuccess);
  return free_bytes;
}

int main() {
  setenv("CUEMU_DEVICE", "mem=4096", 1);
  const size_t MiB = (size_t)1 << 20;
  size_t free0 = 0, total = 0;
  CHECK(cudaMemGetInfo(&free0, &total) == cudaSuccess);
  CHECK(total == 4096 * MiB);
  CHECK(free0 == total);

  void *a = nullptr, *b = nullptr, *c = nullptr, *m = nullptr, *h = nullptr;
  CHECK(cudaMalloc(&a, 100 * MiB) == cudaSuccess);
  CHECK(free_now() == free0 - 100 * MiB);
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&b, &pitch, 1000, 300) == cudaSuccess);
  CHECK(pitch >= 1000);
  CHECK(free_now() == free0 - 100 * MiB - pitch * 300);
  CHECK(cudaMallocAsync(&c, 64 * MiB, 0) == cudaSuccess);
  CHECK(cudaStreamSynchronize(0) == cudaSuccess);
  CHECK(free_now() == free0 - 164 * MiB - pitch * 300);

  // Managed and pinned host memory are not the device's.
  CHECK(cudaMallocManaged(&m, 8 * MiB) == cudaSuccess);
  CHECK(cudaMallocHost(&h, 8 * MiB) == cudaSuccess);
  CHECK(free_now() == free0 - 164 * MiB - pitch * 300);

  CHECK(cudaFree(a) == cudaSuccess);
  CHECK(cudaFree(b) == cudaSuccess);
  CHECK(cudaFreeAsync(c, 0) == cudaSuccess);
  CHECK(cudaStreamSynchronize(0) == cudaSuccess);
  CHECK(free_now() == free0);
  CHECK(cudaFree(m) == cudaSuccess && cudaFreeHost(h) == cudaSuccess);

  // cudaDeviceReset frees every allocation.
  CHECK(cudaMalloc(&a, 10 * MiB) == cudaSuccess);
  CHECK(free_now() == free0 - 10 * MiB);
  CHECK(cudaDeviceReset() == cudaSuccess);
  CHECK(free_now() == free0);
  return finish();
}
