// Database operators around the hash structures: filters with
// warp-aggregated atomics and device lambdas, labeled partitions, semaphore
// buckets, a single-pass chained scan, a 16-bit fingerprint set, a
// build-then-probe cooperative kernel, device-side malloc, managed memory
// and stream-ordered allocation. (The trial's Thrust group-by is left out
// of the test: its build is the cost.)
// From the hashdb trial (GPU hash tables, locks, joins, filters), kept
// as a test by tests/programs_trialhashdb.sh.
// CUEMU_OPTIONS: -O1 -I. --expt-relaxed-constexpr --extended-lambda hashdb/host_reference.cpp
// NVCC_OPTIONS: -I. --expt-relaxed-constexpr --extended-lambda
#include <algorithm>
#include <cstdio>
#include <limits>
#include <numeric>
#include <vector>

#include <cooperative_groups.h>

#include <hashdb/common.cuh>
#include <hashdb/host_reference.h>
#include <hashdb/open_addressing.cuh>
#include <hashdb/sync_primitives.cuh>

using namespace hashdb;
namespace cg = cooperative_groups;

__constant__ uint32_t c_seeds[4];

struct IsEvenHash {
  __host__ __device__ bool operator()(uint32_t k) const { return (fmix32(k) & 1u) == 0; }
};

// A generic element-wise kernel that takes any device callable.
template <typename F>
__global__ void for_each_index(size_t n, F f) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) f(i);
}

// Build and probe in one cooperative kernel, with a grid-wide barrier
// between the phases.
using Table = OpenAddressingTable<uint32_t, uint32_t, LinearProbing>;
__global__ void build_then_probe(Table::DeviceView table, const uint32_t* build, size_t nb, const uint32_t* probe,
                                 size_t np, unsigned int* hits) {
  cg::grid_group grid = cg::this_grid();
  for (size_t i = grid.thread_rank(); i < nb; i += grid.size()) table.insert(build[i], uint32_t(i));
  grid.sync();
  unsigned int mine = 0;
  for (size_t i = grid.thread_rank(); i < np; i += grid.size()) {
    uint32_t v;
    mine += table.find(probe[i], &v);
  }
  atomicAdd(hits, mine);
}

// Per-thread linked lists allocated with device malloc.
struct ListNode {
  uint32_t value;
  ListNode* next;
};
__global__ void malloc_lists(const uint32_t* lens, int n, unsigned long long* sums) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  ListNode* head = nullptr;
  for (uint32_t j = 0; j < lens[i]; ++j) {
    auto* node = static_cast<ListNode*>(malloc(sizeof(ListNode)));
    if (!node) { sums[i] = ~0ull; return; }
    node->value = j * c_seeds[j & 3];
    node->next = head;
    head = node;
  }
  unsigned long long s = 0;
  while (head) {
    ListNode* next = head->next;
    s += head->value;
    free(head);
    head = next;
  }
  sums[i] = s;
}

int main() {
  bool ok = true;
  const uint32_t seeds[4] = {1u, 3u, 5u, 7u};
  HASHDB_CUDA_TRY(cudaMemcpyToSymbol(c_seeds, seeds, sizeof seeds));
  cudaStream_t stream;
  HASHDB_CUDA_TRY(cudaStreamCreate(&stream));

  {  // Filter with a functor and with a device lambda; warp-aggregated output.
    const size_t n = 100000;
    auto keys = host::unique_keys(n, 41);
    uint32_t *d_in, *d_out;
    unsigned int* d_count;
    HASHDB_CUDA_TRY(cudaMallocAsync(&d_in, n * sizeof(uint32_t), stream));
    HASHDB_CUDA_TRY(cudaMallocAsync(&d_out, n * sizeof(uint32_t), stream));
    HASHDB_CUDA_TRY(cudaMallocAsync(&d_count, 2 * sizeof(unsigned int), stream));
    HASHDB_CUDA_TRY(cudaMemcpyAsync(d_in, keys.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice, stream));
    HASHDB_CUDA_TRY(cudaMemsetAsync(d_count, 0, 2 * sizeof(unsigned int), stream));
    int min_grid = 0, block = 0;
    HASHDB_CUDA_TRY(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, filter_rows<IsEvenHash>, 0, 0));
    filter_rows<<<int((n + block - 1) / block), block, 0, stream>>>(d_in, n, d_out, d_count, IsEvenHash{});
    const uint32_t limit = std::numeric_limits<uint32_t>::max() / 3;
    filter_rows<<<int((n + 255) / 256), 256, 0, stream>>>(
        d_in, n, d_out, d_count + 1, [=] __device__(uint32_t k) { return k < limit; });
    HASHDB_CHECK_LAST();
    unsigned int counts[2];
    std::vector<uint32_t> out(n);
    HASHDB_CUDA_TRY(cudaMemcpyAsync(counts, d_count, sizeof counts, cudaMemcpyDeviceToHost, stream));
    HASHDB_CUDA_TRY(cudaStreamSynchronize(stream));
    HASHDB_CUDA_TRY(cudaMemcpy(out.data(), d_out, counts[1] * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    size_t even = 0, small = 0;
    std::vector<uint32_t> expect_small;
    for (auto k : keys) {
      even += IsEvenHash{}(k);
      if (k < limit) expect_small.push_back(k);
    }
    small = expect_small.size();
    out.resize(counts[1]);
    std::sort(out.begin(), out.end());
    std::sort(expect_small.begin(), expect_small.end());
    ok &= host::report("db_ops", "filter with functor (coalesced group)", counts[0] == even);
    ok &= host::report("db_ops", "filter with device lambda", counts[1] == small && out == expect_small);
    HASHDB_CUDA_TRY(cudaFreeAsync(d_in, stream));
    HASHDB_CUDA_TRY(cudaFreeAsync(d_out, stream));
    HASHDB_CUDA_TRY(cudaFreeAsync(d_count, stream));
  }

  {  // Labeled partitions, semaphores, fingerprints, on managed memory.
    const size_t n = 20000;
    const uint32_t distinct = 50;
    auto keys = host::skewed_keys(n, distinct, 43);
    uint32_t *m_keys, *m_vals;
    unsigned int *m_counts, *m_bucket_counts, *m_fresh;
    unsigned long long* m_max;
    HASHDB_CUDA_TRY(cudaMallocManaged(&m_keys, n * sizeof(uint32_t)));
    HASHDB_CUDA_TRY(cudaMallocManaged(&m_vals, n * sizeof(uint32_t)));
    HASHDB_CUDA_TRY(cudaMallocManaged(&m_counts, (distinct + 1) * sizeof(unsigned int)));
    HASHDB_CUDA_TRY(cudaMallocManaged(&m_bucket_counts, 16 * sizeof(unsigned int)));
    HASHDB_CUDA_TRY(cudaMallocManaged(&m_max, 16 * sizeof(unsigned long long)));
    HASHDB_CUDA_TRY(cudaMallocManaged(&m_fresh, sizeof(unsigned int)));
    for (size_t i = 0; i < n; ++i) {
      m_keys[i] = keys[i];
      m_vals[i] = uint32_t((i * 7919) % 100003);
    }
    std::fill(m_counts, m_counts + distinct + 1, 0u);
    std::fill(m_bucket_counts, m_bucket_counts + 16, 0u);
    std::fill(m_max, m_max + 16, 0ull);
    *m_fresh = 0;
    int device = 0;
    HASHDB_CUDA_TRY(cudaGetDevice(&device));
    cudaMemLocation loc{};
    loc.type = cudaMemLocationTypeDevice;
    loc.id = device;
    HASHDB_CUDA_TRY(cudaMemAdvise(m_keys, n * sizeof(uint32_t), cudaMemAdviseSetReadMostly, loc));
    HASHDB_CUDA_TRY(cudaMemPrefetchAsync(m_keys, n * sizeof(uint32_t), loc, 0, stream));

    labeled_counts<<<int((n + 127) / 128), 128, 0, stream>>>(m_keys, n, m_counts);
    DeviceSemaphore* sems;
    HASHDB_CUDA_TRY(cudaMalloc(&sems, 16 * sizeof(DeviceSemaphore)));
    init_semaphores<<<1, 32, 0, stream>>>(sems, 16);
    semaphore_update<<<int((n + 255) / 256), 256, 0, stream>>>(sems, m_max, m_bucket_counts, 16, m_keys, m_vals, n);
    const uint32_t fp_cap = 1u << 15;
    unsigned short* fp_table;
    HASHDB_CUDA_TRY(cudaMalloc(&fp_table, fp_cap * sizeof(unsigned short)));
    HASHDB_CUDA_TRY(cudaMemsetAsync(fp_table, 0, fp_cap * sizeof(unsigned short), stream));
    auto fkeys = host::unique_keys(12000, 44);
    uint32_t* d_fkeys;
    HASHDB_CUDA_TRY(cudaMalloc(&d_fkeys, fkeys.size() * sizeof(uint32_t)));
    HASHDB_CUDA_TRY(cudaMemcpyAsync(d_fkeys, fkeys.data(), fkeys.size() * sizeof(uint32_t), cudaMemcpyHostToDevice, stream));
    fingerprint_insert<<<int((fkeys.size() + 255) / 256), 256, 0, stream>>>(fp_table, fp_cap, d_fkeys, fkeys.size(),
                                                                           m_fresh);
    HASHDB_CHECK_LAST();
    HASHDB_CUDA_TRY(cudaStreamSynchronize(stream));

    std::vector<unsigned int> ec(distinct + 1, 0), ebc(16, 0);
    std::vector<unsigned long long> emax(16, 0);
    for (size_t i = 0; i < n; ++i) {
      ++ec[keys[i]];
      ++ebc[keys[i] % 16];
      emax[keys[i] % 16] = std::max<unsigned long long>(emax[keys[i] % 16], m_vals[i]);
    }
    ok &= host::report("db_ops", "labeled_partition counts", std::equal(ec.begin(), ec.end(), m_counts));
    ok &= host::report("db_ops", "binary_semaphore buckets",
                       std::equal(ebc.begin(), ebc.end(), m_bucket_counts) && std::equal(emax.begin(), emax.end(), m_max));
    std::vector<unsigned short> fpt(fp_cap);
    HASHDB_CUDA_TRY(cudaMemcpy(fpt.data(), fp_table, fp_cap * sizeof(unsigned short), cudaMemcpyDeviceToHost));
    size_t used = 0, missing = 0;
    for (auto f : fpt) used += f != 0;
    for (auto k : fkeys) {
      const uint32_t h = fmix32(k);
      const unsigned short fp = static_cast<unsigned short>((h >> 16) | 1u);
      uint32_t slot = uint32_t((uint64_t(h) * fp_cap) >> 32);
      while (fpt[slot] != 0 && fpt[slot] != fp) slot = (slot + 1) % fp_cap;
      missing += fpt[slot] != fp;
    }
    ok &= host::report("db_ops", "16-bit atomicCAS fingerprint set", missing == 0 && used == *m_fresh);
    HASHDB_CUDA_TRY(cudaFree(sems));
    HASHDB_CUDA_TRY(cudaFree(fp_table));
    HASHDB_CUDA_TRY(cudaFree(d_fkeys));
    for (void* p : {(void*)m_keys, (void*)m_vals, (void*)m_counts, (void*)m_bucket_counts, (void*)m_max, (void*)m_fresh})
      HASHDB_CUDA_TRY(cudaFree(p));
  }

  {  // Single-pass chained scan.
    constexpr int kBlock = 128;
    const size_t n = 50000;
    std::vector<uint32_t> in(n);
    for (size_t i = 0; i < n; ++i) in[i] = uint32_t(fmix32(uint32_t(i)) & 0xffff);
    const int blocks = int((n + kBlock - 1) / kBlock);
    DeviceBuffer<uint32_t> d_in(n);
    DeviceBuffer<unsigned long long> d_out(n), prefix(blocks);
    DeviceBuffer<unsigned int> ready(blocks), next(1);
    d_in.upload(in.data());
    ready.fill_bytes(0);
    next.fill_bytes(0);
    chained_scan<kBlock><<<blocks, kBlock>>>(ScanState{next.data(), ready.data(), prefix.data()}, d_in.data(), n,
                                             d_out.data());
    HASHDB_CHECK_LAST();
    std::vector<unsigned long long> out(n);
    d_out.download(out.data());
    HASHDB_CUDA_TRY(cudaDeviceSynchronize());
    std::vector<unsigned long long> expect(n);
    std::partial_sum(in.begin(), in.end(), expect.begin(), [](unsigned long long a, unsigned long long b) { return a + b; });
    ok &= host::report("db_ops", "chained single-pass scan", out == expect);
  }

  {  // Cooperative build-then-probe.
    const size_t nb = 20000, np = 40000;
    auto build = host::unique_keys(nb, 45);
    auto absent = host::absent_keys(build, np / 2, 46);
    std::vector<uint32_t> probe(build.begin(), build.begin() + np / 2);
    probe.insert(probe.end(), absent.begin(), absent.end());
    Table table(nb, 0.5);
    DeviceBuffer<uint32_t> d_build(nb), d_probe(np);
    DeviceBuffer<unsigned int> hits(1);
    d_build.upload(build.data());
    d_probe.upload(probe.data());
    hits.fill_bytes(0);
    int per_sm = 0, sms = 0;
    HASHDB_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, build_then_probe, 256, 0));
    HASHDB_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    auto view = table.view();
    const uint32_t* pb = d_build.data();
    const uint32_t* pp = d_probe.data();
    size_t nb_ = nb, np_ = np;
    unsigned int* ph = hits.data();
    void* args[] = {&view, &pb, &nb_, &pp, &np_, &ph};
    const int grid = std::min(per_sm * sms, 64);
    HASHDB_CUDA_TRY(cudaLaunchCooperativeKernel((void*)build_then_probe, grid, 256, args, 0, 0));
    unsigned int h = 0;
    hits.download(&h);
    HASHDB_CUDA_TRY(cudaDeviceSynchronize());
    ok &= host::report("db_ops", "cooperative build-then-probe", h == np / 2);
  }

  {  // Device-side malloc and free.
    HASHDB_CUDA_TRY(cudaDeviceSetLimit(cudaLimitMallocHeapSize, size_t(32) << 20));
    const int n = 512;
    std::vector<uint32_t> lens(n);
    for (int i = 0; i < n; ++i) lens[i] = uint32_t(i % 37);
    DeviceBuffer<uint32_t> d_lens(n);
    DeviceBuffer<unsigned long long> sums(n);
    d_lens.upload(lens.data());
    malloc_lists<<<(n + 63) / 64, 64>>>(d_lens.data(), n, sums.data());
    HASHDB_CHECK_LAST();
    std::vector<unsigned long long> s(n);
    sums.download(s.data());
    HASHDB_CUDA_TRY(cudaDeviceSynchronize());
    bool good = true;
    for (int i = 0; i < n; ++i) {
      unsigned long long e = 0;
      for (uint32_t j = 0; j < lens[i]; ++j) e += j * seeds[j & 3];
      good &= s[i] == e;
    }
    ok &= host::report("db_ops", "device malloc/free linked lists", good);
  }

  HASHDB_CUDA_TRY(cudaStreamDestroy(stream));
  std::printf("db_ops\n%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
