/* md_force.cu: the MD system's host functions and their launches (a unit
 * of its own in the trial, included by md_lj.cu here).
 * NVCC_OPTIONS: -I. */
#include "md_kernels.cuh"
#include <sim_check.h>

void mdAllocate(MdSystem &s, int n)
{
    s.n = n;
    checkCudaErrors(cudaMalloc(&s.pos, 3 * n * sizeof(double)));
    checkCudaErrors(cudaMalloc(&s.vel, 3 * n * sizeof(double)));
    checkCudaErrors(cudaMalloc(&s.force, 3 * n * sizeof(double)));
    checkCudaErrors(cudaMalloc(&s.epot, sizeof(double)));
}

void mdFree(MdSystem &s)
{
    cudaFree(s.pos);
    cudaFree(s.vel);
    cudaFree(s.force);
    cudaFree(s.epot);
}

void mdComputeForces(MdSystem &s)
{
    checkCudaErrors(cudaMemset(s.force, 0, 3 * s.n * sizeof(double)));
    checkCudaErrors(cudaMemset(s.epot, 0, sizeof(double)));
    int threads = 64;
    ljForceKernel<<<(s.n + threads - 1) / threads, threads>>>(s.n, s.box, s.rc2, s.pos, s.force,
                                                              s.epot);
    getLastCudaError("ljForceKernel");
}

void mdStep(MdSystem &s)
{
    int threads = 128, blocks = (3 * s.n + threads - 1) / threads;
    kickKernel<<<blocks, threads>>>(s.n, s.vel, s.force, 0.5 * s.dt);
    driftKernel<<<blocks, threads>>>(s.n, s.pos, s.vel, s.dt, s.box);
    mdComputeForces(s);
    kickKernel<<<blocks, threads>>>(s.n, s.vel, s.force, 0.5 * s.dt);
    getLastCudaError("mdStep");
}

double mdKineticEnergy(MdSystem &s)
{
    double *d_ekin, ekin;
    checkCudaErrors(cudaMalloc(&d_ekin, sizeof(double)));
    checkCudaErrors(cudaMemset(d_ekin, 0, sizeof(double)));
    kineticKernel<128><<<4, 128>>>(s.n, s.vel, d_ekin);
    checkCudaErrors(cudaMemcpy(&ekin, d_ekin, sizeof(double), cudaMemcpyDeviceToHost));
    cudaFree(d_ekin);
    return ekin;
}

void mdHostForces(int n, double box, double rc2, const double *pos, double *force, double *epot)
{
    for (int k = 0; k < 3 * n; k++) force[k] = 0;
    *epot = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double d[3];
            for (int c = 0; c < 3; c++) d[c] = minimumImage(pos[3 * i + c] - pos[3 * j + c], box);
            double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            if (r2 >= rc2) continue;
            double e, fr = ljPair(r2, rc2, e);
            for (int c = 0; c < 3; c++) {
                force[3 * i + c] += fr * d[c];
                force[3 * j + c] -= fr * d[c];
            }
            *epot += e;
        }
}
