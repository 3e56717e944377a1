// kernel_tests.cu: Catch2 test cases that launch the kernels of this file.
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

template <int TILE>
__global__ void transpose_tiled(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < rows && y < cols) out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

template <int TILE>
static std::vector<float> transpose(const std::vector<float>& a, int rows, int cols) {
  float *d_in, *d_out;
  cudaMalloc(&d_in, a.size() * sizeof(float));
  cudaMalloc(&d_out, a.size() * sizeof(float));
  cudaMemcpy(d_in, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  transpose_tiled<TILE><<<grid, block>>>(d_in, d_out, rows, cols);
  std::vector<float> t(a.size());
  cudaMemcpy(t.data(), d_out, t.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  return t;
}

TEST_CASE("transpose agrees with the host", "[transpose]") {
  const int rows = GENERATE(1, 17, 40);
  const int cols = GENERATE(5, 33);
  std::vector<float> a(size_t(rows) * cols);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i);
  CAPTURE(rows, cols);
  SECTION("tile 8") {
    auto t = transpose<8>(a, rows, cols);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) REQUIRE(t[size_t(c) * rows + r] == a[size_t(r) * cols + c]);
  }
  SECTION("tile 16, twice is the identity") {
    auto back = transpose<16>(transpose<16>(a, rows, cols), cols, rows);
    CHECK(back == a);
  }
}

__global__ void fill_value(int* p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v;
}

TEST_CASE("launch errors reach the test", "[raw]") {
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 100 * sizeof(int)) == cudaSuccess);
  SECTION("a good launch") {
    fill_value<<<1, 128>>>(d, 100, 7);
    int h[100];
    REQUIRE(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(h[99] == 7);
  }
  SECTION("too many threads") {
    fill_value<<<1, 2048>>>(d, 100, 1);
    CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
  }
  cudaFree(d);
}

template <typename T>
__global__ void histogram_kernel(const T* in, int n, unsigned* bins, int nbins) {
  extern __shared__ unsigned local[];
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[static_cast<int>(in[i]) % nbins], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

TEMPLATE_TEST_CASE("histogram over element types", "[histogram]", uint8_t, int, float) {
  const int nbins = GENERATE(4, 100);
  const int n = GENERATE(take(2, random(1, 3000)));
  std::vector<TestType> h(n);
  for (int i = 0; i < n; ++i) h[i] = static_cast<TestType>(i % 200);
  std::vector<unsigned> want(nbins, 0);
  for (auto v : h) want[static_cast<int>(v) % nbins]++;
  TestType* d_in;
  unsigned* d_bins;
  REQUIRE(cudaMalloc(&d_in, n * sizeof(TestType)) == cudaSuccess);
  REQUIRE(cudaMalloc(&d_bins, nbins * sizeof(unsigned)) == cudaSuccess);
  cudaMemcpy(d_in, h.data(), n * sizeof(TestType), cudaMemcpyHostToDevice);
  cudaMemset(d_bins, 0, nbins * sizeof(unsigned));
  histogram_kernel<<<4, 64, nbins * sizeof(unsigned)>>>(d_in, n, d_bins, nbins);
  std::vector<unsigned> got(nbins);
  cudaMemcpy(got.data(), d_bins, nbins * sizeof(unsigned), cudaMemcpyDeviceToHost);
  CAPTURE(n, nbins);
  CHECK(got == want);
  cudaFree(d_in);
  cudaFree(d_bins);
}
