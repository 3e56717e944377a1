// select.cu: selection with stream compaction, by cub::DeviceSelect::If and by
// a block scan, checked against the host. (The test keeps fewer CUB and
// Thrust algorithms than the trial did, for compile time: the trial's
// cub::DeviceSelect::Flagged, DevicePartition::If, RunLengthEncode,
// DeviceReduce with a device lambda, thrust::copy_if on a stream and
// transform_reduce passed.)
// From the trialdb trial (GPU query operators), kept as a test by
// tests/programs_trialdb.sh.
// CUEMU_OPTIONS: -O0 -I. -rdc=true --expt-relaxed-constexpr --extended-lambda gdb/hash_device.cu gdb/select_device.cu gdb/host_ref.cpp gdb/device_info.cpp
// NVCC_OPTIONS: -I. -rdc=true --expt-relaxed-constexpr --extended-lambda
#include <cub/device/device_select.cuh>
#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstring>
#include <string>

#include <gdb/common.cuh>
#include <gdb/host_ref.h>
#include <gdb/lookback.cuh>
#include <gdb/select.cuh>

using namespace gdb;


// A kernel over rows that takes any row function: engines launch it with
// device lambdas.
template <typename F>
__global__ void for_each_row(int n, F f) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) f(i);
}

template <typename F>
void launch_for_each(int n, F f, cudaStream_t stream = 0) {
  for_each_row<<<grid_for(size_t(n), 256, 128), 256, 0, stream>>>(n, f);
}

static const char* kWords[] = {"ALPHA", "ALPINE", "ALTO", "BETA", "BRAVO", "CHARLIE", "ALPACA", "DELTA"};

static std::vector<str16> make_strings(size_t n, uint64_t seed) {
  std::vector<str16> out(n);
  for (size_t i = 0; i < n; ++i) {
    std::memset(out[i].c, 0, kStrWidth);
    uint64_t r = host::splitmix(seed);
    std::string s = std::string(kWords[r % 8]) + "_" + std::to_string((r >> 8) % 100000);
    std::memcpy(out[i].c, s.data(), std::min<size_t>(s.size(), kStrWidth));
  }
  return out;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 300000;
  const char prefix[] = "ALP";
  const int bound = 250;
  std::vector<int> a(n);
  uint64_t seed = 5;
  for (auto& x : a) x = int(host::splitmix(seed) % 1000);
  auto b = make_strings(n, 6);

  std::vector<int> expect;
  for (int i = 0; i < n; ++i)
    if (a[i] < bound && starts_with(b[i], prefix, int(std::strlen(prefix)))) expect.push_back(i);

  char pattern[kStrWidth] = {};
  std::memcpy(pattern, prefix, std::strlen(prefix));
  const int len = int(std::strlen(prefix));
  GDB_CUDA_TRY(cudaMemcpyToSymbol(c_prefix, pattern, sizeof pattern));
  GDB_CUDA_TRY(cudaMemcpyToSymbol(c_prefix_len, &len, sizeof len));

  column<int> d_a(a), d_out(n), d_count(1), d_ids(n);
  column<str16> d_b(b);
  where_predicate pred{d_a.data(), d_b.data(), bound};

  // cub::DeviceSelect::If over the row ids 0..n-1.
  thrust::counting_iterator<int> rows(0);
  size_t temp_bytes = 0;
  GDB_CUDA_TRY(cub::DeviceSelect::If(nullptr, temp_bytes, rows, d_out.data(), d_count.data(), n, pred));
  column<unsigned char> temp(temp_bytes);
  GDB_CUDA_TRY(cub::DeviceSelect::If(temp.data(), temp_bytes, rows, d_out.data(), d_count.data(), n, pred));
  const int count = d_count.download()[0];
  auto got = d_out.download(size_t(count));
  int failures = report("cub::DeviceSelect::If", count == int(expect.size()) && got == expect);

  // The hand-written block scan; the blocks' order of output is not fixed.
  iota_kernel<<<64, 256>>>(d_ids.data(), n);
  d_count.fill_bytes(0);
  d_out.fill_bytes(0xff);
  constexpr int kBlock = 128, kItems = 4;
  select_block_scan<kBlock, kItems><<<grid_for(size_t(n), kBlock * kItems, 32), kBlock>>>(pred, d_ids.data(), n,
                                                                                          d_out.data(), d_count.data());
  GDB_CHECK_LAST();
  const int count2 = d_count.download()[0];
  auto got2 = d_out.download(size_t(count2));
  std::sort(got2.begin(), got2.end());
  failures += report("block-scan compaction", count2 == int(expect.size()) && got2 == expect);
  // Single pass with decoupled look-back: the row order is kept.
  {
    constexpr int kLbBlock = 128, kLbItems = 8, kLbTile = kLbBlock * kLbItems;
    const int tiles = (n + kLbTile - 1) / kLbTile;
    column<unsigned long long> status(static_cast<size_t>(tiles));
    column<unsigned> ticket(1);
    column<int> total(1);
    status.fill_bytes(0);
    ticket.fill_bytes(0);
    d_out.fill_bytes(0xff);
    compact_lookback<kLbBlock, kLbItems><<<tiles, kLbBlock>>>(pred, n, d_out.data(), status.data(), ticket.data(),
                                                              total.data());
    GDB_CHECK_LAST();
    const int count3 = total.download()[0];
    failures += report("decoupled look-back compaction", count3 == int(expect.size()) &&
                                                             d_out.download(size_t(count3)) == expect);
  }

  // Extended lambdas: a predicate, a row function launched by a kernel
  // template, a reduction operator for CUB, a host-device transform.
  {
    const int* a_col = d_a.data();
    const str16* b_col = d_b.data();
    auto where = [=] __device__(int row) {
      return a_col[row] < bound && starts_with(b_col[row], c_prefix, c_prefix_len);
    };
    const int counted = int(thrust::count_if(thrust::device, thrust::counting_iterator<int>(0),
                                             thrust::counting_iterator<int>(n), where));
    std::vector<int> want_flags(size_t(n), 0);
    for (int r : expect) want_flags[size_t(r)] = 1;
    int* flags = d_out.data();
    launch_for_each(n, [=] __device__(int row) { flags[row] = where(row) ? 1 : 0; });
    GDB_CHECK_LAST();
    failures += report("extended lambdas", counted == int(expect.size()) &&
                                               d_out.download(size_t(n)) == want_flags);
  }
  std::fprintf(stderr, "select: %d of %d rows\n", count, n);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
