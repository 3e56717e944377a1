// traits.cu: a saturating cast written with libcu++'s headers (as NVRTC
// provides them, and CuPy puts on its include path) and `if constexpr`,
// compiled with -std=c++17.
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

template <typename T>
__global__ void saturate_cast(const float *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  if constexpr (cuda::std::is_integral<T>::value) {
    const float lo = (float)cuda::std::numeric_limits<T>::min();
    const float hi = (float)cuda::std::numeric_limits<T>::max();
    v = fminf(fmaxf(rintf(v), lo), hi);
  }
  y[i] = static_cast<T>(v);
}

#ifndef __CUDACC_RTC__
template __global__ void saturate_cast<cuda::std::int8_t>(const float *,
                                                          cuda::std::int8_t *,
                                                          int);
template __global__ void saturate_cast<cuda::std::uint8_t>(
    const float *, cuda::std::uint8_t *, int);
#endif
