// rle.cu: run-length encoding and decoding of a byte column with CUB,
// run-head selection, a predicate selection and a byte histogram; each
// checked against the host. (The trial's Thrust part, reduce_by_key and
// exclusive_scan on device_vectors, is left out here: Thrust's build cost.)
// Built as the trial built it (at -O0 here): an sm_75 cubin and PTX besides an sm_80
// cubin, whose compute_75 pass a 9.0 device runs (tests/programs_trialzip.sh).
// CUEMU_OPTIONS: -Xcompiler -O0 -arch=sm_75 -gencode arch=compute_80,code=sm_80
#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include <thrust/iterator/counting_iterator.h>

#include "zipk/rle.cuh"
#include "zipk/ref.cuh"

using namespace zip;

static std::vector<unsigned char> make_runs_bytes(int n, unsigned seed) {
  std::mt19937 gen(seed);
  std::geometric_distribution<int> run_len(0.15);
  std::uniform_int_distribution<int> byte(0, 15);
  std::vector<unsigned char> v;
  v.reserve(n);
  while (static_cast<int>(v.size()) < n) {
    unsigned char b = static_cast<unsigned char>(byte(gen) * 13 + 7);
    int len = 1 + run_len(gen);
    for (int i = 0; i < len && static_cast<int>(v.size()) < n; ++i) v.push_back(b);
  }
  return v;
}

static int test_cub_bytes(int n) {
  auto h_in = make_runs_bytes(n, 1234);
  std::vector<unsigned char> h_vals;
  std::vector<int> h_lens;
  ref::rle_encode(h_in, h_vals, h_lens);

  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  DeviceBuffer<unsigned char> d_in(n), d_unique(n), d_out(n);
  DeviceBuffer<int> d_lengths(n), d_offsets(n), d_num(1);
  d_in.upload(h_in.data(), n);
  int runs = rle::encode<unsigned char>(d_in, n, d_unique, d_lengths, d_num, s);
  bool ok = runs == static_cast<int>(h_vals.size());
  if (ok) {
    std::vector<unsigned char> vals(runs);
    std::vector<int> lens(runs);
    d_unique.download(vals.data(), runs);
    d_lengths.download(lens.data(), runs);
    ok = vals == h_vals && lens == h_lens;
  }
  rle::decode<unsigned char>(d_unique, d_lengths, runs, d_offsets, d_out, s);
  CUDA_CHECK(cudaStreamSynchronize(s));
  std::vector<unsigned char> back(n);
  d_out.download(back.data(), n);
  ok = ok && back == h_in;
  CUDA_CHECK(cudaStreamDestroy(s));
  std::printf("  bytes: %d values -> %d runs (ratio %.2f)\n", n, runs,
              static_cast<double>(n) / (runs * 5.0));
  return report("rle cub bytes round trip", ok);
}

static int test_select_and_histogram(int n) {
  auto h_in = make_runs_bytes(n, 99);
  std::vector<int> h_ints(h_in.begin(), h_in.end());
  DeviceBuffer<int> d_ints(n), d_sel(n), d_nsel(1);
  DeviceBuffer<unsigned char> d_flags(n);
  d_ints.upload(h_ints.data(), n);

  // Run heads through DeviceSelect::Flagged, with the index as the item.
  rle::mark_run_heads<<<div_up(n, 256), 256>>>(d_ints.get(), n, d_flags.get());
  CUDA_CHECK_LAST();
  thrust::counting_iterator<int> idx(0);
  rle::with_temp_storage([&](void *t, size_t &b) {
    return cub::DeviceSelect::Flagged(t, b, idx, d_flags.get(), d_sel.get(), d_nsel.get(), n);
  });
  int nsel = 0;
  d_nsel.download(&nsel, 1);
  std::vector<int> heads(nsel);
  d_sel.download(heads.data(), nsel);
  std::vector<int> want_heads;
  for (int i = 0; i < n; ++i)
    if (i == 0 || h_ints[i] != h_ints[i - 1]) want_heads.push_back(i);
  bool ok = heads == want_heads;

  // Values above a threshold through DeviceSelect::If.
  rle::with_temp_storage([&](void *t, size_t &b) {
    return cub::DeviceSelect::If(t, b, d_ints.get(), d_sel.get(), d_nsel.get(), n,
                                 rle::GreaterThan(100));
  });
  d_nsel.download(&nsel, 1);
  std::vector<int> big(nsel);
  d_sel.download(big.data(), nsel);
  std::vector<int> want_big;
  std::copy_if(h_ints.begin(), h_ints.end(), std::back_inserter(want_big),
               [](int v) { return v > 100; });
  ok = ok && big == want_big;

  // A 256-bin byte histogram, as a Huffman coder's first step.
  DeviceBuffer<unsigned char> d_bytes(n);
  d_bytes.upload(h_in.data(), n);
  DeviceBuffer<int> d_hist(256);
  rle::with_temp_storage([&](void *t, size_t &b) {
    return cub::DeviceHistogram::HistogramEven(t, b, d_bytes.get(), d_hist.get(), 257, 0, 256, n);
  });
  std::vector<int> hist(256);
  d_hist.download(hist.data(), 256);
  ok = ok && hist == ref::byte_histogram(h_in);
  return report("rle select flagged/if and histogram", ok);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : (1 << 16);
  int failures = 0;
  failures += test_cub_bytes(n);
  failures += test_select_and_histogram(n);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
