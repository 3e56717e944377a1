#pragma once
#include "aabb.cuh"

struct triangle {
    float3 v0, v1, v2;
};

struct bvh_node {
    aabb box;
    int left, right;   // children; -1 in a leaf
    int prim;          // triangle index in a leaf, -1 in an internal node
    int parent;
};

struct hit {
    float t;
    int prim;
};

__host__ __device__ inline float3 sub(float3 a, float3 b) { return make_float3(a.x-b.x, a.y-b.y, a.z-b.z); }
__host__ __device__ inline float3 crossp(float3 a, float3 b) {
    return make_float3(a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x);
}
__host__ __device__ inline float dotp(float3 a, float3 b) { return a.x*b.x + a.y*b.y + a.z*b.z; }

__host__ __device__ inline aabb tri_bounds(const triangle &t) {
    aabb b;
    b.lo = make_float3(fminf(t.v0.x, fminf(t.v1.x, t.v2.x)), fminf(t.v0.y, fminf(t.v1.y, t.v2.y)),
                       fminf(t.v0.z, fminf(t.v1.z, t.v2.z)));
    b.hi = make_float3(fmaxf(t.v0.x, fmaxf(t.v1.x, t.v2.x)), fmaxf(t.v0.y, fmaxf(t.v1.y, t.v2.y)),
                       fmaxf(t.v0.z, fmaxf(t.v1.z, t.v2.z)));
    return b;
}

// Moeller-Trumbore, defined in lbvh_build.cu (separate compilation: the
// device copy is linked from another translation unit).
__host__ __device__ bool intersect_triangle(const float3 &o, const float3 &d, const triangle &tri, float &t);

// Counts of work, defined in lbvh_build.cuh (the trial declares them here
// extern, for its -rdc=true build; without it the declaration would be a
// definition, as with nvcc).
