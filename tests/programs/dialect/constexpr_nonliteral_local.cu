// constexpr_nonliteral_local.cu: constexpr templates that define a local
// variable of non-literal type, in the way of cuCollections'
// bloom_filter_impl.cuh (a thrust::constant_iterator in a constexpr member
// function template). nvcc 13 takes them (C++17 [dcl.constexpr]: such a
// template is simply not a constant expression); clang++ 14, which
// compiles every unit that includes Thrust, refuses them, so cuemu-nvcc
// compiles the unit again with `constexpr` blanked out of those templates
// (cuemu_constexpr_locals.c). What nvcc refuses stays refused
// (tests/driver_dialect.sh, tests/driver/dialect/constexpr_nonliteral_*).
#include <thrust/iterator/constant_iterator.h>

#include <cuda_runtime.h>

#include "../check.cuh"

/* Not a literal type: its constructor is no constexpr one. */
struct tally {
  __host__ __device__ tally() {}
  int v = 1;
};

template <class T> struct table {
  /* A member function template with a Thrust iterator local. */
  template <class It> constexpr T sum(It first, int n) const {
    thrust::constant_iterator<T> const ones{T(1)};
    T s = 0;
    for (int i = 0; i < n; ++i)
      s += first[i] * ones[i];
    return s;
  }
  /* A plain member of a class template. */
  constexpr T twice(T x) const {
    tally const t{};
    return 2 * x * t.v;
  }
  /* Declared constexpr here and defined out of the class. */
  constexpr T thrice(T x) const;
  /* A sibling without such a local stays a constant expression. */
  static constexpr int size() { return 4; }
};

template <class T> constexpr T table<T>::thrice(T x) const {
  tally const t{};
  return 3 * x * t.v;
}

/* A function template that device code calls. */
template <class U> __host__ __device__ constexpr U plus_one(U u) {
  tally const t{};
  return t.v + u;
}

/* A constexpr template whose `if constexpr` branch holds the local. */
template <class U> constexpr int pick(U u) {
  if constexpr (sizeof(U) > 1) {
    tally const t{};
    return t.v + static_cast<int>(u);
  }
  return 0;
}

static_assert(table<int>::size() == 4, "still a constant expression");

__global__ void plus_one_kernel(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = plus_one(i);
}

int main() {
  const int values[table<int>::size()] = {1, 2, 3, 4};
  CHECK(table<int>{}.sum(values, 4) == 10);
  CHECK(table<long>{}.twice(21) == 42);
  CHECK(table<int>{}.thrice(14) == 42);
  CHECK(plus_one(41) == 42);
  CHECK(pick(41) == 42);
  auto generic = [](auto u) constexpr {
    tally const t{};
    return t.v + u;
  };
  CHECK(generic(41) == 42);

  const int n = 100;
  int *d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  plus_one_kernel<<<1, 128>>>(d, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int h[n];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    CHECK(h[i] == i + 1);
  cudaFree(d);
  return finish();
}
