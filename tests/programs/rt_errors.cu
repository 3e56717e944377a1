/*
 * rt_errors.cu: the errors of the CUDA runtime API: names and strings of
 * codes (with CUDA's values), the last error per host thread
 * (cudaGetLastError resets it, cudaPeekAtLastError does not), and the
 * sticky error after a kernel fault, which every call working with the
 * device returns until cudaDeviceReset clears it. Prints PASS when all is
 * well.
 */
#include <cstring>
#include <thread>

#include <cuda_runtime.h>

#include "check.cuh"

__global__ void write_through(int *p) { *p = 1; }

static bool same(const char *a, const char *b) { return std::strcmp(a, b) == 0; }

int main() {
  /* CUDA's values. */
  CHECK(cudaErrorInvalidValue == 1 && cudaErrorMemoryAllocation == 2);
  CHECK(cudaErrorInvalidPitchValue == 12 && cudaErrorInvalidDevicePointer == 17);
  CHECK(cudaErrorInvalidMemcpyDirection == 21 && cudaErrorInvalidDevice == 101);
  CHECK(cudaErrorNoKernelImageForDevice == 209 && cudaErrorNotReady == 600);
  CHECK(cudaErrorIllegalAddress == 700 && cudaErrorAssert == 710);
  CHECK(cudaErrorHostMemoryAlreadyRegistered == 712);
  CHECK(cudaErrorHostMemoryNotRegistered == 713);
  CHECK(cudaErrorCooperativeLaunchTooLarge == 720);
  CHECK(cudaErrorStreamCaptureUnsupported == 900 && cudaErrorUnknown == 999);

  /* Names and strings. */
  CHECK(same(cudaGetErrorName(cudaSuccess), "cudaSuccess"));
  CHECK(same(cudaGetErrorString(cudaSuccess), "no error"));
  CHECK(same(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue"));
  CHECK(same(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument"));
  CHECK(same(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory"));
  CHECK(same(cudaGetErrorName(cudaErrorInvalidDevice), "cudaErrorInvalidDevice"));
  CHECK(same(cudaGetErrorString(cudaErrorInvalidDevice),
             "invalid device ordinal"));
  CHECK(same(cudaGetErrorString(cudaErrorInvalidMemcpyDirection),
             "invalid copy direction for memcpy"));
  CHECK(same(cudaGetErrorName(cudaErrorHostMemoryNotRegistered),
             "cudaErrorHostMemoryNotRegistered"));
  CHECK(same(cudaGetErrorString(cudaErrorIllegalAddress),
             "an illegal memory access was encountered"));
  CHECK(same(cudaGetErrorName(cudaErrorTimeout), "cudaErrorTimeout"));
  CHECK(same(cudaGetErrorString(cudaErrorUnknown), "unknown error"));
  CHECK(same(cudaGetErrorString(static_cast<cudaError_t>(12345)),
             "unrecognized error code"));
  CHECK(same(cudaGetErrorName(static_cast<cudaError_t>(12345)),
             "unrecognized error code"));

  /* The last error: kept by Peek, reset by Get. */
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaSetDevice(7) == cudaErrorInvalidDevice);
  CHECK(cudaPeekAtLastError() == cudaErrorInvalidDevice);
  CHECK(cudaPeekAtLastError() == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaSuccess);
  /* A later success does not clear it. */
  CHECK(cudaMalloc(static_cast<void **>(nullptr), 4) == cudaErrorInvalidValue);
  int *d = nullptr;
  CHECK(cudaMalloc(&d, sizeof(int)) == cudaSuccess);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);

  /* Per host thread: another thread's error is not this one's. */
  cudaError_t other_before = cudaErrorUnknown, other_after = cudaErrorUnknown;
  std::thread t([&] {
    other_before = cudaGetLastError();
    cudaSetDevice(-1);
    other_after = cudaPeekAtLastError();
  });
  t.join();
  CHECK(other_before == cudaSuccess);
  CHECK(other_after == cudaErrorInvalidDevice);
  CHECK(cudaPeekAtLastError() == cudaSuccess);

  /* A fault: the error is sticky. */
  write_through<<<1, 1>>>(nullptr);
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  CHECK(cudaGetLastError() == cudaErrorIllegalAddress);
  CHECK(cudaGetLastError() == cudaErrorIllegalAddress);
  int *e = nullptr;
  CHECK(cudaMalloc(&e, 4) == cudaErrorIllegalAddress);
  int host = 0;
  CHECK(cudaMemcpy(&host, d, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaErrorIllegalAddress);
  CHECK(cudaMemset(d, 0, sizeof(int)) == cudaErrorIllegalAddress);
  CHECK(cudaFree(d) == cudaErrorIllegalAddress);
  CHECK(cudaSetDevice(0) == cudaErrorIllegalAddress);
  /* The device can still be described. */
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess && count == 1);

  /* cudaDeviceReset clears it and frees every allocation. */
  CHECK(cudaDeviceReset() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMalloc(&d, sizeof(int)) == cudaSuccess);
  write_through<<<1, 1>>>(d);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaMemcpy(&host, d, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(host == 1);
  CHECK(cudaFree(d) == cudaSuccess);
  return finish();
}
