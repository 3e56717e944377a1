// Shading through device function pointers read from a __device__ table,
// a __constant__ camera struct of vec3 members, a shared vec3 cache, a
// __managed__ frame counter, a surface written by a kernel and read back
// from its array, and an environment map sampled with wrapping.
#include <cstdio>
#include <vector>
#include "rt/cuda_check.h"
#include "rt/vec3.h"
#include "rt/ray.h"

struct cam_params {
    vec3 origin, llc, horiz, vert;
    int width, height;
};
__constant__ cam_params c_cam;

typedef vec3 (*shader_fn)(const vec3 &n);
__device__ vec3 shade_normal(const vec3 &n) { return 0.5f * (n + vec3(1, 1, 1)); }
__device__ vec3 shade_white(const vec3 &n) { return vec3(1, 1, 1); }
__device__ shader_fn d_shaders[2] = {shade_normal, shade_white};
__device__ shader_fn d_one_shader = shade_white;

__managed__ int frame_counter = 0;
__device__ int d_global_counter;

__global__ void __launch_bounds__(128, 2) shade(vec3 *out, shader_fn fn, int n) {
    __shared__ vec3 cache[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    vec3 nrm = unit_vector(vec3(i + 1, 2, 3));
    cache[threadIdx.x] = fn(nrm);
    __syncthreads();
    if (i < n) out[i] = cache[(threadIdx.x + 1) % blockDim.x] + c_cam.origin;
    if (i == 0) { frame_counter++; atomicAdd(&d_global_counter, 1); }
}

__global__ void write_surface(cudaSurfaceObject_t surf, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    uchar4 c = make_uchar4(x, y, x ^ y, 255);
    surf2Dwrite(c, surf, x * sizeof(uchar4), y);
}

__global__ void env_lookup(cudaTextureObject_t env, float4 *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float u = (i + 0.5f) / n * 3.0f - 1.0f;  // wraps
    out[i] = tex2D<float4>(env, u, 0.25f);
}

int main() {
    bool ok = true;
    cam_params cp;
    cp.origin = vec3(1, 2, 3);
    cp.width = 4;
    cudaMemcpyToSymbol(c_cam, &cp, sizeof(cp));
    shader_fn h_fns[2];
    cudaMemcpyFromSymbol(h_fns, d_shaders, sizeof(h_fns));
    shader_fn one;
    cudaMemcpyFromSymbol(&one, d_one_shader, sizeof(one));
    const int n = 256;
    vec3 *d_out;
    cudaMalloc(&d_out, n * sizeof(vec3));
    std::vector<vec3> out(n);
    for (int k = 0; k < 3; k++) {
        shader_fn f = k < 2 ? h_fns[k] : one;
        shade<<<2, 128>>>(d_out, f, n);
        cudaError_t e = cudaGetLastError();
        if (e) { printf("launch %d: %s\n", k, cudaGetErrorString(e)); ok = false; }
        cudaMemcpy(out.data(), d_out, n * sizeof(vec3), cudaMemcpyDeviceToHost);
        vec3 nrm = unit_vector(vec3(2, 2, 3));
        vec3 want = (k == 0 ? 0.5f * (nrm + vec3(1, 1, 1)) : vec3(1, 1, 1)) + vec3(1, 2, 3);
        if (fabsf(out[0].x() - want.x()) > 1e-5f || fabsf(out[0].z() - want.z()) > 1e-5f) {
            printf("shader %d: %f %f %f\n", k, out[0].x(), out[0].y(), out[0].z());
            ok = false;
        }
    }
    cudaDeviceSynchronize();
    int cnt = 0;
    cudaMemcpyFromSymbol(&cnt, d_global_counter, sizeof(int));
    if (frame_counter != 3 || cnt != 3) { printf("counters %d %d\n", frame_counter, cnt); ok = false; }

    // surface
    const int w = 40, h = 20;
    cudaChannelFormatDesc d8 = cudaCreateChannelDesc<uchar4>();
    cudaArray_t arr;
    cudaMallocArray(&arr, &d8, w, h, cudaArraySurfaceLoadStore);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaSurfaceObject_t surf;
    cudaCreateSurfaceObject(&surf, &rd);
    write_surface<<<dim3(3, 2), dim3(16, 16)>>>(surf, w, h);
    std::vector<uchar4> img(w * h);
    cudaMemcpy2DFromArray(img.data(), w * sizeof(uchar4), arr, 0, 0, w * sizeof(uchar4), h, cudaMemcpyDeviceToHost);
    for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) {
        uchar4 c = img[y * w + x];
        if (c.x != x || c.y != y || c.z != (x ^ y)) { ok = false; }
    }
    // env map with wrap
    const int ew = 8, eh = 4;
    std::vector<float4> env(ew * eh);
    for (int k = 0; k < ew * eh; k++) env[k] = make_float4(k % ew, k / ew, 0, 1);
    cudaChannelFormatDesc d4 = cudaCreateChannelDesc<float4>();
    cudaArray_t earr;
    cudaMallocArray(&earr, &d4, ew, eh);
    cudaMemcpy2DToArray(earr, 0, 0, env.data(), ew * sizeof(float4), ew * sizeof(float4), eh, cudaMemcpyHostToDevice);
    cudaResourceDesc er = {};
    er.resType = cudaResourceTypeArray;
    er.res.array.array = earr;
    cudaTextureDesc td = {};
    td.addressMode[0] = cudaAddressModeWrap;
    td.addressMode[1] = cudaAddressModeWrap;
    td.filterMode = cudaFilterModePoint;
    td.normalizedCoords = 1;
    cudaTextureObject_t tex;
    cudaCreateTextureObject(&tex, &er, &td, nullptr);
    float4 *d_e;
    cudaMalloc(&d_e, 24 * sizeof(float4));
    env_lookup<<<1, 24>>>(tex, d_e, 24);
    std::vector<float4> e(24);
    cudaMemcpy(e.data(), d_e, 24 * sizeof(float4), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 24; i++) {
        float u = (i + 0.5f) / 24 * 3.0f - 1.0f;
        float fu = u - floorf(u);
        int x = (int)floorf(fu * ew);
        if (e[i].x != x || e[i].y != 1) { printf("env %d: %f %f want %d\n", i, e[i].x, e[i].y, x); ok = false; }
    }
    cudaError_t err = cudaDeviceSynchronize();
    if (err) { printf("%s\n", cudaGetErrorString(err)); ok = false; }
    printf("%s\n", ok ? "PASS" : "FAIL");
    return !ok;
}
