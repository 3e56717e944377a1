/*
 * templated: one kernel template, y = a * x + b * y, launched for three
 * element types and work sizes: axpby<float, 4>, axpby<double, 2> and
 * axpby<int, 1>.
 *
 * ITEMS is how many elements each thread handles. A block owns a tile of
 * blockDim.x * ITEMS consecutive elements and its threads step through the
 * tile blockDim.x apart, so that neighbouring threads still touch
 * neighbouring addresses. The launch names the instantiation explicitly,
 * `axpby<float, 4><<<grid, block>>>(...)`, and the grid shrinks as ITEMS
 * grows.
 */
#include <vector>

#define EXAMPLE_NAME "templated"
#include "../common/example.cuh"

template <typename T, int ITEMS>
__global__ void axpby(int n, T a, const T *__restrict__ x, T b,
                      T *__restrict__ y) {
  const int base = blockIdx.x * blockDim.x * ITEMS + threadIdx.x;
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const int i = base + j * blockDim.x;
    if (i < n)
      y[i] = a * x[i] + b * y[i];
  }
}

template <typename T>
static void axpby_host(int n, T a, const T *x, T b, T *y) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + b * y[i];
}

/* Runs axpby<T, ITEMS> on n elements; returns the largest error relative to
 * the host loop, or a negative number if a result is out of tolerance. */
template <typename T, int ITEMS>
static double run(int n, T a, T b, double tol) {
  std::vector<T> x(n), y(n), expect(n), got(n);
  for (int i = 0; i < n; ++i) {
    x[i] = (T)((int)(example_random_u32() >> 20) - 2048) / (T)64;
    y[i] = (T)((int)(example_random_u32() >> 20) - 2048) / (T)64;
  }
  expect = y;
  axpby_host<T>(n, a, x.data(), b, expect.data());

  T *d_x = nullptr, *d_y = nullptr;
  CHECK(cudaMalloc(&d_x, n * sizeof(T)));
  CHECK(cudaMalloc(&d_y, n * sizeof(T)));
  CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, y.data(), n * sizeof(T), cudaMemcpyHostToDevice));

  const int block = 128;
  const int grid = (n + block * ITEMS - 1) / (block * ITEMS);
  axpby<T, ITEMS><<<grid, block>>>(n, a, d_x, b, d_y);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaMemcpy(got.data(), d_y, n * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));

  const example_mismatches r =
      example_compare(got.data(), expect.data(), n, tol, true);
  return r.bad ? -1.0 : r.max_err;
}

int main(void) {
  example_seed(1234567u);
  const int n = 500001;
  /* A GPU may fuse a * x + b * y into one fma, so allow one rounding for
   * the floating-point types; integers must be exact. */
  const double err_f = run<float, 4>(n, 1.5f, -0.25f, 1e-6);
  const double err_d = run<double, 2>(n, 1.5, -0.25, 1e-15);
  const double err_i = run<int, 1>(n, 3, -2, 0.0);
  if (err_f < 0 || err_d < 0 || err_i < 0)
    return example_fail("out of tolerance:%s%s%s",
                        err_f < 0 ? " axpby<float, 4>" : "",
                        err_d < 0 ? " axpby<double, 2>" : "",
                        err_i < 0 ? " axpby<int, 1>" : "");
  return example_pass("<float,4> <double,2> <int,1>, max abs err %g/%g/%g "
                      "over %d elements each",
                      err_f, err_d, err_i, n);
}
