/* md.h - Lennard-Jones molecular dynamics in double precision. */
#ifndef MD_H
#define MD_H
#include <cuda_runtime.h>

struct MdSystem {
    int n;
    double box;     /* periodic cube side */
    double rc2;     /* cutoff squared */
    double dt;
    double *pos;    /* device, 3*n (x0,y0,z0,x1,...) */
    double *vel;
    double *force;
    double *epot;   /* device scalar */
};

void mdAllocate(MdSystem &s, int n);
void mdFree(MdSystem &s);
/* forces and potential energy, each pair once (Newton's third law) */
void mdComputeForces(MdSystem &s);
/* one velocity Verlet step: kick, drift (wrapped), forces, kick */
void mdStep(MdSystem &s);
double mdKineticEnergy(MdSystem &s);

/* the same on the host, on host arrays */
void mdHostForces(int n, double box, double rc2, const double *pos, double *force, double *epot);
#endif
