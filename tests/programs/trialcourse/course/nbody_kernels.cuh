#ifndef COURSE_NBODY_KERNELS_CUH
#define COURSE_NBODY_KERNELS_CUH
#include <cuda_runtime.h>

#define SOFTENING 1e-3f

__device__ __host__ inline float3 body_body(float4 bi, float4 bj, float3 ai)
{
    float3 r;
    r.x = bj.x - bi.x; r.y = bj.y - bi.y; r.z = bj.z - bi.z;
    float dist2 = r.x * r.x + r.y * r.y + r.z * r.z + SOFTENING;
#ifdef __CUDA_ARCH__
    float inv = rsqrtf(dist2);
#else
    float inv = 1.0f / sqrtf(dist2);
#endif
    float s = bj.w * inv * inv * inv;
    ai.x += r.x * s; ai.y += r.y * s; ai.z += r.z * s;
    return ai;
}

template <int BLOCK>
__global__ void nbody_step(const float4* __restrict__ pos, float4* __restrict__ newpos,
                           float4* __restrict__ vel, int n, float dt)
{
    extern __shared__ float4 tile[];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    float4 me = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 acc = {0.0f, 0.0f, 0.0f};
    for (int base = 0; base < n; base += BLOCK) {
        int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < BLOCK; ++k) acc = body_body(me, tile[k], acc);
        __syncthreads();
    }
    if (i < n) {
        float4 v = vel[i];
        v.x += acc.x * dt; v.y += acc.y * dt; v.z += acc.z * dt;
        vel[i] = v;
        newpos[i] = make_float4(me.x + v.x * dt, me.y + v.y * dt, me.z + v.z * dt, me.w);
    }
}

#endif
