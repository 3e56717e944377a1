/* gpu_api.h: the launchers the C driver calls, Fortran-style names. */
#ifndef GPU_API_H
#define GPU_API_H
#ifdef __cplusplus
extern "C" {
#endif
void gpu_jacobi_(double *u, const double *f, int *n, int *niter);
#ifdef __cplusplus
}
#endif
#endif
