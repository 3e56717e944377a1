// hashtable.cu - builds a warp-cooperative hash table and checks lookups
// against std::unordered_map.
// NVCC_OPTIONS: -rdc=true -I../include -I../host
#include <unordered_map>
#include <vector>
#include "hash_table.cuh"

template <int TILE>
static int check_find(const DeviceTable &t, const std::vector<unsigned long long> &queries,
                      const std::unordered_map<unsigned long long, uint32_t> &ref) {
  const int n = (int)queries.size();
  unsigned long long *d_q;
  uint32_t *d_out;
  unsigned int *d_count;
  CUDA_CHECK(cudaMalloc(&d_q, n * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(uint32_t)));
  CUDA_CHECK(cudaMalloc(&d_count, sizeof(unsigned int)));
  CUDA_CHECK(cudaMemcpy(d_q, queries.data(), n * sizeof(unsigned long long), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_count, 0, sizeof(unsigned int)));
  table_find<TILE><<<(n + 127) / 128, 128>>>(t, d_q, d_out, n, d_count);
  CUDA_CHECK_LAST();
  std::vector<uint32_t> out(n);
  unsigned int count = 0;
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&count, d_count, sizeof(count), cudaMemcpyDeviceToHost));
  unsigned expect_count = 0;
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    auto it = ref.find(queries[i]);
    const uint32_t expect = it == ref.end() ? 0xffffffffu : it->second;
    expect_count += it != ref.end();
    if (out[i] != expect && bad++ < 3) std::printf("tile %d: query %d got %u want %u\n", TILE, i, out[i], expect);
  }
  if (count != expect_count) std::printf("tile %d: count %u want %u\n", TILE, count, expect_count);
  CUDA_CHECK(cudaFree(d_q));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_count));
  return bad == 0 && count == expect_count;
}

int main() {
  const int n = 3000;
  const uint32_t capacity = 8192;
  XorShift64 rng(31337);
  std::vector<unsigned long long> keys(n);
  std::vector<uint32_t> vals(n);
  std::unordered_map<unsigned long long, uint32_t> ref;
  for (int i = 0; i < n; ++i) {
    // Every tenth key repeats an earlier one (with the same value).
    keys[i] = (i % 10 == 9) ? keys[i / 2] : (rng.next() & ~(1ull << 63));
    vals[i] = (uint32_t)(mix64(keys[i]) >> 40);
    ref[keys[i]] = vals[i];
  }
  DeviceTable t;
  t.capacity = capacity;
  CUDA_CHECK(cudaMalloc(&t.keys, capacity * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMalloc(&t.values, capacity * sizeof(uint32_t)));
  CUDA_CHECK(cudaMemset(t.keys, 0xff, capacity * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemset(t.values, 0, capacity * sizeof(uint32_t)));
  unsigned long long *d_keys;
  uint32_t *d_vals;
  CUDA_CHECK(cudaMalloc(&d_keys, n * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMalloc(&d_vals, n * sizeof(uint32_t)));
  CUDA_CHECK(cudaMemcpy(d_keys, keys.data(), n * sizeof(unsigned long long), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_vals, vals.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
  table_insert<<<(n + 255) / 256, 256>>>(t, d_keys, d_vals, n);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaDeviceSynchronize());

  // Count occupied slots on the host.
  std::vector<unsigned long long> slots(capacity);
  CUDA_CHECK(cudaMemcpy(slots.data(), t.keys, capacity * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  size_t used = 0;
  for (auto k : slots) used += k != kEmpty;
  int fails = report("table_insert", used == ref.size());

  std::vector<unsigned long long> queries;
  for (int i = 0; i < n; i += 2) queries.push_back(keys[i]);
  for (int i = 0; i < 700; ++i) queries.push_back(rng.next() | (1ull << 63));  // absent
  fails += report("table_find_tile32", check_find<32>(t, queries, ref)) ;
  fails += report("table_find_tile16", check_find<16>(t, queries, ref));
  CUDA_CHECK(cudaFree(t.keys));
  CUDA_CHECK(cudaFree(t.values));
  CUDA_CHECK(cudaFree(d_keys));
  CUDA_CHECK(cudaFree(d_vals));
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
