/*
 * cub_test.cuh: what the CUB and libcu++ test programs share: a custom
 * value type, deterministic inputs, device copies, checks made in kernels
 * (EXPECT) and launches that check for errors. It needs no CCCL header.
 */
#ifndef CUEMU_TEST_CUB_TEST_CUH
#define CUEMU_TEST_CUB_TEST_CUH

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

#include "../check.cuh"

/* A custom struct: CUB moves it through shared memory and shuffles as
 * raw words (12 bytes, not a power of two). */
struct Triple {
  int a;
  unsigned b;
  float c;
};

/* Component-wise sum, max and max: associative and commutative, exact (c
 * holds small non-negative integers), with Triple{} as its identity, so
 * that it can stand for the "sum" of CUB's Sum and ExclusiveSum. */
__host__ __device__ inline Triple operator+(const Triple &x, const Triple &y) {
  return Triple{x.a + y.a, x.b > y.b ? x.b : y.b, x.c > y.c ? x.c : y.c};
}
struct TripleOp {
  __host__ __device__ Triple operator()(const Triple &x, const Triple &y) const {
    return x + y;
  }
};

inline bool operator==(const Triple &x, const Triple &y) {
  return x.a == y.a && x.b == y.b && x.c == y.c;
}

/* Deterministic inputs, different per seed, with negative values. */
template <typename T> inline T input_value(int i, int seed);
template <> inline int input_value<int>(int i, int seed) {
  return (int)((i * 2654435761u + seed * 40503u) % 2001u) - 1000;
}
template <> inline unsigned input_value<unsigned>(int i, int seed) {
  return (i * 2654435761u + seed * 97u) % 100003u;
}
template <> inline long long input_value<long long>(int i, int seed) {
  return (long long)input_value<int>(i, seed) * 4294967311LL;
}
template <> inline unsigned long long input_value<unsigned long long>(int i, int seed) {
  return (unsigned long long)input_value<unsigned>(i, seed) << 31 | (unsigned)i;
}
template <> inline double input_value<double>(int i, int seed) {
  return (double)input_value<int>(i, seed) * 0.5; /* exact sums */
}
template <> inline float input_value<float>(int i, int seed) {
  return (float)input_value<int>(i, seed) * 0.25f;
}
template <> inline Triple input_value<Triple>(int i, int seed) {
  return Triple{input_value<int>(i, seed), input_value<unsigned>(i, seed + 1),
                (float)(input_value<unsigned>(i, seed + 2) % 500)};
}

template <typename T> inline std::vector<T> inputs(int n, int seed) {
  std::vector<T> v((size_t)n);
  for (int i = 0; i < n; ++i) v[(size_t)i] = input_value<T>(i, seed);
  return v;
}

/* Device copies of host vectors. */
template <typename T> inline T *to_device(const std::vector<T> &v) {
  T *d = nullptr;
  cudaMalloc(&d, v.size() * sizeof(T) + 1);
  cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}
template <typename T> inline std::vector<T> to_host(const T *d, size_t n) {
  std::vector<T> v(n);
  cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return v;
}

/* The thread's linear index in its block (x fastest). */
__device__ inline int linear_tid() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

/* Checks made in kernels: EXPECT(cond) counts a failure in `errors`
 * (printing the first few with the block and thread), take_errors(what)
 * returns the count and clears it. */
__device__ int errors;

#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond) && atomicAdd(&errors, 1) < 5)                                  \
      printf("%s:%d: block %d thread (%d,%d,%d): expected %s\n", __FILE__,     \
             __LINE__, (int)blockIdx.x, (int)threadIdx.x, (int)threadIdx.y,    \
             (int)threadIdx.z, #cond);                                         \
  } while (0)

static inline int take_errors(const char *what) {
  int e = 0;
  cudaMemcpyFromSymbol(&e, errors, sizeof e);
  const int zero = 0;
  cudaMemcpyToSymbol(errors, &zero, sizeof zero);
  if (e) std::fprintf(stderr, "%s: %d wrong values\n", what, e);
  return e;
}

#define CHECK_LAUNCH()                                                         \
  do {                                                                         \
    cudaError_t e_ = cudaDeviceSynchronize();                                  \
    if (e_ == cudaSuccess) e_ = cudaGetLastError();                            \
    if (e_ != cudaSuccess)                                                     \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(e_));                                    \
    CHECK(e_ == cudaSuccess);                                                  \
  } while (0)

#endif
