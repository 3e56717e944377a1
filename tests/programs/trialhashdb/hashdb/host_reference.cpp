#include <hashdb/host_reference.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <unordered_map>
#include <unordered_set>

namespace hashdb {
namespace host {

std::vector<uint32_t> unique_keys(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<uint32_t> dist(1, 0xffffffefu);
  std::unordered_set<uint32_t> seen;
  seen.reserve(n * 2);
  std::vector<uint32_t> keys;
  keys.reserve(n);
  while (keys.size() < n) {
    uint32_t k = dist(rng);
    if (seen.insert(k).second) keys.push_back(k);
  }
  return keys;
}

std::vector<uint32_t> skewed_keys(size_t n, uint32_t distinct, uint32_t seed) {
  std::mt19937 rng(seed);
  // A geometric-ish skew: small keys are much more frequent.
  std::vector<uint32_t> keys(n);
  for (auto& k : keys) {
    uint32_t a = rng() % distinct, b = rng() % distinct;
    k = std::min(a, b) + 1;
  }
  return keys;
}

std::vector<uint32_t> absent_keys(const std::vector<uint32_t>& present, size_t n, uint32_t seed) {
  std::unordered_set<uint32_t> set(present.begin(), present.end());
  std::mt19937 rng(seed ^ 0x9e3779b9u);
  std::vector<uint32_t> out;
  while (out.size() < n) {
    uint32_t k = rng() % 0xffffffefu + 1;
    if (!set.count(k)) out.push_back(k);
  }
  return out;
}

bool JoinPair::operator<(const JoinPair& o) const {
  if (key != o.key) return key < o.key;
  if (build_payload != o.build_payload) return build_payload < o.build_payload;
  return probe_payload < o.probe_payload;
}
bool JoinPair::operator==(const JoinPair& o) const {
  return key == o.key && build_payload == o.build_payload && probe_payload == o.probe_payload;
}

std::vector<JoinPair> hash_join(const std::vector<uint32_t>& build_keys, const std::vector<uint32_t>& build_vals,
                                const std::vector<uint32_t>& probe_keys, const std::vector<uint32_t>& probe_vals) {
  std::unordered_map<uint32_t, uint32_t> table;
  for (size_t i = 0; i < build_keys.size(); ++i) table.emplace(build_keys[i], build_vals[i]);
  std::vector<JoinPair> out;
  for (size_t i = 0; i < probe_keys.size(); ++i) {
    auto it = table.find(probe_keys[i]);
    if (it != table.end()) out.push_back({probe_keys[i], it->second, probe_vals[i]});
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool report(const char* program, const char* what, bool ok) {
  std::printf("[%s] %-40s %s\n", program, what, ok ? "PASS" : "FAIL");
  return ok;
}

}  // namespace host
}  // namespace hashdb
