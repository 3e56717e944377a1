// Kernel templates whose parameter lists public programs write and whose
// host-pass view did not compile ("calling a __device__ function from a
// __host__ function is not allowed" on the kernel's own body): the host pass
// forwards a launch of a kernel template to the device pass's instance by
// naming the parameters, and these had no plain name:
//   1. a function parameter pack, as apex/PyTorch's multi_tensor_apply
//      launches a functor with the rest of its arguments (HeCBench axpby):
//      `template <typename U, typename... Args> __global__ void
//      apply(Meta m, U callable, Args... args) { callable(m, args...); }`;
//   2. an unnamed parameter (a tag type for overload selection, an unused
//      scalar);
//   3. an array parameter (`const T table[N]`), a pointer to a function
//      written with its name inside the declarator (`T (*op)(T)`), and a
//      pack whose elements are unnamed in an overload.
// Each kernel calls __device__ functions, so that compiling its body in the
// host pass fails; the results are checked against host arithmetic.
#include <cuda_runtime.h>
#include <cstdio>

#include "../check.cuh"

namespace {

constexpr int kThreads = 64;

struct Chunk {
  float *data[3];
  int n;
};

template <typename T> __device__ T axpby(T a, T x, T b, T y) {
  return a * x + b * y;
}

// A functor that multi_tensor_apply-style code passes with its scalars.
struct Axpby {
  __device__ void operator()(const Chunk &c, float a, float b) const {
    for (int i = threadIdx.x; i < c.n; i += blockDim.x)
      c.data[2][i] = axpby(a, c.data[0][i], b, c.data[1][i]);
  }
};

struct Fill {
  __device__ void operator()(const Chunk &c, float v) const {
    for (int i = threadIdx.x; i < c.n; i += blockDim.x)
      c.data[2][i] = v;
  }
};

template <typename F, typename... Args>
__global__ void apply(Chunk c, F callable, Args... args) {
  callable(c, args...);
}

template <typename T> struct Tag {};

__device__ int twice(int v) { return 2 * v; }

// An unnamed tag and an unnamed trailing int.
template <typename T>
__global__ void tagged(T *out, Tag<T>, T v, int) {
  out[threadIdx.x] = static_cast<T>(twice(static_cast<int>(v)));
}

// An array parameter (adjusted to a pointer) and a function pointer named
// inside its declarator.
template <typename T, int N>
__global__ void lookup(T *out, const T table[N]) {
  out[threadIdx.x] = static_cast<T>(twice(static_cast<int>(table[threadIdx.x % N])));
}

__device__ int negate(int v) { return -v; }
__device__ int (*const negate_ptr)(int) = negate;

template <typename T>
__global__ void mapped(T *out, T (*op)(T), T v) {
  out[threadIdx.x] = op(v + static_cast<T>(threadIdx.x));
}

__global__ void read_pointer(int (**out)(int)) { *out = negate_ptr; }

// A pack whose elements have no names, and one with a default argument.
template <typename... Ignored>
__global__ void count(int *out, Ignored...) {
  out[threadIdx.x] = twice(static_cast<int>(sizeof...(Ignored)));
}

template <typename T>
__global__ void offset(T *out, T base, int step = 3) {
  out[threadIdx.x] = static_cast<T>(twice(static_cast<int>(base)) + step * static_cast<int>(threadIdx.x));
}

}  // namespace

int main() {
  const int n = 1000;
  float *x, *y, *z;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&y, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&z, n * sizeof(float)) == cudaSuccess);
  for (int i = 0; i < n; i++) {
    x[i] = static_cast<float>(i);
    y[i] = static_cast<float>(3 * i + 1);
  }
  Chunk c = {{x, y, z}, n};
  apply<<<1, kThreads>>>(c, Axpby(), 2.0f, 0.5f);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += z[i] != 2.0f * x[i] + 0.5f * y[i];
  CHECK(bad == 0);
  apply<<<1, kThreads>>>(c, Fill(), -4.0f);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(z[0] == -4.0f && z[n - 1] == -4.0f);

  int *out;
  CHECK(cudaMallocManaged(&out, kThreads * sizeof(int)) == cudaSuccess);
  tagged<<<1, kThreads>>>(out, Tag<int>(), 21, 0);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 42 && out[kThreads - 1] == 42);

  int *table;
  CHECK(cudaMallocManaged(&table, 4 * sizeof(int)) == cudaSuccess);
  for (int i = 0; i < 4; i++)
    table[i] = 10 + i;
  lookup<int, 4><<<1, kThreads>>>(out, table);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int t = 0; t < kThreads; t++)
    bad += out[t] != 2 * (10 + t % 4);
  CHECK(bad == 0);

  int (**op)(int);
  CHECK(cudaMallocManaged(&op, sizeof *op) == cudaSuccess);
  read_pointer<<<1, 1>>>(op);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  mapped<<<1, kThreads>>>(out, *op, 5);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int t = 0; t < kThreads; t++)
    bad += out[t] != -(5 + t);
  CHECK(bad == 0);

  count<<<1, kThreads>>>(out, 1, 2.0, 'c');
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 6 && out[kThreads - 1] == 6);
  offset<<<1, kThreads>>>(out, 7);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 14 && out[10] == 44);

  cudaFree(x);
  cudaFree(y);
  cudaFree(z);
  cudaFree(out);
  cudaFree(table);
  cudaFree(op);
  return finish();
}
