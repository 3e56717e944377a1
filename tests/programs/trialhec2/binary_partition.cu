/*
 * cooperative_groups::binary_partition of a warp tile, which no other test
 * reaches (a HeCBench-style trial split odd and even elements with it):
 * in full warps each half is a coalesced group of 16 lanes whose
 * meta_group_rank is the predicate and meta_group_size 2, and cg::reduce
 * over it sums its own lanes; a predicate that is the same in every lane
 * gives the whole tile, meta_group_size 1; a tile whose last lanes exited
 * before the partition still names them, as CUDA's header computes it
 * (the tile's mask less the ballot of the predicate), so the group of the
 * false predicate counts them (reading their values would be undefined,
 * which synccheck reports), and a predicate true in every live lane gives
 * a part of 8 lanes whose meta_group_rank is 1 of 2, not the whole tile.
 */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>

namespace cg = cooperative_groups;

/* Per thread: the size, meta rank and meta size of its part and the sum of
 * its part's values (i + 1), or -1 where the part holds exited lanes. */
__global__ void split(int *size, int *rank, int *count, int *sum, int n, int same) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  cg::coalesced_group part = cg::binary_partition(warp, same ? true : (i & 1) != 0);
  size[i] = part.size();
  rank[i] = part.meta_group_rank();
  count[i] = part.meta_group_size();
  /* The parts without exited lanes: those of full warps, and in the last
   * warp those of the true predicate. */
  bool live = i < n / 32 * 32 || same || (i & 1);
  sum[i] = live ? cg::reduce(part, i + 1, cg::plus<int>()) : -1;
}

int main() {
  const int n = 72; /* two full warps, then 8 live lanes of 32 */
  int *d, h[4][96];
  cudaMalloc(&d, sizeof h);
  int failures = 0;
  for (int same = 0; same < 2; ++same) {
    cudaMemset(d, 0xff, sizeof h);
    split<<<1, 96>>>(d, d + 96, d + 192, d + 288, n, same);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) {
      int warp = i / 32, odd = i & 1, want_size, want_rank, want_count, want_sum = 0;
      if (same) {
        want_size = 32, want_rank = 0, want_count = 1;
        for (int j = warp * 32; j < warp * 32 + 32 && j < n; ++j)
          want_sum += j + 1;
        if (warp == 2) /* the ballot is not the whole tile: a part of two */
          want_size = 8, want_rank = 1, want_count = 2;
      } else {
        want_size = warp < 2 ? 16 : (odd ? 4 : 28), want_rank = odd, want_count = 2;
        for (int j = warp * 32 + odd; j < warp * 32 + 32; j += 2)
          want_sum += j + 1;
        if (warp == 2 && !odd)
          want_sum = -1;
        else if (warp == 2)
          want_sum = 66 + 68 + 70 + 72; /* i = 65, 67, 69, 71 */
      }
      if (h[0][i] != want_size || h[1][i] != want_rank || h[2][i] != want_count ||
          h[3][i] != want_sum) {
        printf("same %d thread %d: size %d rank %d count %d sum %d, expected %d %d %d %d\n",
               same, i, h[0][i], h[1][i], h[2][i], h[3][i], want_size, want_rank, want_count,
               want_sum);
        ++failures;
      }
    }
  }
  cudaFree(d);
  if (!failures)
    printf("PASS\n");
  return failures != 0;
}
