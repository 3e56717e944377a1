/*
 * Synchronisation patterns of public CUDA code built on libcu++ and cooperative groups,
 * each checked against a host computation:
 *  - a hash table whose slots are 8-byte structs claimed with cuda::atomic_ref's
 *    compare_exchange_strong (a row-deduplication table);
 *  - an insert-if-absent map whose slots go EMPTY -> LOCKED -> key, with release stores,
 *    acquire loads and __nanosleep spins on a slot another thread holds;
 *  - a warp-specialised two-stage pipeline (producer, compute and consumer warps) whose
 *    cuda::pipeline_shared_state is built by placement new in raw __shared__ bytes;
 *  - per-warp cooperative_groups::memcpy_async of two batches, wait_prior<1>, then
 *    cg::reduce with cuda::std::plus and cg::greater, and cg::exclusive_scan.
 * Built without optimisation to keep the suite's compile time down (it runs in milliseconds).
 * CUEMU_OPTIONS: -Xcompiler -O0
 */
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>
#include <cuda/pipeline>
#include <cuda/std/functional>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <new>
#include <set>
#include <vector>

#include "../check.cuh"

namespace cg = cooperative_groups;

/* 1. Slots of {hash, row} claimed by compare-and-swap of the whole 8-byte struct. */
struct alignas(8) slot_entry {
  std::uint32_t hash;
  int row;
};

__global__ void dedup_rows(slot_entry *slots, unsigned capacity, const unsigned *hashes,
                           int rows, int *representative) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  const unsigned hash = hashes[row];
  const slot_entry mine{hash, row};
  unsigned slot = hash & (capacity - 1);
  for (unsigned step = 0; step < capacity; ++step) {
    cuda::atomic_ref<slot_entry, cuda::thread_scope_device> ref{slots[slot]};
    slot_entry seen{0xffffffffu, -1};
    if (ref.compare_exchange_strong(seen, mine, cuda::memory_order_relaxed)) {
      representative[row] = row;
      return;
    }
    if (seen.hash == hash) {
      representative[row] = seen.row;
      return;
    }
    slot = (hash + step + 1) & (capacity - 1);
  }
  representative[row] = -2;
}

/* 2. Keys 0 (empty) and ~0 (locked); the value is published before the key. */
constexpr unsigned long long kEmpty = 0, kLocked = ~0ull;

struct map_view {
  unsigned long long *keys;
  unsigned *values;
  unsigned capacity;

  __device__ unsigned first_slot(unsigned long long key) const {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return static_cast<unsigned>(key % capacity);
  }

  /* Returns the value stored for key (this thread's or an earlier one's). */
  __device__ unsigned insert_if_absent(unsigned long long key, unsigned value, bool *won) const {
    unsigned slot = first_slot(key);
    for (unsigned i = 0; i < capacity; ++i, slot = (slot + 1) % capacity) {
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> k(keys[slot]);
      for (;;) {
        unsigned long long cur = k.load(cuda::memory_order_acquire);
        if (cur == key) {
          *won = false;
          return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(values[slot])
              .load(cuda::memory_order_acquire);
        }
        if (cur == kLocked) {
          __nanosleep(32);
          continue;
        }
        if (cur != kEmpty)
          break;
        unsigned long long expected = kEmpty;
        if (k.compare_exchange_strong(expected, kLocked, cuda::memory_order_acq_rel,
                                      cuda::memory_order_acquire)) {
          cuda::atomic_ref<unsigned, cuda::thread_scope_device>(values[slot])
              .store(value, cuda::memory_order_release);
          k.store(key, cuda::memory_order_release);
          *won = true;
          return value;
        }
      }
    }
    *won = false;
    return 0;
  }
};

__global__ void insert_keys(map_view map, int n, int distinct, unsigned *winners,
                            unsigned *wrong) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int k = i % distinct;
  bool won = false;
  unsigned got = map.insert_if_absent(1 + 2654435761ull * k, 7u + k, &won);
  if (won)
    atomicAdd(winners, 1u);
  if (got != 7u + k)
    atomicAdd(wrong, 1u);
}

/* 3. Warp 0 loads, warp 1 computes, warp 2 stores; two stages of a block-wide pipeline. */
constexpr int kTile = 256, kStages = 2;

__global__ void warp_roles(const float *a, const float *b, float *c, int tiles) {
  auto block = cg::this_thread_block();
  extern __shared__ float stages[]; /* a, b and c, kStages tiles each */
  float *sa = stages, *sb = sa + kStages * kTile, *sc = sb + kStages * kTile;
  using state_t = cuda::pipeline_shared_state<cuda::thread_scope_block, kStages>;
  __shared__ alignas(state_t) unsigned char state_bytes[sizeof(state_t)];
  state_t *state = reinterpret_cast<state_t *>(state_bytes);
  if (threadIdx.x == 0)
    new (state) state_t();
  block.sync();
  auto pipe = cuda::make_pipeline(block, state);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

  auto load = [&](int tile, int stage) {
    pipe.producer_acquire();
    if (warp == 0)
      for (int i = lane; i < kTile; i += 32) {
        sa[stage * kTile + i] = a[tile * kTile + i];
        sb[stage * kTile + i] = b[tile * kTile + i];
      }
    pipe.producer_commit();
  };
  for (int s = 0; s < kStages && blockIdx.x + s * gridDim.x < tiles; ++s)
    load(blockIdx.x + s * gridDim.x, s);
  block.sync();
  int iter = 0;
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x, ++iter) {
    const int stage = iter % kStages;
    pipe.consumer_wait();
    block.sync();
    if (warp == 1)
      for (int i = lane; i < kTile; i += 32)
        sc[stage * kTile + i] = sqrtf(sa[stage * kTile + i] * sa[stage * kTile + i] +
                                      sb[stage * kTile + i] * sb[stage * kTile + i]);
    block.sync();
    if (warp == 2)
      for (int i = lane; i < kTile; i += 32)
        c[tile * kTile + i] = sc[stage * kTile + i];
    block.sync();
    pipe.consumer_release();
    block.sync();
    const int next = tile + kStages * gridDim.x;
    if (next < tiles)
      load(next, stage);
    block.sync();
  }
}

/* 4. Each warp copies two batches of 64 ints into shared memory and reduces them. */
constexpr int kBatch = 64;

__global__ void warp_batches(const int *in, int *totals, int *scans) {
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  __shared__ int buf[2][4][kBatch];
  const int w = warp.meta_group_rank();
  const int group = blockIdx.x * 4 + w;
  const int *src = in + group * kBatch * 2;
  cg::memcpy_async(warp, buf[0][w], src, sizeof(int) * kBatch);
  cg::memcpy_async(warp, buf[1][w], src + kBatch, sizeof(int) * kBatch);
  cg::wait_prior<1>(warp);
  const int r = warp.thread_rank();
  const int first = buf[0][w][r] + buf[0][w][r + 32];
  cg::wait(warp);
  const int second = buf[1][w][r] + buf[1][w][r + 32];
  const int sum = cg::reduce(warp, first + second, cuda::std::plus<int>());
  const int top = cg::reduce(warp, first, cg::greater<int>());
  scans[group * 32 + r] = cg::exclusive_scan(warp, first, cg::plus<int>());
  if (r == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_device>(totals[0]).fetch_add(sum);
    cuda::atomic_ref<int, cuda::thread_scope_device>(totals[1]).fetch_max(top);
  }
}

static void check_dedup() {
  const int rows = 3000, groups = 401;
  const unsigned capacity = 1024;
  std::vector<unsigned> hashes(rows);
  for (int i = 0; i < rows; i++)
    hashes[i] = static_cast<unsigned>((i * 7919) % groups) * 2654435761u;
  unsigned *d_hashes;
  slot_entry *d_slots;
  int *d_rep;
  cudaMalloc(&d_hashes, rows * sizeof(unsigned));
  cudaMalloc(&d_slots, capacity * sizeof(slot_entry));
  cudaMalloc(&d_rep, rows * sizeof(int));
  cudaMemcpy(d_hashes, hashes.data(), rows * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemset(d_slots, 0xff, capacity * sizeof(slot_entry));
  dedup_rows<<<(rows + 127) / 128, 128>>>(d_slots, capacity, d_hashes, rows, d_rep);
  std::vector<int> rep(rows);
  CHECK(cudaMemcpy(rep.data(), d_rep, rows * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  /* Every row maps to one row of its own hash, the same for the whole group. */
  std::map<unsigned, int> chosen;
  int wrong = 0;
  for (int i = 0; i < rows; i++) {
    if (rep[i] < 0 || hashes[rep[i]] != hashes[i]) {
      wrong++;
      continue;
    }
    auto it = chosen.emplace(hashes[i], rep[i]).first;
    if (it->second != rep[i])
      wrong++;
  }
  CHECK(wrong == 0);
  CHECK(static_cast<int>(chosen.size()) == groups);
  cudaFree(d_hashes);
  cudaFree(d_slots);
  cudaFree(d_rep);
}

static void check_map() {
  const unsigned capacity = 4096;
  const int n = 20000, distinct = 997;
  map_view map{nullptr, nullptr, capacity};
  unsigned *d_counts;
  cudaMalloc(&map.keys, capacity * sizeof(unsigned long long));
  cudaMalloc(&map.values, capacity * sizeof(unsigned));
  cudaMalloc(&d_counts, 2 * sizeof(unsigned));
  cudaMemset(map.keys, 0, capacity * sizeof(unsigned long long));
  cudaMemset(d_counts, 0, 2 * sizeof(unsigned));
  insert_keys<<<(n + 255) / 256, 256>>>(map, n, distinct, d_counts, d_counts + 1);
  unsigned counts[2];
  std::vector<unsigned long long> keys(capacity);
  std::vector<unsigned> values(capacity);
  CHECK(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost) == cudaSuccess);
  cudaMemcpy(keys.data(), map.keys, capacity * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  cudaMemcpy(values.data(), map.values, capacity * sizeof(unsigned), cudaMemcpyDeviceToHost);
  CHECK(counts[0] == static_cast<unsigned>(distinct)); /* one winner per key */
  CHECK(counts[1] == 0);                                /* every thread saw its key's value */
  std::set<unsigned long long> stored;
  int bad = 0;
  for (unsigned s = 0; s < capacity; s++) {
    if (keys[s] == kEmpty)
      continue;
    if (keys[s] == kLocked || (keys[s] - 1) % 2654435761ull != 0 ||
        values[s] != 7u + (keys[s] - 1) / 2654435761ull)
      bad++;
    stored.insert(keys[s]);
  }
  CHECK(bad == 0);
  CHECK(static_cast<int>(stored.size()) == distinct);
  cudaFree(map.keys);
  cudaFree(map.values);
  cudaFree(d_counts);
}

static void check_warp_roles() {
  const int tiles = 37, n = tiles * kTile;
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; i++) {
    a[i] = (i % 251) * 0.01f;
    b[i] = ((i + 17) % 127) * 0.02f;
  }
  float *da, *db, *dc;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float));
  cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dc, 0, n * sizeof(float));
  warp_roles<<<5, 96, 3 * kStages * kTile * sizeof(float)>>>(da, db, dc, tiles);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (c[i] != sqrtf(a[i] * a[i] + b[i] * b[i]))
      bad++;
  CHECK(bad == 0);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
}

static void check_warp_batches() {
  const int blocks = 3, groups = blocks * 4, n = groups * kBatch * 2;
  std::vector<int> in(n);
  for (int i = 0; i < n; i++)
    in[i] = (i * 37) % 101 - 20;
  int *d_in, *d_totals, *d_scans;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_totals, 2 * sizeof(int));
  cudaMalloc(&d_scans, groups * 32 * sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  const int init[2] = {0, -1000};
  cudaMemcpy(d_totals, init, sizeof init, cudaMemcpyHostToDevice);
  warp_batches<<<blocks, 128>>>(d_in, d_totals, d_scans);
  int totals[2];
  std::vector<int> scans(groups * 32);
  CHECK(cudaMemcpy(totals, d_totals, sizeof totals, cudaMemcpyDeviceToHost) == cudaSuccess);
  cudaMemcpy(scans.data(), d_scans, scans.size() * sizeof(int), cudaMemcpyDeviceToHost);
  long long sum = 0;
  int top = -1000, bad = 0;
  for (int i = 0; i < n; i++)
    sum += in[i];
  for (int g = 0; g < groups; g++) {
    int running = 0;
    for (int l = 0; l < 32; l++) {
      const int first = in[g * kBatch * 2 + l] + in[g * kBatch * 2 + l + 32];
      if (scans[g * 32 + l] != running)
        bad++;
      running += first;
      top = std::max(top, first);
    }
  }
  CHECK(totals[0] == sum);
  CHECK(totals[1] == top);
  CHECK(bad == 0);
  cudaFree(d_in);
  cudaFree(d_totals);
  cudaFree(d_scans);
}

int main() {
  check_dedup();
  check_map();
  check_warp_roles();
  check_warp_batches();
  return finish();
}
