// overloaded_kernels.cuh: kernels that share a name, declared in a header
// (the definitions are in overloaded_kernels.cu).
#pragma once

namespace ops {
// Two overloads declared here, with other parameter names than in their
// definitions, and each with its own __launch_bounds__.
__global__ void __launch_bounds__(64) fill(float *out, float value);
__global__ void __launch_bounds__(128) fill(double *target, int count,
                                            double step);
} // namespace ops

// Overloads at namespace scope, one taking a struct.
struct Pair {
  int a, b;
};
__global__ void scale(int *x, int factor);
__global__ void scale(int *x, Pair p);
