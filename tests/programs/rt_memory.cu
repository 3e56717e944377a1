/*
 * rt_memory.cu: memory of the CUDA runtime API: cudaMalloc, cudaFree,
 * cudaMallocHost, cudaFreeHost, cudaHostAlloc, cudaHostRegister and
 * cudaHostUnregister, cudaHostGetDevicePointer, cudaMallocManaged,
 * cudaMallocPitch, cudaMemcpy and cudaMemcpyAsync in every kind,
 * cudaMemcpy2D, cudaMemset, cudaMemsetAsync and cudaPointerGetAttributes,
 * and the errors of tracked memory: a pointer that is not an allocation, a
 * range past an allocation's end, a double free and a wrong copy kind are
 * refused with CUDA's codes and change nothing. Prints PASS when all is
 * well.
 */
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#include "check.cuh"

__global__ void add_one(int *p, int n) {
  int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n)
    p[i] += 1;
}

/* Adds one to each of `width` ints in each of `height` rows `pitch` bytes
 * apart. */
__global__ void add_one_2d(char *base, size_t pitch, int width, int height) {
  int x = (int)threadIdx.x, y = (int)blockIdx.x;
  if (x < width && y < height)
    reinterpret_cast<int *>(base + y * pitch)[x] += 1;
}

int main() {
  const int n = 256;
  const size_t bytes = n * sizeof(int);
  int host[n], back[n];
  for (int i = 0; i < n; ++i)
    host[i] = i;

  /* Device memory, copies in every kind. */
  int *d = nullptr, *d2 = nullptr;
  CHECK(cudaMalloc(&d, bytes) == cudaSuccess && d != nullptr);
  CHECK(reinterpret_cast<size_t>(d) % 256 == 0);
  CHECK(cudaMalloc(reinterpret_cast<void **>(&d2), bytes) == cudaSuccess);
  CHECK(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice) == cudaSuccess);
  add_one<<<1, n>>>(d, n);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaMemcpy(d2, d, bytes, cudaMemcpyDeviceToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(back, d2, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back[0] == 1 && back[n - 1] == n);
  int copy[n];
  CHECK(cudaMemcpy(copy, back, bytes, cudaMemcpyHostToHost) == cudaSuccess);
  CHECK(copy[7] == 8);
  CHECK(cudaMemcpy(d, host, bytes, cudaMemcpyDefault) == cudaSuccess);
  CHECK(cudaMemcpy(back, d, bytes, cudaMemcpyDefault) == cudaSuccess);
  CHECK(back[5] == 5);
  CHECK(cudaMemcpyAsync(d2, host, bytes, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  CHECK(cudaMemcpyAsync(back, d2, bytes, cudaMemcpyDeviceToHost, 0) ==
        cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(back[9] == 9);
  CHECK(cudaMemcpy(d, host, 0, cudaMemcpyHostToDevice) == cudaSuccess);

  /* Sets. */
  CHECK(cudaMemset(d, 0x01, bytes) == cudaSuccess);
  CHECK(cudaMemsetAsync(d2, 0, bytes, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(back, d, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back[0] == 0x01010101 && back[n - 1] == 0x01010101);
  CHECK(cudaMemcpy(back, d2, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back[3] == 0);

  /* Errors: nothing is touched. */
  for (int i = 0; i < n; ++i)
    back[i] = -7;
  int plain[n];
  for (int i = 0; i < n; ++i)
    plain[i] = -5;
  /* A wrong kind: the device side is not device memory. */
  CHECK(cudaMemcpy(plain, host, bytes, cudaMemcpyHostToDevice) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemcpy(back, plain, bytes, cudaMemcpyDeviceToHost) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemcpy(d, plain, bytes, cudaMemcpyDeviceToDevice) ==
        cudaErrorInvalidValue);
  CHECK(plain[0] == -5 && back[0] == -7);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  /* An invalid kind. */
  CHECK(cudaMemcpy(d, host, bytes, static_cast<cudaMemcpyKind>(7)) ==
        cudaErrorInvalidMemcpyDirection);
  CHECK(cudaGetLastError() == cudaErrorInvalidMemcpyDirection);
  /* Past the end, on either side. */
  CHECK(cudaMemcpy(d + 1, host, bytes, cudaMemcpyHostToDevice) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemcpy(back, d + 1, bytes, cudaMemcpyDeviceToHost) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemcpy(d, d2 + 1, bytes, cudaMemcpyDefault) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemset(d + n - 1, 0, 2 * sizeof(int)) == cudaErrorInvalidValue);
  CHECK(cudaMemcpy(back, d, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back[0] == 0x01010101 && back[n - 1] == 0x01010101);
  /* Inside an allocation is fine. */
  CHECK(cudaMemcpy(d + 10, host, 4 * sizeof(int), cudaMemcpyHostToDevice) ==
        cudaSuccess);
  /* Null pointers, and a set of memory that is not the device's. */
  CHECK(cudaMemcpy(nullptr, host, 4, cudaMemcpyHostToDevice) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemset(nullptr, 0, 4) == cudaErrorInvalidValue);
  CHECK(cudaMemset(plain, 0, sizeof plain) == cudaErrorInvalidValue);
  CHECK(plain[0] == -5);
  /* Frees: not an allocation, inside one, twice. */
  CHECK(cudaFree(nullptr) == cudaSuccess);
  CHECK(cudaFree(plain) == cudaErrorInvalidValue);
  CHECK(cudaFree(d + 1) == cudaErrorInvalidValue);
  CHECK(cudaFree(d2) == cudaSuccess);
  CHECK(cudaFree(d2) == cudaErrorInvalidValue);
  /* A freed allocation is no longer device memory. */
  CHECK(cudaMemcpy(d2, host, bytes, cudaMemcpyHostToDevice) ==
        cudaErrorInvalidValue);
  CHECK(cudaMalloc(static_cast<void **>(nullptr), 4) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);

  /* Pinned host memory. */
  int *pinned = nullptr, *mapped = nullptr;
  CHECK(cudaMallocHost(&pinned, bytes) == cudaSuccess && pinned != nullptr);
  CHECK(cudaHostAlloc(&mapped, bytes, cudaHostAllocMapped) == cudaSuccess);
  CHECK(cudaHostAlloc(&mapped, bytes, 0x100) == cudaErrorInvalidValue);
  for (int i = 0; i < n; ++i)
    pinned[i] = 2 * i;
  CHECK(cudaMemcpy(d, pinned, bytes, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(mapped, d, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(mapped[4] == 8);
  int *mapped_dev = nullptr;
  CHECK(cudaHostGetDevicePointer(&mapped_dev, mapped, 0) == cudaSuccess);
  add_one<<<1, n>>>(mapped_dev, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(mapped[4] == 9);
  CHECK(cudaHostGetDevicePointer(&mapped_dev, plain, 0) ==
        cudaErrorInvalidValue);
  CHECK(cudaFreeHost(d) == cudaErrorInvalidValue);
  CHECK(cudaFree(pinned) == cudaErrorInvalidValue);
  CHECK(cudaFreeHost(pinned) == cudaSuccess);
  CHECK(cudaFreeHost(pinned) == cudaErrorInvalidValue);
  CHECK(cudaFreeHost(mapped) == cudaSuccess);

  /* Registered host memory. */
  int *buffer = static_cast<int *>(std::malloc(bytes));
  CHECK(cudaHostRegister(buffer, bytes, cudaHostRegisterDefault) ==
        cudaSuccess);
  CHECK(cudaHostRegister(buffer, bytes, cudaHostRegisterDefault) ==
        cudaErrorHostMemoryAlreadyRegistered);
  CHECK(cudaHostRegister(nullptr, bytes, 0) == cudaErrorInvalidValue);
  CHECK(cudaMemcpy(buffer, d, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(buffer[3] == 6);
  CHECK(cudaHostUnregister(buffer) == cudaSuccess);
  CHECK(cudaHostUnregister(buffer) == cudaErrorHostMemoryNotRegistered);
  CHECK(cudaGetLastError() == cudaErrorHostMemoryNotRegistered);
  std::free(buffer);

  /* Managed memory. */
  int *managed = nullptr;
  CHECK(cudaMallocManaged(&managed, bytes) == cudaSuccess);
  CHECK(cudaMallocManaged(&managed, bytes, 0) == cudaErrorInvalidValue);
  for (int i = 0; i < n; ++i)
    managed[i] = i;
  add_one<<<1, n>>>(managed, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(managed[0] == 1 && managed[n - 1] == n);
  CHECK(cudaMemcpy(d, managed, bytes, cudaMemcpyDeviceToDevice) ==
        cudaSuccess);

  /* Pointer attributes. */
  cudaPointerAttributes attr;
  CHECK(cudaPointerGetAttributes(&attr, d + 3) == cudaSuccess);
  CHECK(attr.type == cudaMemoryTypeDevice && attr.device == 0);
  CHECK(attr.devicePointer == d + 3 && attr.hostPointer == nullptr);
  CHECK(cudaPointerGetAttributes(&attr, managed) == cudaSuccess);
  CHECK(attr.type == cudaMemoryTypeManaged && attr.devicePointer == managed &&
        attr.hostPointer == managed);
  CHECK(cudaMallocHost(&pinned, bytes) == cudaSuccess);
  CHECK(cudaPointerGetAttributes(&attr, pinned) == cudaSuccess);
  CHECK(attr.type == cudaMemoryTypeHost && attr.hostPointer == pinned);
  CHECK(cudaFreeHost(pinned) == cudaSuccess);
  CHECK(cudaPointerGetAttributes(&attr, plain) == cudaSuccess);
  CHECK(attr.type == cudaMemoryTypeUnregistered);
  CHECK(cudaPointerGetAttributes(nullptr, d) == cudaErrorInvalidValue);
  CHECK(cudaFree(managed) == cudaSuccess);

  /* Pitched memory and 2D copies. */
  const int width = 20, height = 5;
  int *pitched = nullptr;
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&pitched, &pitch, width * sizeof(int), height) ==
        cudaSuccess);
  CHECK(pitch >= width * sizeof(int) && pitch % 256 == 0);
  int grid[height][width], result[height][width];
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      grid[y][x] = 100 * y + x;
  CHECK(cudaMemcpy2D(pitched, pitch, grid, width * sizeof(int),
                     width * sizeof(int), height,
                     cudaMemcpyHostToDevice) == cudaSuccess);
  add_one_2d<<<height, width>>>(reinterpret_cast<char *>(pitched), pitch,
                                width, height);
  CHECK(cudaMemcpy2D(result, width * sizeof(int), pitched, pitch,
                     width * sizeof(int), height,
                     cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(result[0][0] == 1 && result[4][19] == 420);
  /* A width above a pitch, and rows past the allocation's end. */
  CHECK(cudaMemcpy2D(pitched, 8, grid, width * sizeof(int), 16, height,
                     cudaMemcpyHostToDevice) == cudaErrorInvalidPitchValue);
  CHECK(cudaMemcpy2D(pitched, pitch, grid, width * sizeof(int),
                     width * sizeof(int), height + 1,
                     cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  CHECK(cudaMemcpy2D(result, width * sizeof(int), pitched, pitch,
                     width * sizeof(int), height,
                     cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(result[0][0] == 1 && result[4][19] == 420);
  CHECK(cudaFree(pitched) == cudaSuccess);

  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaSuccess);
  return finish();
}
