// vec3.cuh: device functions and a device variable of a library of
// separable device code, called by the tests' own kernels.
#pragma once
#include <cuda_runtime.h>

struct Vec3 {
  float x, y, z;
};

__device__ Vec3 add(Vec3 a, Vec3 b);

__device__ float dot3(Vec3 a, Vec3 b);
extern __device__ float g_gravity;
