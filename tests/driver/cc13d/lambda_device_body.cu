// Lambdas inside the body of an extended __device__ lambda are device code,
// not extended lambdas: nvcc accepts a constexpr __device__ lambda there and
// a __device__ lambda inside a generic __device__ lambda (the restrictions
// of lambda_constexpr.cu and lambda_in_generic.cu do not apply to them).
#include <cstdio>

template <typename F> __global__ void apply(F f, int *out) {
  out[threadIdx.x] = f(static_cast<int>(threadIdx.x) + 2);
}

int main() {
  int *d = nullptr;
  int h[2] = {0, 0};
  cudaMalloc(&d, sizeof h);
  auto scaled = [] __device__(int v) {
    auto next = [] __device__(int w) constexpr { return w + 1; };
    return next(v) * 10;
  };
  auto doubled = [] __device__(auto v) {
    auto twice = [] __device__(int w) { return 2 * w; };
    return twice(v);
  };
  apply<<<1, 2>>>(scaled, d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d", h[0], h[1]);
  apply<<<1, 2>>>(doubled, d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf(" %d %d\n", h[0], h[1]);
  cudaFree(d);
  return 0;
}
