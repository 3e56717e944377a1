/* sph_cuda.cu - host wrappers that launch the SPH kernels (a unit of its
 * own in the trial, included by sph_fluid.cu here).
 * NVCC_OPTIONS: -I. */
#include <sim_check.h>
#include "sph_cuda.h"
#include "sph_kernels.cuh"

static void computeGridSize(uint n, uint blockSize, uint &numBlocks, uint &numThreads)
{
    numThreads = min(blockSize, n);
    numBlocks = iDivUp(n, numThreads);
}

extern "C" {

void sphSetParameters(SimParams *hostParams)
{
    checkCudaErrors(cudaMemcpyToSymbol(params, hostParams, sizeof(SimParams)));
}

void sphCalcHash(uint *gridParticleHash, uint *gridParticleIndex, float *pos, int numParticles)
{
    uint numThreads, numBlocks;
    computeGridSize(numParticles, 256, numBlocks, numThreads);
    calcHashD<<<numBlocks, numThreads>>>(gridParticleHash, gridParticleIndex, (float4 *)pos,
                                          numParticles);
    getLastCudaError("Kernel execution failed");
}

/* The trial sorts with thrust::sort_by_key and integrates with
 * thrust::for_each over a zip_iterator; the test's copy sorts with a
 * one-block bitonic sort in shared memory and integrates with a kernel
 * (thrust's headers cost 7 s of CPU in a build, and tests/programs/thrust
 * has sort_by_key on device_ptr). */
void sphSortParticles(uint *dGridParticleHash, uint *dGridParticleIndex, uint numParticles)
{
    uint n = 1;
    while (n < numParticles) n <<= 1;
    if (n > 2048) {
        fprintf(stderr, "sphSortParticles: at most 2048 particles\n");
        exit(EXIT_FAILURE);
    }
    bitonicSortD<<<1, n / 2, n * sizeof(unsigned long long)>>>(dGridParticleHash,
                                                               dGridParticleIndex, numParticles, n);
    getLastCudaError("Kernel execution failed: bitonicSortD");
}

void sphReorderDataAndFindCellStart(uint *cellStart, uint *cellEnd, float *sortedPos,
                                    float *sortedVel, uint *gridParticleHash,
                                    uint *gridParticleIndex, float *oldPos, float *oldVel,
                                    uint numParticles, uint numCells)
{
    uint numThreads, numBlocks;
    computeGridSize(numParticles, 128, numBlocks, numThreads);

    /* set all cells to empty */
    checkCudaErrors(cudaMemset(cellStart, 0xffffffff, numCells * sizeof(uint)));

    uint smemSize = sizeof(uint) * (numThreads + 1);
    reorderDataAndFindCellStartD<<<numBlocks, numThreads, smemSize>>>(
        cellStart, cellEnd, (float4 *)sortedPos, (float4 *)sortedVel, gridParticleHash,
        gridParticleIndex, (float4 *)oldPos, (float4 *)oldVel, numParticles);
    getLastCudaError("Kernel execution failed: reorderDataAndFindCellStartD");
}

void sphComputeDensity(float *sortedDensity, float *sortedPos, uint *cellStart, uint *cellEnd,
                       uint numParticles)
{
    uint numThreads, numBlocks;
    computeGridSize(numParticles, 64, numBlocks, numThreads);
    computeDensityD<<<numBlocks, numThreads>>>(sortedDensity, (float4 *)sortedPos, cellStart,
                                                cellEnd, numParticles);
    getLastCudaError("Kernel execution failed: computeDensityD");
}

void sphComputeForces(float *accel, float *sortedPos, float *sortedVel, float *sortedDensity,
                      uint *gridParticleIndex, uint *cellStart, uint *cellEnd,
                      uint numParticles, bool viscous)
{
    uint numThreads, numBlocks;
    computeGridSize(numParticles, 64, numBlocks, numThreads);
    if (viscous)
        computeForcesD<true><<<numBlocks, numThreads>>>(
            (float4 *)accel, (float4 *)sortedPos, (float4 *)sortedVel, sortedDensity,
            gridParticleIndex, cellStart, cellEnd, numParticles);
    else
        computeForcesD<false><<<numBlocks, numThreads>>>(
            (float4 *)accel, (float4 *)sortedPos, (float4 *)sortedVel, sortedDensity,
            gridParticleIndex, cellStart, cellEnd, numParticles);
    getLastCudaError("Kernel execution failed: computeForcesD");
}

void sphIntegrateSystem(float *pos, float *vel, float *accel, float deltaTime, uint numParticles)
{
    uint numThreads, numBlocks;
    computeGridSize(numParticles, 128, numBlocks, numThreads);
    integrateD<<<numBlocks, numThreads>>>((float4 *)pos, (float4 *)vel, (const float4 *)accel,
                                          deltaTime, numParticles);
    getLastCudaError("Kernel execution failed: integrateD");
}

}  /* extern "C" */
