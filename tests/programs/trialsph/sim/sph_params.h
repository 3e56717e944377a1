/* sph_params.h - simulation parameters shared by host and device, and the
 * smoothing kernels used by both the CUDA kernels and the host reference. */
#ifndef SPH_PARAMS_H
#define SPH_PARAMS_H

#include <vec_math.h>

#define SPH_PI 3.14159265358979f

struct SimParams {
    float3 gravity;
    float globalDamping;
    float particleRadius;

    uint3 gridSize;
    uint numCells;
    float3 worldOrigin;
    float3 worldSize;
    float3 cellSize;

    float h;             /* smoothing length == cell size */
    float h2;
    float mass;
    float restDensity;
    float gasConstant;
    float viscosity;
    float boundaryDamping;

    float poly6Coef;
    float spikyGradCoef;
    float viscLapCoef;
};

/* Poly6 kernel for the density. */
inline __host__ __device__ float sphPoly6(float r2, const SimParams &p)
{
    if (r2 >= p.h2) return 0.0f;
    float d = p.h2 - r2;
    return p.poly6Coef * d * d * d;
}

/* Gradient of the spiky kernel (without the direction). */
inline __host__ __device__ float sphSpikyGrad(float r, const SimParams &p)
{
    if (r >= p.h || r <= 1e-12f) return 0.0f;
    float d = p.h - r;
    return p.spikyGradCoef * d * d;
}

inline __host__ __device__ float sphViscLap(float r, const SimParams &p)
{
    if (r >= p.h) return 0.0f;
    return p.viscLapCoef * (p.h - r);
}

inline __host__ __device__ float sphPressure(float rho, const SimParams &p)
{
    return p.gasConstant * (rho - p.restDensity);
}

/* The wall treatment of the integrator, used by device and host. */
inline __host__ __device__ void sphCollideWalls(float3 &pos, float3 &vel, const SimParams &p)
{
    float3 lo = p.worldOrigin + p.particleRadius;
    float3 hi = p.worldOrigin + p.worldSize - p.particleRadius;
    if (pos.x < lo.x) { pos.x = lo.x; vel.x *= p.boundaryDamping; }
    if (pos.x > hi.x) { pos.x = hi.x; vel.x *= p.boundaryDamping; }
    if (pos.y < lo.y) { pos.y = lo.y; vel.y *= p.boundaryDamping; }
    if (pos.y > hi.y) { pos.y = hi.y; vel.y *= p.boundaryDamping; }
    if (pos.z < lo.z) { pos.z = lo.z; vel.z *= p.boundaryDamping; }
    if (pos.z > hi.z) { pos.z = hi.z; vel.z *= p.boundaryDamping; }
}

void sphDefaultParams(SimParams &p, uint gridDim);

#endif
