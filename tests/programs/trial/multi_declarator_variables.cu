// A program whose kernel file declares several device variables in one
// declaration (`__device__ __constant__ double a2, tau;`) and whose host
// file, compiled by the host compiler alone and linked by it, defines host
// globals of the same names, as a 3-D wave solver split into a kernel file
// and an MPI host file does. Without relocatable device code nvcc keeps each
// file's device variables its own, so the program links and the host file's
// globals are not the device's. cuemu made a declaration of one variable
// private to its file but left one of several declarators alone, and the
// link failed ("multiple definition of `wave_a2'"). Every form must still
// reach its kernel through cudaMemcpyToSymbol and cudaMemcpyFromSymbol:
// several declarators with and without initializers, arrays, static ones,
// and a single declarator whose initializer holds a comparison.
// CUEMU_OPTIONS: multi_declarator_host.cpp
#include <cstdio>
#include "../check.cuh"

__device__ __constant__ double wave_a2, wave_tau;
__constant__ int grid_x0, grid_y0;
__device__ int hits = 5, misses{7};
__constant__ float weights[3], bias[2] = {0.5f, 0.25f};
static __constant__ int lo_bound, hi_bound;
__device__ int less_than = 1 < 2;

double host_constant_sum();

__global__ void gather(double *out) {
  out[0] = wave_a2 + wave_tau;
  out[1] = grid_x0 * 10 + grid_y0;
  out[2] = weights[0] + weights[1] + weights[2] + bias[0] + bias[1];
  out[3] = hi_bound - lo_bound;
  out[4] = less_than;
  atomicAdd(&hits, 1);
  atomicAdd(&misses, 2);
}

int main() {
  const double a2 = 1.5, tau = 0.25;
  const int x0 = 3, y0 = 4, lo = 10, hi = 42;
  const float w[3] = {1.0f, 2.0f, 4.0f};
  CHECK(cudaMemcpyToSymbol(wave_a2, &a2, sizeof a2) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(wave_tau, &tau, sizeof tau) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(grid_x0, &x0, sizeof x0) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(grid_y0, &y0, sizeof y0) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(weights, w, sizeof w) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(lo_bound, &lo, sizeof lo) == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(hi_bound, &hi, sizeof hi) == cudaSuccess);

  double *out = nullptr;
  CHECK(cudaMalloc(&out, 5 * sizeof(double)) == cudaSuccess);
  gather<<<1, 4>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  double got[5] = {0};
  CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(got[0] == 1.75);
  CHECK(got[1] == 34.0);
  CHECK(got[2] == 7.75);
  CHECK(got[3] == 32.0);
  CHECK(got[4] == 1.0);

  int h = 0, m = 0;
  CHECK(cudaMemcpyFromSymbol(&h, hits, sizeof h) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(&m, misses, sizeof m) == cudaSuccess);
  CHECK(h == 5 + 4);
  CHECK(m == 7 + 8);

  // The host file's globals are its own, untouched by the symbol copies.
  CHECK(host_constant_sum() == 100.0 + 200.0 + 300 + 400);
  CHECK(cudaFree(out) == cudaSuccess);
  return finish();
}
