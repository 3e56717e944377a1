// vec3.cu: the library's definitions (compiled with -rdc=true).
// NVCC_OPTIONS: -rdc=true
#include "vec3.cuh"

__device__ float g_gravity = -9.81f;

__device__ Vec3 add(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }

__device__ float dot3(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
