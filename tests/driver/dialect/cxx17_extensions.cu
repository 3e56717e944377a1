// cxx17_extensions.cu: C++17 forms that g++ and nvcc accept under
// -std=c++14 with a warning each (if constexpr, an inline variable, a
// structured binding, a fold expression), in host code; the program runs
// as with C++17 (tests/driver_dialect.sh).
#include <cstdio>
#include <utility>

#include <cuda_runtime.h>

__global__ void twice(int *v) { v[threadIdx.x] *= 2; }

inline int base = 5;

template <typename... T> static int sum(T... t) { return (t + ... + 0); }

template <typename T> static int weight() {
  if constexpr (sizeof(T) == 4)
    return 1;
  else
    return 2;
}

int main() {
  auto [a, b] = std::pair<int, int>(3, 4);
  int h[2] = {a, b + sum(1, 2) + weight<int>() + weight<double>() + base};
  int *d = nullptr;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  twice<<<1, 2>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("%d %d\n", h[0], h[1]);
  return h[0] == 6 && h[1] == 30 ? 0 : 1;
}
