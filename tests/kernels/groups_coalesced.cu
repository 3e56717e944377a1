/*
 * groups_coalesced.cu: coalesced_threads() in both sides of a divergent
 * branch (the lanes of patterns[blockIdx.x] take one side, the others the
 * other), every coalesced_group operation, cg::reduce and the scans over
 * it, and its tiled_partition, labeled_partition and binary_partition.
 * Each thread writes its row of `out` (see groups_layout.h);
 * tests/check_groups.c computes the expected rows on the host.
 */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstring>

#include "groups_layout.h"

namespace cg = cooperative_groups;

__device__ static long long bits_f(float f) {
  unsigned u;
  memcpy(&u, &f, sizeof u);
  return (long long)u;
}

__device__ static long long bits_d(double d) {
  long long u;
  memcpy(&u, &d, sizeof u);
  return u;
}

__device__ static void coalesced_ops(const cg::coalesced_group &g,
                                     long long *o, unsigned r) {
  unsigned u = groups_mix(r);
  int i = (int)(u % 1000u) - 500;
  float f = (float)(u % 100000u) / 7.0f;
  double d = (double)u / 3.0;
  unsigned lane = r % 32u;

  o[C_SIZE] = g.size();
  o[C_RANK] = g.thread_rank();
  o[C_MRANK] = g.meta_group_rank();
  o[C_MSIZE] = g.meta_group_size();
  o[C_SHFL] = g.shfl(u, (int)((g.thread_rank() * 5u + 1u) % g.size()));
  o[C_SHFL0] = g.shfl(u, 0);
  o[C_SHFL_DOWN] = g.shfl_down(u, 2u);
  o[C_SHFL_UP] = g.shfl_up(u, 3);
  o[C_BALLOT] = g.ballot(u & 1u);
  o[C_ANY] = g.any(u % 5u == 0);
  o[C_ALL] = g.all(i > -400);
  o[C_MATCH_ANY] = g.match_any(u % 3u);
  int pred = -1;
  o[C_MATCH_ALL] = g.match_all(lane / 8u, pred);
  o[C_MATCH_ALL_PRED] = pred;

  o[C_SUM] = cg::reduce(g, i, cg::plus<int>());
  o[C_MIN] = cg::reduce(g, i, cg::less<int>());
  o[C_MAX] = cg::reduce(g, i, cg::greater<int>());
  o[C_XOR] = cg::reduce(g, u, cg::bit_xor<unsigned>());
  o[C_FSUM] = bits_f(cg::reduce(g, f, cg::plus<float>()));
  o[C_DSUM] = bits_d(cg::reduce(g, d, cg::plus<double>()));
  o[C_ISCAN] = cg::inclusive_scan(g, i);
  o[C_ESCAN] = cg::exclusive_scan(g, i);
  o[C_FESCAN] = bits_f(cg::exclusive_scan(g, f));
  o[C_IMIN] = cg::inclusive_scan(g, i, cg::less<int>());

  cg::coalesced_group tile = cg::tiled_partition(g, 4);
  o[C_TILE_SIZE] = tile.size();
  o[C_TILE_RANK] = tile.thread_rank();
  o[C_TILE_MRANK] = tile.meta_group_rank();
  o[C_TILE_MSIZE] = tile.meta_group_size();
  o[C_TILE_SUM] = cg::reduce(tile, i, cg::plus<int>());

  cg::coalesced_group label = cg::labeled_partition(g, u % 3u);
  o[C_LABEL_SIZE] = label.size();
  o[C_LABEL_RANK] = label.thread_rank();
  o[C_LABEL_MRANK] = label.meta_group_rank();
  o[C_LABEL_MSIZE] = label.meta_group_size();
  o[C_LABEL_SUM] = cg::reduce(label, i, cg::plus<int>());

  cg::coalesced_group half = cg::binary_partition(g, (u & 1u) != 0);
  o[C_BIN_SIZE] = half.size();
  o[C_BIN_RANK] = half.thread_rank();
  o[C_BIN_MRANK] = half.meta_group_rank();
  o[C_BIN_MSIZE] = half.meta_group_size();
  half.sync();
  label.sync();
  tile.sync();
  g.sync();
  o[C_ACTIVE] = g.ballot(1);
}

extern "C" __global__ void groups_coalesced(long long *out,
                                            const unsigned *patterns) {
  cg::thread_block block = cg::this_thread_block();
  unsigned r = (unsigned)block.thread_rank();
  long long *o =
      out + ((size_t)blockIdx.x * block.size() + r) * COALESCED_SLOTS;
  if (patterns[blockIdx.x] >> (r % 32u) & 1u) {
    cg::coalesced_group g = cg::coalesced_threads();
    coalesced_ops(g, o, r);
  } else {
    cg::coalesced_group g = cg::coalesced_threads();
    coalesced_ops(g, o, r);
  }
}
