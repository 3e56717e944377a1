#pragma once
// Host-side data generation and reference computations (compiled by the host
// compiler from src/host_reference.cpp).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hashdb {
namespace host {

// n distinct keys below 0xfffffff0 (the sentinels are never produced).
std::vector<uint32_t> unique_keys(size_t n, uint32_t seed);
// n keys drawn from `distinct` values (with repeats).
std::vector<uint32_t> skewed_keys(size_t n, uint32_t distinct, uint32_t seed);
// Keys guaranteed absent from `present`.
std::vector<uint32_t> absent_keys(const std::vector<uint32_t>& present, size_t n, uint32_t seed);

struct JoinPair {
  uint32_t key, build_payload, probe_payload;
  bool operator<(const JoinPair& o) const;
  bool operator==(const JoinPair& o) const;
};
std::vector<JoinPair> hash_join(const std::vector<uint32_t>& build_keys, const std::vector<uint32_t>& build_vals,
                                const std::vector<uint32_t>& probe_keys, const std::vector<uint32_t>& probe_vals);

bool report(const char* program, const char* what, bool ok);

}  // namespace host
}  // namespace hashdb
