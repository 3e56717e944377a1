#ifndef MD_KERNELS_CUH
#define MD_KERNELS_CUH
#include "md.h"

/* minimum image of one coordinate difference */
__host__ __device__ inline double minimumImage(double d, double box)
{
    return d - box * rint(d / box);
}

__host__ __device__ inline double wrapPeriodic(double x, double box)
{
    x = fmod(x, box);
    return x < 0.0 ? x + box : x;
}

/* 4 (r^-12 - r^-6), shifted to zero at the cutoff; returns f/r */
__host__ __device__ inline double ljPair(double r2, double rc2, double &e)
{
    double ir2 = 1.0 / r2, ir6 = ir2 * ir2 * ir2;
    double irc2 = 1.0 / rc2, irc6 = irc2 * irc2 * irc2;
    e = 4.0 * (ir6 * ir6 - ir6) - 4.0 * (irc6 * irc6 - irc6);
    return 24.0 * ir2 * (2.0 * ir6 * ir6 - ir6);
}

__global__ void ljForceKernel(int n, double box, double rc2, const double *__restrict__ pos,
                              double *force, double *epot)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    double fx = 0, fy = 0, fz = 0, ei = 0;
    for (int j = i + 1; j < n; j++) {
        double dx = minimumImage(xi - pos[3 * j], box);
        double dy = minimumImage(yi - pos[3 * j + 1], box);
        double dz = minimumImage(zi - pos[3 * j + 2], box);
        double r2 = dx * dx + dy * dy + dz * dz;
        if (r2 >= rc2) continue;
        double e;
        double fr = ljPair(r2, rc2, e);
        fx += fr * dx;
        fy += fr * dy;
        fz += fr * dz;
        ei += e;
        /* reaction on j */
        atomicAdd(&force[3 * j], -fr * dx);
        atomicAdd(&force[3 * j + 1], -fr * dy);
        atomicAdd(&force[3 * j + 2], -fr * dz);
    }
    atomicAdd(&force[3 * i], fx);
    atomicAdd(&force[3 * i + 1], fy);
    atomicAdd(&force[3 * i + 2], fz);
    atomicAdd(epot, ei);
}

__global__ void kickKernel(int n, double *vel, const double *force, double halfDt)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < 3 * n) vel[k] += halfDt * force[k];  /* unit mass */
}

__global__ void driftKernel(int n, double *pos, const double *vel, double dt, double box)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < 3 * n) pos[k] = wrapPeriodic(pos[k] + dt * vel[k], box);
}

template <int BLOCK>
__global__ void kineticKernel(int n, const double *vel, double *ekin)
{
    __shared__ double partial[BLOCK];
    double v = 0;
    for (int k = blockIdx.x * BLOCK + threadIdx.x; k < 3 * n; k += BLOCK * gridDim.x)
        v += 0.5 * vel[k] * vel[k];
    partial[threadIdx.x] = v;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(ekin, partial[0]);
}
#endif
