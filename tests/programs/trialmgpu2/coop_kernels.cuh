#ifndef TRIALMGPU2_COOP_KERNELS_CUH
#define TRIALMGPU2_COOP_KERNELS_CUH
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Two-phase reduction with one grid-wide barrier: each block writes its
// partial sum, the grid syncs, block 0 adds the partials.
template <int BLOCK>
__global__ void coop_sum(const float *in, float *partials, float *out, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[BLOCK];
  float acc = 0.f;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) acc += in[i];
  s[block.thread_rank()] = acc;
  block.sync();
  for (int k = BLOCK / 2; k > 0; k >>= 1) {
    if (block.thread_rank() < k) s[block.thread_rank()] += s[block.thread_rank() + k];
    block.sync();
  }
  if (block.thread_rank() == 0) partials[blockIdx.x] = s[0];
  grid.sync();
  if (blockIdx.x == 0 && block.thread_rank() == 0) {
    float t = 0.f;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partials[b];
    *out = t;
  }
}
#endif // TRIALMGPU2_COOP_KERNELS_CUH
