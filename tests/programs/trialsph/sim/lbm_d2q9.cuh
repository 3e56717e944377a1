/* lbm_d2q9.cuh - D2Q9 lattice Boltzmann (BGK) with structure-of-arrays
 * storage, pull streaming and halfway bounce-back on solid nodes. */
#ifndef LBM_D2Q9_CUH
#define LBM_D2Q9_CUH

#include <cuda_runtime.h>

#define Q 9

/* lattice velocities, weights and opposite directions */
__constant__ int c_cx[Q] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
__constant__ int c_cy[Q] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
__constant__ double c_w[Q] = {4.0 / 9.0,  1.0 / 9.0,  1.0 / 9.0,  1.0 / 9.0, 1.0 / 9.0,
                              1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0};
__constant__ int c_opp[Q] = {0, 3, 4, 1, 2, 7, 8, 5, 6};

/* the same tables for host code */
static const int h_cx[Q] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
static const int h_cy[Q] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
static const double h_w[Q] = {4.0 / 9.0,  1.0 / 9.0,  1.0 / 9.0,  1.0 / 9.0, 1.0 / 9.0,
                              1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0};
static const int h_opp[Q] = {0, 3, 4, 1, 2, 7, 8, 5, 6};

struct LbmGeom {
    int nx, ny;
    __host__ __device__ int idx(int x, int y) const { return y * nx + x; }
    __host__ __device__ int size() const { return nx * ny; }
};

template <typename T>
__host__ __device__ inline T lbmEquilibrium(T w, T rho, T ux, T uy, int cx, int cy)
{
    T cu = T(3) * (cx * ux + cy * uy);
    T uu = T(1.5) * (ux * ux + uy * uy);
    return w * rho * (T(1) + cu + T(0.5) * cu * cu - uu);
}

/* One fused stream-collide step: pull from the neighbours into registers,
 * compute the moments, relax towards equilibrium, write to fout. */
template <typename T>
__global__ void lbmStepKernel(const T *__restrict__ fin, T *__restrict__ fout,
                              const unsigned char *__restrict__ solid, LbmGeom g, T omega,
                              T forceX, T *rhoOut, T *uxOut)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= g.nx || y >= g.ny) return;
    const int N = g.size();
    const int i = g.idx(x, y);

    if (solid[i]) {
#pragma unroll
        for (int q = 0; q < Q; q++) fout[q * N + i] = fin[q * N + i];
        return;
    }

    T f[Q];
#pragma unroll
    for (int q = 0; q < Q; q++) {
        int xs = x - c_cx[q];
        int ys = y - c_cy[q];
        xs = (xs + g.nx) % g.nx;  /* periodic in x */
        if (ys < 0 || ys >= g.ny || solid[g.idx(xs, ys)]) {
            f[q] = fin[c_opp[q] * N + i];  /* bounce-back */
        } else {
            f[q] = fin[q * N + g.idx(xs, ys)];
        }
    }

    T rho = 0, mx = 0, my = 0;
#pragma unroll
    for (int q = 0; q < Q; q++) {
        rho += f[q];
        mx += f[q] * c_cx[q];
        my += f[q] * c_cy[q];
    }
    T ux = mx / rho, uy = my / rho;

#pragma unroll
    for (int q = 0; q < Q; q++) {
        T w = T(c_w[q]);
        T feq = lbmEquilibrium<T>(w, rho, ux, uy, c_cx[q], c_cy[q]);
        T fq = f[q] - omega * (f[q] - feq) + T(3) * w * c_cx[q] * forceX;
        fout[q * N + i] = fq;
    }
    if (rhoOut) rhoOut[i] = rho;
    if (uxOut) uxOut[i] = ux;
}

template <typename T>
__global__ void lbmInitKernel(T *f, LbmGeom g, T rho0)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= g.size()) return;
    for (int q = 0; q < Q; q++) f[q * g.size() + i] = lbmEquilibrium<T>(T(c_w[q]), rho0, T(0), T(0), 0, 0);
}

/* block-wide sum with warp shuffles, one atomic per block */
template <int BLOCK, typename T>
__global__ void lbmSumKernel(const T *a, int n, T *sum)
{
    __shared__ T warpSums[BLOCK / 32];
    T v = 0;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x) v += a[i];
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
    if ((threadIdx.x & 31) == 0) warpSums[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < BLOCK / 32 ? warpSums[threadIdx.x] : T(0);
        for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
        if (threadIdx.x == 0) atomicAdd(sum, v);
    }
}

#endif
