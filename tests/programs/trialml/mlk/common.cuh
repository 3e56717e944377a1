#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define MLK_CUDA_CHECK(expr)                                                   \
  do {                                                                         \
    cudaError_t err__ = (expr);                                                \
    if (err__ != cudaSuccess) {                                                \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n",                     \
                   cudaGetErrorName(err__), __FILE__, __LINE__,                \
                   cudaGetErrorString(err__));                                 \
      std::exit(EXIT_FAILURE);                                                 \
    }                                                                          \
  } while (0)

#define MLK_HOST_DEVICE __host__ __device__ __forceinline__
#define MLK_DEVICE __device__ __forceinline__

namespace mlk {

constexpr int kWarpSize = 32;

template <typename T>
MLK_HOST_DEVICE constexpr T ceil_div(T a, T b) { return (a + b - 1) / b; }

}  // namespace mlk
