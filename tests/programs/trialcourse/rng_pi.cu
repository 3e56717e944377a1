// CUEMU_OPTIONS: -lcurand
// NVCC_OPTIONS: -lcurand
// Monte Carlo pi with cuRAND: host API fills device memory, device API draws inside a kernel.
#include "course/cuda_check.h"
#include <curand.h>
#include <curand_kernel.h>
#include <cstdio>
#include <cmath>
#include <vector>

#define CURAND_CHECK(call)                                                        \
    do {                                                                          \
        curandStatus_t st__ = (call);                                             \
        if (st__ != CURAND_STATUS_SUCCESS) {                                      \
            throw std::runtime_error("cuRAND error " + std::to_string(int(st__)) + \
                                     " at " __FILE__);                            \
        }                                                                         \
    } while (0)

__global__ void count_inside(const float* xy, int n, unsigned int* hits)
{
    __shared__ unsigned int block_hits;
    if (threadIdx.x == 0) block_hits = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float x = xy[2 * i], y = xy[2 * i + 1];
        if (x * x + y * y <= 1.0f) atomicAdd(&block_hits, 1u);
    }
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(hits, block_hits);
}

__global__ void setup_states(curandState* states, unsigned long long seed)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(seed, id, 0, &states[id]);
}

__global__ void pi_device_api(curandState* states, int per_thread, unsigned int* hits, float* sample_out)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState local = states[id];
    unsigned int mine = 0;
    for (int i = 0; i < per_thread; ++i) {
        float x = curand_uniform(&local);
        float y = curand_uniform(&local);
        if (i == 0) sample_out[id] = x;
        if (x * x + y * y <= 1.0f) ++mine;
    }
    unsigned int raw = curand(&local);
    (void)raw;
    states[id] = local;
    atomicAdd(hits, mine);
}

int main()
{
    try {
        const int n = 1 << 18;
        float* d_xy;
        unsigned int* d_hits;
        CUDA_CHECK(cudaMalloc(&d_xy, 2 * n * sizeof(float)));
        CUDA_CHECK(cudaMalloc(&d_hits, 2 * sizeof(unsigned int)));
        CUDA_CHECK(cudaMemset(d_hits, 0, 2 * sizeof(unsigned int)));

        curandGenerator_t gen;
        CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
        CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
        CURAND_CHECK(curandGenerateUniform(gen, d_xy, 2 * n));
        count_inside<<<64, 256>>>(d_xy, n, d_hits);
        CUDA_CHECK(cudaGetLastError());

        std::vector<float> xy(2 * n);
        CUDA_CHECK(cudaMemcpy(xy.data(), d_xy, xy.size() * sizeof(float), cudaMemcpyDeviceToHost));
        unsigned int host_hits = 0;
        bool in_range = true;
        for (int i = 0; i < n; ++i) {
            float x = xy[2 * i], y = xy[2 * i + 1];
            if (!(x > 0.0f && x <= 1.0f && y > 0.0f && y <= 1.0f)) in_range = false;
            if (x * x + y * y <= 1.0f) ++host_hits;
        }

        const int blocks = 32, threads = 128, per_thread = 64;
        curandState* states;
        float* d_sample;
        CUDA_CHECK(cudaMalloc(&states, blocks * threads * sizeof(curandState)));
        CUDA_CHECK(cudaMalloc(&d_sample, blocks * threads * sizeof(float)));
        setup_states<<<blocks, threads>>>(states, 99ULL);
        pi_device_api<<<blocks, threads>>>(states, per_thread, d_hits + 1, d_sample);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());

        unsigned int hits[2];
        CUDA_CHECK(cudaMemcpy(hits, d_hits, sizeof(hits), cudaMemcpyDeviceToHost));
        std::vector<float> sample(blocks * threads);
        CUDA_CHECK(cudaMemcpy(sample.data(), d_sample, sample.size() * sizeof(float), cudaMemcpyDeviceToHost));
        bool distinct = sample[0] != sample[1] && sample[1] != sample[threads];

        double pi_host_api = 4.0 * hits[0] / n;
        double pi_dev_api = 4.0 * hits[1] / (double(blocks) * threads * per_thread);
        printf("pi (host API) %.4f, pi (device API) %.4f, host count %u vs device %u\n", pi_host_api,
               pi_dev_api, host_hits, hits[0]);
        bool ok = in_range && distinct && host_hits == hits[0] && fabs(pi_host_api - M_PI) < 0.02 &&
                  fabs(pi_dev_api - M_PI) < 0.03;
        CURAND_CHECK(curandDestroyGenerator(gen));
        cudaFree(d_xy); cudaFree(d_hits); cudaFree(states); cudaFree(d_sample);
        printf("%s\n", ok ? "PASS" : "FAIL");
        return ok ? 0 : 1;
    } catch (const std::exception& e) {
        fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
}
