// strings.cuh: fixed-width string columns (CHAR(W)), padded with zeros.
#pragma once

namespace gdb {

template <int W>
struct fixed_string {
  char c[W];
};

// LIKE 'prefix%' on a CHAR(W) value.
template <int W>
__host__ __device__ __forceinline__ bool starts_with(const fixed_string<W>& s, const char* prefix, int len) {
  for (int i = 0; i < W; ++i) {
    if (i >= len) return true;
    if (s.c[i] != prefix[i]) return false;
  }
  return len <= W;
}

}  // namespace gdb
