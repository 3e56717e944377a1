// lto_scale.cu: a kernel whose unit a Makefile builds with the host
// compiler's link-time optimisation (-Xcompiler -flto), linked with
// lto_main.cpp's LTO object (tests/driver_makefile_options.sh).
#include <cuda_runtime.h>

__global__ void scale_by(int *values, int factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    values[i] *= factor;
}

// Scales n host values on the device; returns the launch's status.
int scale_on_device(int *host, int factor, int n) {
  int *device = nullptr;
  if (cudaMalloc(&device, n * sizeof(int)) != cudaSuccess)
    return 1;
  cudaMemcpy(device, host, n * sizeof(int), cudaMemcpyHostToDevice);
  scale_by<<<(n + 63) / 64, 64>>>(device, factor, n);
  cudaError_t status = cudaDeviceSynchronize();
  cudaMemcpy(host, device, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(device);
  return status == cudaSuccess ? 0 : 1;
}
