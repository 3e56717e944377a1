/*
 * groups_tiles.cu: every operation of thread_block_tile<N> (N = 1 ... 32)
 * and of the dynamic tiled_partition(parent, n), for any block shape. Each
 * thread writes its results to its row of `out` (see groups_layout.h);
 * tests/check_groups.c computes the expected rows on the host.
 */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstring>

#include "groups_layout.h"

namespace cg = cooperative_groups;

struct pair16 {
  double a;
  long long b;
};

__device__ static long long float_bits(float f) {
  unsigned u;
  memcpy(&u, &f, sizeof u);
  return (long long)u;
}

__device__ static long long double_bits(double d) {
  long long u;
  memcpy(&u, &d, sizeof u);
  return u;
}

template <unsigned N>
__device__ void tile_ops(long long *out, int delta, unsigned xmask,
                         int srcbase) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<N, cg::thread_block> tile =
      cg::tiled_partition<N>(block);
  unsigned r = (unsigned)block.thread_rank();
  long long *o = out + (size_t)r * TILE_SLOTS;
  unsigned u = groups_mix(r);
  int i = (int)(u % 1000u) - 500;
  float f = (float)(u % 100000u) / 7.0f;
  double d = (double)u / 3.0;

  o[T_RANK] = tile.thread_rank();
  o[T_NUM] = tile.num_threads();
  o[T_SIZE] = tile.size();
  o[T_MRANK] = tile.meta_group_rank();
  o[T_MSIZE] = tile.meta_group_size();

  o[T_SHFL] = tile.shfl(u, (int)((r * 7u + (unsigned)srcbase) % N));
  o[T_SHFL_DOWN] = tile.shfl_down(u, (unsigned)delta);
  o[T_SHFL_UP] = tile.shfl_up(u, (unsigned)delta);
  o[T_SHFL_XOR] = tile.shfl_xor(u, xmask);
  o[T_SHFL_DOWN_D] = double_bits(tile.shfl_down(d, 1u));

  o[T_BALLOT] = tile.ballot(u & 1u);
  o[T_ANY] = tile.any(u % 5u == 0);
  o[T_ALL] = tile.all(r % 3u != 2u || (r / N) % 2u == 0);
  o[T_MATCH_ANY] = tile.match_any(u % 3u);
  int pred = -1;
  o[T_MATCH_ALL] = tile.match_all((r / N) % 2u ? r : 7u, pred);
  o[T_MATCH_ALL_PRED] = pred;

  o[T_SUM] = cg::reduce(tile, i, cg::plus<int>());
  o[T_MIN] = cg::reduce(tile, i, cg::less<int>());
  o[T_MAX] = cg::reduce(tile, i, cg::greater<int>());
  o[T_AND] = cg::reduce(tile, u, cg::bit_and<unsigned>());
  o[T_OR] = cg::reduce(tile, u, cg::bit_or<unsigned>());
  o[T_XOR] = cg::reduce(tile, u, cg::bit_xor<unsigned>());
  o[T_FSUM] = float_bits(cg::reduce(tile, f, cg::plus<float>()));
  o[T_DSUM] = double_bits(cg::reduce(tile, d, cg::plus<double>()));
  o[T_LMAX] = cg::reduce(tile, i, [](int a, int b) { return a > b ? a : b; });

  o[T_ISCAN] = cg::inclusive_scan(tile, i);
  o[T_ESCAN] = cg::exclusive_scan(tile, i);
  o[T_FISCAN] = float_bits(cg::inclusive_scan(tile, f));
  o[T_EGREATER] = cg::exclusive_scan(tile, u, cg::greater<unsigned>());
  o[T_IMIN] = cg::inclusive_scan(tile, i, cg::less<int>());
  o[T_FESCAN] = float_bits(cg::exclusive_scan(tile, f));

  cg::thread_block_tile<N> forgotten = tile;
  o[T_VOID_MRANK] = forgotten.meta_group_rank();
  o[T_VOID_MSIZE] = forgotten.meta_group_size();
  cg::thread_group generic = forgotten;
  o[T_GROUP_RANK] = (long long)generic.thread_rank();
  o[T_GROUP_SIZE] = (long long)generic.size();
  generic.sync();
  tile.sync();
  cg::sync(tile);
  forgotten.sync();

  if constexpr (N >= 2) {
    auto sub = cg::tiled_partition<N / 2>(tile);
    o[T_SUB_RANK] = sub.thread_rank();
    o[T_SUB_MRANK] = sub.meta_group_rank();
    o[T_SUB_MSIZE] = sub.meta_group_size();
    o[T_SUB_SUM] = cg::reduce(sub, i, cg::plus<int>());
  } else {
    o[T_SUB_RANK] = o[T_SUB_MRANK] = o[T_SUB_MSIZE] = o[T_SUB_SUM] = -1;
  }

  cg::thread_group dyn = cg::tiled_partition(block, N);
  o[T_DYN_RANK] = (long long)dyn.thread_rank();
  o[T_DYN_SIZE] = (long long)dyn.size();
  dyn.sync();
  cg::thread_group dyn2 = cg::tiled_partition(dyn, N >= 2 ? N / 2 : 1);
  o[T_DYN2_RANK] = (long long)dyn2.thread_rank();
  o[T_DYN2_SIZE] = (long long)dyn2.size();
  dyn2.sync();

  o[T_FN_RANK] = cg::thread_rank(tile);
  o[T_FN_SIZE] = cg::group_size(tile);
  pair16 s = {d, (long long)u * 3};
  pair16 t = tile.shfl(s, (int)((tile.thread_rank() + 1u) % N));
  o[T_STRUCT_A] = double_bits(t.a);
  o[T_STRUCT_B] = t.b;
}

/* One kernel per tile size (written out: cuemu-cc finds kernels in the
 * source text, not in macro expansions). */
extern "C" __global__ void groups_tile_1(long long *out, int delta,
                                        unsigned xmask, int srcbase) {
  tile_ops<1>(out, delta, xmask, srcbase);
}
extern "C" __global__ void groups_tile_2(long long *out, int delta,
                                        unsigned xmask, int srcbase) {
  tile_ops<2>(out, delta, xmask, srcbase);
}
extern "C" __global__ void groups_tile_4(long long *out, int delta,
                                        unsigned xmask, int srcbase) {
  tile_ops<4>(out, delta, xmask, srcbase);
}
extern "C" __global__ void groups_tile_8(long long *out, int delta,
                                        unsigned xmask, int srcbase) {
  tile_ops<8>(out, delta, xmask, srcbase);
}
extern "C" __global__ void groups_tile_16(long long *out, int delta,
                                        unsigned xmask, int srcbase) {
  tile_ops<16>(out, delta, xmask, srcbase);
}
extern "C" __global__ void groups_tile_32(long long *out, int delta,
                                        unsigned xmask, int srcbase) {
  tile_ops<32>(out, delta, xmask, srcbase);
}
