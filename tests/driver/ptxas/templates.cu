// The kernels that nvcc's ptxas compiles, and so prints with -Xptxas -v:
// a plain kernel, an extern "C" one, the instances of kernel templates
// that the unit launches (one in a namespace, one with deduced template
// arguments) and one explicitly instantiated, each under its mangled name.
#include <cstdio>

template <typename T, int N>
__global__ void rotate(T *d, T f) {
  __shared__ T s[N];
  s[threadIdx.x % N] = d[threadIdx.x];
  __syncthreads();
  d[threadIdx.x] = s[(threadIdx.x + 1) % N] * f;
}

// Instantiated and compiled, never launched.
template __global__ void rotate<float, 32>(float *, float);

namespace fills {
template <typename T> __global__ void fill(T *p, T v) { p[threadIdx.x] = v; }
} // namespace fills

__global__ void bump(int *x) { x[threadIdx.x] += 1; }

extern "C" __global__ void bump_c(int *x) { x[threadIdx.x] -= 1; }

int main() {
  double *d;
  int *x;
  cudaMalloc(&d, 64 * sizeof *d);
  cudaMalloc(&x, 64 * sizeof *x);
  fills::fill<<<1, 64>>>(d, 1.0);
  rotate<double, 64><<<1, 64>>>(d, 2.0);
  bump<<<1, 64>>>(x);
  bump_c<<<1, 64>>>(x);
  double h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  cudaFree(x);
  printf("%s\n", h[0] == 2.0 && h[63] == 2.0 ? "PASS" : "FAIL");
  return 0;
}
