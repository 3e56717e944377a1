// nbody_kernel.cuh: the all-pairs gravitational kernel with shared-memory tiles.
#pragma once
#include <cuda_runtime.h>

template <typename T> struct vec4_t;
template <> struct vec4_t<float> { typedef float4 type; };

__device__ __forceinline__ float3 body_body(float4 bi, float4 bj, float3 ai, float soft2) {
  float3 r;
  r.x = bj.x - bi.x;
  r.y = bj.y - bi.y;
  r.z = bj.z - bi.z;
  float dist2 = r.x * r.x + r.y * r.y + r.z * r.z + soft2;
  float inv = rsqrtf(dist2);
  float inv3 = inv * inv * inv;
  float s = bj.w * inv3;
  ai.x += r.x * s;
  ai.y += r.y * s;
  ai.z += r.z * s;
  return ai;
}

template <typename T, int TILE>
__global__ void integrate_bodies(typename vec4_t<T>::type *__restrict__ new_pos,
                                 const typename vec4_t<T>::type *__restrict__ old_pos,
                                 typename vec4_t<T>::type *vel, int n, T dt, T soft2, float3 *accel_out) {
  __shared__ typename vec4_t<T>::type tile[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = i < n ? old_pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
  float3 acc = make_float3(0.f, 0.f, 0.f);
  for (int base = 0; base < n; base += TILE) {
    int j = base + threadIdx.x;
    tile[threadIdx.x] = j < n ? old_pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < TILE; ++k) acc = body_body(me, tile[k], acc, soft2);
    __syncthreads();
  }
  if (i < n) {
    float4 v = vel[i];
    v.x += acc.x * dt;
    v.y += acc.y * dt;
    v.z += acc.z * dt;
    vel[i] = v;
    new_pos[i] = make_float4(me.x + v.x * dt, me.y + v.y * dt, me.z + v.z * dt, me.w);
    accel_out[i] = acc;
  }
}
