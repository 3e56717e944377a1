// Warp-cooperative bucketed hash table: insert with whole warps and with
// tiles of 8 threads, look up with the other one, check against the host.
// From the hashdb trial (GPU hash tables, locks, joins, filters), kept
// as a test by tests/programs_trialhashdb.sh.
// CUEMU_OPTIONS: -O1 -I. --expt-relaxed-constexpr --extended-lambda hashdb/host_reference.cpp
// NVCC_OPTIONS: -I. --expt-relaxed-constexpr --extended-lambda
#include <cstdio>
#include <cstdlib>
#include <unordered_map>
#include <vector>

#include <hashdb/bucket_table.cuh>
#include <hashdb/common.cuh>
#include <hashdb/host_reference.h>

using namespace hashdb;
using View = BucketTableView<uint32_t, uint32_t>;

static bool run(bool warp_inserts, size_t n, double load_factor) {
  const char* prog = warp_inserts ? "warp-insert/tile-find" : "tile-insert/warp-find";
  auto keys = host::unique_keys(n, warp_inserts ? 7 : 8);
  std::vector<uint32_t> vals(n);
  for (size_t i = 0; i < n; ++i) vals[i] = uint32_t(keys[i] ^ 0x5bd1e995u) & 0x7fffffffu;
  // Duplicates at the end of the insert batch.
  std::vector<uint32_t> ins_keys(keys), ins_vals(vals);
  for (size_t i = 0; i < n / 8; ++i) { ins_keys.push_back(keys[i * 3 % n]); ins_vals.push_back(vals[i * 3 % n]); }
  auto misses = host::absent_keys(keys, n / 4, 3);
  std::vector<uint32_t> queries(keys);
  queries.insert(queries.end(), misses.begin(), misses.end());

  const uint32_t num_buckets = uint32_t(n / (load_factor * View::kBucketSize)) + 1;
  DeviceBuffer<unsigned long long> slots(size_t(num_buckets) * View::kBucketSize);
  slots.fill_bytes(0xff);
  View table{slots.data(), num_buckets};

  DeviceBuffer<uint32_t> d_keys(ins_keys.size()), d_vals(ins_vals.size()), d_q(queries.size()), d_out(queries.size());
  DeviceBuffer<unsigned int> d_count(2);
  DeviceBuffer<unsigned long long> d_total(1);
  d_keys.upload(ins_keys.data());
  d_vals.upload(ins_vals.data());
  d_q.upload(queries.data());
  d_count.fill_bytes(0);
  d_total.fill_bytes(0);

  const int block = 256;
  const int grid_ins = int((ins_keys.size() + block - 1) / block);
  const int grid_q = int((queries.size() + block - 1) / block);
  if (warp_inserts) {
    warp_insert_kernel<<<grid_ins, block>>>(table, d_keys.data(), d_vals.data(), ins_keys.size(), d_count.data());
    tile_find_kernel<8><<<grid_q, block>>>(table, d_q.data(), queries.size(), d_out.data());
  } else {
    tile_insert_kernel<8><<<grid_ins, block>>>(table, d_keys.data(), d_vals.data(), ins_keys.size(), d_count.data());
    warp_find_kernel<<<grid_q, block>>>(table, d_q.data(), queries.size(), d_out.data());
  }
  bucket_stats<<<16, 128>>>(table, d_total.data(), d_count.data() + 1);
  HASHDB_CHECK_LAST();
  HASHDB_CUDA_TRY(cudaDeviceSynchronize());

  std::vector<uint32_t> out(queries.size());
  unsigned int counts[2];
  unsigned long long total = 0;
  d_out.download(out.data());
  d_count.download(counts);
  d_total.download(&total);
  HASHDB_CUDA_TRY(cudaDeviceSynchronize());

  std::unordered_map<uint32_t, uint32_t> ref;
  for (size_t i = 0; i < n; ++i) ref.emplace(keys[i], vals[i]);
  size_t bad = 0;
  for (size_t i = 0; i < queries.size(); ++i) {
    auto it = ref.find(queries[i]);
    const uint32_t expect = it == ref.end() ? ~0u : it->second;
    if (out[i] != expect && bad++ < 5) std::printf("  key %u: got %u expected %u\n", queries[i], out[i], expect);
  }
  bool ok = host::report(prog, "inserted count", counts[0] == n);
  ok &= host::report(prog, "lookups", bad == 0);
  ok &= host::report(prog, "bucket fill", total == n && counts[1] <= View::kBucketSize);
  return ok;
}

int main(int argc, char** argv) {
  const double lf = argc > 1 ? std::atof(argv[1]) : 0.8;
  const size_t n = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 40000;
  bool ok = run(true, n, lf);
  ok &= run(false, n, lf);
  std::printf("bucket_table\n%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
