/*
 * runtime_errors.cu: errors of the CUDA runtime API in a whole program: a
 * launch with a bad configuration is reported by cudaGetLastError() (and
 * cleared by it), error names and strings, and a failed assert() in a kernel
 * makes cudaDeviceSynchronize() return cudaErrorAssert, stickily. Prints PASS
 * and exits 0 when all is well.
 */
#include <cassert>
#include <cstring>

#include <cuda_runtime.h>

#include "check.cuh"

__global__ void store(int *out, int value) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

__global__ void assert_positive(const int *values) {
  assert(values[blockIdx.x * blockDim.x + threadIdx.x] > 0);
}

int main() {
  int *d = nullptr;
  CHECK(cudaMallocManaged(&d, 64 * sizeof(int)) == cudaSuccess);

  /* Bad configurations: nothing runs; the error is not sticky. */
  d[0] = -1;
  store<<<1, 2048>>>(d, 5);
  CHECK(cudaPeekAtLastError() == cudaErrorInvalidConfiguration);
  CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(d[0] == -1);
  store<<<dim3(1, 1, 0), 32>>>(d, 5);
  CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
  store<<<1, dim3(32, 1, 65)>>>(d, 5);
  CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  /* A good launch still works. */
  store<<<2, 32>>>(d, 5);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(d[0] == 5 && d[63] == 5);

  /* Names and strings. */
  CHECK(std::strcmp(cudaGetErrorName(cudaSuccess), "cudaSuccess") == 0);
  CHECK(std::strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration),
                    "cudaErrorInvalidConfiguration") == 0);
  CHECK(std::strcmp(cudaGetErrorName(cudaErrorAssert), "cudaErrorAssert") ==
        0);
  CHECK(std::strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0);
  CHECK(std::strcmp(cudaGetErrorString(cudaErrorInvalidConfiguration),
                    "invalid configuration argument") == 0);
  CHECK(std::strcmp(cudaGetErrorString(cudaErrorAssert),
                    "device-side assert triggered") == 0);
  CHECK(std::strcmp(cudaGetErrorString(cudaErrorIllegalAddress),
                    "an illegal memory access was encountered") == 0);

  /* A failed assert: the error is sticky. */
  for (int i = 0; i < 64; ++i)
    d[i] = i == 37 ? 0 : 1;
  assert_positive<<<2, 32>>>(d);
  CHECK(cudaDeviceSynchronize() == cudaErrorAssert);
  CHECK(cudaDeviceSynchronize() == cudaErrorAssert);
  CHECK(cudaGetLastError() == cudaErrorAssert);
  int host = 0;
  CHECK(cudaMemcpy(&host, d, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaErrorAssert);
  return finish();
}
