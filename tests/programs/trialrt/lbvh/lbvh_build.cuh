#pragma once
// The device build of the linear BVH: Morton codes, a sort (the trial's
// CUB radix sort and thrust::stable_sort_by_key; here the host's
// std::stable_sort, for the build's time), Karras' hierarchy and an atomic
// bottom-up refit. Also the triangle test that the traversal kernels call
// and the counters they add to (in the trial, lbvh_build.cu, compiled
// apart with -rdc=true: here a header of lbvh.cu, for the build's time).
#include <algorithm>
#include <cstdio>
#include <vector>
#include "lbvh.cuh"
#include "../rt/cuda_check.h"

__device__ unsigned int g_nodes_visited;
__device__ unsigned int g_refit_steps;

__host__ __device__ bool intersect_triangle(const float3 &o, const float3 &d, const triangle &tri, float &t) {
    const float eps = 1e-7f;
    float3 e1 = sub(tri.v1, tri.v0);
    float3 e2 = sub(tri.v2, tri.v0);
    float3 p = crossp(d, e2);
    float det = dotp(e1, p);
    if (fabsf(det) < eps) return false;
    float inv = 1.0f / det;
    float3 s = sub(o, tri.v0);
    float u = dotp(s, p) * inv;
    if (u < 0.0f || u > 1.0f) return false;
    float3 q = crossp(s, e1);
    float v = dotp(d, q) * inv;
    if (v < 0.0f || u + v > 1.0f) return false;
    t = dotp(e2, q) * inv;
    return t > 1e-4f;
}

namespace {

__global__ void scene_bounds_kernel(const triangle *tris, int n, aabb *out) {
    // One block reduces the scene's bounds in shared memory.
    __shared__ aabb partial[256];
    aabb b = aabb_empty();
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        b = merge(b, tri_bounds(tris[i]));
    partial[threadIdx.x] = b;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] = merge(partial[threadIdx.x], partial[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = partial[0];
}

__global__ void morton_kernel(const triangle *tris, int n, const aabb *scene, unsigned int *codes,
                              int *ids) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float3 c = centroid(tri_bounds(tris[i]));
    aabb s = *scene;
    float x = (c.x - s.lo.x) / fmaxf(s.hi.x - s.lo.x, 1e-12f);
    float y = (c.y - s.lo.y) / fmaxf(s.hi.y - s.lo.y, 1e-12f);
    float z = (c.z - s.lo.z) / fmaxf(s.hi.z - s.lo.z, 1e-12f);
    codes[i] = morton3D(x, y, z);
    ids[i] = i;
}

// Common prefix of keys i and j, the code extended by the index so that
// every key is unique; -1 outside the range.
__device__ __forceinline__ int delta(const unsigned int *codes, int n, int i, int j) {
    if (j < 0 || j >= n) return -1;
    unsigned long long ki = ((unsigned long long)codes[i] << 32) | (unsigned int)i;
    unsigned long long kj = ((unsigned long long)codes[j] << 32) | (unsigned int)j;
    return clz64(ki ^ kj);
}

__global__ void hierarchy_kernel(const unsigned int *codes, const int *ids, const triangle *tris,
                                 int n, bvh_node *nodes) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        // leaf
        bvh_node &leaf = nodes[n - 1 + i];
        leaf.prim = ids[i];
        leaf.left = leaf.right = -1;
        leaf.box = tri_bounds(tris[ids[i]]);
    }
    if (i >= n - 1) return;
    int d = (delta(codes, n, i, i + 1) - delta(codes, n, i, i - 1)) >= 0 ? 1 : -1;
    int dmin = delta(codes, n, i, i - d);
    int lmax = 2;
    while (delta(codes, n, i, i + lmax * d) > dmin) lmax <<= 1;
    int l = 0;
    for (int t = lmax >> 1; t >= 1; t >>= 1)
        if (delta(codes, n, i, i + (l + t) * d) > dmin) l += t;
    int j = i + l * d;
    int dnode = delta(codes, n, i, j);
    int s = 0;
    int t = l;
    do {
        t = (t + 1) >> 1;
        if (delta(codes, n, i, i + (s + t) * d) > dnode) s += t;
    } while (t > 1);
    int gamma = i + s * d + min(d, 0);
    int left = (min(i, j) == gamma) ? n - 1 + gamma : gamma;
    int right = (max(i, j) == gamma + 1) ? n - 1 + gamma + 1 : gamma + 1;
    nodes[i].left = left;
    nodes[i].right = right;
    nodes[i].prim = -1;
    nodes[left].parent = i;
    nodes[right].parent = i;
    if (i == 0) nodes[0].parent = -1;
}

__global__ void refit_kernel(bvh_node *nodes, int n, int *flags) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int node = nodes[n - 1 + i].parent;
    while (node >= 0) {
        // The first child to arrive stops; the second merges both.
        if (atomicAdd(&flags[node], 1) == 0) return;
        __threadfence();
        const volatile bvh_node *vn = nodes;
        aabb a, b;
        int l = nodes[node].left, r = nodes[node].right;
        a.lo = make_float3(vn[l].box.lo.x, vn[l].box.lo.y, vn[l].box.lo.z);
        a.hi = make_float3(vn[l].box.hi.x, vn[l].box.hi.y, vn[l].box.hi.z);
        b.lo = make_float3(vn[r].box.lo.x, vn[r].box.lo.y, vn[r].box.lo.z);
        b.hi = make_float3(vn[r].box.hi.x, vn[r].box.hi.y, vn[r].box.hi.z);
        nodes[node].box = merge(a, b);
        __threadfence();
        atomicAdd(&g_refit_steps, 1u);
        node = nodes[node].parent;
    }
}

} // namespace

void build_lbvh(const triangle *d_tris, int n, bvh_node *d_nodes, bool sort_with_cub) {
    aabb *d_scene;
    unsigned int *d_codes, *d_codes_sorted;
    int *d_ids, *d_ids_sorted, *d_flags;
    checkCudaErrors(cudaMalloc(&d_scene, sizeof(aabb)));
    checkCudaErrors(cudaMalloc(&d_codes, n * sizeof(unsigned int)));
    checkCudaErrors(cudaMalloc(&d_codes_sorted, n * sizeof(unsigned int)));
    checkCudaErrors(cudaMalloc(&d_ids, n * sizeof(int)));
    checkCudaErrors(cudaMalloc(&d_ids_sorted, n * sizeof(int)));
    checkCudaErrors(cudaMalloc(&d_flags, n * sizeof(int)));

    scene_bounds_kernel<<<1, 256>>>(d_tris, n, d_scene);
    CUDA_KERNEL_CHECK();
    const int threads = 128;
    const int blocks = (n + threads - 1) / threads;
    morton_kernel<<<blocks, threads>>>(d_tris, n, d_scene, d_codes, d_ids);
    CUDA_KERNEL_CHECK();

    // Sorted by code, stably (so equal codes keep their triangles' order).
    (void)sort_with_cub;
    std::vector<unsigned int> codes(n);
    std::vector<int> ids(n);
    checkCudaErrors(cudaMemcpy(codes.data(), d_codes, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) ids[i] = i;
    std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) { return codes[a] < codes[b]; });
    std::vector<unsigned int> sorted(n);
    for (int i = 0; i < n; i++) sorted[i] = codes[ids[i]];
    checkCudaErrors(cudaMemcpy(d_codes_sorted, sorted.data(), n * sizeof(unsigned int), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(d_ids_sorted, ids.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    hierarchy_kernel<<<blocks, threads>>>(d_codes_sorted, d_ids_sorted, d_tris, n, d_nodes);
    CUDA_KERNEL_CHECK();
    checkCudaErrors(cudaMemset(d_flags, 0, n * sizeof(int)));
    refit_kernel<<<blocks, threads>>>(d_nodes, n, d_flags);
    CUDA_KERNEL_CHECK();
    checkCudaErrors(cudaDeviceSynchronize());

    cudaFree(d_scene);
    cudaFree(d_codes);
    cudaFree(d_codes_sorted);
    cudaFree(d_ids);
    cudaFree(d_ids_sorted);
    cudaFree(d_flags);
}
