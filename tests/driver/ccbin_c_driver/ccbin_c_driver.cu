// ccbin_c_driver.cu: a program whose host code needs the C++ library
// (std::string, std::vector, std::cout, a thrown and caught exception), to
// be built with -ccbin gcc or -ccbin clang: nvcc links it with g++ or
// clang++, the C drivers' C++ counterparts (tests/ccbin_c_driver.sh).
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

__global__ void squares(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i * i;
}

static int sum_or_throw(const std::vector<int> &v) {
  int s = 0;
  for (int x : v)
    s += x;
  if (s != 2470)
    throw std::runtime_error("sum " + std::to_string(s));
  return s;
}

int main() {
  const int n = 20;
  int *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess)
    return 1;
  squares<<<2, 16>>>(d, n);
  std::vector<int> h(n);
  if (cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost) !=
      cudaSuccess)
    return 1;
  cudaFree(d);
  try {
    std::string line = "sum of squares " + std::to_string(sum_or_throw(h));
    std::cout << line << std::endl;
  } catch (const std::exception &e) {
    std::cout << "FAIL: " << e.what() << std::endl;
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
