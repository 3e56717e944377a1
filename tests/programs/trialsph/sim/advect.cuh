/* advect.cuh - tracer particles in an analytic vortex flow (RK2). */
#ifndef ADVECT_CUH
#define ADVECT_CUH
#include <vec_math.h>

inline __host__ __device__ float3 vortexVelocity(float3 p, float t)
{
    /* a swirl around the z axis that pulses in time, plus a slow rise */
    float3 c = make_float3(0.5f, 0.5f, 0.0f);
    float3 r = p - c;
    r.z = 0.0f;
    float3 axis = make_float3(0.0f, 0.0f, 1.0f);
    float s = 1.0f + 0.25f * sinf(2.0f * t);
    return cross(axis, r) * s + make_float3(0.0f, 0.0f, 0.05f);
}

inline __host__ __device__ float3 rk2(float3 p, float t, float dt)
{
    float3 k1 = vortexVelocity(p, t);
    float3 mid = p + k1 * (0.5f * dt);
    return p + vortexVelocity(mid, t + 0.5f * dt) * dt;
}

__global__ void advectKernel(float4 *pos, int n, float t, float dt, int substeps,
                             float4 *snapshot, unsigned int *mappedMaxSpeedBits)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float3 p = make_float3(pos[i]);
    for (int s = 0; s < substeps; s++) {
        p = rk2(p, t, dt);
        t += dt;
    }
    float speed = length(vortexVelocity(p, t));
    pos[i] = make_float4(p, 1.0f);
    snapshot[i] = make_float4(p, speed);
    /* non-negative floats order like their bit patterns */
    atomicMax(mappedMaxSpeedBits, __float_as_uint(speed));
}
#endif
