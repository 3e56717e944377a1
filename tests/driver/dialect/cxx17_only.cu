// cxx17_only.cu: code that needs C++17 (std::optional, a template
// parameter of type auto, class template argument deduction), which
// nvcc -std=c++14 refuses with errors at these lines and nvcc (C++17)
// compiles (tests/driver_dialect.sh).
#include <cstdio>
#include <optional>
#include <utility>

#include <cuda_runtime.h>

__global__ void store(int *out, int v) { out[threadIdx.x] = v; }

static std::optional<int> parse(int v) {
  return v > 0 ? std::optional<int>(v) : std::nullopt;
}

template <auto N> static int constant() { return N; }

int main() {
  std::pair both(1, 2.0);
  int *d = nullptr;
  cudaMalloc(&d, sizeof(int));
  store<<<1, 1>>>(d, parse(3).value_or(0) + constant<4>() + both.first);
  int h = 0;
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("%d\n", h);
  return h == 8 ? 0 : 1;
}
