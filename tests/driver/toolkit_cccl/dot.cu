// dot.cu: a dot product reduced by CUB's BlockReduce.
#include <cub/block/block_reduce.cuh>
#include "dot.cuh"
__global__ void dot_kernel(const double *a, const double *b, int n,
                           double *out) {
  typedef cub::BlockReduce<double, DOT_BLOCK> Reduce;
  __shared__ typename Reduce::TempStorage temp;
  double s = Reduce(temp).Sum(partial_dot(a, b, n));
  if (threadIdx.x == 0)
    atomicAdd(out, s);
}
