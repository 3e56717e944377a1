// omp_kernels.cu: reduced from the shallow-water trial of scientific codes
// (tests/programs_trialsci.sh): a time loop that alternates an OpenMP loop
// on the host with kernel launches, built with -Xcompiler -fopenmp. libgomp's
// idle threads spun after each parallel region on the cores that ran the
// kernels next (10x slower here); a program linked by cuemu-nvcc with
// OpenMP starts with OMP_WAIT_POLICY=passive unless its environment sets
// the policy (emulator/core/cuemu_omp_wait.c). The wrapper runs it with
// OMP_DISPLAY_ENV=verbose and reads libgomp's spin count; the program
// checks its own results.
#include <cmath>
#include <cstdio>

#include <omp.h>

#define N 4096

__global__ void relax(const double *u, double *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    v[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
}

int main() {
  static double u[N], ref[N], tmp[N];
  for (int i = 0; i < N; ++i)
    u[i] = ref[i] = std::sin(0.01 * i);
  double *du, *dv;
  cudaMalloc(&du, sizeof u);
  cudaMalloc(&dv, sizeof u);
  cudaMemcpy(du, u, sizeof u, cudaMemcpyHostToDevice);
  cudaMemcpy(dv, u, sizeof u, cudaMemcpyHostToDevice);
  for (int step = 0; step < 50; ++step) {
    relax<<<N / 256, 256>>>(du, dv, N);
    double *t = du;
    du = dv;
    dv = t;
#pragma omp parallel for
    for (int i = 1; i < N - 1; ++i)
      tmp[i] = 0.5 * ref[i] + 0.25 * (ref[i - 1] + ref[i + 1]);
#pragma omp parallel for
    for (int i = 1; i < N - 1; ++i)
      ref[i] = tmp[i];
  }
  cudaMemcpy(u, du, sizeof u, cudaMemcpyDeviceToHost);
  double worst = 0.0;
  for (int i = 0; i < N; ++i)
    worst = std::fmax(worst, std::fabs(u[i] - ref[i]));
  printf("threads %d, max |gpu - cpu| = %.3e\n", omp_get_max_threads(), worst);
  printf("%s\n", worst < 1e-14 ? "PASS" : "FAIL");
  return worst < 1e-14 ? 0 : 1;
}
