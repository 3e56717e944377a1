/*
 * groups_wide.cu: every operation of the tiles wider than a warp,
 * thread_block_tile<N> for N = 64, 128, 256, 512 and 1024, in blocks whose
 * size is a multiple of N (1-D, 2-D and 3-D), with and without
 * block_tile_memory; each thread writes its results to its row of `out`
 * (see groups_wide_layout.h) and tests/check_groups.c computes the expected
 * rows on the host. Then misuse of wide tiles, which the emulator reports
 * naming the line marked in a comment here. The misuse kernels compile
 * with nvcc; on a GPU they hang or are undefined.
 */
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstring>

#include "groups_layout.h"
#include "groups_wide_layout.h"

namespace cg = cooperative_groups;

__device__ static long long wide_float_bits(float f) {
  unsigned u;
  memcpy(&u, &f, sizeof u);
  return (long long)u;
}

__device__ static long long wide_double_bits(double d) {
  long long u;
  memcpy(&u, &d, sizeof u);
  return u;
}

template <unsigned N>
__device__ void wide_ops(long long *out, const int *src, int srcbase,
                         int use_scratch) {
  __shared__ cg::block_tile_memory<1024> scratch;
  __shared__ int copied[1024];
  __shared__ int stored[16];
  cg::thread_block block =
      use_scratch ? cg::this_thread_block(scratch) : cg::this_thread_block();
  cg::thread_block_tile<N, cg::thread_block> tile =
      cg::tiled_partition<N>(block);
  unsigned r = (unsigned)block.thread_rank();
  unsigned size = (unsigned)block.size();
  long long *o = out + ((size_t)blockIdx.x * size + r) * WIDE_SLOTS;
  unsigned u = groups_mix(r);
  int i = (int)(u % 1000u) - 500;
  float f = (float)(u % 100000u) / 7.0f;
  double d = (double)u / 3.0;

  o[WT_RANK] = tile.thread_rank();
  o[WT_NUM] = tile.num_threads();
  o[WT_SIZE] = tile.size();
  o[WT_MRANK] = tile.meta_group_rank();
  o[WT_MSIZE] = tile.meta_group_size();
  cg::thread_block_tile<N> forgotten = tile;
  o[WT_VOID_MRANK] = forgotten.meta_group_rank();
  o[WT_VOID_MSIZE] = forgotten.meta_group_size();

  unsigned from = (unsigned)(srcbase + 5 * (int)blockIdx.x +
                             3 * (int)tile.meta_group_rank()) % N;
  o[WT_SHFL] = tile.shfl(u, from);
  o[WT_SHFL_D] = wide_double_bits(tile.shfl(d, (from * 7u + 1u) % N));
  o[WT_SHFL_VOID] = forgotten.shfl(i, N - 1u);

  o[WT_ANY] = tile.any(u % 97u == 0);
  o[WT_ANY0] = tile.any(0);
  o[WT_ALL] = tile.all(r % 3u != 2u || (r / N) % 2u == 0);
  o[WT_ALL1] = forgotten.all(1);

  o[WT_SUM] = cg::reduce(tile, i, cg::plus<int>());
  o[WT_MIN] = cg::reduce(tile, i, cg::less<int>());
  o[WT_MAX] = cg::reduce(tile, i, cg::greater<int>());
  o[WT_AND] = cg::reduce(tile, u, cg::bit_and<unsigned>());
  o[WT_OR] = cg::reduce(tile, u, cg::bit_or<unsigned>());
  o[WT_XOR] = cg::reduce(forgotten, u, cg::bit_xor<unsigned>());
  o[WT_FSUM] = wide_float_bits(cg::reduce(tile, f, cg::plus<float>()));
  o[WT_DSUM] = wide_double_bits(cg::reduce(tile, d, cg::plus<double>()));
  o[WT_LMAX] = cg::reduce(tile, i, [](int a, int b) { return a > b ? a : b; });
  o[WT_LLSUM] = cg::reduce(tile, (long long)u * 1000003LL,
                          cg::plus<long long>());

  o[WT_ISCAN] = cg::inclusive_scan(tile, i);
  o[WT_ESCAN] = cg::exclusive_scan(tile, i);
  o[WT_FISCAN] = wide_float_bits(cg::inclusive_scan(tile, f));
  o[WT_FESCAN] = wide_float_bits(cg::exclusive_scan(forgotten, f));
  o[WT_EGREATER] = cg::exclusive_scan(tile, u, cg::greater<unsigned>());
  o[WT_IMIN] = cg::inclusive_scan(tile, i, cg::less<int>());
  o[WT_DISCAN] = wide_double_bits(cg::inclusive_scan(tile, d));

  tile.sync();
  cg::sync(tile);
  forgotten.sync();

  cg::thread_block_tile<32, cg::thread_block_tile<N, cg::thread_block>> sub =
      cg::tiled_partition<32>(tile);
  o[WT_SUB_RANK] = sub.thread_rank();
  o[WT_SUB_MRANK] = sub.meta_group_rank();
  o[WT_SUB_MSIZE] = sub.meta_group_size();
  o[WT_SUB_SUM] = cg::reduce(sub, i, cg::plus<int>());
  if constexpr (N >= 128) {
    auto half = cg::tiled_partition<N / 2>(tile);
    o[WT_HALF_RANK] = half.thread_rank();
    o[WT_HALF_MRANK] = half.meta_group_rank();
    o[WT_HALF_MSIZE] = half.meta_group_size();
    o[WT_HALF_SUM] = cg::reduce(half, i, cg::plus<int>());
  } else {
    o[WT_HALF_RANK] = o[WT_HALF_MRANK] = o[WT_HALF_MSIZE] = o[WT_HALF_SUM] = -1;
  }

  o[WT_FN_RANK] = cg::thread_rank(tile);
  o[WT_FN_SIZE] = cg::group_size(tile);
  cg::reduce_store_async(tile, &stored[tile.meta_group_rank()], i,
                         cg::plus<int>());
  unsigned base = r - tile.thread_rank();
  cg::memcpy_async(tile, copied + base, src + base, sizeof(int) * N);
  cg::wait(tile);
  o[WT_STORE] = stored[tile.meta_group_rank()];
  o[WT_COPY] = copied[base + (tile.thread_rank() + 1u) % N];
}

/* One kernel per tile size (written out: cuemu-cc finds kernels in the
 * source text, not in macro expansions). */
extern "C" __global__ void groups_wide_64(long long *out, const int *src,
                                          int srcbase, int use_scratch) {
  wide_ops<64>(out, src, srcbase, use_scratch);
}
extern "C" __global__ void groups_wide_128(long long *out, const int *src,
                                           int srcbase, int use_scratch) {
  wide_ops<128>(out, src, srcbase, use_scratch);
}
extern "C" __global__ void groups_wide_256(long long *out, const int *src,
                                           int srcbase, int use_scratch) {
  wide_ops<256>(out, src, srcbase, use_scratch);
}
extern "C" __global__ void groups_wide_512(long long *out, const int *src,
                                           int srcbase, int use_scratch) {
  wide_ops<512>(out, src, srcbase, use_scratch);
}
extern "C" __global__ void groups_wide_1024(long long *out, const int *src,
                                            int srcbase, int use_scratch) {
  wide_ops<1024>(out, src, srcbase, use_scratch);
}

/* ---- Misuse ---------------------------------------------------------------- */

/* Thread 5 waits at __syncthreads while the rest of its 64-thread tile
 * waits at the tile's barrier. */
extern "C" __global__ void wide_misuse_syncthreads(int *out) {
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cg::this_thread_block());
  if (threadIdx.x == 5)
    __syncthreads(); /* WIDE-SYNCTHREADS */
  else
    tile.sync(); /* WIDE-SYNC */
  out[threadIdx.x] = 1;
}

/* The warps of a 128-thread tile name different source ranks. */
extern "C" __global__ void wide_misuse_shfl_warps(int *out) {
  auto tile = cg::tiled_partition<128>(cg::this_thread_block());
  out[threadIdx.x] = tile.shfl((int)threadIdx.x, tile.thread_rank() / 32u); /* WIDE-SHFL-WARPS */
}

/* The threads of one warp name different source ranks. */
extern "C" __global__ void wide_misuse_shfl_lanes(int *out) {
  auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  out[threadIdx.x] = tile.shfl((int)threadIdx.x, tile.thread_rank() % 2u); /* WIDE-SHFL-LANES */
}

/* A source rank outside the tile. */
extern "C" __global__ void wide_misuse_shfl_range(int *out) {
  auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  out[threadIdx.x] = tile.shfl((int)threadIdx.x, 64u); /* WIDE-SHFL-RANGE */
}

/* A block that is not a whole number of 64-thread tiles. */
extern "C" __global__ void wide_misuse_block_size(int *out) {
  auto tile = cg::tiled_partition<64>(cg::this_thread_block()); /* WIDE-BLOCK */
  out[threadIdx.x] = (int)tile.thread_rank();
}

/* block_tile_memory for fewer threads than the block has. */
extern "C" __global__ void wide_misuse_scratch(int *out) {
  __shared__ cg::block_tile_memory<64> scratch;
  cg::thread_block block = cg::this_thread_block(scratch); /* WIDE-SCRATCH */
  out[threadIdx.x] = (int)block.thread_rank();
}

/* The second warp of a 64-thread tile returns before the tile reduces. */
extern "C" __global__ void wide_misuse_exited_warp(int *out) {
  auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  if (tile.thread_rank() >= 32)
    return;
  out[threadIdx.x] = cg::reduce(tile, 1, cg::plus<int>()); /* WIDE-EXITED */
}

/* One warp of a 64-thread tile syncs while the other reduces. */
extern "C" __global__ void wide_misuse_diverge(int *out) {
  auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  if (tile.thread_rank() < 32)
    tile.sync();
  else
    out[threadIdx.x] = cg::reduce(tile, 1, cg::plus<int>()); /* WIDE-DIVERGE */
}

/* A lane of a 64-thread tile returns before the tile votes: legal (CUDA's
 * rule for collectives). */
extern "C" __global__ void wide_misuse_exited_lane(int *out) {
  auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  if (tile.thread_rank() == 40)
    return;
  out[threadIdx.x] = tile.any(1); /* WIDE-EXITED-LANE */
}

/* ---- Nested tiles ------------------------------------------------------------ */

/* Tiles of two widths that start at the same thread: each thread marks
 * itself, syncs its 64-thread tile (the first one late, so that the second
 * one already waits at the 128-thread tile's barrier), then the 128-thread
 * tile, and counts the marks of the 128-thread tile it then sees; every
 * thread must see them all. Then the same with the syncs the other way
 * round. */
extern "C" __global__ void wide_nested_sync(int *out) {
  __shared__ int mark[1024];
  cg::thread_block block = cg::this_thread_block();
  auto t128 = cg::tiled_partition<128>(block);
  auto t64 = cg::tiled_partition<64>(t128);
  unsigned r = block.thread_rank(), base = r - t128.thread_rank();
  mark[r] = 1;
  if (t128.thread_rank() < 64)
    for (int k = 0; k < 4; ++k)
      __nanosleep(100); /* the first 64-thread tile comes late */
  t64.sync();
  t128.sync();
  int seen = 0;
  for (unsigned k = 0; k < 128; ++k)
    seen += mark[base + k];
  t128.sync();
  mark[r] = 2;
  t128.sync();
  t64.sync();
  for (unsigned k = 0; k < 128; ++k)
    seen += mark[base + k];
  out[r] = seen;
}
