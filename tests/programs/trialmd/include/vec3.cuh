// vec3.cuh: a small 3-vector for host and device code.
#pragma once
#include <cuda_runtime.h>
#include <cmath>

struct vec3 {
  float x, y, z;
  __host__ __device__ vec3() : x(0.f), y(0.f), z(0.f) {}
  __host__ __device__ vec3(float a, float b, float c) : x(a), y(b), z(c) {}
  __host__ __device__ explicit vec3(const float4 &v) : x(v.x), y(v.y), z(v.z) {}

  __host__ __device__ vec3 operator+(const vec3 &o) const { return vec3(x + o.x, y + o.y, z + o.z); }
  __host__ __device__ vec3 operator-(const vec3 &o) const { return vec3(x - o.x, y - o.y, z - o.z); }
  __host__ __device__ vec3 operator-() const { return vec3(-x, -y, -z); }
  __host__ __device__ vec3 operator*(float s) const { return vec3(x * s, y * s, z * s); }
  __host__ __device__ vec3 &operator+=(const vec3 &o) { x += o.x; y += o.y; z += o.z; return *this; }
  __host__ __device__ vec3 &operator-=(const vec3 &o) { x -= o.x; y -= o.y; z -= o.z; return *this; }
  __host__ __device__ float norm2() const { return x * x + y * y + z * z; }
  __host__ __device__ float norm() const { return sqrtf(norm2()); }
};

__host__ __device__ inline vec3 operator*(float s, const vec3 &v) { return v * s; }
__host__ __device__ inline float dot(const vec3 &a, const vec3 &b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__host__ __device__ inline vec3 cross(const vec3 &a, const vec3 &b) {
  return vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
