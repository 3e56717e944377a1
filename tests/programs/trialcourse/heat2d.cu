// 2D heat equation (explicit 5-point stencil) on managed memory.
#include "course/device_buffer.h"
#include <cstdio>
#include <cmath>
#include <vector>

__global__ void heat_step(const float* __restrict__ u, float* __restrict__ un, int nx, int ny, float alpha)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= nx * ny) return;
    int x = idx % nx, y = idx / nx;
    if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) { un[idx] = u[idx]; return; }
    un[idx] = u[idx] + alpha * (u[idx - 1] + u[idx + 1] + u[idx - nx] + u[idx + nx] - 4.0f * u[idx]);
}

int main()
{
    try {
        const int nx = 128, ny = 96, steps = 50;
        const float alpha = 0.2f;
        const size_t bytes = size_t(nx) * ny * sizeof(float);
        int dev = 0;
        CUDA_CHECK(cudaGetDevice(&dev));
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
        printf("device %s, managed memory %d, concurrent managed access %d\n", prop.name,
               prop.managedMemory, prop.concurrentManagedAccess);

        float *u, *un;
        CUDA_CHECK(cudaMallocManaged(&u, bytes));
        CUDA_CHECK(cudaMallocManaged(&un, bytes));
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x)
                u[y * nx + x] = (x > nx / 3 && x < nx / 2 && y > ny / 4 && y < ny / 2) ? 100.0f : 0.0f;
        std::vector<float> ref(u, u + nx * ny), refn(nx * ny);

        cudaStream_t stream;
        CUDA_CHECK(cudaStreamCreate(&stream));
        cudaMemLocation loc = {};
        loc.type = cudaMemLocationTypeDevice;
        loc.id = dev;
        CUDA_CHECK(cudaMemAdvise(u, bytes, cudaMemAdviseSetPreferredLocation, loc));
        CUDA_CHECK(cudaMemPrefetchAsync(u, bytes, loc, 0, stream));
        CUDA_CHECK(cudaMemPrefetchAsync(un, bytes, loc, 0, stream));

        int minGrid = 0, block = 0;
        CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, heat_step, 0, 0));
        int grid = (nx * ny + block - 1) / block;
        printf("occupancy: block %d, min grid %d, grid %d\n", block, minGrid, grid);

        CudaEvent start, stop;
        start.record(stream);
        for (int s = 0; s < steps; ++s) {
            heat_step<<<grid, block, 0, stream>>>(u, un, nx, ny, alpha);
            std::swap(u, un);
        }
        stop.record(stream);
        CUDA_CHECK(cudaGetLastError());
        float ms = stop.elapsed_since(start);
        printf("%d steps in %.3f ms\n", steps, ms);

        cudaMemLocation host = {};
        host.type = cudaMemLocationTypeHost;
        host.id = 0;
        CUDA_CHECK(cudaMemPrefetchAsync(u, bytes, host, 0, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));

        for (int s = 0; s < steps; ++s) {
            for (int y = 0; y < ny; ++y)
                for (int x = 0; x < nx; ++x) {
                    int i = y * nx + x;
                    if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) refn[i] = ref[i];
                    else refn[i] = ref[i] + alpha * (ref[i - 1] + ref[i + 1] + ref[i - nx] + ref[i + nx] - 4.0f * ref[i]);
                }
            std::swap(ref, refn);
        }
        double err = 0, sum = 0;
        for (int i = 0; i < nx * ny; ++i) { err = fmax(err, fabs(u[i] - ref[i])); sum += u[i]; }
        printf("heat: total %.3f, max error %.3e\n", sum, err);
        bool ok = err < 1e-3 && ms >= 0.0f;
        CUDA_CHECK(cudaStreamDestroy(stream));
        CUDA_CHECK(cudaFree(u));
        CUDA_CHECK(cudaFree(un));
        printf("%s\n", ok ? "PASS" : "FAIL");
        return ok ? 0 : 1;
    } catch (const std::exception& e) {
        fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
}
