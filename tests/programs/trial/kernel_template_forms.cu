// Kernel templates as public programs declare and launch them, whose
// translation did not compile:
//   A. Parameter lists. The host pass forwards a launch of a kernel template
//      to the device pass's instance by naming the parameters, and these
//      had no plain name, so the kernel's body was compiled in the host pass
//      ("calling a __device__ function from a __host__ function is not
//      allowed"):
//      1. a function parameter pack, as apex/PyTorch's multi_tensor_apply
//         launches a functor with the rest of its arguments (HeCBench axpby):
//         `template <typename U, typename... Args> __global__ void
//         apply(Meta m, U callable, Args... args) { callable(m, args...); }`;
//      2. an unnamed parameter (a tag type for overload selection, an unused
//         scalar, a qualified type: `ns::Tag`, `typename Traits<T>::index`),
//         and named ones with attributes (`[[maybe_unused]] T x`);
//      3. an array parameter (`const T table[N]`), a pointer to a function
//         with its name inside the declarator (`T (*op)(T)`) or none, and a
//         pack whose elements are unnamed.
//   B. Declarations ("impossible constraint in 'asm'" in the shims):
//      4. a kernel template declared before its definition, as a header
//         declares it (`template <typename T> __global__ void k(T *, int);`);
//      5. explicit instantiation definitions
//         (`template __global__ void k<float>(float *, int);`), as libraries
//         instantiate their kernels for a list of types, and a host
//         function template instantiated the same way that launches one.
//   C. A __device__ variable declared as a pointer to a function without a
//      typedef, `__device__ int (*op)(int) = negate;` (and an array of them),
//      was taken for a function: the host pass kept a variable of its own,
//      initialised with the host stub, so cudaMemcpyFromSymbol read the stub's
//      address and a kernel called through it faulted (silently another
//      value where the host used it as data).
//   D. A __device__ variable whose type is a template's specialization
//      (`__device__ Pair<int> totals;`) was taken for a variable template's
//      specialization, one of type `decltype(expr)` for a function, and left
//      alone: the host pass's copy was another
//      object, so cudaMemcpyFromSymbol read the initial value, not the
//      kernel's (silent wrong answer).
// Each kernel calls __device__ functions; the results are checked against
// host arithmetic.
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

// Unnamed parameters of qualified types: the last word is the type's.
namespace tags {
struct Unused {};
}  // namespace tags
template <typename T> struct Traits {
  using index = int;
};

template <typename T>
__global__ void qualified(T *out, tags::Unused, typename Traits<T>::index, T v) {
  out[threadIdx.x] = static_cast<T>(twice(static_cast<int>(v)) + 1);
}

// Attributes on parameters and a trailing return type.
template <typename T>
__global__ auto attributed([[maybe_unused]] T unused, T *out,
                           T v [[maybe_unused]], T w) -> void {
  out[threadIdx.x] = static_cast<T>(twice(static_cast<int>(w)));
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

template <typename T>
__global__ void unnamed_pointer(T *out, T (*)(T), T v) {
  out[threadIdx.x] = static_cast<T>(twice(static_cast<int>(v)));
}

__global__ void read_pointer(int (**out)(int)) { *out = negate_ptr; }

// C. Pointers to functions declared without a typedef, read and written by
// the host through the symbol API.
__device__ int add_one(int v) { return v + 1; }
__device__ int (*selected)(int) = negate;
__device__ int (*choices[2])(int) = {negate, add_one};

__global__ void call_selected(int *out, int v) { out[threadIdx.x] = selected(v); }

// D. Variables of template types, updated by a kernel, read by the host.
template <typename T> struct Pair {
  T first;
  T second;
};
__device__ Pair<int> totals = {1, 2};
__device__ Pair<float> *last_seen = nullptr;
__device__ decltype(totals.first) launches = 0;

__global__ void accumulate(Pair<float> *where) {
  atomicAdd(&totals.first, 1);
  atomicAdd(&totals.second, 2);
  if (threadIdx.x == 0) {
    last_seen = where;
    atomicAdd(&launches, 1);
  }
}

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

// B. A header's declarations, the definitions after them, and explicit
// instantiations (outside the anonymous namespace, as in a library).
template <typename T> __global__ void scale(T *d, T factor, int n);
template <typename T> void launch_scale(T *d, T factor, int n);

template <typename T> __device__ T times(T a, T b) { return a * b; }

template <typename T> __global__ void scale(T *d, T factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = times(d[i], factor);
}
template __global__ void scale<float>(float *, float, int);
template __global__ void scale<int>(int *, int, int);

template <typename T> void launch_scale(T *d, T factor, int n) {
  scale<<<(n + 127) / 128, 128>>>(d, factor, n);
}
template void launch_scale<double>(double *, double, int);

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

  qualified<<<1, kThreads>>>(out, tags::Unused(), 0, 4);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 9 && out[kThreads - 1] == 9);

  attributed<<<1, kThreads>>>(0, out, 0, 11);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 22 && out[kThreads - 1] == 22);

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

  // C: the host reads the device's values of the pointers, calls through
  // them, and stores another one.
  int (*host_copy)(int) = nullptr;
  int (*host_choices[2])(int) = {nullptr, nullptr};
  CHECK(cudaMemcpyFromSymbol(&host_copy, selected, sizeof host_copy) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(host_choices, choices, sizeof host_choices) == cudaSuccess);
  CHECK(host_copy == *op && host_choices[0] == *op);
  mapped<<<1, kThreads>>>(out, host_choices[1], 40);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 41 && out[kThreads - 1] == 40 + kThreads);
  CHECK(cudaMemcpyToSymbol(selected, &host_choices[1], sizeof host_choices[1]) == cudaSuccess);
  call_selected<<<1, kThreads>>>(out, 9);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 10 && out[kThreads - 1] == 10);

  unnamed_pointer<<<1, kThreads>>>(out, *op, 12);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 24 && out[kThreads - 1] == 24);

  // D: the kernel's updates are what the host reads.
  Pair<float> *where = reinterpret_cast<Pair<float> *>(out);
  accumulate<<<2, kThreads>>>(where);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  Pair<int> seen = {0, 0};
  Pair<float> *seen_where = nullptr;
  CHECK(cudaMemcpyFromSymbol(&seen, totals, sizeof seen) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(&seen_where, last_seen, sizeof seen_where) == cudaSuccess);
  CHECK(seen.first == 1 + 2 * kThreads && seen.second == 2 + 4 * kThreads);
  CHECK(seen_where == where);
  int launch_count = 0;
  CHECK(cudaMemcpyFromSymbol(&launch_count, launches, sizeof launch_count) == cudaSuccess);
  CHECK(launch_count == 2);

  count<<<1, kThreads>>>(out, 1, 2.0, 'c');
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 6 && out[kThreads - 1] == 6);
  offset<<<1, kThreads>>>(out, 7);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 14 && out[10] == 44);

  // B: the instantiated kernels, launched with explicit and deduced
  // template arguments and through the instantiated host template.
  float *fs;
  double *ds;
  CHECK(cudaMallocManaged(&fs, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&ds, n * sizeof(double)) == cudaSuccess);
  int *is = table;
  for (int i = 0; i < n; i++) {
    fs[i] = 0.5f * static_cast<float>(i);
    ds[i] = static_cast<double>(i);
  }
  for (int i = 0; i < 4; i++)
    is[i] = i + 1;
  scale<float><<<(n + 127) / 128, 128>>>(fs, 4.0f, n);
  scale<<<1, 32>>>(is, -3, 4);
  launch_scale(ds, 0.25, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < n; i++)
    bad += fs[i] != 2.0f * static_cast<float>(i) || ds[i] != 0.25 * i;
  CHECK(bad == 0);
  CHECK(is[0] == -3 && is[3] == -12);
  cudaFree(fs);
  cudaFree(ds);

  cudaFree(x);
  cudaFree(y);
  cudaFree(z);
  cudaFree(out);
  cudaFree(table);
  cudaFree(op);
  return finish();
}
