/*
 * cub_reduce_scan.cu: CUB's device-wide reductions and scans from the
 * toolkit's CCCL, unmodified, against host references: DeviceReduce (Sum,
 * Min, Max, ArgMax, Reduce with a custom struct, TransformReduce),
 * DeviceScan (inclusive and exclusive, sums, custom operators and an
 * initial value) and DeviceSegmentedReduce (empty segments included), at
 * several sizes including 0, 1 and forty thousand, with 32- and
 * 64-bit types, the temp-storage protocol and a non-default stream
 * (issue 14).
 *
 * Built without optimisation (-Xcompiler -O0): a third of the compile time
 * at -O2, which CCCL's templates make long.
 *
 * CUEMU_OPTIONS: -Xcompiler -O0
 */
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "cccl_test.cuh"

struct max_op {
  template <typename T>
  __host__ __device__ T operator()(const T &a, const T &b) const {
    return a < b ? b : a;
  }
};

struct times_three {
  __host__ __device__ long long operator()(int x) const { return 3LL * x; }
};

static void test_reduce(int n, cudaStream_t s) {
  generator g(n + 1);
  std::vector<int> h(n);
  std::vector<unsigned long long> hu(n);
  std::vector<item> hi(n);
  for (int i = 0; i < n; ++i) {
    h[i] = static_cast<int>(g.range(-100000, 100000));
    hu[i] = (static_cast<unsigned long long>(g.next()) << 32) | g.next();
    hi[i] = make_item(g);
  }
  dbuf<int> in(h);
  dbuf<unsigned long long> inu(hu);
  dbuf<item> initem(hi);
  dbuf<long long> out64(1);
  dbuf<int> out32(1);
  dbuf<unsigned long long> outu(1);
  dbuf<item> outitem(1);

  /* Sum of int into long long: the accumulator is the output's type. */
  long long sum = 0;
  for (int v : h) sum += v;
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceReduce::Sum(t, b, in.ptr, out64.ptr, n, s);
        }, s, out64.ptr, sizeof(long long)) == cudaSuccess);
  CHECK(out64.at(0) == sum);

  /* Min and Max of 64-bit unsigned values (the limits for no items). */
  unsigned long long mn = ULLONG_MAX, mx = 0;
  for (auto v : hu) {
    mn = std::min(mn, v);
    mx = std::max(mx, v);
  }
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceReduce::Min(t, b, inu.ptr, outu.ptr, n, s);
        }, s) == cudaSuccess);
  CHECK(outu.at(0) == mn);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceReduce::Max(t, b, inu.ptr, outu.ptr, n, s);
        }, s) == cudaSuccess);
  CHECK(outu.at(0) == mx);

  /* ArgMax: the first index of the largest value. */
  if (n > 0) {
    dbuf<std::int64_t> index(1);
    CHECK(with_temp([&](void *t, size_t &b) {
            return cub::DeviceReduce::ArgMax(t, b, in.ptr, out32.ptr,
                                             index.ptr, n, s);
          }, s) == cudaSuccess);
    auto it = std::max_element(h.begin(), h.end());
    CHECK(out32.at(0) == *it);
    CHECK(index.at(0) == it - h.begin());
  }

  /* Reduce of a custom struct with an initial value. */
  item init{5, -1000, 5000.0f}, expect = init;
  for (const item &v : hi) expect = item_combine()(expect, v);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceReduce::Reduce(t, b, initem.ptr, outitem.ptr, n,
                                           item_combine(), init, s);
        }, s, outitem.ptr, sizeof(item)) == cudaSuccess);
  CHECK(outitem.at(0) == expect);

  /* TransformReduce: sum of 3x as long long. */
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceReduce::TransformReduce(
              t, b, in.ptr, out64.ptr, n, cuda::std::plus<long long>(),
              times_three(), 7LL, s);
        }, s) == cudaSuccess);
  CHECK(out64.at(0) == 3 * sum + 7);
}

static void test_scan(int n, cudaStream_t s) {
  generator g(3 * n + 2);
  std::vector<int> h(n);
  std::vector<long long> hl(n);
  std::vector<item> hi(n);
  for (int i = 0; i < n; ++i) {
    h[i] = static_cast<int>(g.range(-1000, 1000));
    hl[i] = g.range(-(1ll << 45), 1ll << 45);
    hi[i] = make_item(g);
  }
  dbuf<int> in(h), out(n);
  dbuf<long long> inl(hl), outl(n);
  dbuf<item> initem(hi), outitem(n);

  /* InclusiveSum of int, in place of a copy. */
  std::vector<int> r(n);
  int acc = 0;
  for (int i = 0; i < n; ++i) r[i] = acc += h[i];
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceScan::InclusiveSum(t, b, in.ptr, out.ptr, n, s);
        }, s) == cudaSuccess);
  CHECK(out.get() == r);

  /* ExclusiveSum of 64-bit values. */
  std::vector<long long> rl(n);
  long long accl = 0;
  for (int i = 0; i < n; ++i) {
    rl[i] = accl;
    accl += hl[i];
  }
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceScan::ExclusiveSum(t, b, inl.ptr, outl.ptr, n, s);
        }, s) == cudaSuccess);
  CHECK(outl.get() == rl);

  /* ExclusiveScan with max and an initial value. */
  long long run = -(1ll << 50);
  for (int i = 0; i < n; ++i) {
    rl[i] = run;
    run = std::max(run, hl[i]);
  }
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceScan::ExclusiveScan(t, b, inl.ptr, outl.ptr,
                                                max_op(), -(1ll << 50), n, s);
        }, s) == cudaSuccess);
  CHECK(outl.get() == rl);

  /* InclusiveScan of the custom struct. */
  std::vector<item> ri(n);
  for (int i = 0; i < n; ++i)
    ri[i] = i ? item_combine()(ri[i - 1], hi[i]) : hi[i];
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceScan::InclusiveScan(t, b, initem.ptr, outitem.ptr,
                                                item_combine(), n, s);
        }, s) == cudaSuccess);
  CHECK(outitem.get() == ri);
}

/* Segments of lengths 0, 1, 2, ... (some long, some empty). */
static void test_segmented_reduce(int n, cudaStream_t s) {
  generator g(n + 77);
  std::vector<int> offsets{0};
  while (offsets.back() < n) {
    int len = static_cast<int>(g.range(0, 3) == 0 ? 0 : g.range(1, 3000));
    offsets.push_back(std::min(n, offsets.back() + len));
  }
  offsets.push_back(n); /* a last, empty segment */
  int segments = static_cast<int>(offsets.size()) - 1;
  std::vector<long long> h(n);
  std::vector<item> hi(n);
  for (int i = 0; i < n; ++i) {
    h[i] = g.range(-(1ll << 40), 1ll << 40);
    hi[i] = make_item(g);
  }
  dbuf<long long> in(h), out(segments);
  dbuf<item> initem(hi), outitem(segments);
  dbuf<int> off(offsets);

  std::vector<long long> sums(segments, 0);
  std::vector<item> combined(segments);
  item init{0, INT_MIN, 1e30f};
  for (int k = 0; k < segments; ++k) {
    combined[k] = init;
    for (int i = offsets[k]; i < offsets[k + 1]; ++i) {
      sums[k] += h[i];
      combined[k] = item_combine()(combined[k], hi[i]);
    }
  }
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceSegmentedReduce::Sum(t, b, in.ptr, out.ptr, segments,
                                                 off.ptr, off.ptr + 1, s);
        }, s) == cudaSuccess);
  CHECK(out.get() == sums);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceSegmentedReduce::Reduce(
              t, b, initem.ptr, outitem.ptr, segments, off.ptr, off.ptr + 1,
              item_combine(), init, s);
        }, s) == cudaSuccess);
  CHECK(outitem.get() == combined);
}

int main() {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s) == cudaSuccess);
  for (int n : test_sizes) {
    test_reduce(n, s);
    test_scan(n, s);
    test_segmented_reduce(n, s);
  }
  /* The default stream too. */
  test_reduce(1000, 0);
  test_scan(1000, 0);
  cudaStreamDestroy(s);
  CHECK(cudaGetLastError() == cudaSuccess);
  return finish();
}
