// hash_join.cu: build and probe of a hash join on int64 keys with duplicates
// on both sides, checked against std::unordered_multimap.
// From the trialdb trial (GPU query operators), kept as a test by
// tests/programs_trialdb.sh.
// CUEMU_OPTIONS: -O0 -I. -rdc=true --expt-relaxed-constexpr --extended-lambda gdb/hash_device.cu gdb/select_device.cu gdb/host_ref.cpp gdb/device_info.cpp
// NVCC_OPTIONS: -I. -rdc=true --expt-relaxed-constexpr --extended-lambda
#include <algorithm>
#include <cstdio>
#include <vector>

#include <gdb/cg_table.cuh>
#include <gdb/common.cuh>
#include <gdb/host_ref.h>
#include <gdb/join.cuh>

using namespace gdb;

int main(int argc, char** argv) {
  host::print_device_summary();
  const size_t n_build = argc > 1 ? size_t(atol(argv[1])) : 40000;
  const size_t n_probe = n_build * 2;
  auto build = host::random_keys(n_build, int64_t(n_build / 2), 1);
  auto probe = host::random_keys(n_probe, int64_t(n_build), 2);
  auto expect = host::hash_join(build, probe);

  column<int64_t> d_build(build), d_probe(probe);
  join_hash_table table(n_build);

  constexpr int kBlock = 256;
  int min_grid = 0, best_block = 0;
  GDB_CUDA_TRY(cudaOccupancyMaxPotentialBlockSize(&min_grid, &best_block, join_build<kBlock>, 0, kBlock));
  gpu_timer timer;
  timer.start();
  join_build<kBlock><<<grid_for(n_build, kBlock), kBlock>>>(table.view(), d_build.data(), n_build);
  GDB_CHECK_LAST();

  const unsigned long long capacity = expect.size() + 1024;
  column<join_pair> d_out(capacity);
  column<unsigned long long> d_count(1);
  d_count.fill_bytes(0);
  join_probe<kBlock><<<grid_for(n_probe, kBlock, 64), kBlock>>>(table.view(), d_probe.data(), n_probe, d_out.data(),
                                                               d_count.data(), capacity);
  GDB_CHECK_LAST();
  float ms = timer.stop();
  GDB_CUDA_TRY(cudaDeviceSynchronize());

  unsigned long long count = d_count.download()[0];
  int failures = report("match count", count == expect.size());
  if (count <= capacity) {
    auto pairs = d_out.download(count);
    std::vector<host::row_pair> got;
    got.reserve(pairs.size());
    for (const auto& p : pairs) got.emplace_back(p.build_row, p.probe_row);
    std::sort(got.begin(), got.end());
    failures += report("join pairs", got == expect);
  } else {
    failures += report("join pairs", false);
  }
  // The same join counted through a cooperative-groups multimap.
  {
    constexpr int kCG = 4;
    size_t windows = 1;
    while (windows * kCG < n_build * 2) windows <<= 1;
    column<cg_slot> slots(windows * kCG);
    slots.fill_bytes(0xff);
    column<unsigned> per_row(n_probe);
    column<unsigned long long> total(1);
    total.fill_bytes(0);
    cg_multimap_view<kCG> map{slots.data(), uint32_t(windows)};
    cg_build<kCG><<<grid_for(n_build * kCG, 128, 256), 128>>>(map, d_build.data(), n_build);
    cg_count<kCG><<<grid_for(n_probe * kCG, 128, 256), 128>>>(map, d_probe.data(), n_probe, per_row.data(),
                                                              total.data());
    GDB_CHECK_LAST();
    std::vector<unsigned> want(n_probe, 0);
    for (const auto& p : expect) want[size_t(p.second)]++;
    failures += report("cooperative-groups multimap count", total.download()[0] == expect.size() &&
                                                                per_row.download() == want);
  }
  std::fprintf(stderr, "join: %zu x %zu rows, %llu matches, %.3f ms (occupancy grid %d block %d)\n", n_build, n_probe,
               count, ms, min_grid, best_block);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
