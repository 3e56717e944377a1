// generic_lambda.cu: C++11 code with a kernel template launched with
// deduced template arguments (which cuemu's translation writes as a call
// in a generic lambda) and, with -DGENERIC, a generic lambda of the
// user's, which is C++14. tests/driver_old_dialect.sh: under -std=c++11
// the program builds and runs without GENERIC, and with it is an error at
// the lambda's line (19), as with nvcc ("auto" is not allowed here).
#include <cstdio>
#include <cuda_runtime.h>

template <typename T> __global__ void store(T *x, T v) { *x = v; }

int main() {
  int *p;
  if (cudaMallocManaged(&p, sizeof *p) != cudaSuccess)
    return 1;
  store<<<1, 1>>>(p, 41);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;  // the launch is asynchronous
#ifdef GENERIC
  auto twice = [](auto x) { return x + x; };
  std::printf("%d\n", twice(*p));
#endif
  auto next = [](int x) { return x + 1; };
  std::printf("%d\n", next(*p));
  cudaFree(p);
  return 0;
}
