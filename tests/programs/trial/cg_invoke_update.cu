// Cooperative groups of CUDA 12 that public code uses for warp-aggregated
// work: cg::invoke_one and cg::invoke_one_broadcast (one member takes a
// ticket for its tile or its coalesced group and shares it),
// cg::reduce_update_async / reduce_store_async into a cuda::atomic_ref
// (plus, greater and an operator of the user's, which takes the
// compare-and-swap path), and cg::inclusive_scan_update /
// exclusive_scan_update, which allocate slots in a global counter for a
// stream compaction. The checks hold whatever order the tiles run in.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>
#include <algorithm>
#include <cstdio>
#include <vector>

#include "../check.cuh"

namespace cg = cooperative_groups;

constexpr int kBlocks = 6;
constexpr int kThreads = 96;
constexpr int kN = kBlocks * kThreads;

struct Counters {
  int calls;          // invoke_one calls
  int tickets;        // invoke_one_broadcast tickets
  int odd_calls;      // calls from the coalesced groups of odd lanes
  int sum;            // reduce_update_async, plus
  int max;            // reduce_update_async, greater
  unsigned xor_all;   // reduce_update_async, a user's operator
  int stored;         // reduce_store_async of the last tile
  int slots_inc;      // inclusive_scan_update, plus
  int slots_exc;      // exclusive_scan_update, plus
  int best;           // exclusive_scan_update, greater
};

struct XorOp {
  __device__ unsigned operator()(unsigned a, unsigned b) const { return a ^ b; }
};

__device__ int value_of(int i) { return (i * 7 + 3) % 5; }

__global__ void tickets(Counters *c, int *ticket_of, int *odd_leader) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(block);
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  cg::invoke_one(tile, [&] { atomicAdd(&c->calls, 1); });
  ticket_of[gid] = cg::invoke_one_broadcast(
      tile, [&](int step) { return atomicAdd(&c->tickets, step); }, 1);
  if (threadIdx.x % 2) {
    cg::coalesced_group odd = cg::coalesced_threads();
    cg::invoke_one(odd, [&] { atomicAdd(&c->odd_calls, 1); });
    odd_leader[gid] = cg::invoke_one_broadcast(odd, [] { return (int)threadIdx.x; });
  } else {
    odd_leader[gid] = -1;
  }
}

__global__ void updates(Counters *c, int *inc, int *exc, int *best) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = value_of(gid);
  cuda::atomic_ref<int, cuda::thread_scope_device> sum(c->sum);
  cuda::atomic_ref<int, cuda::thread_scope_device> mx(c->max);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> x(c->xor_all);
  cg::reduce_update_async(tile, sum, v, cg::plus<int>());
  cg::reduce_update_async(tile, mx, gid, cg::greater<int>());
  cg::reduce_update_async(tile, x, (unsigned)gid * 2654435761u, XorOp());
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x >= blockDim.x - 32) {
    cuda::atomic_ref<int, cuda::thread_scope_device> st(c->stored);
    cg::reduce_store_async(tile, st, v, cg::plus<int>());
  }
  cuda::atomic_ref<int, cuda::thread_scope_device> si(c->slots_inc);
  cuda::atomic_ref<int, cuda::thread_scope_device> se(c->slots_exc);
  inc[gid] = cg::inclusive_scan_update(tile, si, v);
  exc[gid] = cg::exclusive_scan_update(tile, se, v, cg::plus<int>());
  cuda::atomic_ref<int, cuda::thread_scope_device> b(c->best);
  best[gid] = cg::exclusive_scan_update(tile, b, v + 10 * (gid % 7), cg::greater<int>());
}

static int host_value(int i) { return (i * 7 + 3) % 5; }

// The slots [start, start + v) of all threads tile [0, total) exactly.
static bool tiles_exactly(const std::vector<int> &start, int total) {
  std::vector<int> seen(total, 0);
  for (int i = 0; i < kN; ++i)
    for (int k = 0; k < host_value(i); ++k) {
      int s = start[i] + k;
      if (s < 0 || s >= total || seen[s]++)
        return false;
    }
  return true;
}

int main() {
  Counters *c;
  int *ticket_of, *odd_leader, *inc, *exc, *best;
  cudaMallocManaged(&c, sizeof(Counters));
  cudaMallocManaged(&ticket_of, kN * sizeof(int));
  cudaMallocManaged(&odd_leader, kN * sizeof(int));
  cudaMallocManaged(&inc, kN * sizeof(int));
  cudaMallocManaged(&exc, kN * sizeof(int));
  cudaMallocManaged(&best, kN * sizeof(int));
  *c = Counters{};
  c->max = -1;

  tickets<<<kBlocks, kThreads>>>(c, ticket_of, odd_leader);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  const int tiles16 = kN / 16;
  CHECK(c->calls == tiles16);
  CHECK(c->tickets == tiles16);
  CHECK(c->odd_calls == kN / 32);
  std::vector<int> owner(tiles16, -1);
  for (int i = 0; i < kN; ++i) {
    int t = ticket_of[i];
    CHECK(t >= 0 && t < tiles16);
    if (t < 0 || t >= tiles16)
      continue;
    // Every member of a tile gets its tile's ticket, no other tile's.
    if (owner[t] == -1)
      owner[t] = i / 16;
    CHECK(owner[t] == i / 16);
    int lane = i % kThreads % 32;
    if (lane % 2) {
      // The leader is one of the odd lanes of the caller's warp.
      int lead = odd_leader[i];
      CHECK(lead % 2 == 1 && lead / 32 == (i % kThreads) / 32);
    }
  }

  updates<<<kBlocks, kThreads>>>(c, inc, exc, best);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int total = 0, last_tile = 0;
  unsigned x = 0;
  for (int i = 0; i < kN; ++i) {
    total += host_value(i);
    x ^= (unsigned)i * 2654435761u;
    if (i >= kN - 32)
      last_tile += host_value(i);
  }
  CHECK(c->sum == total);
  CHECK(c->max == kN - 1);
  CHECK(c->xor_all == x);
  CHECK(c->stored == last_tile);
  CHECK(c->slots_inc == total);
  CHECK(c->slots_exc == total);
  std::vector<int> from_inc(kN), from_exc(kN);
  for (int i = 0; i < kN; ++i) {
    from_inc[i] = inc[i] - host_value(i);
    from_exc[i] = exc[i];
  }
  CHECK(tiles_exactly(from_inc, total));
  CHECK(tiles_exactly(from_exc, total));
  // greater: each thread sees the maximum of the atomic's old value and its
  // tile's values before it; the atomic ends with the maximum of all.
  int want_best = 0;
  for (int i = 0; i < kN; ++i)
    want_best = std::max(want_best, host_value(i) + 10 * (i % 7));
  CHECK(c->best == want_best);
  for (int i = 0; i < kN; ++i) {
    int before = 0;
    for (int j = i - i % 32; j < i; ++j)
      before = std::max(before, host_value(j) + 10 * (j % 7));
    CHECK(best[i] >= before && best[i] <= want_best);
  }

  cudaFree(c);
  cudaFree(ticket_of);
  cudaFree(odd_leader);
  cudaFree(inc);
  cudaFree(exc);
  cudaFree(best);
  return finish();
}
