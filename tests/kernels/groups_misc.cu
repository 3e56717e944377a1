/*
 * groups_misc.cu: cg::memcpy_async with cg::wait over a block and over a
 * tile, and misuse of groups, which the runtime reports naming the line
 * marked in a comment here (tests/check_groups.c looks the marks up).
 * The misuse kernels compile with nvcc; on a GPU they are undefined.
 */
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

namespace cg = cooperative_groups;

/* Each block copies its n ints (n <= 1024) of src into shared memory with
 * the whole block; then, when the block is a whole number of warps, its
 * 32-thread tiles copy 32-int slices of that into a second buffer in turn
 * (element-count form); the block writes the last buffer it filled
 * reversed, times two, to dst. */
extern "C" __global__ void groups_memcpy(const int *src, int *dst, int n) {
  __shared__ int first[1024];
  __shared__ int second[1024];
  cg::thread_block block = cg::this_thread_block();
  const int *mine = src + (size_t)blockIdx.x * n;
  cg::memcpy_async(block, first, mine, sizeof(int) * n);
  cg::wait(block);
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int *last = first;
  if (block.size() % 32 == 0) {
    for (unsigned at = tile.meta_group_rank() * 32u; at < (unsigned)n;
         at += tile.meta_group_size() * 32u) {
      size_t count = (unsigned)n - at < 32u ? (unsigned)n - at : 32u;
      cg::memcpy_async(tile, second + at, count, first + at, count);
    }
    cg::wait(tile);
    last = second;
  }
  block.sync();
  for (unsigned k = block.thread_rank(); k < (unsigned)n; k += block.size())
    dst[(size_t)blockIdx.x * n + k] = last[n - 1 - k] * 2;
}

/* A member of an 8-thread tile returns before the tile syncs: legal, it
 * takes no part (CUDA's rule for collectives). */
extern "C" __global__ void groups_misuse_exit(int *out) {
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
  if (tile.thread_rank() == 3)
    return;
  tile.sync(); /* MISUSE-EXIT */
  out[threadIdx.x] = 1;
}

/* Half a tile shuffles while the other half votes. */
extern "C" __global__ void groups_misuse_diverge(int *out) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (tile.thread_rank() < 16)
    out[threadIdx.x] = tile.shfl((int)threadIdx.x, 0); /* MISUSE-SHFL */
  else
    out[threadIdx.x] = (int)tile.ballot(1); /* MISUSE-BALLOT */
}

/* A tile size that is not a power of two. */
extern "C" __global__ void groups_misuse_size(int *out, unsigned size) {
  cg::thread_group g = cg::tiled_partition(cg::this_thread_block(), size); /* MISUSE-SIZE */
  out[threadIdx.x] = (int)g.size();
}

/* A member of a coalesced group returns before the group shuffles: legal,
 * the others read rank 1. */
extern "C" __global__ void groups_misuse_coalesced(int *out) {
  if (threadIdx.x % 32 < 4) {
    cg::coalesced_group g = cg::coalesced_threads();
    if (g.thread_rank() == 2)
      return;
    out[threadIdx.x] = g.shfl((int)threadIdx.x, 1); /* MISUSE-COALESCED */
  }
}
