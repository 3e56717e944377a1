/*
 * launch_forms.cu: every form of <<< >>> launch that cuemu-cc rewrites: two,
 * three and four configuration arguments, dim3 variables and temporaries,
 * kernel templates with explicit and deduced arguments, launches inside a
 * macro's argument and inside a function template, and launches through a
 * function pointer variable. Prints PASS and exits 0 when all is well.
 */
#include <cuda_runtime.h>

#include "check.cuh"

/* Adds `value` to the slot of the calling thread, numbered over the whole
 * 3-D grid of 3-D blocks. */
__global__ void mark(int *out, int value) {
  const unsigned per_block = blockDim.x * blockDim.y * blockDim.z;
  const unsigned block =
      blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned thread =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  out[block * per_block + thread] += value;
}

template <typename T, int N> __global__ void scaled(T *out, T v) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = v * N;
}

template <typename T> __global__ void fill_value(T *out, T v) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

static const int SLOTS = 1024;

/* Checks that the first n slots hold `value` and the rest 0, then clears. */
static void expect_marked(int *d, int n, int value, int line) {
  static int host[SLOTS];
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  int bad = 0;
  for (int i = 0; i < SLOTS; ++i)
    bad += host[i] != (i < n ? value : 0);
  if (bad)
    std::fprintf(stderr, "launch at line %d: %d slots wrong\n", line, bad);
  CHECK(bad == 0);
  CHECK(cudaMemset(d, 0, sizeof host) == cudaSuccess);
}

/* A launch as a macro argument; variadic, because the commas of <<<...>>>
 * would split an ordinary macro argument. */
#define RUN(...)                                                               \
  do {                                                                         \
    __VA_ARGS__;                                                               \
    CHECK(cudaPeekAtLastError() == cudaSuccess);                               \
  } while (0)

template <typename T> void launch_scaled(T *p, T v, int blocks) {
  scaled<T, 2><<<blocks, 32>>>(p, v);
}

template <typename T> void launch_fill(T *p, T v) {
  fill_value<<<2, 16>>>(p, v);
}

/* Template arguments that do not depend on the function template's own
 * (the only use of scaled<double, 5> in this file). */
template <int Blocks> void launch_scaled_double(double *p) {
  scaled<double, 5><<<Blocks, 32>>>(p, 0.5);
}

int main() {
  int *d = nullptr;
  CHECK(cudaMalloc(&d, SLOTS * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemset(d, 0, SLOTS * sizeof(int)) == cudaSuccess);
  cudaStream_t stream = 0;

  mark<<<4, 32>>>(d, 1);
  expect_marked(d, 128, 1, __LINE__);
  mark<<<4, 32, 0>>>(d, 2);
  expect_marked(d, 128, 2, __LINE__);
  mark<<<4, 32, 16, stream>>>(d, 3);
  expect_marked(d, 128, 3, __LINE__);
  mark<<<dim3(2, 2), dim3(8, 4, 1)>>>(d, 4);
  expect_marked(d, 128, 4, __LINE__);
  mark<<<dim3{2, 1, 2}, dim3{4, 2, 2}, 64>>>(d, 5);
  expect_marked(d, 64, 5, __LINE__);
  dim3 grid(3), block(16, 2);
  mark<<<grid, block>>>(d, 6);
  expect_marked(d, 96, 6, __LINE__);
  mark <<< (SLOTS >> 2) / 64, 64 >>> (d, 7);
  expect_marked(d, 256, 7, __LINE__);
  mark<<<1,
         32>>>(d,
               8);
  expect_marked(d, 32, 8, __LINE__);

  RUN(mark<<<2, 64>>>(d, 9));
  expect_marked(d, 128, 9, __LINE__);
  RUN(mark<<<dim3(2, 1, 1), 16, 0, stream>>>(d, 10));
  expect_marked(d, 32, 10, __LINE__);

  /* Kernel templates. */
  float *f = nullptr;
  CHECK(cudaMallocManaged(&f, 64 * sizeof(float)) == cudaSuccess);
  scaled<float, 4><<<2, 32>>>(f, 1.5f);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < 64; ++i)
    CHECK(f[i] == 6.0f);
  RUN(scaled<float, 3><<<1, 32>>>(f, 0.5f));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < 32; ++i)
    CHECK(f[i] == 1.5f);
  launch_scaled(f, 2.25f, 2);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < 64; ++i)
    CHECK(f[i] == 4.5f);
  double *g = nullptr;
  CHECK(cudaMallocManaged(&g, 32 * sizeof(double)) == cudaSuccess);
  launch_fill(g, 2.5);
  fill_value<<<1, 8>>>(g, -1.0);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < 32; ++i)
    CHECK(g[i] == (i < 8 ? -1.0 : 2.5));
  launch_scaled_double<1>(g);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < 32; ++i)
    CHECK(g[i] == 2.5);
  int *ip = nullptr;
  CHECK(cudaMalloc(&ip, 32 * sizeof(int)) == cudaSuccess);
  launch_scaled(ip, 21, 1);
  int ih[32];
  CHECK(cudaMemcpy(ih, ip, sizeof ih, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < 32; ++i)
    CHECK(ih[i] == 42);

  /* Through a function pointer variable. */
  void (*fp)(int *, int) = mark;
  CHECK(fp == mark);
  (*fp)<<<2, 32>>>(d, 11);
  expect_marked(d, 64, 11, __LINE__);
  fp<<<dim3(1, 2), 32, 0, stream>>>(d, 12);
  expect_marked(d, 64, 12, __LINE__);
  void (*fs)(float *, float) = scaled<float, 5>;
  fs<<<1, 16>>>(f, 2.0f);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < 16; ++i)
    CHECK(f[i] == 10.0f);

  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaFree(f) == cudaSuccess);
  CHECK(cudaFree(g) == cudaSuccess);
  CHECK(cudaFree(ip) == cudaSuccess);
  return finish();
}
