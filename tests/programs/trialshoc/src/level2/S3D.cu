// NVCC_OPTIONS: -I../common --use_fast_math
// S3D-like chemistry: per grid point, reaction progress rates from many
// small device functions (exp, log, pow, sqrt, __expf, __fdividef),
// compiled with --use_fast_math; float and double.
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "OptionParser.h"
#include "ResultDatabase.h"
#include "S3D_rates.h"
#include "cudacommon.h"

void addBenchmarkSpecOptions(OptionParser &op) {
    op.addOption("points", OPT_INT, "0", "grid points (0: from --size)");
}

static const float h_logA[NREACT] = {30.1f, 28.4f, 25.0f, 31.2f, 27.7f, 29.9f,
                                     26.3f, 24.8f, 30.5f, 28.8f, 27.1f, 29.3f};
static const float h_beta[NREACT] = {-0.5f, 0.0f, 1.2f, -1.0f, 0.7f, 0.3f,
                                     -0.2f, 1.5f, 0.0f, -0.8f, 0.4f, 1.1f};
static const float h_Ea[NREACT] = {8000.f, 12000.f, 3000.f, 15000.f, 9500.f, 7000.f,
                                   11000.f, 4000.f, 13000.f, 6000.f, 10000.f, 5000.f};

template <class real>
__global__ void ratt_kernel(const real *__restrict__ T, const real *__restrict__ conc,
                            real *__restrict__ wdot, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    real c[NSPECIES];
#pragma unroll
    for (int s = 0; s < NSPECIES; ++s)
        c[s] = conc[s * n + i];
    real out[NSPECIES] = {};
    for (int r = 0; r < NREACT; ++r) {
        real q = progressRate<real>(r, T[i], c);
        out[r % NSPECIES] -= q;
        out[(r + 5) % NSPECIES] += q;
    }
#pragma unroll
    for (int s = 0; s < NSPECIES; ++s)
        wdot[s * n + i] = out[s];
}

// The host model, in double whatever the device precision.
static double hostProgress(int r, double T, const double *c) {
    double logT = std::log(T), rT = 1.0 / T;
    double kf = std::exp((double)h_logA[r] + (double)h_beta[r] * logT - (double)h_Ea[r] * rT);
    kf = std::fmin(std::fmax(kf, 1e-30), 1e30);
    auto g = [&](int s) {
        double a = 2.5 + 0.1 * s, b = 1.0e-3 * (s + 1);
        return a * (1.0 - logT) - 0.5 * b * T + 1000.0 * (s + 1) / T;
    };
    int s1 = r % NSPECIES, s2 = (r + 3) % NSPECIES;
    double kc = std::exp(g(s1) - g(s2)) * std::pow(PA / (R0 * T), (double)((r % 3) - 1));
    double kr = kf / std::fmax(kc, 1e-30);
    int a = r % NSPECIES, b = (r + 1) % NSPECIES, cc = (r + 5) % NSPECIES;
    return kf * c[a] * c[b] - kr * c[cc] * std::sqrt(c[a]);
}

template <class real>
static void RunTest(const std::string &name, ResultDatabase &db, OptionParser &op) {
    const int sizes[4] = {1024, 8192, 65536, 262144};
    int n = op.getOptionInt("points") > 0 ? (int)op.getOptionInt("points")
                                          : sizes[op.getOptionInt("size") - 1];
    std::vector<real> T(n), conc((size_t)NSPECIES * n), wdot((size_t)NSPECIES * n);
    for (int i = 0; i < n; ++i) {
        T[i] = (real)(1000.0 + 1000.0 * (i % 97) / 97.0);
        for (int s = 0; s < NSPECIES; ++s)
            conc[(size_t)s * n + i] = (real)(1e-6 * (1 + (i + s) % 13));
    }
    real *dT, *dC, *dW;
    CUDA_SAFE_CALL(cudaMalloc(&dT, n * sizeof(real)));
    CUDA_SAFE_CALL(cudaMalloc(&dC, conc.size() * sizeof(real)));
    CUDA_SAFE_CALL(cudaMalloc(&dW, wdot.size() * sizeof(real)));
    CUDA_SAFE_CALL(cudaMemcpy(dT, T.data(), n * sizeof(real), cudaMemcpyHostToDevice));
    CUDA_SAFE_CALL(cudaMemcpy(dC, conc.data(), conc.size() * sizeof(real), cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    for (int p = 0; p < (int)op.getOptionInt("passes"); ++p) {
        cudaEventRecord(start);
        ratt_kernel<real><<<(n + 127) / 128, 128>>>(dT, dC, dW, n);
        cudaEventRecord(stop);
        CHECK_CUDA_ERROR();
        cudaEventSynchronize(stop);
        float ms;
        cudaEventElapsedTime(&ms, start, stop);
        CUDA_SAFE_CALL(cudaMemcpy(wdot.data(), dW, wdot.size() * sizeof(real),
                                  cudaMemcpyDeviceToHost));
        bool ok = true;
        const double tol = sizeof(real) == 4 ? 2e-3 : 1e-9;
        for (int i = 0; i < n && ok; ++i) {
            double c[NSPECIES], ref[NSPECIES] = {0};
            for (int s = 0; s < NSPECIES; ++s)
                c[s] = (double)conc[(size_t)s * n + i];
            double scale = 0;
            for (int r = 0; r < NREACT; ++r) {
                double q = hostProgress(r, (double)T[i], c);
                ref[r % NSPECIES] -= q;
                ref[(r + 5) % NSPECIES] += q;
                scale += std::fabs(q);
            }
            for (int s = 0; s < NSPECIES && ok; ++s) {
                double got = (double)wdot[(size_t)s * n + i];
                if (std::fabs(got - ref[s]) > tol * scale) {
                    std::cerr << name << ": point " << i << " species " << s << ": " << got
                              << " expected " << ref[s] << " (scale " << scale << ")\n";
                    ok = false;
                }
            }
        }
        if (!ok) {
            db.AddFailure(name, "rates differ from the host");
            break;
        }
        db.AddResult(name, std::to_string(n), "GFLOPS", n * NREACT * 60.0 / (ms * 1e6));
    }
    cudaFree(dT);
    cudaFree(dC);
    cudaFree(dW);
}

void RunBenchmark(ResultDatabase &resultDB, OptionParser &op) {
    CUDA_SAFE_CALL(cudaMemcpyToSymbol(c_logA, h_logA, sizeof h_logA));
    CUDA_SAFE_CALL(cudaMemcpyToSymbol(c_beta, h_beta, sizeof h_beta));
    CUDA_SAFE_CALL(cudaMemcpyToSymbol(c_Ea, h_Ea, sizeof h_Ea));
    RunTest<float>("S3D-SP", resultDB, op);
    RunTest<double>("S3D-DP", resultDB, op);
}
