// A program whose header declares the coefficient table of its stencil
// kernel as `inline __constant__ static double *coef[5];`, fills it with
// cudaMemcpyToSymbol and reads it in a kernel, as a conjugate-gradient
// solver keeps the addresses of its matrix diagonals in constant memory.
// nvcc accepts a static inline device variable without relocatable device
// code: it has internal linkage, so it is the unit's own object, one for
// host and device code alike. cuemu made the variable private but kept it
// `inline`, so the host pass's copy was not the device's: the symbol copy
// succeeded, and the kernel read null pointers and faulted. Every order of
// the specifiers must reach its kernel, in both directions.
#include <cstdio>
#include "../check.cuh"

inline __constant__ static double *coef[5];
static inline __device__ int visits;
namespace stencil {
__device__ inline static float weights[2] = {0.5f, 0.25f};
}

__global__ void apply(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double left = i > 0 ? x[i - 1] : 0.0, right = i + 1 < n ? x[i + 1] : 0.0;
    y[i] = coef[0][i] * left + coef[1][i] * x[i] + coef[2][i] * right;
    atomicAdd(&visits, 1);
  }
  if (i == 0) y[n] = stencil::weights[0] + stencil::weights[1];
}

int main() {
  const int n = 8;
  double *diag[5], *x, *y;
  double host[3][n];
  for (int d = 0; d < 3; d++)
    for (int i = 0; i < n; i++) host[d][i] = d == 1 ? 2.0 : -1.0;
  for (int d = 0; d < 5; d++) {
    CHECK(cudaMalloc(&diag[d], n * sizeof(double)) == cudaSuccess);
    if (d < 3)
      CHECK(cudaMemcpy(diag[d], host[d], sizeof host[d],
                       cudaMemcpyHostToDevice) == cudaSuccess);
  }
  CHECK(cudaMemcpyToSymbol(coef, diag, sizeof diag) == cudaSuccess);
  int start = 100;
  CHECK(cudaMemcpyToSymbol(visits, &start, sizeof start) == cudaSuccess);
  const float w[2] = {1.0f, 2.0f};
  CHECK(cudaMemcpyToSymbol(stencil::weights, w, sizeof w) == cudaSuccess);

  double hx[n], hy[n + 1];
  for (int i = 0; i < n; i++) hx[i] = i * i;
  CHECK(cudaMalloc(&x, n * sizeof(double)) == cudaSuccess);
  CHECK(cudaMalloc(&y, (n + 1) * sizeof(double)) == cudaSuccess);
  CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice) == cudaSuccess);
  apply<<<2, 4>>>(x, y, n);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < n; i++) {
    double want = 2.0 * hx[i] - (i > 0 ? hx[i - 1] : 0.0) -
                  (i + 1 < n ? hx[i + 1] : 0.0);
    CHECK(hy[i] == want);
  }
  CHECK(hy[n] == 3.0);

  int count = 0;
  CHECK(cudaMemcpyFromSymbol(&count, visits, sizeof count) == cudaSuccess);
  CHECK(count == 100 + n);
  double *back[5] = {nullptr};
  CHECK(cudaMemcpyFromSymbol(back, coef, sizeof back) == cudaSuccess);
  CHECK(back[1] == diag[1]);
  for (int d = 0; d < 5; d++) CHECK(cudaFree(diag[d]) == cudaSuccess);
  CHECK(cudaFree(x) == cudaSuccess);
  CHECK(cudaFree(y) == cudaSuccess);
  return finish();
}
