/*
 * cub_select.cu: CUB's device-wide selection, partition, histogram and
 * run-length encoding from the toolkit's CCCL, unmodified, against host
 * references: DeviceSelect (If, Flagged, Unique), DevicePartition (If with
 * one and with two predicates), DeviceHistogram (HistogramEven,
 * HistogramRange, samples out of range) and DeviceRunLengthEncode (Encode,
 * NonTrivialRuns), at several sizes with 32- and 64-bit types and a custom
 * struct, the temp-storage protocol and a non-default stream (issue 14).
 *
 * Built without optimisation (-Xcompiler -O0): a third of the compile time
 * at -O2, which CCCL's templates make long.
 *
 * CUEMU_OPTIONS: -Xcompiler -O0
 */
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_select.cuh>

#include <cstdint>
#include <vector>

#include "cccl_test.cuh"

struct heavy {
  __host__ __device__ bool operator()(const item &x) const {
    return x.weight > 0 && x.key % 3 != 0;
  }
};

struct below {
  long long limit;
  __host__ __device__ bool operator()(long long x) const { return x < limit; }
};

static void test_select(int n, cudaStream_t s) {
  generator g(n + 5);
  std::vector<item> h(n);
  std::vector<long long> runs(n);
  std::vector<char> flags(n);
  long long v = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = make_item(g);
    if (g.range(0, 2) == 0)
      v = g.range(-4, 4) * (1ll << 35); /* runs of repeated values */
    runs[i] = v;
    flags[i] = static_cast<char>(g.range(0, 1));
  }
  dbuf<item> in(h), out(n);
  dbuf<long long> inl(runs), outl(n);
  dbuf<char> fl(flags);
  dbuf<std::int64_t> count(1);

  /* If with a custom predicate on a custom struct. */
  std::vector<item> kept;
  for (const item &x : h)
    if (heavy()(x)) kept.push_back(x);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceSelect::If(t, b, in.ptr, out.ptr, count.ptr, n,
                                       heavy(), s);
        }, s, count.ptr, sizeof(std::int64_t)) == cudaSuccess);
  CHECK(count.at(0) == static_cast<std::int64_t>(kept.size()));
  CHECK(out.get(kept.size()) == kept);

  /* Flagged. */
  std::vector<long long> flagged;
  for (int i = 0; i < n; ++i)
    if (flags[i]) flagged.push_back(runs[i]);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceSelect::Flagged(t, b, inl.ptr, fl.ptr, outl.ptr,
                                            count.ptr, n, s);
        }, s) == cudaSuccess);
  CHECK(count.at(0) == static_cast<std::int64_t>(flagged.size()));
  CHECK(outl.get(flagged.size()) == flagged);

  /* Unique: the first of each run of equal values. */
  std::vector<long long> unique;
  for (int i = 0; i < n; ++i)
    if (i == 0 || runs[i] != runs[i - 1]) unique.push_back(runs[i]);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceSelect::Unique(t, b, inl.ptr, outl.ptr, count.ptr,
                                           n, s);
        }, s) == cudaSuccess);
  CHECK(count.at(0) == static_cast<std::int64_t>(unique.size()));
  CHECK(outl.get(unique.size()) == unique);
}

static void test_partition(int n, cudaStream_t s) {
  generator g(2 * n + 9);
  std::vector<long long> h(n);
  for (int i = 0; i < n; ++i) h[i] = g.range(-(1ll << 40), 1ll << 40);
  dbuf<long long> in(h), out(n), first(n), second(n), rest(n);
  dbuf<int> count(2);
  below pick{1ll << 38};

  /* One predicate: the selected in order, then the others in reverse. */
  std::vector<long long> expect;
  for (long long x : h)
    if (pick(x)) expect.push_back(x);
  int selected = static_cast<int>(expect.size());
  for (int i = n - 1; i >= 0; --i)
    if (!pick(h[i])) expect.push_back(h[i]);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DevicePartition::If(t, b, in.ptr, out.ptr, count.ptr, n,
                                          pick, s);
        }, s) == cudaSuccess);
  CHECK(count.at(0) == selected);
  CHECK(out.get() == expect);

  /* Two predicates: three parts, each in order. */
  below small{-(1ll << 39)};
  std::vector<long long> p1, p2, p3;
  for (long long x : h)
    (small(x) ? p1 : pick(x) ? p2 : p3).push_back(x);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DevicePartition::If(t, b, in.ptr, first.ptr, second.ptr,
                                          rest.ptr, count.ptr, n, small, pick,
                                          s);
        }, s) == cudaSuccess);
  std::vector<int> counts = count.get();
  CHECK(counts[0] == static_cast<int>(p1.size()));
  CHECK(counts[1] == static_cast<int>(p2.size()));
  CHECK(first.get(p1.size()) == p1);
  CHECK(second.get(p2.size()) == p2);
  CHECK(rest.get(p3.size()) == p3);
}

static void test_histogram(int n, cudaStream_t s) {
  generator g(n + 13);
  std::vector<int> samples(n);
  for (int i = 0; i < n; ++i) samples[i] = static_cast<int>(g.range(-20, 279));
  dbuf<int> in(samples);

  /* 32 bins of width 8 over [0, 256): samples outside are not counted. */
  const int levels = 33;
  std::vector<int> even(levels - 1, 0);
  for (int x : samples)
    if (x >= 0 && x < 256) even[x / 8]++;
  dbuf<int> hist(levels - 1);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceHistogram::HistogramEven(t, b, in.ptr, hist.ptr,
                                                     levels, 0, 256, n, s);
        }, s) == cudaSuccess);
  CHECK(hist.get() == even);

  /* Bins of uneven widths. */
  std::vector<int> bounds{-10, 0, 1, 17, 100, 101, 250};
  std::vector<unsigned long long> ranged(bounds.size() - 1, 0);
  for (int x : samples)
    for (size_t k = 0; k + 1 < bounds.size(); ++k)
      if (x >= bounds[k] && x < bounds[k + 1]) ranged[k]++;
  dbuf<int> lv(bounds);
  dbuf<unsigned long long> hist64(bounds.size() - 1);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceHistogram::HistogramRange(
              t, b, in.ptr, hist64.ptr, static_cast<int>(bounds.size()),
              lv.ptr, n, s);
        }, s) == cudaSuccess);
  CHECK(hist64.get() == ranged);
}

static void test_run_length(int n, cudaStream_t s) {
  generator g(n + 17);
  std::vector<std::uint64_t> h(n);
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) {
    if (g.range(0, 3) == 0)
      v = static_cast<std::uint64_t>(g.range(0, 5)) << 40;
    h[i] = v;
  }
  std::vector<std::uint64_t> values;
  std::vector<int> lengths, offsets, long_lengths;
  for (int i = 0; i < n;) {
    int j = i;
    while (j < n && h[j] == h[i]) ++j;
    values.push_back(h[i]);
    lengths.push_back(j - i);
    if (j - i > 1) {
      offsets.push_back(i);
      long_lengths.push_back(j - i);
    }
    i = j;
  }
  dbuf<std::uint64_t> in(h), uniq(n);
  dbuf<int> len(n), off(n), runs(1);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceRunLengthEncode::Encode(t, b, in.ptr, uniq.ptr,
                                                    len.ptr, runs.ptr, n, s);
        }, s) == cudaSuccess);
  CHECK(runs.at(0) == static_cast<int>(values.size()));
  CHECK(uniq.get(values.size()) == values);
  CHECK(len.get(lengths.size()) == lengths);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceRunLengthEncode::NonTrivialRuns(
              t, b, in.ptr, off.ptr, len.ptr, runs.ptr, n, s);
        }, s) == cudaSuccess);
  CHECK(runs.at(0) == static_cast<int>(offsets.size()));
  CHECK(off.get(offsets.size()) == offsets);
  CHECK(len.get(long_lengths.size()) == long_lengths);
}

int main() {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s) == cudaSuccess);
  for (int n : test_sizes) {
    test_select(n, s);
    test_partition(n, s);
    test_histogram(n, s);
    test_run_length(n, s);
  }
  test_histogram(5000, 0);
  cudaStreamDestroy(s);
  CHECK(cudaGetLastError() == cudaSuccess);
  return finish();
}
