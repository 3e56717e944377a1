/* host_math.h: a helper_math.h-style header, included from .cu and .cpp
 * files. Host code compiled without nvcc's CUDA front end (a .cpp file:
 * no __CUDACC__) gets its own fallbacks of CUDA's max, min and rsqrtf,
 * which NVIDIA's cuda_runtime.h declares for CUDA code only; the shims'
 * cuda_runtime.h must not define them there either. */
#ifndef HOST_MATH_H
#define HOST_MATH_H

#include <cuda_runtime.h>
#include <math.h>

#ifndef __CUDACC__
inline float fminf(float a, float b) { return a < b ? a : b; }
inline float fmaxf(float a, float b) { return a > b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline int min(int a, int b) { return a < b ? a : b; }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
#endif

inline __host__ __device__ float3 scale_to_unit(float3 v) {
  float inv = rsqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
  return make_float3(v.x * inv, v.y * inv, v.z * inv);
}

inline __host__ __device__ int clamp_index(int i, int lo, int hi) {
  return max(lo, min(i, hi));
}

#endif
