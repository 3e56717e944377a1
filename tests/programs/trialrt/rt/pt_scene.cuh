#pragma once
// A smallpt-style scene: spheres in constant memory, an environment map in a
// texture, and a path tracer templated on its sampler.
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include "vec3.h"
#include "ray.h"

enum refl_t { DIFF, SPEC, REFR };

struct pt_sphere {
    float rad;
    vec3 p, e, c;
    refl_t refl;

    __host__ __device__ float intersect(const ray &r) const {
        // in double, as smallpt: the walls are spheres of radius 1e4
        double opx = (double)p.x() - r.origin().x(), opy = (double)p.y() - r.origin().y(),
               opz = (double)p.z() - r.origin().z();
        double b = opx * r.direction().x() + opy * r.direction().y() + opz * r.direction().z();
        double det = b * b - (opx * opx + opy * opy + opz * opz) + (double)rad * rad, t, eps = 1e-3;
        if (det < 0) return 0;
        det = sqrt(det);
        return (float)((t = b - det) > eps ? t : ((t = b + det) > eps ? t : 0));
    }
};

#define NUM_SPHERES 9
__constant__ pt_sphere c_spheres[NUM_SPHERES];

// Host copy of the scene, for the reference render.
static const pt_sphere h_spheres[NUM_SPHERES] = {
    {1e4f, vec3(1e4f + 1, 40.8f, 81.6f), vec3(0, 0, 0), vec3(.75f, .25f, .25f), DIFF},   // left
    {1e4f, vec3(-1e4f + 99, 40.8f, 81.6f), vec3(0, 0, 0), vec3(.25f, .25f, .75f), DIFF}, // right
    {1e4f, vec3(50, 40.8f, 1e4f), vec3(0, 0, 0), vec3(.75f, .75f, .75f), DIFF},          // back
    {1e4f, vec3(50, 1e4f, 81.6f), vec3(0, 0, 0), vec3(.75f, .75f, .75f), DIFF},          // bottom
    {1e4f, vec3(50, -1e4f + 81.6f, 81.6f), vec3(0, 0, 0), vec3(.75f, .75f, .75f), DIFF}, // top
    {16.5f, vec3(27, 16.5f, 47), vec3(0, 0, 0), vec3(.999f, .999f, .999f), SPEC},         // mirror
    {16.5f, vec3(73, 16.5f, 78), vec3(0, 0, 0), vec3(.999f, .999f, .999f), REFR},         // glass
    {600, vec3(50, 681.6f - .27f, 81.6f), vec3(12, 12, 12), vec3(0, 0, 0), DIFF},         // light
    {8.0f, vec3(50, 8.0f, 100), vec3(0, 0, 0), vec3(.2f, .8f, .2f), DIFF},                // small ball
};

// A PCG hash sampler: the same numbers on host and device.
struct pcg_sampler {
    unsigned int state;
    __host__ __device__ pcg_sampler(unsigned int pixel, unsigned int frame) : state(pixel * 9781u + frame * 6271u + 1u) {}
    __host__ __device__ float next() {
        state = state * 747796405u + 2891336453u;
        unsigned int word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
        word = (word >> 22u) ^ word;
        return (word >> 8) * (1.0f / 16777216.0f);
    }
};

// curand's Philox generator behind the same interface.
struct philox_sampler {
    curandStatePhilox4_32_10_t st;
    __device__ philox_sampler(unsigned int pixel, unsigned int frame) { curand_init(1234ull + frame, pixel, 0, &st); }
    __device__ float next() { return curand_uniform(&st); }
};

#pragma nv_exec_check_disable
template <class Scene>
__host__ __device__ inline bool intersect_scene(const Scene &spheres, const ray &r, float &t, int &id) {
    float d, inf = t = 1e20f;
    for (int i = NUM_SPHERES; i--;)
        if ((d = spheres[i].intersect(r)) && d < t) {
            t = d;
            id = i;
        }
    return t < inf;
}

struct device_scene {
    __device__ const pt_sphere &operator[](int i) const { return c_spheres[i]; }
};
struct host_scene {
    const pt_sphere &operator[](int i) const { return h_spheres[i]; }
};

#pragma nv_exec_check_disable
template <class Scene, class Sampler>
__host__ __device__ vec3 radiance(const Scene &scene, ray r, Sampler &smp, int max_depth) {
    vec3 acc(0, 0, 0), mask(1, 1, 1);
    for (int depth = 0; depth < max_depth; depth++) {
        float t;
        int id = 0;
        if (!intersect_scene(scene, r, t, id)) return acc;
        const pt_sphere &obj = scene[id];
        vec3 x = r.origin() + r.direction() * t, n = unit_vector(x - obj.p);
        vec3 nl = dot(n, r.direction()) < 0 ? n : n * -1;
        vec3 f = obj.c;
        acc += mask * obj.e;
        float p = f.x() > f.y() && f.x() > f.z() ? f.x() : f.y() > f.z() ? f.y() : f.z();
        if (depth > 4) {
            if (smp.next() < p) f = f * (1 / p);
            else return acc;
        }
        if (obj.refl == DIFF) {
            float r1 = 2 * 3.14159265f * smp.next(), r2 = smp.next(), r2s = sqrtf(r2);
            vec3 w = nl, u = unit_vector(cross(fabsf(w.x()) > .1f ? vec3(0, 1, 0) : vec3(1, 0, 0), w)), v = cross(w, u);
            vec3 d = unit_vector(u * cosf(r1) * r2s + v * sinf(r1) * r2s + w * sqrtf(1 - r2));
            r = ray(x, d);
            mask *= f;
            continue;
        }
        vec3 refl = r.direction() - n * 2 * dot(n, r.direction());
        if (obj.refl == SPEC) {
            r = ray(x, refl);
            mask *= f;
            continue;
        }
        bool into = dot(n, nl) > 0;
        float nc = 1, nt = 1.5f, nnt = into ? nc / nt : nt / nc, ddn = dot(r.direction(), nl), cos2t;
        if ((cos2t = 1 - nnt * nnt * (1 - ddn * ddn)) < 0) {
            r = ray(x, refl);
            mask *= f;
            continue;
        }
        vec3 tdir = unit_vector(r.direction() * nnt - n * ((into ? 1 : -1) * (ddn * nnt + sqrtf(cos2t))));
        float a = nt - nc, b = nt + nc, R0 = a * a / (b * b), c = 1 - (into ? -ddn : dot(tdir, n));
        float Re = R0 + (1 - R0) * c * c * c * c * c, Tr = 1 - Re, P = .25f + .5f * Re, RP = Re / P, TP = Tr / (1 - P);
        if (smp.next() < P) {
            r = ray(x, refl);
            mask *= f * RP;
        } else {
            r = ray(x, tdir);
            mask *= f * TP;
        }
    }
    return acc;
}

__host__ __device__ inline ray camera_ray(int x, int y, int w, int h, float jx, float jy) {
    vec3 cam_o(50, 52, 295.6f), cam_d = unit_vector(vec3(0, -0.042612f, -1));
    vec3 cx(w * .5135f / h, 0, 0), cy = unit_vector(cross(cx, cam_d)) * .5135f;
    vec3 d = cx * ((x + jx) / w - .5f) + cy * ((y + jy) / h - .5f) + cam_d;
    return ray(cam_o + d * 140, unit_vector(d));
}

// One frame's samples, accumulated into a float4 buffer.
template <class Sampler>
__global__ void __launch_bounds__(256) trace_frame(float4 *accum, int w, int h, int spp, int frame, int max_depth) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    unsigned int pixel = y * w + x;
    Sampler smp(pixel, frame);
    device_scene scene;
    vec3 sum(0, 0, 0);
    for (int s = 0; s < spp; s++) {
        float jx = smp.next(), jy = smp.next();
        sum += radiance(scene, camera_ray(x, y, w, h, jx, jy), smp, max_depth);
    }
    float4 a = accum[pixel];
    accum[pixel] = make_float4(a.x + sum.x(), a.y + sum.y(), a.z + sum.z(), a.w + spp);
}

// Tone maps the accumulation into 8-bit pixels, through a lookup of a gamma
// curve in a 1-D texture.
__global__ void tonemap(const float4 *__restrict__ accum, uchar4 *out, int n, cudaTextureObject_t gamma_lut) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 a = __ldg(&accum[i]);
    float inv = 1.0f / a.w;
    float r = tex1D<float>(gamma_lut, fminf(a.x * inv, 1.0f));
    float g = tex1D<float>(gamma_lut, fminf(a.y * inv, 1.0f));
    float b = tex1D<float>(gamma_lut, fminf(a.z * inv, 1.0f));
    out[i] = make_uchar4((unsigned char)(r * 255 + .5f), (unsigned char)(g * 255 + .5f), (unsigned char)(b * 255 + .5f), 255);
}
