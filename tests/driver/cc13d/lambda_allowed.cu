// lambda_allowed.cu: extended lambdas that nvcc accepts near the refused
// forms of tests/driver_extended_lambda.sh: a constexpr lambda that is not
// extended, an extended lambda inside a plain (not generic) lambda, a
// generic extended __device__ lambda (a __host__ __device__ one may not be
// generic) and one with a trailing return type. Prints 4 10 6 and exits 0.
#include <cstdio>

template <typename F> __global__ void apply_once(F f, int *out) { *out = f(2); }

int main()
{
  int *d = nullptr, h[3] = {0, 0, 0};
  cudaMalloc(&d, sizeof h);
  constexpr auto host_only = [](int v) constexpr { return v + 1; };
  static_assert(host_only(1) == 2, "a plain constexpr lambda");
  auto outer = [](int *dest) {
    auto twice = [] __device__(int v) { return 2 * v; };
    apply_once<<<1, 1>>>(twice, dest);
  };
  outer(d);
  auto five_times = [] __device__(auto v) { return 5 * v; };
  apply_once<<<1, 1>>>(five_times, d + 1);
  auto plus = [] __device__(int v) -> int { return v + 4; };
  apply_once<<<1, 1>>>(plus, d + 2);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::printf("%d %d %d\n", h[0], h[1], h[2]);
  return h[0] == 4 && h[1] == 10 && h[2] == 6 ? 0 : 1;
}
