// bench_collectives.cu: the warp collectives that bench/run_bench.sh
// measures beside the shuffle tree of bench_warp.cu (benchmark [8]), and the
// warp-aggregated atomic pattern.
//
// Every kernel takes (in, out, bins) and runs over 256-thread blocks, one
// element of `in` per thread; bench_driver.c's "kernels" command works out
// the expected `out` (and `bins`) on the host. Each thread does
// BENCH_COLLECTIVE_OPS (5) collectives, except bench_coll_aggregated (two:
// a match and a shuffle, plus the leader's atomicAdd).
//
// They are ordinary CUDA and also compile with nvcc
// (nvcc -std=c++17 -arch=sm_90 -c bench_collectives.cu -o /dev/null).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

#define BENCH_FULL 0xffffffffu

// The shuffle tree of bench_warp.cu on unsigned values: the reference the
// others are compared with in the same process.
extern "C" __global__ void bench_coll_shfl(const unsigned *in, unsigned *out,
                                           unsigned *) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i];
  for (unsigned offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(BENCH_FULL, v, offset);
  out[i] = v;
}

// 5 ballots of the low bits of each lane's value.
extern "C" __global__ void bench_coll_ballot(const unsigned *in, unsigned *out,
                                             unsigned *) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i], r = 0;
  for (unsigned k = 0; k < 5; ++k)
    r += __popc(__ballot_sync(BENCH_FULL, (v >> k) & 1u));
  out[i] = r;
}

// 5 matches, each on the value modulo 2..6: the lanes with the same key.
extern "C" __global__ void bench_coll_match(const unsigned *in, unsigned *out,
                                            unsigned *) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i], r = 0;
  for (unsigned k = 0; k < 5; ++k)
    r += __popc(__match_any_sync(BENCH_FULL, v % (k + 2u)));
  out[i] = r;
}

// 5 warp sums by redux.sync.
extern "C" __global__ void bench_coll_reduce(const unsigned *in, unsigned *out,
                                             unsigned *) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i], r = 0;
  for (unsigned k = 0; k < 5; ++k)
    r += __reduce_add_sync(BENCH_FULL, v + k);
  out[i] = r;
}

// The shuffle tree of bench_warp.cu through a cooperative-groups tile.
extern "C" __global__ void bench_coll_tile_shfl(const unsigned *in,
                                                unsigned *out, unsigned *) {
  cg::thread_block_tile<32> tile =
      cg::tiled_partition<32>(cg::this_thread_block());
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i];
  for (unsigned offset = 16; offset > 0; offset >>= 1)
    v += tile.shfl_down(v, offset);
  out[i] = v;
}

// 5 tile sums by cg::reduce.
extern "C" __global__ void bench_coll_tile_reduce(const unsigned *in,
                                                  unsigned *out, unsigned *) {
  cg::thread_block_tile<32> tile =
      cg::tiled_partition<32>(cg::this_thread_block());
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i], r = 0;
  for (unsigned k = 0; k < 5; ++k)
    r += cg::reduce(tile, v + k, cg::plus<unsigned>());
  out[i] = r;
}

// Warp-aggregated atomics: the lanes with the same key (one of 8 bins)
// find each other with __match_any_sync, their leader reserves room for all
// of them with one atomicAdd, and __shfl_sync hands the leader's old value
// to the others, which each take the next free slot of the bin.
extern "C" __global__ void bench_coll_aggregated(const unsigned *in,
                                                 unsigned *out,
                                                 unsigned *bins) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, key = in[i] % 8u;
  unsigned lane = threadIdx.x % 32u;
  unsigned peers = __match_any_sync(BENCH_FULL, key);
  int leader = __ffs(peers) - 1;
  unsigned base = 0;
  if (lane == (unsigned)leader)
    base = atomicAdd(&bins[key], __popc(peers));
  base = __shfl_sync(peers, base, leader);
  out[i] = base + __popc(peers & ((1u << lane) - 1u));
}
