#ifndef SPH_SYSTEM_H
#define SPH_SYSTEM_H
#include <vector>
#include "sph_params.h"

class SphSystem {
public:
    SphSystem(uint numParticles, uint gridDim);
    ~SphSystem();

    void reset(unsigned seed);
    void update(float deltaTime);
    void setViscous(bool v) { m_viscous = v; }

    /* copies particle data back to the host */
    const std::vector<float4> &getPositions();
    const std::vector<float4> &getVelocities();
    const std::vector<float4> &getAccelerations();

    const SimParams &params() const { return m_params; }
    uint numParticles() const { return m_numParticles; }
    void setInitialState(const std::vector<float4> &pos, const std::vector<float4> &vel);

private:
    uint m_numParticles;
    bool m_viscous;
    SimParams m_params;

    std::vector<float4> m_hPos, m_hVel, m_hAcc;

    float *m_dPos, *m_dVel, *m_dAccel;
    float *m_dSortedPos, *m_dSortedVel, *m_dSortedDensity;
    uint *m_dGridParticleHash, *m_dGridParticleIndex;
    uint *m_dCellStart, *m_dCellEnd;
};
#endif
