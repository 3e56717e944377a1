// The project's own float2 arithmetic (as many SDR codes define it).
#ifndef SIG_CPLX_OPS_CUH
#define SIG_CPLX_OPS_CUH
#include <cuda_runtime.h>

__host__ __device__ inline float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__host__ __device__ inline float2 operator-(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
__host__ __device__ inline float2 operator*(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__host__ __device__ inline float2 operator*(float s, float2 a) { return make_float2(s * a.x, s * a.y); }
__host__ __device__ inline float2 &operator+=(float2 &a, float2 b) { a.x += b.x; a.y += b.y; return a; }
__host__ __device__ inline float2 conj(float2 a) { return make_float2(a.x, -a.y); }
__host__ __device__ inline float norm2(float2 a) { return a.x * a.x + a.y * a.y; }
#endif  // SIG_CPLX_OPS_CUH
