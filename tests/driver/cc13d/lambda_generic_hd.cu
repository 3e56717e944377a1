// lambda_generic_hd.cu: a generic extended __host__ __device__ lambda,
// which nvcc refuses at its line ("__host__ __device__ extended lambdas
// cannot be generic lambdas"); tests/driver_extended_lambda.sh.
template <typename F> __global__ void apply_once(F f, int *out) { *out = f(2); }

void launch_generic(int *out)
{
  auto twice = [] __host__ __device__(auto v) { return 2 * v; };
  apply_once<<<1, 1>>>(twice, out);
}
