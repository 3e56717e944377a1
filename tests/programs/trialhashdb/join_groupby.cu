// Hash join, hash group-by with 64-bit and double atomics, and a
// radix-partitioned group-by, checked on the host.
// From the hashdb trial (GPU hash tables, locks, joins, filters), kept
// as a test by tests/programs_trialhashdb.sh.
// CUEMU_OPTIONS: -O1 -I. --expt-relaxed-constexpr --extended-lambda hashdb/host_reference.cpp
// NVCC_OPTIONS: -I. --expt-relaxed-constexpr --extended-lambda
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <unordered_map>
#include <vector>

#include <hashdb/common.cuh>
#include <hashdb/host_reference.h>
#include <hashdb/join.cuh>
#include <hashdb/open_addressing.cuh>
#include <hashdb/radix_partition.cuh>

using namespace hashdb;

struct HostAgg {
  unsigned long long count = 0;
  double sum = 0;
  long long min = LLONG_MAX, max = LLONG_MIN;
};

static bool test_join() {
  const size_t nb = 30000, np = 60000;
  auto build_keys = host::unique_keys(nb, 21);
  std::vector<uint32_t> build_vals(nb), probe_keys(np), probe_vals(np);
  for (size_t i = 0; i < nb; ++i) build_vals[i] = uint32_t(i);
  auto absent = host::absent_keys(build_keys, np / 3, 4);
  for (size_t i = 0; i < np; ++i) {
    probe_keys[i] = (i % 3 == 0) ? absent[i / 3] : build_keys[(i * 7919) % nb];
    probe_vals[i] = uint32_t(1000000 + i);
  }
  auto expect = host::hash_join(build_keys, build_vals, probe_keys, probe_vals);

  using Table = OpenAddressingTable<uint32_t, uint32_t, DoubleHashing>;
  Table table(nb, 0.5);
  DeviceBuffer<uint32_t> bk(nb), bv(nb), pk(np), pv(np);
  bk.upload(build_keys.data());
  bv.upload(build_vals.data());
  pk.upload(probe_keys.data());
  pv.upload(probe_vals.data());
  DeviceBuffer<JoinResult> out(np);
  DeviceBuffer<unsigned int> count(1);
  count.fill_bytes(0);
  join_build<<<grid_size_for(nb, 256), 256>>>(table.view(), bk.data(), bv.data(), nb);
  join_probe<<<grid_size_for(np, 256), 256>>>(table.view(), pk.data(), pv.data(), np, out.data(), count.data(),
                                             unsigned(np));
  HASHDB_CHECK_LAST();
  unsigned int c = 0;
  count.download(&c);
  HASHDB_CUDA_TRY(cudaDeviceSynchronize());
  std::vector<JoinResult> res(c);
  HASHDB_CUDA_TRY(cudaMemcpy(res.data(), out.data(), c * sizeof(JoinResult), cudaMemcpyDeviceToHost));
  std::vector<host::JoinPair> got;
  for (auto& r : res) got.push_back({r.key, r.build_payload, r.probe_payload});
  std::sort(got.begin(), got.end());
  return host::report("join", "hash join matches std::unordered_map", got == expect);
}

static void make_groupby_input(size_t n, std::vector<uint32_t>& keys, std::vector<long long>& metric) {
  keys = host::skewed_keys(n, 500, 77);
  metric.resize(n);
  for (size_t i = 0; i < n; ++i) metric[i] = (long long)((i * 2654435761ull) % 4000000007ull) - 2000000000ll;
}

static bool compare_groups(const char* what, const std::vector<GroupRow>& rows,
                           const std::unordered_map<uint32_t, HostAgg>& ref, bool check_extras) {
  bool ok = rows.size() == ref.size();
  for (auto& r : rows) {
    auto it = ref.find(r.key);
    if (it == ref.end()) { ok = false; continue; }
    const HostAgg& h = it->second;
    ok &= r.count == h.count;
    if (check_extras) {
      ok &= std::fabs(r.sum - h.sum) <= 1e-9 * std::fabs(h.sum) + 1e-6;
      ok &= r.min == h.min && r.max == h.max;
    }
  }
  return host::report("groupby", what, ok);
}

static bool test_groupby() {
  const size_t n = 50000;
  std::vector<uint32_t> keys;
  std::vector<long long> metric;
  make_groupby_input(n, keys, metric);
  std::unordered_map<uint32_t, HostAgg> ref;
  for (size_t i = 0; i < n; ++i) {
    HostAgg& a = ref[keys[i]];
    ++a.count;
    a.sum += double(metric[i]) * 0.25;
    a.min = std::min(a.min, metric[i]);
    a.max = std::max(a.max, metric[i]);
  }

  const uint32_t cap = 2048;
  DeviceBuffer<unsigned long long> slots(cap), counts(cap);
  DeviceBuffer<double> sums(cap);
  DeviceBuffer<long long> mins(cap), maxs(cap), d_metric(n);
  DeviceBuffer<uint32_t> d_keys(n);
  slots.fill_bytes(0xff);
  counts.fill_bytes(0);
  sums.fill_bytes(0);
  fill_kernel<<<8, 256>>>(mins.data(), cap, LLONG_MAX);
  fill_kernel<<<8, 256>>>(maxs.data(), cap, LLONG_MIN);
  d_keys.upload(keys.data());
  d_metric.upload(metric.data());
  GroupAggregates agg{slots.data(), cap - 1, counts.data(), sums.data(), mins.data(), maxs.data()};
  groupby_kernel<<<32, 256>>>(agg, d_keys.data(), d_metric.data(), n);
  DeviceBuffer<GroupRow> rows(cap);
  DeviceBuffer<unsigned int> nrows(1);
  nrows.fill_bytes(0);
  groupby_collect<<<4, 256>>>(agg, rows.data(), nrows.data());
  HASHDB_CHECK_LAST();
  unsigned int nr = 0;
  nrows.download(&nr);
  HASHDB_CUDA_TRY(cudaDeviceSynchronize());
  std::vector<GroupRow> host_rows(nr);
  HASHDB_CUDA_TRY(cudaMemcpy(host_rows.data(), rows.data(), nr * sizeof(GroupRow), cudaMemcpyDeviceToHost));
  return compare_groups("hash group-by count/sum/min/max", host_rows, ref, true);
}

static bool test_radix_groupby() {
  const size_t n = 40000;
  constexpr int kRadixBits = 4;
  std::vector<uint32_t> keys;
  std::vector<long long> metric;
  make_groupby_input(n, keys, metric);
  // Filter rows first, then partition (a shared-memory histogram, a warp
  // scan, a scatter).
  const KeyFilter filter{5};
  std::vector<unsigned long long> packed(n);
  for (size_t i = 0; i < n; ++i) packed[i] = ((unsigned long long)keys[i] << 32) | uint32_t(i);
  std::unordered_map<uint32_t, HostAgg> ref;
  for (size_t i = 0; i < n; ++i) {
    if (!filter(packed[i])) continue;
    HostAgg& a = ref[keys[i]];
    ++a.count;
    a.max = std::max(a.max, metric[i]);
  }

  // The test selects on the host; the trial does it with
  // cub::DeviceSelect::If and KeyFilter, and its partition offsets with
  // cub::DeviceScan (CUB's build costs more than all of these programs).
  std::vector<unsigned long long> selected;
  for (auto row : packed)
    if (filter(row)) selected.push_back(row);
  const int m = int(selected.size());
  std::vector<uint32_t> sel_keys(m);
  std::vector<long long> sel_metric(m);
  for (int i = 0; i < m; ++i) {
    sel_keys[i] = uint32_t(selected[i] >> 32);
    sel_metric[i] = metric[uint32_t(selected[i])];
  }

  DeviceBuffer<uint32_t> k_in(m), k_part(m);
  DeviceBuffer<long long> v_in(m), v_part(m);
  DeviceBuffer<unsigned int> hist(1 << kRadixBits), offsets(1 << kRadixBits);
  k_in.upload(sel_keys.data());
  v_in.upload(sel_metric.data());
  hist.fill_bytes(0);
  // Partition on bits 4..7 of the key.
  partition_histogram<kRadixBits><<<16, 128>>>(k_in.data(), m, 4, hist.data());
  partition_offsets<<<1, 32>>>(hist.data(), 1 << kRadixBits, offsets.data());
  std::vector<unsigned int> h_hist(1 << kRadixBits), h_off(1 << kRadixBits);
  hist.download(h_hist.data());
  offsets.download(h_off.data());
  partition_scatter<kRadixBits><<<16, 128>>>(k_in.data(), v_in.data(), m, 4, offsets.data(), k_part.data(),
                                            v_part.data());
  HASHDB_CHECK_LAST();
  std::vector<uint32_t> parts(m);
  k_part.download(parts.data());
  HASHDB_CUDA_TRY(cudaDeviceSynchronize());
  bool part_ok = true;
  for (int p = 0; p < (1 << kRadixBits); ++p)
    for (unsigned i = h_off[p]; i < h_off[p] + h_hist[p]; ++i) part_ok &= ((parts[i] >> 4) & 15u) == unsigned(p);
  bool ok = host::report("radix", "partition histogram and scatter", part_ok);

  // The test keeps the selection, the scan and the partition; the trial's
  // sort, run-length encoding and reduce-by-key (CUB's costliest builds)
  // are checked here on the host from the partitioned rows.
  std::vector<long long> part_vals(m);
  v_part.download(part_vals.data());
  HASHDB_CUDA_TRY(cudaDeviceSynchronize());
  std::unordered_map<uint32_t, HostAgg> got;
  for (int i = 0; i < m; ++i) {
    HostAgg& a = got[parts[i]];
    ++a.count;
    a.max = std::max(a.max, part_vals[i]);
  }
  bool groups_ok = got.size() == ref.size();
  for (auto& kv : ref) {
    auto it = got.find(kv.first);
    groups_ok &= it != got.end() && it->second.count == kv.second.count && it->second.max == kv.second.max;
  }
  ok &= host::report("radix", "partitioned rows keep every group", groups_ok);
  return ok;
}

int main() {
  bool ok = test_join();
  ok &= test_groupby();
  ok &= test_radix_groupby();
  std::printf("join_groupby\n%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
