// bloom.cu: inserts keys into a device Bloom filter, queries inserted and
// absent keys, and checks the bit array and the false positives against the
// host filter built the same way.
// Built as the trial built it (at -O0 here): an sm_75 cubin and PTX besides an sm_80
// cubin, whose compute_75 pass a 9.0 device runs (tests/programs_trialzip.sh).
// CUEMU_OPTIONS: -Xcompiler -O0 -arch=sm_75 -gencode arch=compute_80,code=sm_80
#include <random>
#include <vector>

#include "zipk/bloom.cuh"

using namespace zip;

template <int K>
static int run(size_t n_insert, size_t n_query, uint64_t num_bits) {
  std::mt19937_64 gen(0xb10f + K);
  std::vector<uint64_t> keys(n_insert), probes(n_query);
  for (auto &k : keys) k = gen() | 1;        // inserted keys are odd
  for (auto &k : probes) k = gen() & ~1ull;  // probes are even: all absent
  const size_t words = div_up<uint64_t>(num_bits, 32);

  ref::BloomParams p{num_bits, K, 0x5eedULL};
  std::vector<uint32_t> host_bits(words, 0);
  for (uint64_t k : keys) ref::bloom_insert(host_bits, p, k);
  unsigned long long want_fp = 0;
  for (uint64_t k : probes) want_fp += ref::bloom_query(host_bits, p, k);
  unsigned long long want_pop = 0;
  for (uint32_t w : host_bits) want_pop += __builtin_popcount(w);

  DeviceBuffer<uint32_t> d_bits(words);
  DeviceBuffer<uint64_t> d_keys(n_insert), d_probes(n_query);
  DeviceBuffer<uint8_t> d_found(std::max(n_insert, n_query));
  DeviceBuffer<unsigned long long> d_count(2);
  d_bits.zero();
  d_count.zero();
  d_keys.upload(keys.data(), n_insert);
  d_probes.upload(probes.data(), n_query);

  bloom::Filter<K> f{d_bits.get(), num_bits, p.seed};
  bloom::insert_kernel<K><<<32, 128>>>(f, d_keys, n_insert);
  CUDA_CHECK_LAST();
  std::vector<uint32_t> bits(words);
  d_bits.download(bits.data(), words);
  bool ok = bits == host_bits;

  const int threads = 256;
  bloom::query_kernel<K><<<div_up<size_t>(n_insert, threads), threads>>>(f, d_keys, n_insert,
                                                                         d_found, d_count.get());
  bloom::query_kernel<K><<<div_up<size_t>(n_query, threads), threads>>>(f, d_probes, n_query,
                                                                        d_found, d_count.get() + 1);
  bloom::popcount_kernel<<<div_up<size_t>(words, 4 * threads), threads>>>(d_bits, words,
                                                                          d_count.get());
  CUDA_CHECK_LAST();
  unsigned long long counts[2];
  d_count.download(counts, 2);
  std::vector<uint8_t> found(n_query);
  d_found.download(found.data(), n_query);
  unsigned long long fp = 0;
  bool same_each = true;
  for (size_t i = 0; i < n_query; ++i) {
    fp += found[i];
    same_each &= found[i] == ref::bloom_query(host_bits, p, probes[i]);
  }
  // counts[0] holds the inserted keys found (all of them) plus the popcount.
  ok = ok && counts[0] == n_insert + want_pop && counts[1] == want_fp && fp == want_fp && same_each;
  std::printf("  k=%d: %zu keys in %llu bits, %llu bits set, %llu of %zu false positives (%.3f%%)\n",
              K, n_insert, static_cast<unsigned long long>(num_bits), want_pop, fp, n_query,
              100.0 * fp / n_query);
  char name[64];
  std::snprintf(name, sizeof name, "bloom k=%d bits, queries, false positives", K);
  return report(name, ok);
}

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 20001;
  int failures = 0;
  failures += run<3>(n, 2 * n, 8 * n + 13);
  failures += run<7>(n, 2 * n, 10 * n);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
