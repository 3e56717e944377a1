/* C++20 kernel templates as library authors write them: abbreviated
 * kernel templates (`__global__ void k(auto *p, std::integral auto d)`,
 * a pack `auto... xs`, `auto` beside a template head, a declaration before
 * the definition) and a class-type non-type template argument spelled
 * with braces at the launch (`k<Config{2, 1}><<<...>>>`). cuemu took the
 * abbreviated kernels for plain ones (g++: "'auto' parameter not permitted
 * in this context") and the braces for the end of the statement ("kernel
 * launch '<<<' without a kernel"). Reduced from a C++20 project.
 * CUEMU_OPTIONS: -std=c++20
 * NVCC_OPTIONS: -std=c++20 */
#include <concepts>
#include <cstdio>

struct Config {
  int scale;
  int offset;
};

template <Config C>
__global__ void apply_config(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * C.scale + C.offset;
}

__global__ void add_delta(auto* p, int n, std::integral auto delta);

__global__ void add_delta(auto* p, int n, std::integral auto delta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += static_cast<decltype(+*p)>(delta);
}

__global__ void sum_into(int* out, const auto&... xs) {
  out[threadIdx.x] = (0 + ... + static_cast<int>(xs)) + threadIdx.x;
}

template <int Mult>
__global__ void mult_by(int* p, int n, auto extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * Mult + static_cast<int>(extra);
}

int main() {
  const int n = 64;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int* d;
  float* f;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&f, n * sizeof(float));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(f, 0, n * sizeof(float));
  apply_config<Config{2, 1}><<<1, n>>>(d, n);          /* 2i + 1 */
  add_delta<<<1, n>>>(d, n, 10L);                      /* 2i + 11 */
  add_delta<<<1, n>>>(f, n, 3);                        /* 3 */
  mult_by<3><<<1, n>>>(d, n, 1.0f);                    /* 6i + 34 */
  int out[4];
  int* dout;
  cudaMalloc(&dout, sizeof out);
  sum_into<<<1, 4>>>(dout, 1, 2.5f, 'A', 100L);        /* 168 + t */
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  float hf[n];
  cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (h[i] != 6 * i + 34 || hf[i] != 3.0f) {
      if (bad++ < 3) std::printf("element %d: %d %f\n", i, h[i], hf[i]);
    }
  for (int t = 0; t < 4; ++t)
    if (out[t] != 1 + 2 + 65 + 100 + t) {
      bad++;
      std::printf("sum_into %d: %d\n", t, out[t]);
    }
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
