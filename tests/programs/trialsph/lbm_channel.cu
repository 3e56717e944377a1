/* lbm_channel.cu: D2Q9 lattice Boltzmann channel flow (structure of arrays,
 * pull streaming, bounce-back, buffers swapped by pointer), float and
 * double, checked against the host. From the trialsph trial.
 * CUEMU_OPTIONS: -Isim
 * NVCC_OPTIONS: -Isim
 */
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "sim/lbm_d2q9.cuh"
#include <sim_check.h>

template <typename T>
static void hostStep(const std::vector<T> &fin, std::vector<T> &fout,
                     const std::vector<unsigned char> &solid, LbmGeom g, T omega, T forceX)
{
    const int N = g.size();
    for (int y = 0; y < g.ny; y++)
        for (int x = 0; x < g.nx; x++) {
            int i = g.idx(x, y);
            if (solid[i]) {
                for (int q = 0; q < Q; q++) fout[q * N + i] = fin[q * N + i];
                continue;
            }
            T f[Q];
            for (int q = 0; q < Q; q++) {
                int xs = (x - h_cx[q] + g.nx) % g.nx, ys = y - h_cy[q];
                if (ys < 0 || ys >= g.ny || solid[g.idx(xs, ys)])
                    f[q] = fin[h_opp[q] * N + i];
                else
                    f[q] = fin[q * N + g.idx(xs, ys)];
            }
            T rho = 0, mx = 0, my = 0;
            for (int q = 0; q < Q; q++) {
                rho += f[q];
                mx += f[q] * h_cx[q];
                my += f[q] * h_cy[q];
            }
            T ux = mx / rho, uy = my / rho;
            for (int q = 0; q < Q; q++) {
                T w = T(h_w[q]);
                T feq = lbmEquilibrium<T>(w, rho, ux, uy, h_cx[q], h_cy[q]);
                fout[q * N + i] = f[q] - omega * (f[q] - feq) + T(3) * w * h_cx[q] * forceX;
            }
        }
}

template <typename T>
static bool runChannel(const char *name, int nx, int ny, int steps, double tol)
{
    LbmGeom g = {nx, ny};
    const int N = g.size();
    std::vector<unsigned char> solid(N, 0);
    for (int y = ny / 3; y < ny / 3 + 4; y++)
        for (int x = nx / 4; x < nx / 4 + 4; x++) solid[g.idx(x, y)] = 1;

    T *d_f[2], *d_rho, *d_ux, *d_sum;
    unsigned char *d_solid;
    for (int b = 0; b < 2; b++) checkCudaErrors(cudaMalloc(&d_f[b], sizeof(T) * Q * N));
    checkCudaErrors(cudaMalloc(&d_rho, sizeof(T) * N));
    checkCudaErrors(cudaMalloc(&d_ux, sizeof(T) * N));
    checkCudaErrors(cudaMalloc(&d_sum, sizeof(T)));
    checkCudaErrors(cudaMalloc(&d_solid, N));
    checkCudaErrors(cudaMemset(d_rho, 0, sizeof(T) * N));
    checkCudaErrors(cudaMemset(d_ux, 0, sizeof(T) * N));
    checkCudaErrors(cudaMemcpy(d_solid, solid.data(), N, cudaMemcpyHostToDevice));

    lbmInitKernel<T><<<(N + 127) / 128, 128>>>(d_f[0], g, T(1));
    getLastCudaError("lbmInitKernel");

    std::vector<T> hf(Q * N), hf2(Q * N);
    checkCudaErrors(cudaMemcpy(hf.data(), d_f[0], sizeof(T) * Q * N, cudaMemcpyDeviceToHost));

    const T omega = T(1.0 / 0.8);
    const T force = T(1e-5);
    dim3 block(16, 8);
    dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
    T *fsrc = d_f[0], *fdst = d_f[1];
    for (int s = 0; s < steps; s++) {
        bool last = s == steps - 1;
        lbmStepKernel<<<grid, block>>>(fsrc, fdst, d_solid, g, omega, force,
                                       last ? d_rho : (T *)nullptr, last ? d_ux : (T *)nullptr);
        getLastCudaError("lbmStepKernel");
        std::swap(fsrc, fdst);
        hostStep(hf, hf2, solid, g, omega, force);
        hf.swap(hf2);
    }
    checkCudaErrors(cudaDeviceSynchronize());

    std::vector<T> df(Q * N), ux(N);
    checkCudaErrors(cudaMemcpy(df.data(), fsrc, sizeof(T) * Q * N, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(ux.data(), d_ux, sizeof(T) * N, cudaMemcpyDeviceToHost));
    double maxErr = 0;
    for (int k = 0; k < Q * N; k++) maxErr = std::max(maxErr, (double)std::fabs(df[k] - hf[k]));

    checkCudaErrors(cudaMemset(d_sum, 0, sizeof(T)));
    lbmSumKernel<256, T><<<8, 256>>>(d_rho, N, d_sum);
    T mass;
    checkCudaErrors(cudaMemcpy(&mass, d_sum, sizeof(T), cudaMemcpyDeviceToHost));
    int fluid = 0;
    for (int k = 0; k < N; k++) fluid += !solid[k];
    double hostMass = 0;
    for (int k = 0; k < N; k++)
        if (!solid[k])
            for (int q = 0; q < Q; q++) hostMass += hf[q * N + k];
    /* the kernel writes no rho on solid nodes (they stay 0) */
    double fluidMass = mass;

    double umax = 0;
    for (int k = 0; k < N; k++) umax = std::max(umax, (double)ux[k]);
    bool ok = maxErr < tol && std::fabs(fluidMass - hostMass) < 1e-3 * fluid && umax > 0;
    printf("%s: %dx%d, %d steps: max |f - f_host| %.3g, mass %.6f (host %.6f), max ux %.3g: %s\n",
           name, nx, ny, steps, maxErr, (double)fluidMass, hostMass, umax, ok ? "ok" : "wrong");

    for (int b = 0; b < 2; b++) cudaFree(d_f[b]);
    cudaFree(d_rho);
    cudaFree(d_ux);
    cudaFree(d_sum);
    cudaFree(d_solid);
    return ok;
}

int main()
{
    bool ok = runChannel<float>("float", 64, 32, 30, 1e-5);
    ok = runChannel<double>("double", 48, 24, 30, 1e-12) && ok;
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
