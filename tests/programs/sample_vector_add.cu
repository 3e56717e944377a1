/*
 * sample_vector_add.cu: the first program of every CUDA course, written as
 * the public samples write it: host arrays, three device buffers, copies in,
 * a kernel of one thread per element with a bounds check, cudaGetLastError()
 * after the launch, a copy out and a check against the host. The length is
 * not a multiple of the block size, so the last block is partial. Prints
 * PASS and exits 0 when all is well.
 */
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "check.cuh"

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int main() {
  const int n = 50021;
  const size_t bytes = n * sizeof(float);
  float *host_a = (float *)std::malloc(bytes);
  float *host_b = (float *)std::malloc(bytes);
  float *host_c = (float *)std::malloc(bytes);
  CHECK(host_a && host_b && host_c);
  if (!host_a || !host_b || !host_c)
    return finish();
  /* Reproducible inputs in [0, 1). */
  unsigned seed = 12345u;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    host_a[i] = (float)(seed >> 8) / (float)(1u << 24);
    seed = seed * 1664525u + 1013904223u;
    host_b[i] = (float)(seed >> 8) / (float)(1u << 24);
    host_c[i] = -1.0f;
  }

  float *dev_a = nullptr, *dev_b = nullptr, *dev_c = nullptr;
  CHECK(cudaMalloc((void **)&dev_a, bytes) == cudaSuccess);
  CHECK(cudaMalloc((void **)&dev_b, bytes) == cudaSuccess);
  CHECK(cudaMalloc((void **)&dev_c, bytes) == cudaSuccess);
  CHECK(cudaMemcpy(dev_a, host_a, bytes, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  CHECK(cudaMemcpy(dev_b, host_b, bytes, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  /* Poison the output so that an element nobody writes is noticed. */
  CHECK(cudaMemset(dev_c, 0xff, bytes) == cudaSuccess);

  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  vector_add<<<blocks, threads>>>(dev_a, dev_b, dev_c, n);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    std::fprintf(stderr, "vector_add failed to launch: %s\n",
                 cudaGetErrorString(err));
  CHECK(err == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(host_c, dev_c, bytes, cudaMemcpyDeviceToHost) ==
        cudaSuccess);

  int wrong = 0;
  for (int i = 0; i < n; ++i)
    if (!(std::fabs(host_a[i] + host_b[i] - host_c[i]) <= 1e-6f))
      ++wrong;
  if (wrong)
    std::fprintf(stderr, "%d of %d sums are wrong\n", wrong, n);
  CHECK(wrong == 0);

  CHECK(cudaFree(dev_a) == cudaSuccess);
  CHECK(cudaFree(dev_b) == cudaSuccess);
  CHECK(cudaFree(dev_c) == cudaSuccess);
  std::free(host_a);
  std::free(host_b);
  std::free(host_c);
  return finish();
}
