// Bloom filter: build, query, false-positive rate and bit statistics,
// checked bit for bit against the same filter built on the host; and
// warp-aggregated duplicate counting with __match_any_sync.
// From the hashdb trial (GPU hash tables, locks, joins, filters), kept
// as a test by tests/programs_trialhashdb.sh.
// CUEMU_OPTIONS: -O1 -I. --expt-relaxed-constexpr --extended-lambda hashdb/host_reference.cpp
// NVCC_OPTIONS: -I. --expt-relaxed-constexpr --extended-lambda
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <hashdb/bloom.cuh>
#include <hashdb/common.cuh>
#include <hashdb/host_reference.h>

using namespace hashdb;
constexpr int kHashes = 5;

static bool test_bloom(uint32_t num_bits, size_t n) {
  auto keys = host::unique_keys(n, 31);
  auto others = host::absent_keys(keys, n, 32);
  std::vector<uint32_t> queries(keys);
  queries.insert(queries.end(), others.begin(), others.end());

  // Host reference filter.
  std::vector<uint32_t> ref(num_bits / 32, 0);
  const uint32_t l2 = BloomFilter<kHashes>::log2_bits(num_bits);
  for (uint32_t k : keys)
    for (int i = 0; i < kHashes; ++i) {
      const uint32_t b = BloomFilter<kHashes>::bit_index(k, i, l2);
      ref[b >> 5] |= 1u << (b & 31);
    }
  size_t ref_positives = 0, ref_bits = 0;
  std::vector<uint8_t> ref_result(queries.size());
  for (size_t q = 0; q < queries.size(); ++q) {
    bool all = true;
    for (int i = 0; i < kHashes; ++i) {
      const uint32_t b = BloomFilter<kHashes>::bit_index(queries[q], i, l2);
      all &= (ref[b >> 5] >> (b & 31)) & 1u;
    }
    ref_result[q] = all;
    ref_positives += all;
  }
  for (uint32_t w : ref) ref_bits += __builtin_popcount(w);

  DeviceBuffer<uint32_t> words(num_bits / 32), d_keys(n), d_q(queries.size());
  DeviceBuffer<uint8_t> d_res(queries.size());
  DeviceBuffer<unsigned int> stats(3);
  words.fill_bytes(0);
  stats.fill_bytes(0);
  d_keys.upload(keys.data());
  d_q.upload(queries.data());
  BloomFilter<kHashes> f{words.data(), num_bits};
  bloom_add<kHashes><<<32, 256>>>(f, d_keys.data(), n);
  bloom_query<kHashes><<<grid_size_for(queries.size(), 256), 256>>>(f, d_q.data(), queries.size(), d_res.data(),
                                                                     stats.data());
  bloom_popcount<<<8, 128>>>(words.data(), num_bits / 32, stats.data() + 1, stats.data() + 2);
  HASHDB_CHECK_LAST();
  std::vector<uint32_t> got(num_bits / 32);
  std::vector<uint8_t> res(queries.size());
  unsigned int st[3];
  words.download(got.data());
  d_res.download(res.data());
  stats.download(st);
  HASHDB_CUDA_TRY(cudaDeviceSynchronize());

  bool no_false_negatives = true;
  for (size_t i = 0; i < n; ++i) no_false_negatives &= res[i] == 1;
  const double fpr = double(ref_positives - n) / double(n);
  bool ok = host::report("bloom", "bits identical to host filter", got == ref);
  ok &= host::report("bloom", "no false negatives", no_false_negatives);
  ok &= host::report("bloom", "query results identical to host", res == ref_result && st[0] == ref_positives);
  ok &= host::report("bloom", "__popc/__popcll bit counts", st[1] == ref_bits && st[2] == ref_bits);
  std::printf("[bloom] %u bits, %zu keys, k=%d: fpr %.4f\n", num_bits, n, kHashes, fpr);
  ok &= host::report("bloom", "false positive rate plausible", fpr < 0.1);
  return ok;
}

static bool test_duplicates() {
  const size_t n = 30000;
  const uint32_t distinct = 64;
  auto keys = host::skewed_keys(n, distinct, 9);
  std::vector<uint32_t> vals(n);
  for (size_t i = 0; i < n; ++i) vals[i] = uint32_t((i * 37) % 1000);
  std::vector<unsigned int> ec(distinct + 1, 0), es(distinct + 1, 0), em(distinct + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    ec[keys[i]] += 1;
    es[keys[i]] += vals[i];
    em[keys[i]] = std::max(em[keys[i]], vals[i]);
  }
  DeviceBuffer<uint32_t> d_keys(n), d_vals(n);
  DeviceBuffer<unsigned int> counts(distinct + 1), sums(distinct + 1), maxima(distinct + 1);
  d_keys.upload(keys.data());
  d_vals.upload(vals.data());
  counts.fill_bytes(0);
  sums.fill_bytes(0);
  maxima.fill_bytes(0);
  // 250 threads per block: the last warp of each block is partial.
  aggregate_duplicates<<<int((n + 249) / 250), 250>>>(d_keys.data(), d_vals.data(), n, counts.data(), sums.data(),
                                                       maxima.data());
  HASHDB_CHECK_LAST();
  std::vector<unsigned int> c(distinct + 1), s(distinct + 1), m(distinct + 1);
  counts.download(c.data());
  sums.download(s.data());
  maxima.download(m.data());
  HASHDB_CUDA_TRY(cudaDeviceSynchronize());
  return host::report("dups", "__match_any_sync + __reduce_*_sync", c == ec && s == es && m == em);
}

int main(int argc, char** argv) {
  const uint32_t bits = argc > 1 ? uint32_t(std::strtoul(argv[1], nullptr, 10)) : (1u << 20);
  const size_t n = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 50000;
  bool ok = test_bloom(bits, n);
  ok &= test_duplicates();
  std::printf("bloom_filter\n%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
