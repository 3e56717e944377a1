// kernels.cuh: device code that g++ -Wall -Wextra would warn about (a
// signed/unsigned comparison, an unused variable and parameter), which
// nvcc's host compiler never sees.
#ifndef WARNINGS_KERNELS_CUH
#define WARNINGS_KERNELS_CUH

// Prototypes of `inline` and `__forceinline__` __device__ functions (a
// template's too) before their definitions: g++ warned "inline function
// ... given attribute 'noinline'" about each, whatever its options.
__device__ inline float twice(float v, int unused_parameter);
template <typename T> __device__ __forceinline__ T thrice(T v);

template <typename T> __device__ __forceinline__ T thrice(T v) { return 3 * v; }

__device__ inline float twice(float v, int unused_parameter) {
  int unused_variable;
  return 2.0f * v;
}

// A class with a __device__ member function and operator.
struct halves {
  unsigned count;
  __device__ float at(float v) const {
    for (int i = 0; i < count; ++i)
      v *= 0.5f;
    return v;
  }
  __device__ float operator()(float v, int unused_parameter) const {
    return at(v);
  }
};

template <typename T> __global__ void scale(T *x, int n, T a) {
  int unused_variable;
  for (int i = threadIdx.x; i < blockDim.x * gridDim.x; i += blockDim.x)
    if (i < n)
      x[i] = halves{1}(twice(thrice(x[i]), 0), 0) * a / 3;
}

// Kernels in dev.cu.
void count_below(const int *x, int n, int *counts);

#endif
