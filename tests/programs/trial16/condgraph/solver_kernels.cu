#include "solver_kernels.cuh"

__global__ void matvec(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double l = i > 0 ? x[i - 1] : 0.0, r = i < n - 1 ? x[i + 1] : 0.0;
    y[i] = 2.0 * x[i] - l - r;
  }
}

// One block: reduction and the condition update.
__global__ void norm_and_scale(double *y, double *x, int n, double *lambda,
                               int *iters, int maxIters, double tol,
                               cudaGraphConditionalHandle loop) {
  __shared__ double s_yy[256], s_xy[256];
  double yy = 0, xy = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    yy += y[i] * y[i];
    xy += x[i] * y[i];
  }
  s_yy[threadIdx.x] = yy;
  s_xy[threadIdx.x] = xy;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      s_yy[threadIdx.x] += s_yy[threadIdx.x + s];
      s_xy[threadIdx.x] += s_xy[threadIdx.x + s];
    }
    __syncthreads();
  }
  double nrm = sqrt(s_yy[0]);
  for (int i = threadIdx.x; i < n; i += blockDim.x) x[i] = y[i] / nrm;
  if (threadIdx.x == 0) {
    double lam = s_xy[0];
    double old = *lambda;
    *lambda = lam;
    int k = ++*iters;
    bool more = fabs(lam - old) > tol * fabs(lam) && k < maxIters;
    cudaGraphSetConditional(loop, more ? 1 : 0);
  }
}

__global__ void choose_branch(const int *mode, cudaGraphConditionalHandle sw) {
  cudaGraphSetConditional(sw, (unsigned)*mode);
}

__global__ void fill(double *x, int n, double v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = v + 0.001 * i;
}
__global__ void scale_by(double *x, int n, double s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}
__global__ void add_const(double *x, int n, double c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += c;
}
