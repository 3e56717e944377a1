// geom.cuh: device functions of the geometry library (separate compilation).
#pragma once
#include "vec3.cuh"

extern __device__ vec3 geom_min_image(vec3 d, float L);
extern __device__ float geom_bond(vec3 d, float k, float r0, vec3 *fa);
extern __device__ float geom_angle(vec3 d1, vec3 d2, float k, float theta0, vec3 *fa, vec3 *fc);
// Counts the bonded terms evaluated, read back with cudaMemcpyFromSymbol.
extern __device__ unsigned long long geom_evaluations;
