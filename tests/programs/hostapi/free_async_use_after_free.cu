/*
 * free_async_use_after_free.cu: a kernel that reads memory after
 * cudaFreeAsync, on the same stream, is caught by memcheck (built with
 * --check=mem) as compute-sanitizer catches it: the launch fails with
 * cudaErrorLaunchFailure, which is sticky until cudaDeviceReset. The same
 * program with the memory used before the free runs clean. Prints PASS
 * when all is well.
 * CUEMU_OPTIONS: --check=mem
 */
#include <cstdlib>
#include <cstdio>

#include <cuda_runtime.h>

#include "../check.cuh"
#include "pool_kernels.cuh"

int main() {
#ifdef __CUEMU__
  /* Its memcheck reports are expected: they leave the exit status 0
   * (they count for it otherwise, docs/checkers.md). */
  setenv("CUEMU_CHECK_EXIT_STATUS", "0", 1);
#endif
  const int n = 1024;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  float *buf = nullptr;
  float *total = nullptr;
  CHECK(cudaMalloc(&total, sizeof *total) == cudaSuccess);
  CHECK(cudaMemsetAsync(total, 0, sizeof *total, s) == cudaSuccess);

  /* Correct: the kernels run before the free in stream order. */
  CHECK(cudaMallocAsync(&buf, n * sizeof *buf, s) == cudaSuccess);
  fill<float><<<n / 256, 256, 0, s>>>(buf, n, 0.5f);
  block_sum<float, 256><<<n / 256, 256, 0, s>>>(buf, n, total);
  CHECK(cudaFreeAsync(buf, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  float host = 0;
  CHECK(cudaMemcpy(&host, total, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(host == 0.5f * n + (n - 1) * n / 2.0f);

  /* Wrong: the kernel reads the buffer after the stream freed it. */
  CHECK(cudaMallocAsync(&buf, n * sizeof *buf, s) == cudaSuccess);
  fill<float><<<n / 256, 256, 0, s>>>(buf, n, 1.0f);
  CHECK(cudaFreeAsync(buf, s) == cudaSuccess);
  block_sum<float, 256><<<n / 256, 256, 0, s>>>(buf, n, total);
  cudaError_t e = cudaStreamSynchronize(s);
  CHECK(e == cudaErrorLaunchFailure || e == cudaErrorIllegalAddress);
  /* Sticky: the device stays unusable until it is reset. */
  CHECK(cudaMallocAsync(&buf, 16, s) == e);
  CHECK(cudaDeviceReset() == cudaSuccess);
  CHECK(cudaMallocAsync(&buf, 16, 0) == cudaSuccess);
  CHECK(cudaFreeAsync(buf, 0) == cudaSuccess);
  std::fflush(stdout);
  return finish();
}
