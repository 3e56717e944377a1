#pragma once
#include "raster_common.h"

struct vertex {
    float3 pos;     // in [-1, 1]^3 after the projection
    float3 color;
};

// Model transform: a rotation about y and a perspective divide.
__global__ void transform_kernel(const vertex *in, const int3 *idx, int ntris, screen_tri *out, int w, int h,
                                 float angle) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= ntris) return;
    float s, c;
    sincosf(angle, &s, &c);
    int3 id = idx[t];
    int ids[3] = {id.x, id.y, id.z};
    screen_tri st;
#pragma unroll
    for (int k = 0; k < 3; k++) {
        vertex v = in[ids[k]];
        float x = c * v.pos.x + s * v.pos.z;
        float z = -s * v.pos.x + c * v.pos.z;
        float y = v.pos.y;
        float zc = z + 3.0f;               // camera at z = -3
        float sx = x / zc * 2.0f, sy = y / zc * 2.0f;
        st.x[k] = __float2int_rn((sx * 0.5f + 0.5f) * w * SUBPIXEL);
        st.y[k] = __float2int_rn((sy * 0.5f + 0.5f) * h * SUBPIXEL);
        st.z[k] = (zc - 1.0f) / 4.0f;
        st.c[k] = v.color;
    }
    out[t] = st;
}

// One thread a triangle; 64-bit atomicMin on the packed depth and colour.
__global__ void raster_naive(const screen_tri *tris, int ntris, unsigned long long *zbuf, int w, int h) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= ntris) return;
    screen_tri tri = tris[t];
    int x0, y0, x1, y1;
    tri_bbox(tri, w, h, x0, y0, x1, y1);
    for (int py = y0; py <= y1; py++)
        for (int px = x0; px <= x1; px++) {
            unsigned long long key;
            if (shade(tri, px, py, key)) atomicMin(&zbuf[py * w + px], key);
        }
}

// The same depth test written as a compare-and-swap loop, as code for
// older architectures writes it.
__device__ inline void atomic_depth_cas(unsigned long long *addr, unsigned long long key) {
    unsigned long long old = *addr, assumed;
    while (key < old) {
        assumed = old;
        old = atomicCAS(addr, assumed, key);
        if (old == assumed) break;
    }
}

__global__ void raster_cas(const screen_tri *tris, int ntris, unsigned long long *zbuf, int w, int h) {
    for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < ntris; t += blockDim.x * gridDim.x) {
        screen_tri tri = tris[t];
        int x0, y0, x1, y1;
        tri_bbox(tri, w, h, x0, y0, x1, y1);
        for (int py = y0; py <= y1; py++)
            for (int px = x0; px <= x1; px++) {
                unsigned long long key;
                if (shade(tri, px, py, key)) atomic_depth_cas(&zbuf[py * w + px], key);
            }
    }
}

// One block a TILE x TILE tile held in shared memory; the block's threads
// take the triangles in batches, and each rasterizes its triangle into the
// tile with shared-memory atomics.
template <int TILE>
__global__ void raster_tiled(const screen_tri *__restrict__ tris, int ntris, unsigned long long *zbuf, int w,
                             int h) {
    __shared__ unsigned long long tile[TILE * TILE];
    const int tid = threadIdx.y * TILE + threadIdx.x;
    const int tx0 = blockIdx.x * TILE, ty0 = blockIdx.y * TILE;
    tile[tid] = EMPTY_PIXEL;
    __syncthreads();
    for (int base = 0; base < ntris; base += TILE * TILE) {
        int t = base + tid;
        if (t < ntris) {
            screen_tri tri = tris[t];
            int x0, y0, x1, y1;
            tri_bbox(tri, w, h, x0, y0, x1, y1);
            x0 = max(x0, tx0);
            y0 = max(y0, ty0);
            x1 = min(x1, tx0 + TILE - 1);
            y1 = min(y1, ty0 + TILE - 1);
            for (int py = y0; py <= y1; py++)
                for (int px = x0; px <= x1; px++) {
                    unsigned long long key;
                    if (shade(tri, px, py, key)) {
                        atomicMin(&tile[(py - ty0) * TILE + (px - tx0)], key);
                    }
                }
        }
    }
    __syncthreads();
    int px = tx0 + threadIdx.x, py = ty0 + threadIdx.y;
    if (px < w && py < h) zbuf[py * w + px] = tile[tid];
}

// Resolves the packed buffer into an RGBA8 image and counts covered pixels
// with warp-aggregated atomics.
__global__ void resolve_kernel(const unsigned long long *zbuf, uchar4 *img, int n, unsigned int *covered) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long k = zbuf[i];
    if (k == EMPTY_PIXEL) {
        img[i] = make_uchar4(0, 0, 0, 0);
        return;
    }
    unsigned int c = (unsigned int)(k & 0xFFFFFFFFu);
    img[i] = make_uchar4(c >> 24, (c >> 16) & 0xFF, (c >> 8) & 0xFF, c & 0xFF);
    unsigned int mask = __activemask();
    int leader = __ffs(mask) - 1;
    int lane = threadIdx.x & 31;
    unsigned int count = __popc(mask);
    if (lane == leader) atomicAdd(covered, count);
}
