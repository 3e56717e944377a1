/*
 * saxpy: y = a * x + y over a million floats, one element per thread.
 *
 * The simplest CUDA program: allocate device memory, copy the inputs in,
 * launch a one-dimensional grid that covers the array (the last block is
 * partly idle), copy the result back and compare it with a host loop.
 */
#include <vector>

#define EXAMPLE_NAME "saxpy"
#include "../common/example.cuh"

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

int main(void) {
  example_seed(12345u);
  const int n = 1 << 20;
  const float a = 2.5f;
  std::vector<float> x(n), y(n), expect(n), got(n);
  for (int i = 0; i < n; ++i) {
    x[i] = example_random_float(-1.0f, 1.0f);
    y[i] = example_random_float(-1.0f, 1.0f);
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
  const example_mismatches r =
      example_compare(got.data(), expect.data(), n, 1e-6, true);
  if (r.bad)
    return example_fail("%zu of %d elements wrong, max abs err %g", r.bad, n,
                        r.max_err);
  return example_pass("max abs err %g over %d elements", r.max_err, n);
}
