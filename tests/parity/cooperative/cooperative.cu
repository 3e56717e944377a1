// A correct cooperative kernel: every block sums its slice into partial[],
// the grid synchronises, then block 0 adds the partial sums. It needs
// `cooperative: true` in its case: without a cooperative launch, grid.sync()
// is an error.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void grid_sum(int n, const int *x, int *partial,
                                    int *total) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int s[128];
  int sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    sum += x[i];
  s[threadIdx.x] = sum;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    *total = t;
  }
}
