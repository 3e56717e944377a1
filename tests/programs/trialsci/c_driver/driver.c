/* driver.c: a C main that includes <cuda_runtime.h> for the device query
 * and the error strings, as C drivers of scientific codes do, and checks
 * the GPU's Jacobi sweeps against its own. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "gpu_api.h"

#define N 40
#define IDX(i, j) (((j) - 1) * N + ((i) - 1))

static double u[N * N], v[N * N], f[N * N], ref[N * N];

int main(void) {
  int n = N, niter = 30, count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count < 1) {
    printf("no device: %s\n", cudaGetErrorString(err));
    return 1;
  }
  struct cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess || prop.major < 7) {
    printf("bad device properties\n");
    return 1;
  }
  for (int j = 1; j <= N; ++j)
    for (int i = 1; i <= N; ++i) {
      f[IDX(i, j)] = 1e-3 * sin(0.1 * i) * cos(0.2 * j);
      u[IDX(i, j)] = ref[IDX(i, j)] = (i == 1 || j == 1) ? 1.0 : 0.0;
    }
  gpu_jacobi_(u, f, &n, &niter);
  for (int it = 0; it < niter; ++it) {
    for (int j = 2; j <= N - 1; ++j)
      for (int i = 2; i <= N - 1; ++i)
        v[IDX(i, j)] = 0.25 * (ref[IDX(i - 1, j)] + ref[IDX(i + 1, j)] +
                               ref[IDX(i, j - 1)] + ref[IDX(i, j + 1)] -
                               f[IDX(i, j)]);
    for (int j = 2; j <= N - 1; ++j)
      for (int i = 2; i <= N - 1; ++i)
        ref[IDX(i, j)] = v[IDX(i, j)];
  }
  double worst = 0.0;
  for (int k = 0; k < N * N; ++k)
    worst = fmax(worst, fabs(u[k] - ref[k]));
  printf("max |gpu - cpu| = %.3e\n", worst);
  printf("%s\n", worst < 1e-14 ? "PASS" : "FAIL");
  return worst < 1e-14 ? 0 : 1;
}
