// host_ref.cpp: the host side of the checks.
#include "gdb/host_ref.h"

#include <algorithm>
#include <unordered_map>

namespace gdb::host {

uint64_t splitmix(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::vector<int64_t> random_keys(size_t n, int64_t range, uint64_t seed) {
  std::vector<int64_t> keys(n);
  for (auto& k : keys) k = int64_t(splitmix(seed) % uint64_t(range)) * 7919 - 123456789;
  return keys;
}

std::vector<int> skewed_groups(size_t n, int groups, uint64_t seed) {
  std::vector<int> keys(n);
  for (auto& k : keys) {
    uint64_t r = splitmix(seed);
    // Half the rows fall in the first eighth of the groups.
    k = (r & 1) ? int((r >> 8) % uint64_t(groups)) : int((r >> 8) % uint64_t(std::max(1, groups / 8)));
    k = k * 37 + 5;
  }
  return keys;
}

std::vector<float> random_floats(size_t n, float lo, float hi, uint64_t seed) {
  std::vector<float> v(n);
  for (auto& x : v) x = lo + (hi - lo) * float(splitmix(seed) >> 40) / float(1ull << 24);
  return v;
}

std::vector<row_pair> hash_join(const std::vector<int64_t>& build, const std::vector<int64_t>& probe) {
  std::unordered_multimap<int64_t, int64_t> table;
  table.reserve(build.size());
  for (size_t i = 0; i < build.size(); ++i) table.emplace(build[i], int64_t(i));
  std::vector<row_pair> out;
  for (size_t j = 0; j < probe.size(); ++j) {
    auto range = table.equal_range(probe[j]);
    for (auto it = range.first; it != range.second; ++it) out.emplace_back(it->second, int64_t(j));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace gdb::host
