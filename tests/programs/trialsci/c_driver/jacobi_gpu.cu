// jacobi_gpu.cu: Jacobi sweeps on a column-major array with 1-based index
// macros, device buffers held in file-static globals, behind an extern "C"
// launcher that the C driver calls.
#include "gpu_api.h"

#define IDX(i, j, ld) (((j) - 1) * (ld) + ((i) - 1))

static double *d_u = 0, *d_v = 0, *d_f = 0;

__global__ void sweep(const double *u, double *v, const double *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 2;
  int j = blockIdx.y * blockDim.y + threadIdx.y + 2;
  if (i > n - 1 || j > n - 1)
    return;
  v[IDX(i, j, n)] = 0.25 * (u[IDX(i - 1, j, n)] + u[IDX(i + 1, j, n)] +
                            u[IDX(i, j - 1, n)] + u[IDX(i, j + 1, n)] -
                            f[IDX(i, j, n)]);
}

extern "C" void gpu_jacobi_(double *u, const double *f, int *n, int *niter) {
  size_t bytes = (size_t)(*n) * (*n) * sizeof(double);
  cudaMalloc((void **)&d_u, bytes);
  cudaMalloc((void **)&d_v, bytes);
  cudaMalloc((void **)&d_f, bytes);
  cudaMemcpy(d_u, u, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_v, u, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_f, f, bytes, cudaMemcpyHostToDevice);
  dim3 block(8, 8), grid((*n + 7) / 8, (*n + 7) / 8);
  for (int it = 0; it < *niter; ++it) {
    sweep<<<grid, block>>>(d_u, d_v, d_f, *n);
    double *t = d_u;
    d_u = d_v;
    d_v = t;
  }
  cudaMemcpy(u, d_u, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_u);
  cudaFree(d_v);
  cudaFree(d_f);
}
