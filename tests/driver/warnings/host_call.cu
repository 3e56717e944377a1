// host_call.cu: host code that calls a __device__ function, which nvcc
// refuses ("calling a __device__ function ... from a __host__ function is
// not allowed"); with -DPLUS_ONE_ONLY, the host code does not call it.
#include <cstdio>

__device__ int plus_one(int v) { return v + 1; }

int main() {
#ifndef PLUS_ONE_ONLY
  std::printf("%d\n", plus_one(1));
#endif
  return 0;
}
