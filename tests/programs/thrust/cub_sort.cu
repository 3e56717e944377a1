/*
 * cub_sort.cu: CUB's device-wide sorts from the toolkit's CCCL, unmodified,
 * against host references (std::stable_sort): DeviceRadixSort of keys and
 * of pairs (32- and 64-bit, signed and float keys, descending, a bit range,
 * the DoubleBuffer form), DeviceSegmentedRadixSort and DeviceSegmentedSort
 * with empty segments, and DeviceMergeSort of a custom struct with a
 * custom comparator, at several sizes with the temp-storage protocol and a
 * non-default stream (issue 14).
 *
 * Built without optimisation (-Xcompiler -O0): a third of the compile time
 * at -O2, which CCCL's templates make long.
 *
 * CUEMU_OPTIONS: -Xcompiler -O0
 */
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "cccl_test.cuh"

/* The order of `keys` after a stable sort by `less`, as indices. */
template <typename K, typename Less>
static std::vector<int> stable_order(const std::vector<K> &keys, Less less) {
  std::vector<int> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return less(keys[a], keys[b]); });
  return order;
}

template <typename T>
static std::vector<T> permuted(const std::vector<T> &v,
                               const std::vector<int> &order) {
  std::vector<T> r(order.size());
  for (size_t i = 0; i < order.size(); ++i) r[i] = v[order[i]];
  return r;
}

static void test_radix(int n, cudaStream_t s) {
  generator g(n + 11);
  std::vector<int> keys(n), values(n);
  std::vector<std::uint64_t> wide(n);
  std::vector<float> reals(n);
  for (int i = 0; i < n; ++i) {
    keys[i] = static_cast<int>(g.range(-5000, 5000)); /* many ties */
    values[i] = i;
    wide[i] = (static_cast<std::uint64_t>(g.next()) << 32) | g.next();
    reals[i] = static_cast<float>(g.range(-100000, 100000)) / 8.0f + 0.0625f;
  }
  dbuf<int> kin(keys), kout(n), vin(values), vout(n);
  dbuf<std::uint64_t> win(wide), wout(n);
  dbuf<float> rin(reals), rout(n);

  /* Pairs of int keys: stable, so equal keys keep their input order. */
  auto order = stable_order(keys, [](int a, int b) { return a < b; });
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceRadixSort::SortPairs(t, b, kin.ptr, kout.ptr,
                                                 vin.ptr, vout.ptr, n, 0, 32, s);
        }, s, kout.ptr, n * sizeof(int)) == cudaSuccess);
  CHECK(kout.get() == permuted(keys, order));
  CHECK(vout.get() == order);

  /* Descending pairs. */
  order = stable_order(keys, [](int a, int b) { return a > b; });
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceRadixSort::SortPairsDescending(
              t, b, kin.ptr, kout.ptr, vin.ptr, vout.ptr, n, 0, 32, s);
        }, s) == cudaSuccess);
  CHECK(kout.get() == permuted(keys, order));
  CHECK(vout.get() == order);

  /* 64-bit keys. */
  std::vector<std::uint64_t> sorted = wide;
  std::sort(sorted.begin(), sorted.end());
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceRadixSort::SortKeys(t, b, win.ptr, wout.ptr, n, 0,
                                                64, s);
        }, s) == cudaSuccess);
  CHECK(wout.get() == sorted);

  /* Bits [8, 20) of the 64-bit keys only: stable by those bits. */
  auto mid = [](std::uint64_t k) { return (k >> 8) & 0xFFF; };
  order = stable_order(wide, [&](std::uint64_t a, std::uint64_t b) {
    return mid(a) < mid(b);
  });
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceRadixSort::SortKeys(t, b, win.ptr, wout.ptr, n, 8,
                                                20, s);
        }, s) == cudaSuccess);
  CHECK(wout.get() == permuted(wide, order));

  /* Float keys, descending, through a DoubleBuffer. */
  std::vector<float> rsorted = reals;
  std::sort(rsorted.begin(), rsorted.end(), [](float a, float b) { return a > b; });
  cub::DoubleBuffer<float> db(rin.ptr, rout.ptr);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceRadixSort::SortKeysDescending(t, b, db, n, 0, 32, s);
        }, s) == cudaSuccess);
  CHECK((db.Current() == rin.ptr ? rin.get() : rout.get()) == rsorted);
}

/* Segments with lengths from 0 to a few thousand. */
static std::vector<int> segment_offsets(int n, generator &g) {
  std::vector<int> offsets{0};
  while (offsets.back() < n) {
    int len = static_cast<int>(g.range(0, 4) == 0 ? 0 : g.range(1, 2500));
    offsets.push_back(std::min(n, offsets.back() + len));
  }
  offsets.push_back(n);
  return offsets;
}

static void test_segmented(int n, cudaStream_t s) {
  generator g(n + 23);
  std::vector<int> offsets = segment_offsets(n, g);
  int segments = static_cast<int>(offsets.size()) - 1;
  std::vector<std::int64_t> keys(n);
  std::vector<int> values(n);
  for (int i = 0; i < n; ++i) {
    keys[i] = g.range(-300, 300) * (1ll << 33);
    values[i] = i;
  }
  /* Each segment stably sorted on its own. */
  std::vector<std::int64_t> rk(n);
  std::vector<int> rv(n);
  for (int k = 0; k < segments; ++k) {
    std::vector<std::int64_t> part(keys.begin() + offsets[k],
                                   keys.begin() + offsets[k + 1]);
    auto order = stable_order(part, [](std::int64_t a, std::int64_t b) {
      return a < b;
    });
    for (size_t i = 0; i < order.size(); ++i) {
      rk[offsets[k] + i] = part[order[i]];
      rv[offsets[k] + i] = offsets[k] + order[i];
    }
  }
  dbuf<std::int64_t> kin(keys), kout(n);
  dbuf<int> vin(values), vout(n), off(offsets);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceSegmentedRadixSort::SortPairs(
              t, b, kin.ptr, kout.ptr, vin.ptr, vout.ptr, n, segments, off.ptr,
              off.ptr + 1, 0, 64, s);
        }, s) == cudaSuccess);
  CHECK(kout.get() == rk);
  CHECK(vout.get() == rv);

  dbuf<std::int64_t> kout2(n);
  dbuf<int> vout2(n);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceSegmentedSort::StableSortPairs(
              t, b, kin.ptr, kout2.ptr, vin.ptr, vout2.ptr, n, segments,
              off.ptr, off.ptr + 1, s);
        }, s) == cudaSuccess);
  CHECK(kout2.get() == rk);
  CHECK(vout2.get() == rv);
}

static void test_merge(int n, cudaStream_t s) {
  generator g(n + 31);
  std::vector<item> keys(n);
  std::vector<int> values(n);
  for (int i = 0; i < n; ++i) {
    keys[i] = make_item(g);
    keys[i].weight %= 4; /* ties of the comparator */
    values[i] = i;
  }
  auto order = stable_order(keys, item_less());
  dbuf<item> k(keys);
  dbuf<int> v(values);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceMergeSort::StableSortPairs(t, b, k.ptr, v.ptr, n,
                                                       item_less(), s);
        }, s, k.ptr, n * sizeof(item)) == cudaSuccess);
  CHECK(k.get() == permuted(keys, order));
  CHECK(v.get() == order);

  /* SortKeysCopy leaves its input alone. */
  dbuf<item> in(keys), out(n);
  std::vector<item> sorted = permuted(keys, order);
  CHECK(with_temp([&](void *t, size_t &b) {
          return cub::DeviceMergeSort::SortKeysCopy(t, b, in.ptr, out.ptr, n,
                                                    item_less(), s);
        }, s) == cudaSuccess);
  std::vector<item> got = out.get();
  int bad = 0;
  for (int i = 0; i < n; ++i) /* equal under the order, not necessarily == */
    bad += item_less()(got[i], sorted[i]) || item_less()(sorted[i], got[i]);
  CHECK(bad == 0);
  CHECK(in.get() == keys);
}

int main() {
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  for (int n : test_sizes) {
    test_radix(n, s);
    test_segmented(n, s);
    test_merge(n, s);
  }
  test_radix(3000, 0);
  cudaStreamDestroy(s);
  CHECK(cudaGetLastError() == cudaSuccess);
  return finish();
}
