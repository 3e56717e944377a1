/* md_lj.cu: Lennard-Jones molecular dynamics in double precision
 * (atomicAdd(double*) for both atoms of a pair, periodic boundaries with
 * rint and fmod), forces checked against the host and energy conserved.
 * From the trialsph trial.
 * CUEMU_OPTIONS: -Isim
 * NVCC_OPTIONS: -Isim
 */
#include "sim/md_force.cu"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "sim/md.h"
#include <sim_check.h>

int main()
{
    const int side = 7, n = side * side * side;
    const double density = 0.7;
    MdSystem s;
    s.box = cbrt(n / density);
    s.rc2 = 2.5 * 2.5;
    s.dt = 0.002;
    mdAllocate(s, n);

    std::vector<double> pos(3 * n), vel(3 * n);
    double a = s.box / side;
    unsigned seed = 7;
    double vsum[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        int c[3] = {i % side, (i / side) % side, i / (side * side)};
        for (int k = 0; k < 3; k++) {
            seed = seed * 1103515245u + 12345u;
            double jitter = ((seed >> 16) & 0x7fff) / 32768.0 - 0.5;
            pos[3 * i + k] = (c[k] + 0.5) * a + 0.05 * jitter;
            seed = seed * 1103515245u + 12345u;
            vel[3 * i + k] = ((seed >> 16) & 0x7fff) / 32768.0 - 0.5;
            vsum[k] += vel[3 * i + k];
        }
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) vel[3 * i + k] -= vsum[k] / n;  /* no drift */

    checkCudaErrors(cudaMemcpy(s.pos, pos.data(), 3 * n * sizeof(double), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(s.vel, vel.data(), 3 * n * sizeof(double), cudaMemcpyHostToDevice));

    /* forces against the host */
    mdComputeForces(s);
    std::vector<double> f(3 * n), hf(3 * n);
    double epot, hepot;
    checkCudaErrors(cudaMemcpy(f.data(), s.force, 3 * n * sizeof(double), cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(&epot, s.epot, sizeof(double), cudaMemcpyDeviceToHost));
    mdHostForces(n, s.box, s.rc2, pos.data(), hf.data(), &hepot);
    double maxF = 0, maxErr = 0, net[3] = {0, 0, 0};
    for (int k = 0; k < 3 * n; k++) {
        maxF = fmax(maxF, fabs(hf[k]));
        maxErr = fmax(maxErr, fabs(f[k] - hf[k]));
        net[k % 3] += f[k];
    }
    bool ok = maxErr <= 1e-9 * maxF && fabs(epot - hepot) <= 1e-9 * fabs(hepot);
    double netF = fabs(net[0]) + fabs(net[1]) + fabs(net[2]);
    ok = ok && netF < 1e-8 * maxF;
    printf("forces: max error %.3g of %.3g, net force %.3g, epot %.10g (host %.10g)\n", maxErr,
           maxF, netF, epot, hepot);

    double e0 = epot + mdKineticEnergy(s);
    const int steps = 150;
    double maxDrift = 0;
    for (int st = 1; st <= steps; st++) {
        mdStep(s);
        if (st % 50 == 0) {
            checkCudaErrors(cudaMemcpy(&epot, s.epot, sizeof(double), cudaMemcpyDeviceToHost));
            double e = epot + mdKineticEnergy(s);
            maxDrift = fmax(maxDrift, fabs(e - e0) / fabs(e0));
            printf("step %d: E = %.8f (drift %.3g)\n", st, e, (e - e0) / fabs(e0));
        }
    }
    checkCudaErrors(cudaMemcpy(pos.data(), s.pos, 3 * n * sizeof(double), cudaMemcpyDeviceToHost));
    bool inBox = true;
    for (int k = 0; k < 3 * n; k++) inBox = inBox && pos[k] >= 0.0 && pos[k] < s.box;
    ok = ok && maxDrift < 1e-3 && inBox;
    mdFree(s);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
