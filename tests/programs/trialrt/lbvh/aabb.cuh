#pragma once
#include <cuda_runtime.h>
#include <cfloat>
#include <cmath>

struct aabb {
    float3 lo, hi;
};

__host__ __device__ inline aabb aabb_empty() {
    aabb b;
    b.lo = make_float3(FLT_MAX, FLT_MAX, FLT_MAX);
    b.hi = make_float3(-FLT_MAX, -FLT_MAX, -FLT_MAX);
    return b;
}

__host__ __device__ inline aabb merge(const aabb &a, const aabb &b) {
    aabb r;
    r.lo = make_float3(fminf(a.lo.x, b.lo.x), fminf(a.lo.y, b.lo.y), fminf(a.lo.z, b.lo.z));
    r.hi = make_float3(fmaxf(a.hi.x, b.hi.x), fmaxf(a.hi.y, b.hi.y), fmaxf(a.hi.z, b.hi.z));
    return r;
}

__host__ __device__ inline float3 centroid(const aabb &b) {
    return make_float3(0.5f*(b.lo.x + b.hi.x), 0.5f*(b.lo.y + b.hi.y), 0.5f*(b.lo.z + b.hi.z));
}

// Slab test; returns the entry distance or a negative number on a miss.
__host__ __device__ inline bool ray_box(const float3 &o, const float3 &inv, const aabb &b, float tmax, float &tnear) {
    float tx1 = (b.lo.x - o.x)*inv.x, tx2 = (b.hi.x - o.x)*inv.x;
    float tmin = fminf(tx1, tx2), tm = fmaxf(tx1, tx2);
    float ty1 = (b.lo.y - o.y)*inv.y, ty2 = (b.hi.y - o.y)*inv.y;
    tmin = fmaxf(tmin, fminf(ty1, ty2)); tm = fminf(tm, fmaxf(ty1, ty2));
    float tz1 = (b.lo.z - o.z)*inv.z, tz2 = (b.hi.z - o.z)*inv.z;
    tmin = fmaxf(tmin, fminf(tz1, tz2)); tm = fminf(tm, fmaxf(tz1, tz2));
    tnear = tmin;
    return tm >= fmaxf(tmin, 0.0f) && tmin < tmax;
}
