#ifndef VEC3_H
#define VEC3_H
#include <cmath>
#include <iostream>
class vec3 {
public:
    __host__ __device__ vec3() {}
    __host__ __device__ vec3(float e0, float e1, float e2) { e[0] = e0; e[1] = e1; e[2] = e2; }
    __host__ __device__ inline float x() const { return e[0]; }
    __host__ __device__ inline float y() const { return e[1]; }
    __host__ __device__ inline float z() const { return e[2]; }
    __host__ __device__ inline const vec3& operator+() const { return *this; }
    __host__ __device__ inline vec3 operator-() const { return vec3(-e[0], -e[1], -e[2]); }
    __host__ __device__ inline float operator[](int i) const { return e[i]; }
    __host__ __device__ inline float& operator[](int i) { return e[i]; }
    __host__ __device__ inline vec3& operator+=(const vec3 &v2);
    __host__ __device__ inline vec3& operator*=(const float t);
    __host__ __device__ inline float length() const { return sqrtf(e[0]*e[0] + e[1]*e[1] + e[2]*e[2]); }
    __host__ __device__ inline float squared_length() const { return e[0]*e[0] + e[1]*e[1] + e[2]*e[2]; }
    float e[3];
};
inline std::ostream& operator<<(std::ostream &os, const vec3 &t) { return os << t.e[0] << " " << t.e[1] << " " << t.e[2]; }
__host__ __device__ inline vec3 operator+(const vec3 &a, const vec3 &b) { return vec3(a.e[0]+b.e[0], a.e[1]+b.e[1], a.e[2]+b.e[2]); }
__host__ __device__ inline vec3 operator-(const vec3 &a, const vec3 &b) { return vec3(a.e[0]-b.e[0], a.e[1]-b.e[1], a.e[2]-b.e[2]); }
__host__ __device__ inline vec3 operator*(const vec3 &a, const vec3 &b) { return vec3(a.e[0]*b.e[0], a.e[1]*b.e[1], a.e[2]*b.e[2]); }
__host__ __device__ inline vec3 operator*(float t, const vec3 &v) { return vec3(t*v.e[0], t*v.e[1], t*v.e[2]); }
__host__ __device__ inline vec3 operator*(const vec3 &v, float t) { return t * v; }
__host__ __device__ inline vec3 operator/(vec3 v, float t) { return vec3(v.e[0]/t, v.e[1]/t, v.e[2]/t); }
__host__ __device__ inline float dot(const vec3 &a, const vec3 &b) { return a.e[0]*b.e[0] + a.e[1]*b.e[1] + a.e[2]*b.e[2]; }
__host__ __device__ inline vec3 unit_vector(vec3 v) { return v / v.length(); }
__host__ __device__ inline vec3& vec3::operator+=(const vec3 &v) { e[0] += v.e[0]; e[1] += v.e[1]; e[2] += v.e[2]; return *this; }
__host__ __device__ inline vec3& vec3::operator*=(const float t) { e[0] *= t; e[1] *= t; e[2] *= t; return *this; }
#endif
