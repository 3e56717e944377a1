// thrust_ccbin_gcc.cu: a unit that includes Thrust, built with the host
// compiler named as CMake's FindCUDA names it to every nvcc command
// (-ccbin /usr/bin/gcc, its CUDA_HOST_COMPILER) and as Makefiles name it
// (-ccbin g++). nvcc builds it; cuemu-nvcc compiles such a unit with
// clang++ when the compiler chosen is g++ or gcc, as when none is chosen,
// since g++ 12 refuses CUB's `using X = X<...>;` members (docs/cccl.md).
// An exclusive scan through device vectors, as course projects check
// their own scans against.
// CUEMU_OPTIONS: -ccbin gcc
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/scan.h>

#include "../check.cuh"

int main() {
  const int n = 1000;
  thrust::host_vector<int> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = i % 7;
  thrust::device_vector<int> d_in = in, d_out(n);
  thrust::exclusive_scan(d_in.begin(), d_in.end(), d_out.begin());
  thrust::host_vector<int> out(n);
  thrust::copy(d_out.begin(), d_out.end(), out.begin());
  int sum = 0;
  for (int i = 0; i < n; ++i) {
    CHECK(out[i] == sum);
    sum += in[i];
  }
  return finish();
}
