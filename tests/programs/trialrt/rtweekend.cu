// Ray tracing in one weekend, on the GPU: the world is built on the device
// by a <<<1,1>>> kernel with new, rendered with per-pixel curand states by
// an iterative and a recursive kernel, and checked against a host render of
// the same scene drawing the same random numbers.
#include <iostream>
#include <vector>
#include <chrono>
#include <cmath>
#include "rt/cuda_check.h"
#include "rt/render_kernels.cuh"
#include "rt/ppm.h"

static void host_render(std::vector<vec3> &fb, int nx, int ny, int ns, const std::vector<float> &stream,
                        int per_pixel, bool &overflow) {
    hitable *list[SCENE_OBJECTS];
    hitable *world;
    camera *cam;
    create_world(list, &world, &cam, nx, ny);
    overflow = false;
    for (int j = 0; j < ny; j++) {
        for (int i = 0; i < nx; i++) {
            int pixel_index = j*nx + i;
            rand_source rs;
            rs.stream = &stream[(size_t)pixel_index*per_pixel];
            rs.pos = 0;
            rs.limit = per_pixel;
            rs.overflow = false;
            vec3 col(0,0,0);
            for (int s = 0; s < ns; s++) {
                float u = float(i + rs.next()) / float(nx);
                float v = float(j + rs.next()) / float(ny);
                ray r = cam->get_ray(u, v);
                col += color(r, &world, rs);
            }
            col /= float(ns);
            fb[pixel_index] = vec3(sqrtf(col[0]), sqrtf(col[1]), sqrtf(col[2]));
            overflow |= rs.overflow;
        }
    }
    free_world(list, &world, &cam);
}

// Fraction of pixels whose channels differ by more than tol.
static double differing(const std::vector<vec3> &a, const vec3 *b, float tol, double &mean_abs) {
    size_t bad = 0;
    double sum = 0;
    for (size_t k = 0; k < a.size(); k++) {
        float d = 0;
        for (int c = 0; c < 3; c++) {
            d = fmaxf(d, fabsf(a[k][c] - b[k][c]));
            sum += fabs(a[k][c] - b[k][c]);
        }
        if (d > tol) bad++;
    }
    mean_abs = sum / (3.0 * a.size());
    return double(bad) / a.size();
}

int main(int argc, char **argv) {
    int nx = 48;
    int ny = 32;
    int ns = 4;
    int tx = 8;
    int ty = 8;
    if (argc > 1) nx = atoi(argv[1]);
    if (argc > 2) ny = atoi(argv[2]);

    std::cerr << "Rendering a " << nx << "x" << ny << " image with " << ns << " samples per pixel ";
    std::cerr << "in " << tx << "x" << ty << " blocks.\n";

    int num_pixels = nx*ny;
    size_t fb_size = num_pixels*sizeof(vec3);

    checkCudaErrors(cudaDeviceSetLimit(cudaLimitStackSize, 8192));
    checkCudaErrors(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16u << 20));
    size_t stack = 0, heap = 0;
    checkCudaErrors(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    checkCudaErrors(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    bool ok = stack >= 8192 && heap >= (16u << 20);
    if (!ok) std::cerr << "limits not kept: stack " << stack << " heap " << heap << "\n";

    // allocate FB in unified memory
    vec3 *fb;
    checkCudaErrors(cudaMallocManaged((void **)&fb, fb_size));
    vec3 *fb_rec;
    checkCudaErrors(cudaMallocManaged((void **)&fb_rec, fb_size));

    // allocate random state
    curandState *d_rand_state;
    checkCudaErrors(cudaMalloc((void **)&d_rand_state, num_pixels*sizeof(curandState)));
    curandState *d_rand_state2;
    checkCudaErrors(cudaMalloc((void **)&d_rand_state2, 1*sizeof(curandState)));

    // we need that 2nd random state to be initialized for the world creation
    rand_init<<<1,1>>>(d_rand_state2);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaDeviceSynchronize());

    // make our world of hitables & the camera
    hitable **d_list;
    checkCudaErrors(cudaMalloc((void **)&d_list, SCENE_OBJECTS*sizeof(hitable *)));
    hitable **d_world;
    checkCudaErrors(cudaMalloc((void **)&d_world, sizeof(hitable *)));
    camera **d_camera;
    checkCudaErrors(cudaMalloc((void **)&d_camera, sizeof(camera *)));
    create_world_kernel<<<1,1>>>(d_list, d_world, d_camera, nx, ny);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaDeviceSynchronize());

    auto start = std::chrono::high_resolution_clock::now();
    cudaEvent_t ev0, ev1;
    checkCudaErrors(cudaEventCreate(&ev0));
    checkCudaErrors(cudaEventCreate(&ev1));
    // Render our buffer
    dim3 blocks(nx/tx+1,ny/ty+1);
    dim3 threads(tx,ty);
    render_init<<<blocks, threads>>>(nx, ny, d_rand_state);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaDeviceSynchronize());
    checkCudaErrors(cudaEventRecord(ev0));
    render<false><<<blocks, threads>>>(fb, nx, ny,  ns, d_camera, d_world, d_rand_state);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaEventRecord(ev1));
    checkCudaErrors(cudaEventSynchronize(ev1));
    float ms = 0;
    checkCudaErrors(cudaEventElapsedTime(&ms, ev0, ev1));
    auto stop = std::chrono::high_resolution_clock::now();
    double timer_seconds = std::chrono::duration<double>(stop - start).count();
    std::cerr << "took " << timer_seconds << " seconds (kernel " << ms << " ms).\n";
    if (!(ms >= 0.0f)) { std::cerr << "bad event time\n"; ok = false; }

    // The recursive kernel from fresh states: the same numbers.
    render_init<<<blocks, threads>>>(nx, ny, d_rand_state);
    checkCudaErrors(cudaGetLastError());
    render<true><<<blocks, threads>>>(fb_rec, nx, ny,  ns, d_camera, d_world, d_rand_state);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaDeviceSynchronize());

    // The numbers each pixel drew, for the host.
    const int per_pixel = ns*(2 + 2*MAX_DEPTH);
    float *d_stream;
    checkCudaErrors(cudaMalloc(&d_stream, (size_t)num_pixels*per_pixel*sizeof(float)));
    record_stream<<<blocks, threads>>>(nx, ny, per_pixel, d_stream);
    checkCudaErrors(cudaGetLastError());
    std::vector<float> stream((size_t)num_pixels*per_pixel);
    checkCudaErrors(cudaMemcpy(stream.data(), d_stream, stream.size()*sizeof(float), cudaMemcpyDeviceToHost));

    std::vector<vec3> ref(num_pixels);
    bool overflow = false;
    host_render(ref, nx, ny, ns, stream, per_pixel, overflow);
    if (overflow) { std::cerr << "host render ran out of recorded numbers\n"; ok = false; }

    double mean_abs = 0, mean_abs_rec = 0;
    double frac = differing(ref, fb, 0.05f, mean_abs);
    double frac_rec = differing(ref, fb_rec, 0.05f, mean_abs_rec);
    std::cerr << "iterative: " << frac*100 << "% pixels differ, mean " << mean_abs << "\n";
    std::cerr << "recursive: " << frac_rec*100 << "% pixels differ, mean " << mean_abs_rec << "\n";
    if (frac > 0.02 || mean_abs > 0.005 || frac_rec > 0.02 || mean_abs_rec > 0.005) ok = false;

    // Output FB as Image and read it back
    if (!write_ppm("rtweekend.ppm", fb, nx, ny)) { std::cerr << "cannot write image\n"; ok = false; }
    std::vector<unsigned char> rgb;
    int rx = 0, ry = 0;
    if (!read_ppm("rtweekend.ppm", rgb, rx, ry) || rx != nx || ry != ny) { ok = false; }
    else {
        // the top row of the file is the last row of the buffer
        int ir = int(255.99*fminf(fb[(ny-1)*nx].r(), 1.0f));
        if (rgb[0] != ir) { std::cerr << "image row order\n"; ok = false; }
    }
    remove("rtweekend.ppm");

    // clean up
    checkCudaErrors(cudaDeviceSynchronize());
    free_world_kernel<<<1,1>>>(d_list,d_world,d_camera);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaFree(d_camera));
    checkCudaErrors(cudaFree(d_world));
    checkCudaErrors(cudaFree(d_list));
    checkCudaErrors(cudaFree(d_rand_state));
    checkCudaErrors(cudaFree(d_rand_state2));
    checkCudaErrors(cudaFree(d_stream));
    checkCudaErrors(cudaFree(fb));
    checkCudaErrors(cudaFree(fb_rec));
    checkCudaErrors(cudaEventDestroy(ev0));
    checkCudaErrors(cudaEventDestroy(ev1));

    cudaDeviceReset();
    std::cout << (ok ? "PASS" : "FAIL") << std::endl;
    return ok ? 0 : 1;
}
