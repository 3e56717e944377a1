// host_ref.h: data generators and host reference operators (host_ref.cpp,
// compiled by the host compiler alone).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gdb::host {

std::vector<int64_t> random_keys(size_t n, int64_t range, uint64_t seed);
std::vector<int> skewed_groups(size_t n, int groups, uint64_t seed);
std::vector<float> random_floats(size_t n, float lo, float hi, uint64_t seed);

using row_pair = std::pair<int64_t, int64_t>;
std::vector<row_pair> hash_join(const std::vector<int64_t>& build, const std::vector<int64_t>& probe);

void print_device_summary();  // device_info.cpp
uint64_t splitmix(uint64_t& state);

}  // namespace gdb::host
