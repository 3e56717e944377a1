/*
 * sample_error_paths.cu: how a CUDA program sees its errors, in the style of
 * the samples' error-checking macros. A launch with a bad configuration
 * (more than 1024 threads per block, or an empty grid) runs nothing and is
 * reported by cudaGetLastError(), which also clears it; the next good launch
 * works. Then a kernel writes far past the end of its buffer: the fault is
 * cudaErrorIllegalAddress from cudaDeviceSynchronize(), and it is sticky:
 * every later call returns it, cudaGetLastError() does not clear it, and a
 * new launch does not run. Prints PASS and exits 0 when all is well.
 */
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

#include "check.cuh"

/* Reports a failed call with its name, file and line, as the samples'
 * checkCudaErrors does, but counts it instead of exiting. */
#define EXPECT_CUDA(call, expected)                                            \
  do {                                                                         \
    cudaError_t got_ = (call);                                                 \
    if (got_ != (expected)) {                                                  \
      std::fprintf(stderr, "%s:%d: %s returned %s (%s), expected %s\n",        \
                   __FILE__, __LINE__, #call, cudaGetErrorName(got_),          \
                   cudaGetErrorString(got_), cudaGetErrorName(expected));      \
      ++check_failures;                                                        \
    }                                                                          \
  } while (0)

__global__ void fill(int *data, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = value;
}

/* Thread `culprit` writes `distance` elements past the end of `data`. */
__global__ void write_past_end(int *data, int n, int culprit,
                               long long distance) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == culprit)
    data[n - 1 + distance] = -1;
  else if (i < n)
    data[i] = i;
}

int main() {
  const int n = 1000;
  int *data = nullptr;
  int host[n];
  EXPECT_CUDA(cudaMalloc(&data, n * sizeof(int)), cudaSuccess);
  EXPECT_CUDA(cudaMemset(data, 0, n * sizeof(int)), cudaSuccess);

  /* Bad configurations: nothing runs, and the error is not sticky. */
  fill<<<1, 1025>>>(data, n, 7);
  EXPECT_CUDA(cudaPeekAtLastError(), cudaErrorInvalidConfiguration);
  EXPECT_CUDA(cudaGetLastError(), cudaErrorInvalidConfiguration);
  EXPECT_CUDA(cudaGetLastError(), cudaSuccess);
  fill<<<0, 256>>>(data, n, 7);
  EXPECT_CUDA(cudaGetLastError(), cudaErrorInvalidConfiguration);
  fill<<<dim3(4, 1, 1), dim3(16, 16, 8)>>>(data, n, 7);
  EXPECT_CUDA(cudaGetLastError(), cudaErrorInvalidConfiguration);
  EXPECT_CUDA(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_CUDA(cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost),
              cudaSuccess);
  CHECK(host[0] == 0 && host[n - 1] == 0);

  /* A good launch still works. */
  fill<<<(n + 255) / 256, 256>>>(data, n, 7);
  EXPECT_CUDA(cudaGetLastError(), cudaSuccess);
  EXPECT_CUDA(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_CUDA(cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost),
              cudaSuccess);
  CHECK(host[0] == 7 && host[n - 1] == 7);

  /* The names and descriptions programs print. */
  CHECK(std::strcmp(cudaGetErrorName(cudaErrorIllegalAddress),
                    "cudaErrorIllegalAddress") == 0);
  CHECK(std::strcmp(cudaGetErrorString(cudaErrorIllegalAddress),
                    "an illegal memory access was encountered") == 0);
  CHECK(std::strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration),
                    "cudaErrorInvalidConfiguration") == 0);

  /* An out-of-bounds write 16 TiB past the end of the buffer: an address
   * that nothing maps, on the GPU as on the host. */
  write_past_end<<<(n + 255) / 256, 256>>>(data, n, 300, 1LL << 42);
  /* The launch itself was fine; the fault shows when the work is waited
   * for (or at once, when launches are synchronous). */
  cudaError_t launch = cudaGetLastError();
  CHECK(launch == cudaSuccess || launch == cudaErrorIllegalAddress);
  EXPECT_CUDA(cudaDeviceSynchronize(), cudaErrorIllegalAddress);

  /* Sticky: every later call reports it, and nothing clears it. */
  EXPECT_CUDA(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  EXPECT_CUDA(cudaGetLastError(), cudaErrorIllegalAddress);
  EXPECT_CUDA(cudaGetLastError(), cudaErrorIllegalAddress);
  EXPECT_CUDA(cudaPeekAtLastError(), cudaErrorIllegalAddress);
  EXPECT_CUDA(cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost),
              cudaErrorIllegalAddress);
  EXPECT_CUDA(cudaMemset(data, 0, sizeof host), cudaErrorIllegalAddress);
  int *more = nullptr;
  EXPECT_CUDA(cudaMalloc(&more, 64), cudaErrorIllegalAddress);
  fill<<<1, 32>>>(data, n, 9);
  EXPECT_CUDA(cudaGetLastError(), cudaErrorIllegalAddress);
  EXPECT_CUDA(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  return finish();
}
