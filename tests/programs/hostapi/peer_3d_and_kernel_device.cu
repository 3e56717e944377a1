// cudaMemcpy3DPeer and cudaMemcpy3DPeerAsync (a pitched 3D box copied from
// device 0's memory to device 1's, with offsets on both sides) and
// cudaKernelSetAttributeForDevice (a cudaKernel_t's dynamic shared-memory
// limit, read back with cudaFuncGetAttributes), with their device checks
// (cudaErrorInvalidDevice). Two emulated devices (CUEMU_DEVICE, set before
// the first CUDA call). cuemu once had none of these functions.
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "../check.cuh"

__global__ void uses_shared(int *out) {
  extern __shared__ int buffer[];
  buffer[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = buffer[blockDim.x - 1 - threadIdx.x];
}

int main() {
  setenv("CUEMU_DEVICE", "count=2", 0); // before the first CUDA call
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  if (count < 2) {
    std::printf("one device only: nothing to check\nPASS\n");
    return 0;
  }
  const cudaExtent box = make_cudaExtent(8 * sizeof(int), 4, 3); // bytes, rows, slices
  cudaPitchedPtr src, dst;
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaMalloc3D(&src, make_cudaExtent(16 * sizeof(int), 6, 5)) == cudaSuccess);
  CHECK(cudaSetDevice(1) == cudaSuccess);
  CHECK(cudaMalloc3D(&dst, make_cudaExtent(16 * sizeof(int), 6, 5)) == cudaSuccess);
  CHECK(cudaMemset3D(dst, 0, make_cudaExtent(16 * sizeof(int), 6, 5)) == cudaSuccess);

  // Fill the source: element (x, y, z) = 10000 z + 100 y + x.
  CHECK(cudaSetDevice(0) == cudaSuccess);
  static int host[16 * 6 * 5];
  for (int z = 0; z < 5; ++z)
    for (int y = 0; y < 6; ++y)
      for (int x = 0; x < 16; ++x)
        host[(z * 6 + y) * 16 + x] = 10000 * z + 100 * y + x;
  cudaMemcpy3DParms up = {};
  up.srcPtr = make_cudaPitchedPtr(host, 16 * sizeof(int), 16, 6);
  up.dstPtr = src;
  up.extent = make_cudaExtent(16 * sizeof(int), 6, 5);
  up.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&up) == cudaSuccess);

  cudaMemcpy3DPeerParms p = {};
  p.srcPtr = src;
  p.srcDevice = 0;
  p.srcPos = make_cudaPos(2 * sizeof(int), 1, 1);
  p.dstPtr = dst;
  p.dstDevice = 1;
  p.dstPos = make_cudaPos(4 * sizeof(int), 2, 0);
  p.extent = box;
  CHECK(cudaMemcpy3DPeer(&p) == cudaSuccess);

  static int back[16 * 6 * 5];
  cudaMemcpy3DParms down = {};
  down.srcPtr = dst;
  down.dstPtr = make_cudaPitchedPtr(back, 16 * sizeof(int), 16, 6);
  down.extent = make_cudaExtent(16 * sizeof(int), 6, 5);
  down.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&down) == cudaSuccess);
  int bad = 0;
  for (int z = 0; z < 5; ++z)
    for (int y = 0; y < 6; ++y)
      for (int x = 0; x < 16; ++x) {
        bool inside = x >= 4 && x < 12 && y >= 2 && y < 6 && z < 3;
        int want = inside ? 10000 * (z + 1) + 100 * (y - 2 + 1) + (x - 4 + 2) : 0;
        bad += back[(z * 6 + y) * 16 + x] != want;
      }
  CHECK(bad == 0);

  // The asynchronous form, into a stream of device 1, then the device checks.
  CHECK(cudaSetDevice(1) == cudaSuccess);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s) == cudaSuccess);
  CHECK(cudaMemset3D(dst, 0, make_cudaExtent(16 * sizeof(int), 6, 5)) == cudaSuccess);
  CHECK(cudaMemcpy3DPeerAsync(&p, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(cudaMemcpy3D(&down) == cudaSuccess);
  CHECK(back[(0 * 6 + 2) * 16 + 4] == 10000 + 100 + 2);
  p.dstDevice = count;
  CHECK(cudaMemcpy3DPeer(&p) == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  CHECK(cudaMemcpy3DPeer(nullptr) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);

  // A kernel's attribute for a device.
  cudaKernel_t k = nullptr;
  CHECK(cudaGetKernel(&k, uses_shared) == cudaSuccess);
  CHECK(cudaKernelSetAttributeForDevice(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        64 * 1024, 1) == cudaSuccess);
  cudaFuncAttributes a;
  CHECK(cudaFuncGetAttributes(&a, uses_shared) == cudaSuccess);
  CHECK(a.maxDynamicSharedSizeBytes == 64 * 1024);
  CHECK(cudaKernelSetAttributeForDevice(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        1024, count) == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  int *out = nullptr;
  CHECK(cudaMalloc(&out, 1024 * sizeof(int)) == cudaSuccess);
  uses_shared<<<1, 1024, 64 * 1024>>>(out);
  CHECK(cudaGetLastError() == cudaSuccess);
  int h[1024];
  CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h[0] == 1023 && h[1023] == 0);
  CHECK(cudaFree(out) == cudaSuccess);
  CHECK(cudaFree(dst.ptr) == cudaSuccess);
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaFree(src.ptr) == cudaSuccess);
  return finish();
}
