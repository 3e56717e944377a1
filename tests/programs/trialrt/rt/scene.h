#ifndef SCENEH
#define SCENEH

#include "sphere.h"
#include "hitable_list.h"
#include "material.h"
#include "camera.h"

#define SCENE_GRID 3
#define SCENE_OBJECTS (4 + (2*SCENE_GRID)*(2*SCENE_GRID))

// A tiny deterministic hash so that host and device build the same scene.
__host__ __device__ inline float scene_hash(unsigned int i) {
    i ^= i >> 16; i *= 0x7feb352dU; i ^= i >> 15; i *= 0x846ca68bU; i ^= i >> 16;
    return (i & 0xffffff) / 16777216.0f;
}

__host__ __device__ inline void create_world(hitable **d_list, hitable **d_world, camera **d_camera,
                                             int nx, int ny) {
    int i = 0;
    d_list[i++] = new sphere(vec3(0,-1000.0f,-1), 1000, new lambertian(vec3(0.5f, 0.5f, 0.5f)));
    unsigned int h = 1;
    for (int a = -SCENE_GRID; a < SCENE_GRID; a++) {
        for (int b = -SCENE_GRID; b < SCENE_GRID; b++) {
            float choose_mat = scene_hash(h);
            vec3 center(a + 0.9f*scene_hash(h+1), 0.2f, b + 0.9f*scene_hash(h+2));
            h += 3;
            if (choose_mat < 0.7f) {
                d_list[i++] = new sphere(center, 0.2f,
                                         new lambertian(vec3(scene_hash(h)*scene_hash(h+1), scene_hash(h+2)*scene_hash(h+3), scene_hash(h+4)*scene_hash(h+5))));
                h += 6;
            }
            else if (choose_mat < 0.9f) {
                d_list[i++] = new sphere(center, 0.2f,
                                         new metal(vec3(0.5f*(1.0f+scene_hash(h)), 0.5f*(1.0f+scene_hash(h+1)), 0.5f*(1.0f+scene_hash(h+2))), 0.5f*scene_hash(h+3)));
                h += 4;
            }
            else {
                d_list[i++] = new sphere(center, 0.2f, new dielectric(1.5f));
            }
        }
    }
    d_list[i++] = new sphere(vec3(0, 1,0),  1.0f, new dielectric(1.5f));
    d_list[i++] = new sphere(vec3(-4, 1, 0), 1.0f, new lambertian(vec3(0.4f, 0.2f, 0.1f)));
    d_list[i++] = new sphere(vec3(4, 1, 0),  1.0f, new metal(vec3(0.7f, 0.6f, 0.5f), 0.0f));
    *d_world  = new hitable_list(d_list, i);
    *d_camera = new camera(vec3(13,2,3), vec3(0,0,0), vec3(0,1,0), 30.0f, float(nx)/float(ny));
}

__host__ __device__ inline void free_world(hitable **d_list, hitable **d_world, camera **d_camera) {
    int n = ((hitable_list *)*d_world)->list_size;
    for (int i = 0; i < n; i++) {
        delete ((sphere *)d_list[i])->mat_ptr;
        delete d_list[i];
    }
    delete *d_world;
    delete *d_camera;
}

#endif
