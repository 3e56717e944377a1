// NVCC_OPTIONS: -rdc=true
#include "physics.cuh"
#include "../../course/cuda_check.h"

__constant__ float c_coeffs[NUM_COEFFS];
__device__ int d_eval_count = 0;

__device__ float poly_eval(float x)
{
    float r = 0.0f;
#pragma unroll
    for (int i = NUM_COEFFS - 1; i >= 0; --i) r = fmaf(r, x, c_coeffs[i]);
    atomicAdd(&d_eval_count, 1);
    return r;
}

__device__ float2 rotate(float2 v, float angle)
{
    float s, c;
    sincosf(angle, &s, &c);
    return make_float2(c * v.x - s * v.y, s * v.x + c * v.y);
}

namespace physics {
void set_coefficients(const float* host_coeffs)
{
    CUDA_CHECK(cudaMemcpyToSymbol(c_coeffs, host_coeffs, NUM_COEFFS * sizeof(float)));
    int zero = 0;
    CUDA_CHECK(cudaMemcpyToSymbol(d_eval_count, &zero, sizeof(int)));
}
int eval_count()
{
    int n = 0;
    CUDA_CHECK(cudaMemcpyFromSymbol(&n, d_eval_count, sizeof(int)));
    return n;
}
}
