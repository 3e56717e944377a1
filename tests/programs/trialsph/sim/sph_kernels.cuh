/* sph_kernels.cuh - CUDA kernels of the SPH solver: hashing, cell ranges,
 * density, forces and leapfrog integration on a uniform grid. */
#ifndef SPH_KERNELS_CUH
#define SPH_KERNELS_CUH

#include <cooperative_groups.h>
#include "sph_params.h"

namespace cg = cooperative_groups;

/* simulation parameters in constant memory */
__constant__ SimParams params;

__device__ int3 calcGridPos(float3 p)
{
    int3 gridPos;
    gridPos.x = floorf((p.x - params.worldOrigin.x) / params.cellSize.x);
    gridPos.y = floorf((p.y - params.worldOrigin.y) / params.cellSize.y);
    gridPos.z = floorf((p.z - params.worldOrigin.z) / params.cellSize.z);
    return gridPos;
}

/* wrap grid coordinates: the grid size is a power of two */
__device__ uint calcGridHash(int3 gridPos)
{
    gridPos.x = gridPos.x & (params.gridSize.x - 1);
    gridPos.y = gridPos.y & (params.gridSize.y - 1);
    gridPos.z = gridPos.z & (params.gridSize.z - 1);
    return __umul24(__umul24(gridPos.z, params.gridSize.y), params.gridSize.x) +
           __umul24(gridPos.y, params.gridSize.x) + gridPos.x;
}

__global__ void calcHashD(uint *gridParticleHash, uint *gridParticleIndex,
                          const float4 *pos, uint numParticles)
{
    uint index = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
    if (index >= numParticles) return;

    volatile float4 p = pos[index];
    int3 gridPos = calcGridPos(make_float3(p.x, p.y, p.z));
    uint hash = calcGridHash(gridPos);

    gridParticleHash[index] = hash;
    gridParticleIndex[index] = index;
}

/* Sorts (hash, index) pairs by hash, then index, in one block: n (a power
 * of two, at most twice the block) keys in dynamic shared memory. */
__global__ void bitonicSortD(uint *hash, uint *index, uint count, uint n)
{
    extern __shared__ unsigned long long keys[];
    for (uint i = threadIdx.x; i < n; i += blockDim.x)
        keys[i] = i < count ? ((unsigned long long)hash[i] << 32) | index[i] : ~0ull;
    __syncthreads();
    for (uint size = 2; size <= n; size <<= 1) {
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            for (uint t = threadIdx.x; t < n / 2; t += blockDim.x) {
                uint pos = 2 * t - (t & (stride - 1));
                bool ascending = (pos & size) == 0;
                unsigned long long a = keys[pos], b = keys[pos + stride];
                if ((a > b) == ascending) {
                    keys[pos] = b;
                    keys[pos + stride] = a;
                }
            }
            __syncthreads();
        }
    }
    for (uint i = threadIdx.x; i < count; i += blockDim.x) {
        hash[i] = (uint)(keys[i] >> 32);
        index[i] = (uint)keys[i];
    }
}

/* Finds the start and end of every cell in the sorted hash array and
 * gathers position and velocity into sorted order. */
__global__ void reorderDataAndFindCellStartD(uint *cellStart, uint *cellEnd,
                                             float4 *sortedPos, float4 *sortedVel,
                                             const uint *gridParticleHash,
                                             const uint *gridParticleIndex,
                                             const float4 *oldPos, const float4 *oldVel,
                                             uint numParticles)
{
    cg::thread_block cta = cg::this_thread_block();
    extern __shared__ uint sharedHash[];  /* blockSize + 1 elements */
    uint index = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;

    uint hash;
    if (index < numParticles) {
        hash = gridParticleHash[index];
        sharedHash[threadIdx.x + 1] = hash;
        if (index > 0 && threadIdx.x == 0) {
            sharedHash[0] = gridParticleHash[index - 1];
        }
    }

    cg::sync(cta);

    if (index < numParticles) {
        if (index == 0 || hash != sharedHash[threadIdx.x]) {
            cellStart[hash] = index;
            if (index > 0) cellEnd[sharedHash[threadIdx.x]] = index;
        }
        if (index == numParticles - 1) {
            cellEnd[hash] = index + 1;
        }

        uint sortedIndex = gridParticleIndex[index];
        sortedPos[index] = oldPos[sortedIndex];
        sortedVel[index] = oldVel[sortedIndex];
    }
}

template <typename Accum>
__device__ void forEachNeighbour(int3 gridPos, uint self, float3 pos,
                                 const float4 *sortedPos, const uint *cellStart,
                                 const uint *cellEnd, Accum &acc)
{
    for (int z = -1; z <= 1; z++) {
        for (int y = -1; y <= 1; y++) {
            for (int x = -1; x <= 1; x++) {
                int3 neighbourPos = gridPos + make_int3(x, y, z);
                uint gridHash = calcGridHash(neighbourPos);
                uint startIndex = cellStart[gridHash];
                if (startIndex == 0xffffffff) continue;
                uint endIndex = cellEnd[gridHash];
                for (uint j = startIndex; j < endIndex; j++) {
                    if (j == self) continue;
                    float3 pos2 = make_float3(sortedPos[j]);
                    acc(j, pos - pos2);
                }
            }
        }
    }
}

struct DensityAccum {
    float rho;
    __device__ void operator()(uint, float3 rel)
    {
        rho += params.mass * sphPoly6(dot(rel, rel), params);
    }
};

__global__ void computeDensityD(float *sortedDensity, const float4 *sortedPos,
                                const uint *cellStart, const uint *cellEnd, uint numParticles)
{
    uint index = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
    if (index >= numParticles) return;

    float3 pos = make_float3(sortedPos[index]);
    int3 gridPos = calcGridPos(pos);
    DensityAccum acc;
    acc.rho = params.mass * sphPoly6(0.0f, params);  /* self contribution */
    forEachNeighbour(gridPos, index, pos, sortedPos, cellStart, cellEnd, acc);
    sortedDensity[index] = acc.rho;
}

template <bool Viscous>
struct ForceAccum {
    float3 force;
    float3 vel;
    float rho, p;
    const float *density;
    const float4 *sortedVel;
    __device__ void operator()(uint j, float3 rel)
    {
        float r = length(rel);
        if (r >= params.h) return;
        float rhoj = density[j];
        float pj = sphPressure(rhoj, params);
        /* symmetric pressure force */
        if (r > 0.0f) {
            float3 dir = rel / r;
            force += dir * (-params.mass * (p + pj) / (2.0f * rhoj) * sphSpikyGrad(r, params));
        }
        if (Viscous) {
            float3 vj = make_float3(sortedVel[j]);
            force += (vj - vel) * (params.viscosity * params.mass / rhoj * sphViscLap(r, params));
        }
    }
};

template <bool Viscous>
__global__ void computeForcesD(float4 *accel, const float4 *sortedPos, const float4 *sortedVel,
                               const float *sortedDensity, const uint *gridParticleIndex,
                               const uint *cellStart, const uint *cellEnd, uint numParticles)
{
    uint index = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
    if (index >= numParticles) return;

    float3 pos = make_float3(sortedPos[index]);
    int3 gridPos = calcGridPos(pos);
    ForceAccum<Viscous> acc;
    acc.force = make_float3(0.0f);
    acc.vel = make_float3(sortedVel[index]);
    acc.rho = sortedDensity[index];
    acc.p = sphPressure(acc.rho, params);
    acc.density = sortedDensity;
    acc.sortedVel = sortedVel;
    forEachNeighbour(gridPos, index, pos, sortedPos, cellStart, cellEnd, acc);

    /* write the acceleration back in the original order */
    uint originalIndex = gridParticleIndex[index];
    float3 a = acc.force / acc.rho + params.gravity;
    accel[originalIndex] = make_float4(a, acc.rho);
}

/* leapfrog (kick-drift) integration */
__global__ void integrateD(float4 *posArray, float4 *velArray, const float4 *accArray,
                           float deltaTime, uint numParticles)
{
    uint index = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
    if (index >= numParticles) return;
    volatile float4 posData = posArray[index];
    volatile float4 velData = velArray[index];
    float3 pos = make_float3(posData.x, posData.y, posData.z);
    float3 vel = make_float3(velData.x, velData.y, velData.z);

    vel += make_float3(accArray[index]) * deltaTime;
    vel *= params.globalDamping;
    pos += vel * deltaTime;
    sphCollideWalls(pos, vel, params);

    posArray[index] = make_float4(pos, posData.w);
    velArray[index] = make_float4(vel, velData.w);
}

#endif
