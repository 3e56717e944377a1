#pragma once
#include <cuda_runtime.h>
#include <cstdint>
#include <cmath>

// A triangle in screen space: vertices in 1/16 pixel fixed point, depths and
// colours per vertex.
struct screen_tri {
    int x[3], y[3];
    float z[3];
    float3 c[3];
};

#define SUBPIXEL 16
#define EMPTY_PIXEL 0xFFFFFFFFFFFFFFFFull

__host__ __device__ inline long long edge_fn(int ax, int ay, int bx, int by, int px, int py) {
    return (long long)(bx - ax) * (py - ay) - (long long)(by - ay) * (px - ax);
}

__host__ __device__ inline unsigned int pack_rgba(float r, float g, float b) {
    unsigned int ir = (unsigned int)(fminf(fmaxf(r, 0.0f), 1.0f) * 255.0f + 0.5f);
    unsigned int ig = (unsigned int)(fminf(fmaxf(g, 0.0f), 1.0f) * 255.0f + 0.5f);
    unsigned int ib = (unsigned int)(fminf(fmaxf(b, 0.0f), 1.0f) * 255.0f + 0.5f);
    return (ir << 24) | (ig << 16) | (ib << 8) | 0xFFu;
}

__host__ __device__ inline unsigned int depth_bits(float z) {
#ifdef __CUDA_ARCH__
    return __float_as_uint(z);
#else
    union { float f; unsigned int u; } v;
    v.f = z;
    return v.u;
#endif
}

// Shades pixel (px, py) of triangle t if it covers the pixel's centre: the
// depth (in the high word, so a smaller key is nearer) and the colour.
__host__ __device__ inline bool shade(const screen_tri &t, int px, int py, unsigned long long &key) {
    int cx = px * SUBPIXEL + SUBPIXEL / 2, cy = py * SUBPIXEL + SUBPIXEL / 2;
    long long area = edge_fn(t.x[0], t.y[0], t.x[1], t.y[1], t.x[2], t.y[2]);
    if (area <= 0) return false;   // back-facing or degenerate
    long long w0 = edge_fn(t.x[1], t.y[1], t.x[2], t.y[2], cx, cy);
    long long w1 = edge_fn(t.x[2], t.y[2], t.x[0], t.y[0], cx, cy);
    long long w2 = edge_fn(t.x[0], t.y[0], t.x[1], t.y[1], cx, cy);
    if (w0 < 0 || w1 < 0 || w2 < 0) return false;
    float b0 = (float)w0 / (float)area, b1 = (float)w1 / (float)area, b2 = 1.0f - b0 - b1;
    float z = b0 * t.z[0] + b1 * t.z[1] + b2 * t.z[2];
    if (z < 0.0f || z > 1.0f) return false;
    float r = b0 * t.c[0].x + b1 * t.c[1].x + b2 * t.c[2].x;
    float g = b0 * t.c[0].y + b1 * t.c[1].y + b2 * t.c[2].y;
    float b = b0 * t.c[0].z + b1 * t.c[1].z + b2 * t.c[2].z;
    key = ((unsigned long long)depth_bits(z) << 32) | pack_rgba(r, g, b);
    return true;
}

__host__ __device__ inline void tri_bbox(const screen_tri &t, int w, int h, int &x0, int &y0, int &x1, int &y1) {
    int minx = min(t.x[0], min(t.x[1], t.x[2])), maxx = max(t.x[0], max(t.x[1], t.x[2]));
    int miny = min(t.y[0], min(t.y[1], t.y[2])), maxy = max(t.y[0], max(t.y[1], t.y[2]));
    x0 = max(minx / SUBPIXEL, 0);
    y0 = max(miny / SUBPIXEL, 0);
    x1 = min(maxx / SUBPIXEL, w - 1);
    y1 = min(maxy / SUBPIXEL, h - 1);
}
