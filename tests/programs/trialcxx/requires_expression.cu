/* A requires-clause holding a requires-expression (`requires(T x) { ... }`,
 * `requires requires { ... }`) on __device__ functions and members, as
 * libcu++'s reverse_iterator has under -std=c++20: the braces of the
 * requires-expression are not the function's body. Reduced from a C++20
 * project that included <cuda/std/array>.
 * CUEMU_OPTIONS: -std=c++20
 * NVCC_OPTIONS: -std=c++20 */
#include <cuda/std/array>
#include <cstdio>

template <class T>
concept HasSize = requires(const T& t) { t.size(); };

struct Box {
  int v;
  __host__ __device__ int size() const { return v; }
};

template <class T>
__device__ int measure(const T& t)
  requires HasSize<T> || requires(const T& u) { u.length(); }
{
  return t.size() * 2;
}

template <class T>
__host__ __device__ int twice(T x)
  requires requires { x + x; }
{
  return x + x;
}

template <class T>
struct Wrapper {
  T inner;
  __device__ int get() const
    requires requires(const T& t) { t.size(); }
  {
    return inner.size() + 1;
  }
  __host__ __device__ int plain() const
    requires requires { sizeof(T); }
  {
    return 7;
  }
};

__global__ void kernel(int* out) {
  cuda::std::array<int, 4> a{1, 2, 3, 4};
  Box b{5};
  Wrapper<Box> w{b};
  out[0] = a.back() + *a.rbegin();
  out[1] = measure(b);
  out[2] = twice(21);
  out[3] = w.get() + w.plain();
}

int main() {
  int* d;
  int h[4] = {0, 0, 0, 0};
  cudaMalloc(&d, sizeof h);
  kernel<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  Wrapper<Box> w{{3}};
  bool ok = h[0] == 8 && h[1] == 10 && h[2] == 42 && h[3] == 13 &&
            twice(4) == 8 && w.plain() == 7;
  std::printf("%d %d %d %d\n%s\n", h[0], h[1], h[2], h[3], ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
