/* vec_math.h - small vector math library for float2/float3/float4, used by
 * both device code and host reference code. */
#ifndef SIM_VEC_MATH_H
#define SIM_VEC_MATH_H

#include <cuda_runtime.h>
#include <math.h>

typedef unsigned int uint;
typedef unsigned short ushort;

#ifndef __CUDACC__
/* Host-only fallbacks: nvcc provides these for device and host code. */
inline float fminf(float a, float b) { return a < b ? a : b; }
inline float fmaxf(float a, float b) { return a > b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline int min(int a, int b) { return a < b ? a : b; }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
#endif

#ifndef SIM_HD
#define SIM_HD inline __host__ __device__
#endif

/* constructors */
SIM_HD float2 make_float2(float s) { return make_float2(s, s); }
SIM_HD float3 make_float3(float s) { return make_float3(s, s, s); }
SIM_HD float3 make_float3(float2 a) { return make_float3(a.x, a.y, 0.0f); }
SIM_HD float3 make_float3(float2 a, float s) { return make_float3(a.x, a.y, s); }
SIM_HD float3 make_float3(float4 a) { return make_float3(a.x, a.y, a.z); }
SIM_HD float3 make_float3(int3 a) { return make_float3(float(a.x), float(a.y), float(a.z)); }
SIM_HD float3 make_float3(uint3 a) { return make_float3(float(a.x), float(a.y), float(a.z)); }
SIM_HD float4 make_float4(float s) { return make_float4(s, s, s, s); }
SIM_HD float4 make_float4(float3 a) { return make_float4(a.x, a.y, a.z, 0.0f); }
SIM_HD float4 make_float4(float3 a, float w) { return make_float4(a.x, a.y, a.z, w); }
SIM_HD int3 make_int3(float3 a) { return make_int3(int(a.x), int(a.y), int(a.z)); }
SIM_HD uint3 make_uint3(int3 a) { return make_uint3(uint(a.x), uint(a.y), uint(a.z)); }

/* negate */
SIM_HD float3 operator-(const float3 &a) { return make_float3(-a.x, -a.y, -a.z); }
SIM_HD float4 operator-(const float4 &a) { return make_float4(-a.x, -a.y, -a.z, -a.w); }

/* addition */
SIM_HD float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
SIM_HD float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
SIM_HD float3 operator+(float3 a, float b) { return make_float3(a.x + b, a.y + b, a.z + b); }
SIM_HD void operator+=(float3 &a, float3 b) { a.x += b.x; a.y += b.y; a.z += b.z; }
SIM_HD float4 operator+(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
SIM_HD void operator+=(float4 &a, float4 b) { a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w; }
SIM_HD int3 operator+(int3 a, int3 b) { return make_int3(a.x + b.x, a.y + b.y, a.z + b.z); }

/* subtraction */
SIM_HD float2 operator-(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
SIM_HD float3 operator-(float3 a, float3 b) { return make_float3(a.x - b.x, a.y - b.y, a.z - b.z); }
SIM_HD float3 operator-(float3 a, float b) { return make_float3(a.x - b, a.y - b, a.z - b); }
SIM_HD void operator-=(float3 &a, float3 b) { a.x -= b.x; a.y -= b.y; a.z -= b.z; }
SIM_HD float4 operator-(float4 a, float4 b) { return make_float4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w); }

/* multiply */
SIM_HD float3 operator*(float3 a, float3 b) { return make_float3(a.x * b.x, a.y * b.y, a.z * b.z); }
SIM_HD float3 operator*(float3 a, float b) { return make_float3(a.x * b, a.y * b, a.z * b); }
SIM_HD float3 operator*(float b, float3 a) { return make_float3(b * a.x, b * a.y, b * a.z); }
SIM_HD void operator*=(float3 &a, float b) { a.x *= b; a.y *= b; a.z *= b; }
SIM_HD float4 operator*(float4 a, float b) { return make_float4(a.x * b, a.y * b, a.z * b, a.w * b); }
SIM_HD float2 operator*(float2 a, float b) { return make_float2(a.x * b, a.y * b); }

/* divide */
SIM_HD float3 operator/(float3 a, float3 b) { return make_float3(a.x / b.x, a.y / b.y, a.z / b.z); }
SIM_HD float3 operator/(float3 a, float b) { return make_float3(a.x / b, a.y / b, a.z / b); }
SIM_HD void operator/=(float3 &a, float b) { a.x /= b; a.y /= b; a.z /= b; }

/* min/max/clamp/lerp */
SIM_HD float3 fminf(float3 a, float3 b) { return make_float3(fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z)); }
SIM_HD float3 fmaxf(float3 a, float3 b) { return make_float3(fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z)); }
SIM_HD float lerp(float a, float b, float t) { return a + t * (b - a); }
SIM_HD float3 lerp(float3 a, float3 b, float t) { return a + t * (b - a); }
SIM_HD float clamp(float f, float a, float b) { return fmaxf(a, fminf(f, b)); }
SIM_HD int clamp(int f, int a, int b) { return max(a, min(f, b)); }
SIM_HD uint clamp(uint f, uint a, uint b) { return max(a, min(f, b)); }
SIM_HD float3 clamp(float3 v, float a, float b) { return make_float3(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b)); }

/* dot, cross, length, normalize */
SIM_HD float dot(float2 a, float2 b) { return a.x * b.x + a.y * b.y; }
SIM_HD float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
SIM_HD float dot(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
SIM_HD float length(float3 v) { return sqrtf(dot(v, v)); }
SIM_HD float length(float4 v) { return sqrtf(dot(v, v)); }
SIM_HD float3 normalize(float3 v) { float invLen = rsqrtf(dot(v, v)); return v * invLen; }
SIM_HD float3 cross(float3 a, float3 b) { return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
SIM_HD float3 floorf(float3 v) { return make_float3(floorf(v.x), floorf(v.y), floorf(v.z)); }
SIM_HD float3 fabs(float3 v) { return make_float3(fabs(v.x), fabs(v.y), fabs(v.z)); }
SIM_HD float3 reflect(float3 i, float3 n) { return i - 2.0f * n * dot(n, i); }

/* double3 helpers for the MD code */
SIM_HD double3 operator+(double3 a, double3 b) { return make_double3(a.x + b.x, a.y + b.y, a.z + b.z); }
SIM_HD double3 operator-(double3 a, double3 b) { return make_double3(a.x - b.x, a.y - b.y, a.z - b.z); }
SIM_HD double3 operator*(double3 a, double s) { return make_double3(a.x * s, a.y * s, a.z * s); }
SIM_HD double dot(double3 a, double3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

#endif /* SIM_VEC_MATH_H */
