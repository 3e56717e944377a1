#ifndef SPH_CUDA_H
#define SPH_CUDA_H
#include "sph_params.h"

extern "C" {
void sphSetParameters(SimParams *hostParams);
void sphCalcHash(uint *gridParticleHash, uint *gridParticleIndex, float *pos, int numParticles);
void sphSortParticles(uint *dGridParticleHash, uint *dGridParticleIndex, uint numParticles);
void sphReorderDataAndFindCellStart(uint *cellStart, uint *cellEnd, float *sortedPos,
                                    float *sortedVel, uint *gridParticleHash,
                                    uint *gridParticleIndex, float *oldPos, float *oldVel,
                                    uint numParticles, uint numCells);
void sphComputeDensity(float *sortedDensity, float *sortedPos, uint *cellStart, uint *cellEnd,
                       uint numParticles);
void sphComputeForces(float *accel, float *sortedPos, float *sortedVel, float *sortedDensity,
                      uint *gridParticleIndex, uint *cellStart, uint *cellEnd,
                      uint numParticles, bool viscous);
void sphIntegrateSystem(float *pos, float *vel, float *accel, float deltaTime, uint numParticles);
}
#endif
