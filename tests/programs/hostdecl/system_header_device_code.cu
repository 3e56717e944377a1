// system_header_device_code.cu: device code of a system header (-isystem
// sysinc) that cuemu's host pass keeps (a __device__ function's body with
// inline PTX and shuffles, a kernel template): the unit's host pass is
// preprocessed again with the whole shim prelude, and the launch of the
// header's kernel template sums as the host does.
// CUEMU_OPTIONS: -isystem sysinc
// NVCC_OPTIONS: -isystem sysinc
#include <cuda_runtime.h>
#include <warp_tools.cuh>

#include "../check.cuh"

int main() {
  const int n = 1000;
  short host_in[n];
  int expected = 0;
  for (int i = 0; i < n; ++i) {
    host_in[i] = (short)((i * 37) % 101 - 50);
    expected += host_in[i];
  }
  short *in;
  int *total;
  CHECK(cudaMalloc(&in, sizeof host_in) == cudaSuccess);
  CHECK(cudaMallocManaged(&total, sizeof(int)) == cudaSuccess);
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  *total = 0;
  warp_tools::sum_into<<<(n + 127) / 128, 128>>>(in, n, total);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*total == expected);
  cudaFree(in);
  cudaFree(total);
  return finish();
}
