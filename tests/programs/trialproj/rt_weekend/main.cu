// A path tracer in the style of "Ray Tracing in One Weekend in CUDA".
#include <iostream>
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <curand_kernel.h>
#include "vec3.h"
#include "ray.h"
#include "hitable.h"
#include "material.h"

#define checkCudaErrors(val) check_cuda( (val), #val, __FILE__, __LINE__ )
void check_cuda(cudaError_t result, char const *const func, const char *const file, int const line) {
    if (result) {
        std::cerr << "CUDA error = " << static_cast<unsigned int>(result) << " (" << cudaGetErrorString(result) << ") at " << file << ":" << line << " '" << func << "' \n";
        cudaDeviceReset(); exit(99);
    }
}
__device__ sphere::~sphere() { delete mat_ptr; }

__device__ vec3 color(const ray& r, hitable **world, curandState *st, int depth) {
    hit_record rec;
    if (depth <= 0) return vec3(0,0,0);
    if ((*world)->hit(r, 0.001f, FLT_MAX, rec)) {
        ray scattered; vec3 attenuation;
        if (rec.mat_ptr->scatter(r, rec, attenuation, scattered, st))
            return attenuation * color(scattered, world, st, depth - 1);
        return vec3(0,0,0);
    }
    vec3 unit_direction = unit_vector(r.direction());
    float t = 0.5f*(unit_direction.y() + 1.0f);
    return (1.0f-t)*vec3(1.0, 1.0, 1.0) + t*vec3(0.5, 0.7, 1.0);
}

__global__ void render_init(int max_x, int max_y, curandState *rand_state) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    if((i >= max_x) || (j >= max_y)) return;
    int pixel_index = j*max_x + i;
    curand_init(1984, pixel_index, 0, &rand_state[pixel_index]);
}

__global__ void render(vec3 *fb, int max_x, int max_y, int ns, vec3 lower_left_corner, vec3 horizontal, vec3 vertical, vec3 origin, hitable **world, curandState *rand_state) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    if((i >= max_x) || (j >= max_y)) return;
    int pixel_index = j*max_x + i;
    curandState local_rand_state = rand_state[pixel_index];
    vec3 col(0,0,0);
    for(int s=0; s < ns; s++) {
        float u = float(i + curand_uniform(&local_rand_state)) / float(max_x);
        float v = float(j + curand_uniform(&local_rand_state)) / float(max_y);
        ray r(origin, lower_left_corner + u*horizontal + v*vertical);
        col += color(r, world, &local_rand_state, 8);
    }
    rand_state[pixel_index] = local_rand_state;
    col = col / float(ns);
    col[0] = sqrtf(col[0]); col[1] = sqrtf(col[1]); col[2] = sqrtf(col[2]);
    fb[pixel_index] = col;
}

__global__ void create_world(hitable **d_list, hitable **d_world) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        d_list[0] = new sphere(vec3(0,0,-1), 0.5, new lambertian(vec3(0.8, 0.3, 0.3)));
        d_list[1] = new sphere(vec3(0,-100.5,-1), 100, new lambertian(vec3(0.8, 0.8, 0.0)));
        d_list[2] = new sphere(vec3(1,0,-1), 0.5, new metal(vec3(0.8, 0.6, 0.2), 1.0));
        d_list[3] = new sphere(vec3(-1,0,-1), 0.5, new metal(vec3(0.8, 0.8, 0.8), 0.3));
        *d_world  = new hitable_list(d_list, 4);
    }
}
__global__ void free_world(hitable **d_list, hitable **d_world) {
    for (int i = 0; i < 4; i++) delete d_list[i];
    delete *d_world;
}
// Primary-ray visibility only (no random numbers), also computed on the host.
__global__ void primary_ids(int *ids, int nx, int ny, hitable **d_list) {
    int i = threadIdx.x + blockIdx.x * blockDim.x, j = threadIdx.y + blockIdx.y * blockDim.y;
    if (i >= nx || j >= ny) return;
    ray r(vec3(0,0,0), vec3(-2,-1,-1) + (float(i)/nx)*vec3(4,0,0) + (float(j)/ny)*vec3(0,2,0));
    hit_record rec; float closest = FLT_MAX; int id = -1;
    for (int k = 0; k < 4; k++) if (d_list[k]->hit(r, 0.001f, closest, rec)) { closest = rec.t; id = k; }
    ids[j*nx+i] = id;
}

static int host_primary(int i, int j, int nx, int ny) {
    const float c[4][4] = {{0,0,-1,0.5f},{0,-100.5f,-1,100},{1,0,-1,0.5f},{-1,0,-1,0.5f}};
    float dx = -2 + 4.0f*i/nx, dy = -1 + 2.0f*j/ny, dz = -1;
    float best = FLT_MAX; int id = -1;
    for (int k = 0; k < 4; k++) {
        float ox = -c[k][0], oy = -c[k][1], oz = -c[k][2];
        float a = dx*dx+dy*dy+dz*dz, b = ox*dx+oy*dy+oz*dz, cc = ox*ox+oy*oy+oz*oz-c[k][3]*c[k][3];
        float disc = b*b-a*cc;
        if (disc > 0) { float t = (-b - sqrtf(disc))/a; if (t < best && t > 0.001f) { best = t; id = k; } }
    }
    return id;
}

int main() {
    int nx = 64, ny = 32, ns = 4, tx = 8, ty = 8;
    size_t fb_size = nx*ny*sizeof(vec3);
    checkCudaErrors(cudaDeviceSetLimit(cudaLimitStackSize, 8192));
    size_t stack = 0; checkCudaErrors(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    if (stack < 8192) { std::cerr << "stack limit " << stack << "\n"; return 1; }
    vec3 *fb; checkCudaErrors(cudaMallocManaged((void **)&fb, fb_size));
    curandState *d_rand_state; checkCudaErrors(cudaMalloc((void **)&d_rand_state, nx*ny*sizeof(curandState)));
    hitable **d_list; checkCudaErrors(cudaMalloc((void **)&d_list, 4*sizeof(hitable *)));
    hitable **d_world; checkCudaErrors(cudaMalloc((void **)&d_world, sizeof(hitable *)));
    create_world<<<1,1>>>(d_list,d_world);
    checkCudaErrors(cudaGetLastError()); checkCudaErrors(cudaDeviceSynchronize());
    dim3 blocks(nx/tx+1,ny/ty+1), threads(tx,ty);
    render_init<<<blocks, threads>>>(nx, ny, d_rand_state);
    checkCudaErrors(cudaGetLastError()); checkCudaErrors(cudaDeviceSynchronize());
    render<<<blocks, threads>>>(fb, nx, ny, ns, vec3(-2.0, -1.0, -1.0), vec3(4.0, 0.0, 0.0), vec3(0.0, 2.0, 0.0), vec3(0.0, 0.0, 0.0), d_world, d_rand_state);
    checkCudaErrors(cudaGetLastError()); checkCudaErrors(cudaDeviceSynchronize());
    int *ids; checkCudaErrors(cudaMallocManaged(&ids, nx*ny*sizeof(int)));
    primary_ids<<<blocks, threads>>>(ids, nx, ny, d_list);
    checkCudaErrors(cudaDeviceSynchronize());
    int bad = 0; double sum = 0;
    for (int j = 0; j < ny; j++) for (int i = 0; i < nx; i++) {
        if (ids[j*nx+i] != host_primary(i, j, nx, ny)) bad++;
        vec3 c = fb[j*nx+i];
        for (int k = 0; k < 3; k++) { if (!(c[k] >= 0 && c[k] <= 1.01f)) bad++; sum += c[k]; }
    }
    // The sky pixel at the top left sees no object: its color is exact.
    vec3 top = fb[(ny-1)*nx];
    std::cout << "checksum " << sum << " top " << top << "\n";
    if (top.z() < 0.9f) bad++;
    free_world<<<1,1>>>(d_list,d_world);
    checkCudaErrors(cudaGetLastError()); checkCudaErrors(cudaDeviceSynchronize());
    checkCudaErrors(cudaFree(d_list)); checkCudaErrors(cudaFree(d_world)); checkCudaErrors(cudaFree(d_rand_state));
    checkCudaErrors(cudaFree(fb)); checkCudaErrors(cudaFree(ids));
    std::cout << (bad ? "FAIL" : "PASS") << "\n";
    return bad != 0;
}
