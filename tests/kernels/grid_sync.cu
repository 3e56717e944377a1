// grid_sync.cu: grid-wide synchronisation with cooperative groups, and a
// kernel that syncs the grid outside a cooperative launch (an error).
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// Each round, every block publishes a value; after grid.sync() every block
// sums what all blocks published; after a second sync the next round may
// overwrite the values.
extern "C" __global__ void grid_rounds(int *published, int *sums, int rounds) {
  cg::grid_group grid = cg::this_grid();
  unsigned b = (unsigned)grid.block_rank(), n = (unsigned)grid.num_blocks();
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0)
      published[b] = (int)b * 10 + r;
    grid.sync();
    if (threadIdx.x == 0) {
      int s = 0;
      for (unsigned i = 0; i < n; ++i)
        s += published[i];
      sums[r * n + b] = s;
    }
    cg::sync(grid);
  }
}

// The grid's shape as the group reports it.
extern "C" __global__ void grid_shape(unsigned long long *out) {
  cg::grid_group grid = cg::this_grid();
  unsigned long long r = grid.thread_rank();
  out[r] = grid.is_valid() ? grid.num_threads() : 0;
}

// Blocks that finish without syncing count as arrived: the others' sync
// completes.
extern "C" __global__ void early_blocks(int *out) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x % 2 == 1)
    return;
  grid.sync();
  if (threadIdx.x == 0)
    out[blockIdx.x] = 1;
}
