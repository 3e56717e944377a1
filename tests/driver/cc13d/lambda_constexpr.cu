// lambda_constexpr.cu: an extended __device__ lambda declared constexpr,
// which nvcc refuses at the lambda's line ("The constexpr specifier is not
// allowed for an extended __device__ lambda"); tests/driver_extended_lambda.sh.
template <typename F> __global__ void apply_once(F f, int *out) { *out = f(2); }

void launch_constexpr(int *out)
{
  auto twice = [] __device__(int v) constexpr { return 2 * v; };
  apply_once<<<1, 1>>>(twice, out);
}
