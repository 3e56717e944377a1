// old_dialect.cu: C++14 code that C++17 deprecates or removes, built with
// -std=c++14 (or -std=c++11) -Xcompiler -Wall,-Wextra,-Werror, which nvcc
// builds without a warning: `register` in host, __host__ __device__ and
// device code, an iterator derived from std::iterator, std::not1 and
// std::result_of. cuemu-nvcc compiles it as C++14 (-std=c++11 too), and
// must not warn about what a later dialect deprecates.
#include <cstdio>
#include <functional>
#include <iterator>
#include <type_traits>

#include <cuda_runtime.h>

// An input iterator over 0, 1, 2, ... in the C++98 style.
struct counter : std::iterator<std::input_iterator_tag, int> {
  int v;
  explicit counter(int from) : v(from) {}
  int operator*() const { return v; }
  counter &operator++() {
    ++v;
    return *this;
  }
  bool operator!=(const counter &o) const { return v != o.v; }
};

struct is_odd {
  typedef int argument_type;
  typedef bool result_type;
  bool operator()(int v) const { return v % 2 != 0; }
};

__host__ __device__ int triple(int v) {
  register int t = 3 * v;
  return t;
}

__global__ void triple_all(int *x) {
  register int i = threadIdx.x;
  x[i] = triple(x[i]);
}

int main() {
  register int evens = 0;
  std::result_of<is_odd(int)>::type odd = false;
  for (counter c(0), end(10); c != end; ++c) {
    odd = std::not1(is_odd())(*c);
    evens += odd;
  }
  int *x;
  cudaMallocManaged(&x, 4 * sizeof(int));
  for (int i = 0; i < 4; ++i)
    x[i] = i;
  triple_all<<<1, 4>>>(x);
  cudaDeviceSynchronize();
  int ok = evens == 5 && x[3] == 9 && triple(2) == 6;
  cudaFree(x);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
