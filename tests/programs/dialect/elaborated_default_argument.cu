// elaborated_default_argument.cu: default template arguments written as an
// elaborated type of a dependent member, `class = class
// std::enable_if<...>::type` (a public Gauss-Jordan matrix inverse restricts
// its index helper to integers so, trial pub26), which nvcc 13 takes as
// `typename`; g++ and clang++ refuse it (the member is void, no class:
// "no matching function"). The translation writes `typename` there. A
// default argument that names a class of its own (`class = class Tag`) is
// left as it is.
#include <cuda_runtime.h>

#include <type_traits>

#include "../check.cuh"

template <class T, class = class std::enable_if<std::is_integral<T>::value>::type>
__host__ __device__ T flat_index(T row, T col, T width) {
  return row * width + col;
}

template <typename T> struct Wide {
  typedef T type;
};

template <class T, class W = struct Wide<T>::type>
__host__ __device__ W widen(T value) {
  return static_cast<W>(value) * 2;
}

struct Tag {
  int value = 5;
};

template <class T, class Default = class Tag> __host__ __device__ int tagged(T x) {
  return Default().value + static_cast<int>(x);
}

__global__ void fill(int *out, int width) {
  int row = blockIdx.x, col = threadIdx.x;
  out[flat_index(row, col, width)] = widen(row) + tagged(col);
}

int main() {
  const int rows = 3, width = 4;
  int *out = nullptr;
  CHECK(cudaMallocManaged(&out, rows * width * sizeof(int)) == cudaSuccess);
  fill<<<rows, width>>>(out, width);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < width; ++c)
      CHECK(out[r * width + c] == 2 * r + 5 + c);
  CHECK(flat_index(2u, 1u, 7u) == 15u);
  CHECK(cudaFree(out) == cudaSuccess);
  return finish();
}
