#pragma once
#include <cuda_runtime.h>
// x <- A x (tridiagonal 2,-1), then normalise; sets cond to 0 when the
// Rayleigh quotient changed by less than tol or the iteration cap is hit.
__global__ void matvec(const double *x, double *y, int n);
__global__ void norm_and_scale(double *y, double *x, int n, double *lambda,
                               int *iters, int maxIters, double tol,
                               cudaGraphConditionalHandle loop);
__global__ void choose_branch(const int *mode, cudaGraphConditionalHandle sw);
__global__ void fill(double *x, int n, double v);
__global__ void scale_by(double *x, int n, double s);
__global__ void add_const(double *x, int n, double c);
