// Lock-based and lock-free structures: per-bucket spin locks contended by
// lanes of one warp, a warp-leader lock, a ticket lock with atomic_ref, a
// lock-free chained map and a tagged Treiber stack.
// From the hashdb trial (GPU hash tables, locks, joins, filters), kept
// as a test by tests/programs_trialhashdb.sh.
// CUEMU_OPTIONS: -O1 -I. --expt-relaxed-constexpr --extended-lambda hashdb/host_reference.cpp
// NVCC_OPTIONS: -I. --expt-relaxed-constexpr --extended-lambda
#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <unordered_map>
#include <vector>

#include <hashdb/common.cuh>
#include <hashdb/host_reference.h>
#include <hashdb/locks.cuh>
#include <hashdb/lockfree.cuh>

using namespace hashdb;

__device__ cuda::std::atomic<unsigned int> g_kernel_entries;

__global__ void count_entries(int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) g_kernel_entries.fetch_add(1u, cuda::std::memory_order_relaxed);
}

constexpr int kBucketCap = 64;
using Bucket = LockedBucket<kBucketCap>;

template <typename Lock>
static bool run_locked_counts(const char* name, const std::vector<uint32_t>& keys, uint32_t num_buckets) {
  DeviceBuffer<Bucket> buckets(num_buckets);
  DeviceBuffer<uint32_t> d_keys(keys.size());
  buckets.fill_bytes(0);
  d_keys.upload(keys.data());
  locked_count_kernel<Lock, kBucketCap><<<8, 128>>>(buckets.data(), num_buckets, d_keys.data(), keys.size());
  HASHDB_CHECK_LAST();
  std::vector<Bucket> host(num_buckets);
  buckets.download(host.data());
  HASHDB_CUDA_TRY(cudaDeviceSynchronize());
  std::map<uint32_t, uint32_t> got, expect;
  for (auto& b : host)
    for (int i = 0; i < b.size; ++i) got[b.keys[i]] += b.counts[i];
  for (uint32_t k : keys) ++expect[k];
  return host::report("locks", name, got == expect);
}

int main() {
  bool ok = true;
  // Few distinct keys and few buckets: lanes of one warp hit the same lock.
  auto keys = host::skewed_keys(6000, 40, 5);
  ok &= run_locked_counts<BareSpinLock>("bare spin lock, warp contention", keys, 7);
  ok &= run_locked_counts<BackoffSpinLock>("__nanosleep back-off lock", keys, 7);
  ok &= run_locked_counts<AtomicRefLock>("cuda::atomic_ref lock", keys, 3);

  {  // Warp-leader lock around a warp-wide append.
    const size_t n = 5000;
    std::vector<uint32_t> in(n);
    std::iota(in.begin(), in.end(), 100u);
    DeviceBuffer<uint32_t> d_in(n), d_log(n);
    DeviceBuffer<int> lock(1);
    DeviceBuffer<unsigned int> tail(1);
    d_in.upload(in.data());
    lock.fill_bytes(0);
    tail.fill_bytes(0);
    warp_locked_append<<<(n + 127) / 128, 128>>>(lock.data(), tail.data(), d_log.data(), d_in.data(), n);
    HASHDB_CHECK_LAST();
    std::vector<uint32_t> log(n);
    unsigned int t = 0;
    d_log.download(log.data());
    tail.download(&t);
    HASHDB_CUDA_TRY(cudaDeviceSynchronize());
    std::sort(log.begin(), log.end());
    ok &= host::report("locks", "warp-leader lock append", t == n && log == in);
  }

  {  // Ticket lock: every thread once, in ticket order.
    const int n = 2000;
    DeviceBuffer<unsigned int> tickets(2), order(n);
    DeviceBuffer<unsigned long long> sum(1);
    tickets.fill_bytes(0);
    sum.fill_bytes(0);
    ticket_lock_kernel<<<(n + 255) / 256, 256>>>(tickets.data(), tickets.data() + 1, order.data(), sum.data(), n);
    HASHDB_CHECK_LAST();
    std::vector<unsigned int> ord(n);
    unsigned long long s = 0;
    order.download(ord.data());
    sum.download(&s);
    HASHDB_CUDA_TRY(cudaDeviceSynchronize());
    std::sort(ord.begin(), ord.end());
    bool perm = true;
    for (int i = 0; i < n; ++i) perm &= ord[i] == unsigned(i);
    ok &= host::report("locks", "ticket lock (atomic_ref)", perm && s == 1ull * n * (n - 1) / 2);
  }

  {  // cuda::std::atomic in a __device__ variable.
    unsigned int zero = 0, entries = 0;
    HASHDB_CUDA_TRY(cudaMemcpyToSymbol(g_kernel_entries, &zero, sizeof zero));
    count_entries<<<10, 100>>>(999);
    HASHDB_CUDA_TRY(cudaMemcpyFromSymbol(&entries, g_kernel_entries, sizeof entries));
    ok &= host::report("locks", "cuda::std::atomic __device__ counter", entries == 999);
  }

  {  // Lock-free chained map with a bump-allocated node pool.
    const size_t n = 20000;
    auto ck = host::skewed_keys(n, 3000, 11);
    const uint32_t num_buckets = 1024;
    DeviceBuffer<ChainNode*> heads(num_buckets);
    DeviceBuffer<ChainNode> nodes(n);
    DeviceBuffer<unsigned int> counters(4);
    DeviceBuffer<uint32_t> d_keys(n), d_counts(n);
    DeviceBuffer<unsigned long long> key_sum(1);
    heads.fill_bytes(0);
    counters.fill_bytes(0);
    key_sum.fill_bytes(0);
    d_keys.upload(ck.data());
    ChainedMap map{heads.data(), num_buckets, BumpPool<ChainNode>{nodes.data(), counters.data(), unsigned(n)}};
    chained_insert_kernel<<<(n + 255) / 256, 256>>>(map, d_keys.data(), n, counters.data() + 1);
    chained_count_kernel<<<(n + 255) / 256, 256>>>(map, d_keys.data(), n, d_counts.data());
    chained_drain_kernel<<<4, 128>>>(map, key_sum.data(), counters.data() + 2);
    HASHDB_CHECK_LAST();
    std::vector<uint32_t> counts(n);
    unsigned int c[4];
    unsigned long long s = 0;
    d_counts.download(counts.data());
    counters.download(c);
    key_sum.download(&s);
    HASHDB_CUDA_TRY(cudaDeviceSynchronize());
    std::unordered_map<uint32_t, uint32_t> ref;
    for (auto k : ck) ++ref[k];
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) bad += counts[i] != ref[ck[i]];
    const unsigned long long expect_sum = std::accumulate(ck.begin(), ck.end(), 0ull);
    ok &= host::report("lockfree", "chained map counts", bad == 0 && c[0] == n && c[1] == 0);
    ok &= host::report("lockfree", "atomicExch drain", c[2] == n && s == expect_sum);
  }

  {  // Tagged Treiber stack: each thread pushes one value and pops one.
    const size_t n = 8192;
    std::vector<uint32_t> in(n);
    for (size_t i = 0; i < n; ++i) in[i] = uint32_t(i * 2654435761u);
    DeviceBuffer<unsigned long long> head(1);
    DeviceBuffer<uint32_t> next(n), pool(n), d_in(n), d_out(n);
    DeviceBuffer<unsigned int> bump(1);
    const unsigned long long empty = TaggedStack::kNull;
    head.upload(&empty);
    bump.fill_bytes(0);
    d_in.upload(in.data());
    stack_push_pop_kernel<<<(n + 255) / 256, 256>>>(TaggedStack{head.data(), next.data()},
                                                    BumpPool<uint32_t>{pool.data(), bump.data(), unsigned(n)},
                                                    d_in.data(), n, d_out.data());
    HASHDB_CHECK_LAST();
    std::vector<uint32_t> out(n);
    unsigned long long h = 0;
    d_out.download(out.data());
    head.download(&h);
    HASHDB_CUDA_TRY(cudaDeviceSynchronize());
    std::sort(in.begin(), in.end());
    std::sort(out.begin(), out.end());
    ok &= host::report("lockfree", "tagged stack push/pop", out == in && uint32_t(h) == TaggedStack::kNull);
  }

  std::printf("locks_lists\n%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
