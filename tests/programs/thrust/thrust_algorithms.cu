/*
 * thrust_algorithms.cu: Thrust with its CUDA backend from the toolkit's
 * CCCL, unmodified, against host references: device_vector and
 * host_vector, transform, reduce, inclusive and exclusive scans, sort,
 * sort_by_key and stable sorts (radix and merge sort paths), copy_if,
 * unique, gather and scatter, fill, sequence, count and count_if,
 * min_element and max_element, inner_product and transform_reduce, with
 * the thrust::device and thrust::cuda::par.on(stream) policies, custom
 * functors and __device__ lambdas (with trailing return types, which nvcc
 * needs for lambdas whose result Thrust asks for on the host), on 32- and
 * 64-bit types and a custom
 * struct (issue 14). Built without optimisation, as cub_sort.cu says.
 *
 * CUEMU_OPTIONS: --extended-lambda -Xcompiler -O0
 * NVCC_OPTIONS: --extended-lambda
 */
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/inner_product.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/scatter.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "cccl_test.cuh"

/* A functor with state. */
struct affine {
  long long a, b;
  __host__ __device__ long long operator()(int x) const { return a * x + b; }
};

template <typename T>
static std::vector<T> host_copy(const thrust::device_vector<T> &d) {
  thrust::host_vector<T> h = d; /* device to host through host_vector */
  return std::vector<T>(h.begin(), h.end());
}

static void test_transform_reduce_scan(int n, cudaStream_t s) {
  generator g(n + 3);
  std::vector<int> h(n);
  for (int &x : h) x = static_cast<int>(g.range(-100000, 100000));
  thrust::host_vector<int> hv(h.begin(), h.end());
  thrust::device_vector<int> d = hv;
  CHECK(d.size() == static_cast<size_t>(n));

  /* transform with a functor (thrust::device) and a lambda (on a stream). */
  thrust::device_vector<long long> t(n);
  thrust::transform(thrust::device, d.begin(), d.end(), t.begin(),
                    affine{3, -7});
  std::vector<long long> expect(n);
  for (int i = 0; i < n; ++i) expect[i] = 3LL * h[i] - 7;
  CHECK(host_copy(t) == expect);
  thrust::device_vector<int> twice(n);
  thrust::transform(thrust::cuda::par.on(s), d.begin(), d.end(), twice.begin(),
                    [] __device__(int x) -> int { return 2 * x + 1; });
  cudaStreamSynchronize(s);
  std::vector<int> twice_expect(n);
  for (int i = 0; i < n; ++i) twice_expect[i] = 2 * h[i] + 1;
  CHECK(host_copy(twice) == twice_expect);

  /* reduce: sum into 64 bits, max with an operator. */
  long long sum = std::accumulate(expect.begin(), expect.end(), 0LL);
  CHECK(thrust::reduce(thrust::cuda::par.on(s), t.begin(), t.end(), 0LL) ==
        sum);
  int mx = n ? *std::max_element(h.begin(), h.end()) : -1;
  CHECK(thrust::reduce(d.begin(), d.end(), -1, thrust::maximum<int>()) ==
        std::max(mx, -1));

  /* transform_reduce and inner_product. */
  long long squares = 0, dot = 0;
  for (int i = 0; i < n; ++i) {
    squares += static_cast<long long>(h[i]) * h[i];
    dot += static_cast<long long>(h[i]) * (2LL * h[i] + 1);
  }
  CHECK(thrust::transform_reduce(
            thrust::device, d.begin(), d.end(),
            [] __device__(int x) -> long long {
              return static_cast<long long>(x) * x;
            }, 0LL,
            thrust::plus<long long>()) == squares);
  CHECK(thrust::inner_product(thrust::cuda::par.on(s), d.begin(), d.end(),
                              twice.begin(), 0LL) == dot);

  /* Scans: inclusive of 64-bit values, exclusive with an initial value. */
  std::vector<long long> inc(n);
  std::partial_sum(expect.begin(), expect.end(), inc.begin());
  thrust::device_vector<long long> scanned(n);
  thrust::inclusive_scan(thrust::cuda::par.on(s), t.begin(), t.end(),
                         scanned.begin());
  cudaStreamSynchronize(s);
  CHECK(host_copy(scanned) == inc);
  std::vector<int> exc(n);
  int acc = 100;
  for (int i = 0; i < n; ++i) {
    exc[i] = acc;
    acc = std::max(acc, h[i]);
  }
  thrust::device_vector<int> ex(n);
  thrust::exclusive_scan(d.begin(), d.end(), ex.begin(), 100,
                         thrust::maximum<int>());
  CHECK(host_copy(ex) == exc);

  /* The custom struct reduced. */
  std::vector<item> items(n);
  for (item &x : items) x = make_item(g);
  thrust::device_vector<item> di(items.begin(), items.end());
  item init{0, -1000, 1e9f}, combined = init;
  for (const item &x : items) combined = item_combine()(combined, x);
  CHECK(thrust::reduce(thrust::device, di.begin(), di.end(), init,
                       item_combine()) == combined);
}

static void test_sorts(int n, cudaStream_t s) {
  generator g(n + 41);
  std::vector<int> h(n);
  std::vector<std::uint64_t> keys(n);
  std::vector<item> items(n);
  for (int i = 0; i < n; ++i) {
    h[i] = static_cast<int>(g.range(-3000, 3000));
    keys[i] = static_cast<std::uint64_t>(g.range(0, 500)) << 33;
    items[i] = make_item(g);
  }

  /* sort of int, ascending and descending. */
  thrust::device_vector<int> d(h.begin(), h.end());
  thrust::sort(thrust::cuda::par.on(s), d.begin(), d.end());
  cudaStreamSynchronize(s);
  std::vector<int> sorted = h;
  std::sort(sorted.begin(), sorted.end());
  CHECK(host_copy(d) == sorted);
  thrust::sort(d.begin(), d.end(), thrust::greater<int>());
  std::reverse(sorted.begin(), sorted.end());
  CHECK(host_copy(d) == sorted);

  /* sort_by_key with 64-bit keys: stable (a radix sort), so equal keys
   * keep their values in input order. */
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return keys[a] < keys[b]; });
  thrust::device_vector<std::uint64_t> dk(keys.begin(), keys.end());
  thrust::device_vector<int> dv(n);
  thrust::sequence(thrust::device, dv.begin(), dv.end());
  thrust::sort_by_key(thrust::device, dk.begin(), dk.end(), dv.begin());
  std::vector<std::uint64_t> sorted_keys(n);
  for (int i = 0; i < n; ++i) sorted_keys[i] = keys[order[i]];
  CHECK(host_copy(dk) == sorted_keys);
  CHECK(host_copy(dv) == order);

  /* stable_sort of the custom struct with a comparator (merge sort). */
  std::vector<item> sorted_items = items;
  std::stable_sort(sorted_items.begin(), sorted_items.end(), item_less());
  thrust::device_vector<item> di(items.begin(), items.end());
  thrust::stable_sort(thrust::cuda::par.on(s), di.begin(), di.end(),
                      item_less());
  cudaStreamSynchronize(s);
  CHECK(host_copy(di) == sorted_items);
}

static void test_selection(int n, cudaStream_t s) {
  generator g(n + 59);
  std::vector<long long> h(n);
  for (long long &x : h) x = g.range(-50, 50) * 1000000007LL;
  thrust::device_vector<long long> d(h.begin(), h.end());

  /* copy_if with a lambda. */
  std::vector<long long> kept;
  for (long long x : h)
    if (x > 0) kept.push_back(x);
  thrust::device_vector<long long> out(n);
  auto end = thrust::copy_if(thrust::cuda::par.on(s), d.begin(), d.end(),
                             out.begin(),
                             [] __device__(long long x) -> bool { return x > 0; });
  cudaStreamSynchronize(s);
  CHECK(end - out.begin() == static_cast<long>(kept.size()));
  out.resize(end - out.begin());
  CHECK(host_copy(out) == kept);

  /* count and count_if. */
  CHECK(thrust::count(d.begin(), d.end(), 0LL) ==
        std::count(h.begin(), h.end(), 0LL));
  CHECK(thrust::count_if(thrust::device, d.begin(), d.end(),
                         [] __device__(long long x) -> bool {
                           return x < -10;
                         }) ==
        std::count_if(h.begin(), h.end(), [](long long x) { return x < -10; }));

  /* min_element and max_element: the first of equal extremes. */
  if (n > 0) {
    auto mn = thrust::min_element(thrust::device, d.begin(), d.end());
    auto mx = thrust::max_element(thrust::cuda::par.on(s), d.begin(), d.end());
    CHECK(mn - d.begin() == std::min_element(h.begin(), h.end()) - h.begin());
    CHECK(mx - d.begin() == std::max_element(h.begin(), h.end()) - h.begin());
    CHECK(*mn == *std::min_element(h.begin(), h.end()));
  }

  /* unique after a sort. */
  std::vector<long long> u = h;
  std::sort(u.begin(), u.end());
  u.erase(std::unique(u.begin(), u.end()), u.end());
  thrust::sort(d.begin(), d.end());
  auto uend = thrust::unique(thrust::device, d.begin(), d.end());
  CHECK(uend - d.begin() == static_cast<long>(u.size()));
  d.resize(uend - d.begin());
  CHECK(host_copy(d) == u);
}

static void test_permutations(int n, cudaStream_t s) {
  /* fill and sequence. */
  thrust::device_vector<int> v(n);
  thrust::fill(thrust::cuda::par.on(s), v.begin(), v.end(), 42);
  cudaStreamSynchronize(s);
  CHECK(host_copy(v) == std::vector<int>(n, 42));
  thrust::sequence(v.begin(), v.end(), 5, 3);
  std::vector<int> seq(n);
  for (int i = 0; i < n; ++i) seq[i] = 5 + 3 * i;
  CHECK(host_copy(v) == seq);

  /* gather and scatter through a permutation (i * 7919 mod n). */
  std::vector<int> map(n);
  for (int i = 0; i < n; ++i)
    map[i] = static_cast<int>((static_cast<long long>(i) * 7919) % n);
  bool permutation = n % 7919 != 0;
  thrust::device_vector<int> dmap(map.begin(), map.end());
  thrust::device_vector<double> values(n), gathered(n), scattered(n);
  thrust::transform(thrust::device, v.begin(), v.end(), values.begin(),
                    [] __device__(int x) -> double { return x * 0.5; });
  thrust::gather(thrust::device, dmap.begin(), dmap.end(), values.begin(),
                 gathered.begin());
  std::vector<double> g_expect(n);
  for (int i = 0; i < n; ++i) g_expect[i] = seq[map[i]] * 0.5;
  CHECK(host_copy(gathered) == g_expect);
  if (permutation) {
    thrust::scatter(thrust::cuda::par.on(s), values.begin(), values.end(),
                    dmap.begin(), scattered.begin());
    cudaStreamSynchronize(s);
    std::vector<double> s_expect(n);
    for (int i = 0; i < n; ++i) s_expect[map[i]] = seq[i] * 0.5;
    CHECK(host_copy(scattered) == s_expect);
  }
}

int main() {
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  for (int n : test_sizes) {
    test_transform_reduce_scan(n, s);
    test_sorts(n, s);
    test_selection(n, s);
    test_permutations(n, s);
  }
  cudaStreamDestroy(s);
  CHECK(cudaGetLastError() == cudaSuccess);
  return finish();
}
