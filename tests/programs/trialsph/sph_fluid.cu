/* sph_fluid.cu: an SPH fluid on a uniform grid (hash, a sort of the keys,
 * cell ranges found in extern __shared__ memory, 27-cell neighbour search,
 * SimParams in __constant__ memory from a host class), a few steps checked
 * against a brute-force host computation. From a trial of physics
 * simulation code (tests/programs_trialsph.sh); the trial builds the host
 * class and this main as .cpp files, here one unit includes them.
 * CUEMU_OPTIONS: -Isim
 * NVCC_OPTIONS: -Isim
 */
#include "sim/sph_system.cpp"
#include "sim/sph_cuda.cu"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "sim/sph_system.h"
#include <vec_math.h>

static void hostStep(std::vector<float4> &pos, std::vector<float4> &vel,
                     std::vector<float4> &acc, const SimParams &p, float dt, bool viscous)
{
    size_t n = pos.size();
    std::vector<float> rho(n), prs(n);
    for (size_t i = 0; i < n; i++) {
        float3 pi = make_float3(pos[i]);
        float r = p.mass * sphPoly6(0.0f, p);
        for (size_t j = 0; j < n; j++) {
            if (j == i) continue;
            float3 d = pi - make_float3(pos[j]);
            r += p.mass * sphPoly6(dot(d, d), p);
        }
        rho[i] = r;
        prs[i] = sphPressure(r, p);
    }
    for (size_t i = 0; i < n; i++) {
        float3 pi = make_float3(pos[i]);
        float3 vi = make_float3(vel[i]);
        float3 f = make_float3(0.0f);
        for (size_t j = 0; j < n; j++) {
            if (j == i) continue;
            float3 rel = pi - make_float3(pos[j]);
            float r = length(rel);
            if (r >= p.h) continue;
            if (r > 0.0f)
                f += (rel / r) * (-p.mass * (prs[i] + prs[j]) / (2.0f * rho[j]) * sphSpikyGrad(r, p));
            if (viscous)
                f += (make_float3(vel[j]) - vi) * (p.viscosity * p.mass / rho[j] * sphViscLap(r, p));
        }
        float3 a = f / rho[i] + p.gravity;
        acc[i] = make_float4(a, rho[i]);
    }
    for (size_t i = 0; i < n; i++) {
        float3 x = make_float3(pos[i]);
        float3 v = make_float3(vel[i]);
        v += make_float3(acc[i]) * dt;
        v *= p.globalDamping;
        x += v * dt;
        sphCollideWalls(x, v, p);
        pos[i] = make_float4(x, pos[i].w);
        vel[i] = make_float4(v, vel[i].w);
    }
}

int main(int argc, char **argv)
{
    uint numParticles = argc > 1 ? atoi(argv[1]) : 600;
    const int steps = 4;
    const float dt = 2e-4f;

    SphSystem sys(numParticles, 16);
    sys.reset(12345u);
    std::vector<float4> hPos = sys.getPositions();
    std::vector<float4> hVel = sys.getVelocities();
    std::vector<float4> hAcc(numParticles);

    bool ok = true;
    for (int s = 0; s < steps; s++) {
        sys.update(dt);
        hostStep(hPos, hVel, hAcc, sys.params(), dt, true);
        const std::vector<float4> &acc = sys.getAccelerations();
        double maxRhoErr = 0.0, maxAccErr = 0.0, accScale = 0.0;
        for (uint i = 0; i < numParticles; i++) {
            maxRhoErr = fmax(maxRhoErr, fabs(acc[i].w - hAcc[i].w) / hAcc[i].w);
            float3 d = make_float3(acc[i]) - make_float3(hAcc[i]);
            maxAccErr = fmax(maxAccErr, length(d));
            accScale = fmax(accScale, length(make_float3(hAcc[i])));
        }
        printf("step %d: max density error %.3g, max acceleration error %.3g (scale %.3g)\n", s,
               maxRhoErr, maxAccErr, accScale);
        if (maxRhoErr > 1e-4 || maxAccErr > 1e-3 * accScale) ok = false;
    }
    const std::vector<float4> &pos = sys.getPositions();
    double maxPosErr = 0.0;
    float3 lo = make_float3(1e30f), hi = make_float3(-1e30f);
    for (uint i = 0; i < numParticles; i++) {
        float3 x = make_float3(pos[i]);
        maxPosErr = fmax(maxPosErr, length(x - make_float3(hPos[i])));
        lo = fminf(lo, x);
        hi = fmaxf(hi, x);
    }
    printf("max position error %.3g, bounds (%.3f %.3f %.3f)-(%.3f %.3f %.3f)\n", maxPosErr,
           lo.x, lo.y, lo.z, hi.x, hi.y, hi.z);
    if (maxPosErr > 1e-5) ok = false;
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
