// old_dialect_cub.cu: CUB with -std=c++14, which nvcc refuses (CCCL's
// "#error CUB requires at least C++17"), and so does cuemu-nvcc, which
// compiles -std=c++14 as C++14.
#include <cub/cub.cuh>

__global__ void sum(const int *in, int *out) {
  using reduce = cub::BlockReduce<int, 32>;
  __shared__ typename reduce::TempStorage storage;
  int total = reduce(storage).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0)
    *out = total;
}
