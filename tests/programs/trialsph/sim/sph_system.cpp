/* sph_system.cpp - host side of the SPH particle system (plain C++). */
#include "sph_system.h"

#include <cstdlib>
#include <cstring>

#include <sim_check.h>
#include "sph_cuda.h"

void sphDefaultParams(SimParams &p, uint gridDim)
{
    memset(&p, 0, sizeof(p));
    p.gridSize = make_uint3(gridDim, gridDim, gridDim);
    p.numCells = gridDim * gridDim * gridDim;
    p.worldOrigin = make_float3(0.0f);
    p.worldSize = make_float3(1.0f);
    p.h = 1.0f / gridDim;
    p.h2 = p.h * p.h;
    p.cellSize = make_float3(p.h);
    p.particleRadius = p.h * 0.25f;
    p.gravity = make_float3(0.0f, -9.8f, 0.0f);
    p.globalDamping = 0.999f;
    p.restDensity = 1000.0f;
    p.gasConstant = 3.0f;
    p.viscosity = 0.2f;
    p.boundaryDamping = -0.5f;
    float spacing = p.h * 0.5f;
    p.mass = p.restDensity * spacing * spacing * spacing;
    p.poly6Coef = 315.0f / (64.0f * SPH_PI * powf(p.h, 9.0f));
    p.spikyGradCoef = -45.0f / (SPH_PI * powf(p.h, 6.0f));
    p.viscLapCoef = 45.0f / (SPH_PI * powf(p.h, 6.0f));
}

SphSystem::SphSystem(uint numParticles, uint gridDim)
    : m_numParticles(numParticles), m_viscous(true)
{
    sphDefaultParams(m_params, gridDim);
    m_hPos.resize(numParticles);
    m_hVel.resize(numParticles);
    m_hAcc.resize(numParticles);

    size_t memSize = sizeof(float) * 4 * numParticles;
    checkCudaErrors(cudaMalloc((void **)&m_dPos, memSize));
    checkCudaErrors(cudaMalloc((void **)&m_dVel, memSize));
    checkCudaErrors(cudaMalloc((void **)&m_dAccel, memSize));
    checkCudaErrors(cudaMalloc((void **)&m_dSortedPos, memSize));
    checkCudaErrors(cudaMalloc((void **)&m_dSortedVel, memSize));
    checkCudaErrors(cudaMalloc((void **)&m_dSortedDensity, sizeof(float) * numParticles));
    checkCudaErrors(cudaMalloc((void **)&m_dGridParticleHash, numParticles * sizeof(uint)));
    checkCudaErrors(cudaMalloc((void **)&m_dGridParticleIndex, numParticles * sizeof(uint)));
    checkCudaErrors(cudaMalloc((void **)&m_dCellStart, m_params.numCells * sizeof(uint)));
    checkCudaErrors(cudaMalloc((void **)&m_dCellEnd, m_params.numCells * sizeof(uint)));
    checkCudaErrors(cudaMemset(m_dAccel, 0, memSize));

    sphSetParameters(&m_params);
}

SphSystem::~SphSystem()
{
    cudaFree(m_dPos);
    cudaFree(m_dVel);
    cudaFree(m_dAccel);
    cudaFree(m_dSortedPos);
    cudaFree(m_dSortedVel);
    cudaFree(m_dSortedDensity);
    cudaFree(m_dGridParticleHash);
    cudaFree(m_dGridParticleIndex);
    cudaFree(m_dCellStart);
    cudaFree(m_dCellEnd);
}

static float frand(unsigned &state)
{
    state = state * 1664525u + 1013904223u;
    return (state >> 8) * (1.0f / 16777216.0f);
}

/* a block of fluid in one corner of the box, on a jittered lattice */
void SphSystem::reset(unsigned seed)
{
    float spacing = m_params.h * 0.5f;
    uint side = 1;
    while (side * side * side < m_numParticles) side++;
    for (uint i = 0; i < m_numParticles; i++) {
        uint x = i % side, y = (i / side) % side, z = i / (side * side);
        float jitter = spacing * 0.1f;
        m_hPos[i] = make_float4(0.1f + x * spacing + (frand(seed) - 0.5f) * jitter,
                                0.1f + y * spacing + (frand(seed) - 0.5f) * jitter,
                                0.1f + z * spacing + (frand(seed) - 0.5f) * jitter, 1.0f);
        m_hVel[i] = make_float4(0.0f);
    }
    setInitialState(m_hPos, m_hVel);
}

void SphSystem::setInitialState(const std::vector<float4> &pos, const std::vector<float4> &vel)
{
    checkCudaErrors(cudaMemcpy(m_dPos, pos.data(), m_numParticles * sizeof(float4),
                               cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(m_dVel, vel.data(), m_numParticles * sizeof(float4),
                               cudaMemcpyHostToDevice));
}

void SphSystem::update(float deltaTime)
{
    sphSetParameters(&m_params);
    sphCalcHash(m_dGridParticleHash, m_dGridParticleIndex, m_dPos, m_numParticles);
    sphSortParticles(m_dGridParticleHash, m_dGridParticleIndex, m_numParticles);
    sphReorderDataAndFindCellStart(m_dCellStart, m_dCellEnd, m_dSortedPos, m_dSortedVel,
                                   m_dGridParticleHash, m_dGridParticleIndex, m_dPos, m_dVel,
                                   m_numParticles, m_params.numCells);
    sphComputeDensity(m_dSortedDensity, m_dSortedPos, m_dCellStart, m_dCellEnd, m_numParticles);
    sphComputeForces(m_dAccel, m_dSortedPos, m_dSortedVel, m_dSortedDensity, m_dGridParticleIndex,
                     m_dCellStart, m_dCellEnd, m_numParticles, m_viscous);
    sphIntegrateSystem(m_dPos, m_dVel, m_dAccel, deltaTime, m_numParticles);
}

const std::vector<float4> &SphSystem::getPositions()
{
    checkCudaErrors(cudaMemcpy(m_hPos.data(), m_dPos, m_numParticles * sizeof(float4),
                               cudaMemcpyDeviceToHost));
    return m_hPos;
}

const std::vector<float4> &SphSystem::getVelocities()
{
    checkCudaErrors(cudaMemcpy(m_hVel.data(), m_dVel, m_numParticles * sizeof(float4),
                               cudaMemcpyDeviceToHost));
    return m_hVel;
}

const std::vector<float4> &SphSystem::getAccelerations()
{
    checkCudaErrors(cudaMemcpy(m_hAcc.data(), m_dAccel, m_numParticles * sizeof(float4),
                               cudaMemcpyDeviceToHost));
    return m_hAcc;
}
