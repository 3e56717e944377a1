#ifndef RENDER_KERNELS_CUH
#define RENDER_KERNELS_CUH

#include <float.h>
#include "scene.h"

#define MAX_DEPTH 8

// Matching the C++ code would recurse enough into color() calls that
// it was blowing up the stack, so we have to turn this into a
// limited-depth loop instead.
__host__ __device__ inline vec3 color(const ray& r, hitable **world, rand_source &rs) {
    ray cur_ray = r;
    vec3 cur_attenuation = vec3(1.0f,1.0f,1.0f);
    for(int i = 0; i < MAX_DEPTH; i++) {
        hit_record rec;
        if ((*world)->hit(cur_ray, 0.001f, FLT_MAX, rec)) {
            ray scattered;
            vec3 attenuation;
            if(rec.mat_ptr->scatter(cur_ray, rec, attenuation, scattered, rs)) {
                cur_attenuation *= attenuation;
                cur_ray = scattered;
            }
            else {
                return vec3(0.0f,0.0f,0.0f);
            }
        }
        else {
            vec3 unit_direction = unit_vector(cur_ray.direction());
            float t = 0.5f*(unit_direction.y() + 1.0f);
            vec3 c = (1.0f-t)*vec3(1.0f, 1.0f, 1.0f) + t*vec3(0.5f, 0.7f, 1.0f);
            return cur_attenuation * c;
        }
    }
    return vec3(0.0f,0.0f,0.0f); // exceeded recursion
}

// The recursive form, as the book writes it: needs cudaLimitStackSize.
__device__ vec3 color_recursive(const ray& r, hitable **world, rand_source &rs, int depth) {
    hit_record rec;
    if ((*world)->hit(r, 0.001f, FLT_MAX, rec)) {
        ray scattered;
        vec3 attenuation;
        if (depth < MAX_DEPTH && rec.mat_ptr->scatter(r, rec, attenuation, scattered, rs)) {
            return attenuation*color_recursive(scattered, world, rs, depth+1);
        }
        return vec3(0,0,0);
    }
    vec3 unit_direction = unit_vector(r.direction());
    float t = 0.5f*(unit_direction.y() + 1.0f);
    return (1.0f-t)*vec3(1.0f, 1.0f, 1.0f) + t*vec3(0.5f, 0.7f, 1.0f);
}

__global__ void rand_init(curandState *rand_state) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        curand_init(1984, 0, 0, rand_state);
    }
}

__global__ void render_init(int max_x, int max_y, curandState *rand_state) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    if((i >= max_x) || (j >= max_y)) return;
    int pixel_index = j*max_x + i;
    // Each thread gets same seed, a different sequence number, no offset
    curand_init(1984, pixel_index, 0, &rand_state[pixel_index]);
}

// Records the first `per_pixel` numbers of each pixel's sequence for the host.
__global__ void record_stream(int max_x, int max_y, int per_pixel, float *out) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    if((i >= max_x) || (j >= max_y)) return;
    int pixel_index = j*max_x + i;
    curandState s;
    curand_init(1984, pixel_index, 0, &s);
    for (int k = 0; k < per_pixel; k++)
        out[(size_t)pixel_index*per_pixel + k] = curand_uniform(&s);
}

template <bool Recursive>
__global__ void render(vec3 *fb, int max_x, int max_y, int ns, camera **cam, hitable **world, curandState *rand_state) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    if((i >= max_x) || (j >= max_y)) return;
    int pixel_index = j*max_x + i;
    curandState local_rand_state = rand_state[pixel_index];
    rand_source rs;
    rs.state = &local_rand_state;
    vec3 col(0,0,0);
    for(int s=0; s < ns; s++) {
        float u = float(i + curand_uniform(&local_rand_state)) / float(max_x);
        float v = float(j + curand_uniform(&local_rand_state)) / float(max_y);
        ray r = (*cam)->get_ray(u, v);
        if (Recursive)
            col += color_recursive(r, world, rs, 0);
        else
            col += color(r, world, rs);
    }
    rand_state[pixel_index] = local_rand_state;
    col /= float(ns);
    col[0] = sqrtf(col[0]);
    col[1] = sqrtf(col[1]);
    col[2] = sqrtf(col[2]);
    fb[pixel_index] = col;
}

__global__ void create_world_kernel(hitable **d_list, hitable **d_world, camera **d_camera, int nx, int ny) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        create_world(d_list, d_world, d_camera, nx, ny);
    }
}

__global__ void free_world_kernel(hitable **d_list, hitable **d_world, camera **d_camera) {
    free_world(d_list, d_world, d_camera);
}

#endif
