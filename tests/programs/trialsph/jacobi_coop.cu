/* jacobi_coop.cu: Jacobi sweeps of a Poisson problem in one cooperative
 * launch (grid.sync, sized by the occupancy API, cg::reduce residuals) and
 * in the multi-kernel fallback, both checked against the host. From the
 * trialsph trial.
 * CUEMU_OPTIONS: -Isim
 * NVCC_OPTIONS: -Isim
 */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "sim/jacobi.cuh"
#include <sim_check.h>

#define BLOCK 256

static void hostJacobi(std::vector<float> &u, const std::vector<float> &f, PoissonProblem p,
                       int iterations, std::vector<double> &res)
{
    std::vector<float> v = u;
    for (int it = 0; it < iterations; it++) {
        std::vector<float> &src = (it & 1) ? v : u;
        std::vector<float> &dst = (it & 1) ? u : v;
        double r = 0;
        for (int y = 1; y < p.ny - 1; y++)
            for (int x = 1; x < p.nx - 1; x++) {
                int i = y * p.nx + x;
                float nv = 0.25f * (src[i - 1] + src[i + 1] + src[i - p.nx] + src[i + p.nx] +
                                    p.h2 * f[i]);
                float d = nv - src[i];
                dst[i] = nv;
                r += (double)d * d;
            }
        res[it] = r;
    }
    if (iterations & 1) u = v;
}

int main(int argc, char **argv)
{
    const int nx = 130, ny = 98, iterations = 40;
    bool forceFallback = argc > 1 && strcmp(argv[1], "--fallback") == 0;
    PoissonProblem p = {nx, ny, 1.0f / ((nx - 1) * (nx - 1))};
    const size_t n = (size_t)nx * ny;

    std::vector<float> hf(n), hu(n, 0.0f);
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++)
            hf[y * nx + x] = sinf(3.14159f * x / (nx - 1)) * sinf(3.14159f * y / (ny - 1)) * 50.0f;

    int dev = 0;
    checkCudaErrors(cudaSetDevice(dev));
    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
    int supportsCoop = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&supportsCoop, cudaDevAttrCooperativeLaunch, dev));
    printf("device %s, %d SMs, cooperative launch %s\n", prop.name, prop.multiProcessorCount,
           supportsCoop ? "supported" : "not supported");

    float *d_u0, *d_u1, *d_f, *d_res;
    checkCudaErrors(cudaMalloc(&d_u0, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_u1, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_f, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_res, iterations * sizeof(float)));

    cudaStream_t stream;
    checkCudaErrors(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));

    std::vector<double> hostRes(iterations);
    std::vector<float> hostU = hu;
    hostJacobi(hostU, hf, p, iterations, hostRes);

    bool ok = true;
    for (int pass = 0; pass < 2; pass++) {
        bool coop = pass == 0 && supportsCoop && !forceFallback;
        if (pass == 0 && !coop) continue;
        checkCudaErrors(cudaMemcpyAsync(d_f, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream));
        checkCudaErrors(cudaMemsetAsync(d_u0, 0, n * sizeof(float), stream));
        checkCudaErrors(cudaMemsetAsync(d_u1, 0, n * sizeof(float), stream));
        checkCudaErrors(cudaMemsetAsync(d_res, 0, iterations * sizeof(float), stream));
        checkCudaErrors(cudaEventRecord(start, stream));
        if (coop) {
            int numBlocksPerSm = 0;
            checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &numBlocksPerSm, jacobiCooperative<BLOCK>, BLOCK, 0));
            dim3 dimGrid(prop.multiProcessorCount * numBlocksPerSm, 1, 1), dimBlock(BLOCK, 1, 1);
            printf("cooperative: %d blocks per SM, %u blocks of %d\n", numBlocksPerSm, dimGrid.x, BLOCK);
            int iters = iterations;
            void *kernelArgs[] = {(void *)&d_u0, (void *)&d_u1, (void *)&d_f, (void *)&p,
                                  (void *)&iters, (void *)&d_res};
            checkCudaErrors(cudaLaunchCooperativeKernel((void *)jacobiCooperative<BLOCK>, dimGrid,
                                                        dimBlock, kernelArgs, 0, stream));
        } else {
            int blocks = ((nx - 2) * (ny - 2) + BLOCK - 1) / BLOCK;
            for (int it = 0; it < iterations; it++) {
                float *src = (it & 1) ? d_u1 : d_u0, *dst = (it & 1) ? d_u0 : d_u1;
                jacobiStep<BLOCK><<<blocks, BLOCK, 0, stream>>>(src, dst, d_f, p, d_res + it);
            }
        }
        getLastCudaError("jacobi launch");
        checkCudaErrors(cudaEventRecord(stop, stream));
        checkCudaErrors(cudaEventSynchronize(stop));
        float ms = 0;
        checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));

        std::vector<float> u(n), res(iterations);
        float *result = (iterations & 1) ? d_u1 : d_u0;
        checkCudaErrors(cudaMemcpy(u.data(), result, n * sizeof(float), cudaMemcpyDeviceToHost));
        checkCudaErrors(cudaMemcpy(res.data(), d_res, iterations * sizeof(float), cudaMemcpyDeviceToHost));
        double maxErr = 0, maxResErr = 0;
        for (size_t k = 0; k < n; k++) maxErr = fmax(maxErr, fabs(u[k] - hostU[k]));
        for (int it = 0; it < iterations; it++)
            maxResErr = fmax(maxResErr, fabs(res[it] - hostRes[it]) / hostRes[it]);
        bool passOk = maxErr < 1e-5 && maxResErr < 1e-3 && res[iterations - 1] < res[0];
        printf("%s: max |u - u_host| %.3g, residual %.4g -> %.4g (rel err %.3g): %s\n",
               coop ? "cooperative" : "fallback", maxErr, res[0], res[iterations - 1], maxResErr,
               passOk ? "ok" : "wrong");
        ok = ok && passOk;
    }

    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaStreamDestroy(stream);
    cudaFree(d_u0);
    cudaFree(d_u1);
    cudaFree(d_f);
    cudaFree(d_res);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
