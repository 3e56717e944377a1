#pragma once
#include <cuda_runtime.h>

#define NUM_COEFFS 6

// Polynomial coefficients, defined in physics.cu.
extern __constant__ float c_coeffs[NUM_COEFFS];
extern __device__ int d_eval_count;

__device__ float poly_eval(float x);
__device__ float2 rotate(float2 v, float angle);

namespace physics {
void set_coefficients(const float* host_coeffs);
int eval_count();
}
