/*
 * saxpy: y = a * x + y over a million floats, one element per thread.
 *
 * The simplest CUDA program: allocate device memory, copy the inputs in,
 * launch a one-dimensional grid that covers the array (the last block is
 * partly idle), copy the result back and compare it with a host loop.
 */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

/* Checks the result of a CUDA runtime call, in the style of helper_cuda.h. */
#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t check_err_ = (call);                                           \
    if (check_err_ != cudaSuccess) {                                           \
      fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\": %s\n",          \
              __FILE__, __LINE__, (int)check_err_,                             \
              cudaGetErrorName(check_err_), #call,                             \
              cudaGetErrorString(check_err_));                                 \
      printf("RESULT saxpy FAIL %s\n", cudaGetErrorName(check_err_));          \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

__global__ void saxpy(int n, float a, const float *__restrict__ x,
                      float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

static void saxpy_host(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

/* A small deterministic generator, so that every run sees the same data. */
static unsigned lcg_state = 12345u;
static float random_float(float lo, float hi) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lo + (hi - lo) * (float)(lcg_state >> 8) / 16777216.0f;
}

int main(void) {
  const int n = 1 << 20;
  const float a = 2.5f;
  std::vector<float> x(n), y(n), expect(n), got(n);
  for (int i = 0; i < n; ++i) {
    x[i] = random_float(-1.0f, 1.0f);
    y[i] = random_float(-1.0f, 1.0f);
  }
  expect = y;
  saxpy_host(n, a, x.data(), expect.data());

  float *d_x = nullptr, *d_y = nullptr;
  CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  const int block = 256;
  const int grid = (n + block - 1) / block;
  saxpy<<<grid, block>>>(n, a, d_x, d_y);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaMemcpy(got.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));

  /* A GPU may fuse a * x + y into one fma, so allow one rounding. */
  double max_err = 0.0;
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    double err = std::fabs((double)got[i] - (double)expect[i]);
    if (err > max_err)
      max_err = err;
    if (!(err <= 1e-6 * (1.0 + std::fabs((double)expect[i]))))
      ++bad;
  }
  if (bad) {
    printf("RESULT saxpy FAIL %d of %d elements wrong, max abs err %g\n", bad,
           n, max_err);
    return 1;
  }
  printf("RESULT saxpy PASS max abs err %g over %d elements\n", max_err, n);
  return 0;
}
