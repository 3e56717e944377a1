// rdc_const_tables.cuh: constant tables in a header that several units of
// relocatable device code include, in the style of a Gaussian splatting
// rasterizer's spherical-harmonics coefficients (`__device__ const float
// SH_C0 = ...;` in a header of forward.cu, backward.cu and the rasterizer
// built with CMake's CUDA_SEPARABLE_COMPILATION). A const variable has
// internal linkage in C++: each unit has its own, and nvcc links them.
#pragma once

#include <rdc_sys_tables.cuh>

__device__ const float kFilterTaps[3] = {0.25f, 0.5f, 0.25f};
__constant__ const float kGain = 2.0f;
// Declared extern here, so that the definition in rdc_const_other.cu, without
// `extern`, is one object of the program that both units read.
extern __device__ const int kOffset;

// The other unit's results: its kernel's sum and its own kUnitTag, read by
// cudaMemcpyFromSymbol there.
float other_unit_sum(int *tag);
