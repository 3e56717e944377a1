// lambda_in_generic.cu: an extended __device__ lambda defined inside a
// generic lambda, which nvcc refuses at the inner lambda's line ("An
// extended __device__ lambda cannot be defined inside a generic lambda
// expression"); tests/driver_extended_lambda.sh.
template <typename F> __global__ void apply_once(F f, int *out) { *out = f(2); }

void launch_in_generic(int *out)
{
  auto outer = [](auto *dest) {
    auto twice = [] __device__(int v) { return 2 * v; };
    apply_once<<<1, 1>>>(twice, dest);
  };
  outer(out);
}
