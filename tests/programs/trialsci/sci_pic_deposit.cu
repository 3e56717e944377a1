// sci_pic_deposit.cu: kept whole from the trial of scientific codes: a
// cloud-in-cell charge deposit with atomicAdd on float and double global
// grids and on a float shared-memory grid, against a serial CPU deposit.
// CUEMU_OPTIONS: -O2 -use_fast_math
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#define NX 64
#define NY 64
#define NP (1<<18)
#define IX(i,j) ((j)*NX + (i))

#define CUDA_CHECK(err) if ((err) != cudaSuccess) { printf("%s in %s at line %d\n", cudaGetErrorString(err), __FILE__, __LINE__); exit(EXIT_FAILURE); }

__global__ void deposit(const float2 *xp, const float *qp, float *rho_f, double *rho_d, int np)
{
    for (int p = blockIdx.x*blockDim.x + threadIdx.x; p < np; p += gridDim.x*blockDim.x) {
        float x = xp[p].x, y = xp[p].y;
        int i = __float2int_rd(x), j = __float2int_rd(y);
        float fx = x - i, fy = y - j;
        int i1 = (i + 1) % NX, j1 = (j + 1) % NY;
        float q = qp[p];
        float w00 = (1-fx)*(1-fy)*q, w10 = fx*(1-fy)*q, w01 = (1-fx)*fy*q, w11 = fx*fy*q;
        atomicAdd(&rho_f[IX(i, j)], w00);  atomicAdd(&rho_f[IX(i1, j)], w10);
        atomicAdd(&rho_f[IX(i, j1)], w01); atomicAdd(&rho_f[IX(i1, j1)], w11);
        atomicAdd(&rho_d[IX(i, j)], (double)w00);  atomicAdd(&rho_d[IX(i1, j)], (double)w10);
        atomicAdd(&rho_d[IX(i, j1)], (double)w01); atomicAdd(&rho_d[IX(i1, j1)], (double)w11);
    }
}

/* per-block private histogram in shared memory, then one global atomic per cell */
__global__ void deposit_shared(const float2 *xp, const float *qp, double *rho, int np)
{
    __shared__ float s_rho[NX*NY];
    for (int c = threadIdx.x; c < NX*NY; c += blockDim.x) s_rho[c] = 0.f;
    __syncthreads();
    for (int p = blockIdx.x*blockDim.x + threadIdx.x; p < np; p += gridDim.x*blockDim.x) {
        float x = xp[p].x, y = xp[p].y;
        int i = (int)floorf(x), j = (int)floorf(y);
        float fx = x - i, fy = y - j, q = qp[p];
        int i1 = (i + 1) % NX, j1 = (j + 1) % NY;
        atomicAdd(&s_rho[IX(i, j)], (1-fx)*(1-fy)*q);  atomicAdd(&s_rho[IX(i1, j)], fx*(1-fy)*q);
        atomicAdd(&s_rho[IX(i, j1)], (1-fx)*fy*q);     atomicAdd(&s_rho[IX(i1, j1)], fx*fy*q);
    }
    __syncthreads();
    for (int c = threadIdx.x; c < NX*NY; c += blockDim.x) atomicAdd(&rho[c], (double)s_rho[c]);
}

int main(void)
{
    float2 *xp = (float2 *)malloc(NP*sizeof(float2)); float *qp = (float *)malloc(NP*sizeof(float));
    srand(2024);
    for (int p = 0; p < NP; p++) {
        xp[p].x = NX*(rand()/(RAND_MAX + 1.0f)); xp[p].y = NY*(rand()/(RAND_MAX + 1.0f));
        if (xp[p].x >= NX) xp[p].x = 0; if (xp[p].y >= NY) xp[p].y = 0;
        qp[p] = (p % 2 ? 1.0f : 0.5f);
    }
    double *ref = (double *)calloc(NX*NY, sizeof(double)), qtot = 0;
    for (int p = 0; p < NP; p++) {
        int i = (int)floorf(xp[p].x), j = (int)floorf(xp[p].y);
        float fx = xp[p].x - i, fy = xp[p].y - j, q = qp[p];
        int i1 = (i + 1) % NX, j1 = (j + 1) % NY;
        ref[IX(i, j)] += (1-fx)*(1-fy)*q; ref[IX(i1, j)] += fx*(1-fy)*q;
        ref[IX(i, j1)] += (1-fx)*fy*q;    ref[IX(i1, j1)] += fx*fy*q;
        qtot += q;
    }
    float2 *d_x; float *d_q, *d_rf; double *d_rd, *d_rs;
    CUDA_CHECK(cudaMalloc(&d_x, NP*sizeof(float2))); CUDA_CHECK(cudaMalloc(&d_q, NP*sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_rf, NX*NY*sizeof(float))); CUDA_CHECK(cudaMalloc(&d_rd, NX*NY*sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_rs, NX*NY*sizeof(double)));
    CUDA_CHECK(cudaMemcpy(d_x, xp, NP*sizeof(float2), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_q, qp, NP*sizeof(float), cudaMemcpyHostToDevice));
    cudaMemset(d_rf, 0, NX*NY*sizeof(float)); cudaMemset(d_rd, 0, NX*NY*sizeof(double)); cudaMemset(d_rs, 0, NX*NY*sizeof(double));
    deposit<<<256, 256>>>(d_x, d_q, d_rf, d_rd, NP);
    deposit_shared<<<64, 512>>>(d_x, d_q, d_rs, NP);
    CUDA_CHECK(cudaDeviceSynchronize());
    float *rf = (float *)malloc(NX*NY*sizeof(float)); double *rd = (double *)malloc(NX*NY*sizeof(double)), *rs = (double *)malloc(NX*NY*sizeof(double));
    CUDA_CHECK(cudaMemcpy(rf, d_rf, NX*NY*sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(rd, d_rd, NX*NY*sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(rs, d_rs, NX*NY*sizeof(double), cudaMemcpyDeviceToHost));
    double ef = 0, ed = 0, es = 0, sf = 0, sd = 0, sr = 0;
    for (int c = 0; c < NX*NY; c++) {
        ef = fmax(ef, fabs(rf[c] - ref[c])/ref[c]); ed = fmax(ed, fabs(rd[c] - ref[c])/ref[c]); es = fmax(es, fabs(rs[c] - ref[c])/ref[c]);
        sf += rf[c]; sd += rd[c]; sr += ref[c];
    }
    printf("deposit: rel err float %.2e double %.2e shared %.2e; charge %.6f (float grid %.6f, double grid %.10f)\n", ef, ed, es, qtot, sf, sd);
    int ok = ef < 1e-4 && ed < 1e-12 && es < 1e-4 && fabs(sd - sr)/sr < 1e-12 && fabs(sd - qtot)/qtot < 1e-6;
    printf("%s\n", ok ? "PASS" : "FAIL");
    return !ok;
}
