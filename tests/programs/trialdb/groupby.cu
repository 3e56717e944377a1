// groupby.cu: SELECT k, SUM(v), COUNT(*), MIN(v), MAX(v), MIN(f), MAX(f)
// GROUP BY k, by shared-memory hash aggregation and by sort + reduce_by_key.
// From the trialdb trial (GPU query operators), kept as a test by
// tests/programs_trialdb.sh.
// CUEMU_OPTIONS: -O0 -I. -rdc=true --expt-relaxed-constexpr --extended-lambda gdb/hash_device.cu gdb/select_device.cu gdb/host_ref.cpp gdb/device_info.cpp
// NVCC_OPTIONS: -I. -rdc=true --expt-relaxed-constexpr --extended-lambda
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/tuple.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <type_traits>

#include <gdb/common.cuh>
#include <gdb/dispatch.cuh>
#include <gdb/groupby.cuh>
#include <gdb/host_ref.h>

using namespace gdb;

struct host_agg {
  long long sum = 0;
  unsigned count = 0;
  int min = INT_MAX, max = INT_MIN;
  float fmin = FLT_MAX, fmax = -FLT_MAX;
  bool operator==(const host_agg& o) const {
    return sum == o.sum && count == o.count && min == o.min && max == o.max && fmin == o.fmin && fmax == o.fmax;
  }
};

using agg_tuple = thrust::tuple<long long, unsigned, int, int, float, float>;

struct to_agg {
  __host__ __device__ agg_tuple operator()(const thrust::tuple<int, float>& row) const {
    const int v = thrust::get<0>(row);
    const float f = thrust::get<1>(row);
    return agg_tuple(v, 1u, v, v, f, f);
  }
};

struct combine_agg {
  __host__ __device__ agg_tuple operator()(const agg_tuple& a, const agg_tuple& b) const {
    return agg_tuple(thrust::get<0>(a) + thrust::get<0>(b), thrust::get<1>(a) + thrust::get<1>(b),
                     min(thrust::get<2>(a), thrust::get<2>(b)), max(thrust::get<3>(a), thrust::get<3>(b)),
                     fminf(thrust::get<4>(a), thrust::get<4>(b)), fmaxf(thrust::get<5>(a), thrust::get<5>(b)));
  }
};

static std::map<int, host_agg> host_groupby(const std::vector<int>& k, const std::vector<int>& v,
                                            const std::vector<float>& f) {
  std::map<int, host_agg> out;
  for (size_t i = 0; i < k.size(); ++i) {
    host_agg& a = out[k[i]];
    a.sum += v[i];
    a.count++;
    a.min = std::min(a.min, v[i]);
    a.max = std::max(a.max, v[i]);
    a.fmin = std::min(a.fmin, f[i]);
    a.fmax = std::max(a.fmax, f[i]);
  }
  return out;
}

static int run_shared_hash(const std::vector<int>& keys, const std::vector<int>& vals, const std::vector<float>& fvals,
                           const std::map<int, host_agg>& expect) {
  const size_t n = keys.size();
  const uint32_t capacity = 4096;
  column<int> d_keys(keys), d_vals(vals), g_keys(capacity), g_mins(capacity), g_maxs(capacity);
  column<float> d_fvals(fvals), g_fmins(capacity), g_fmaxs(capacity);
  column<unsigned long long> g_sums(capacity);
  column<unsigned int> g_counts(capacity);
  g_keys.fill_bytes(0xff);
  g_sums.fill_bytes(0);
  g_counts.fill_bytes(0);
  fill_kernel<<<16, 256>>>(g_mins.data(), INT_MAX, capacity);
  fill_kernel<<<16, 256>>>(g_maxs.data(), INT_MIN, capacity);
  fill_kernel<<<16, 256>>>(g_fmins.data(), FLT_MAX, capacity);
  fill_kernel<<<16, 256>>>(g_fmaxs.data(), -FLT_MAX, capacity);
  agg_table_view view{g_keys.data(), g_sums.data(),  g_counts.data(), g_mins.data(),
                      g_maxs.data(), g_fmins.data(), g_fmaxs.data(),  capacity - 1};
  groupby_shared<256, 1024><<<grid_for(n, 256, 24), 256>>>(d_keys.data(), d_vals.data(), d_fvals.data(), n, view);
  GDB_CHECK_LAST();
  GDB_CUDA_TRY(cudaDeviceSynchronize());

  auto hk = g_keys.download();
  auto hs = g_sums.download();
  auto hc = g_counts.download();
  auto hmin = g_mins.download();
  auto hmax = g_maxs.download();
  auto hfmin = g_fmins.download();
  auto hfmax = g_fmaxs.download();
  std::map<int, host_agg> got;
  for (uint32_t s = 0; s < capacity; ++s) {
    if (hk[s] == kEmptyGroup) continue;
    got[hk[s]] = host_agg{(long long)hs[s], hc[s], hmin[s], hmax[s], hfmin[s], hfmax[s]};
  }
  return report("shared-memory hash group-by", got == expect);
}

static int run_sort_reduce(const std::vector<int>& keys, const std::vector<int>& vals, const std::vector<float>& fvals,
                           const std::map<int, host_agg>& expect) {
  thrust::device_vector<int> k(keys.begin(), keys.end()), v(vals.begin(), vals.end());
  thrust::device_vector<float> f(fvals.begin(), fvals.end());
  thrust::sort_by_key(k.begin(), k.end(), thrust::make_zip_iterator(thrust::make_tuple(v.begin(), f.begin())));

  const size_t groups = expect.size();
  thrust::device_vector<int> out_keys(groups), out_min(groups), out_max(groups);
  thrust::device_vector<long long> out_sum(groups);
  thrust::device_vector<unsigned> out_count(groups);
  thrust::device_vector<float> out_fmin(groups), out_fmax(groups);
  auto in = thrust::make_transform_iterator(thrust::make_zip_iterator(thrust::make_tuple(v.begin(), f.begin())),
                                            to_agg());
  auto out = thrust::make_zip_iterator(thrust::make_tuple(out_sum.begin(), out_count.begin(), out_min.begin(),
                                                          out_max.begin(), out_fmin.begin(), out_fmax.begin()));
  auto ends = thrust::reduce_by_key(k.begin(), k.end(), in, out_keys.begin(), out, thrust::equal_to<int>(),
                                    combine_agg());
  const size_t produced = size_t(ends.first - out_keys.begin());
  thrust::host_vector<int> hk = out_keys, hmin = out_min, hmax = out_max;
  thrust::host_vector<long long> hs = out_sum;
  thrust::host_vector<unsigned> hc = out_count;
  thrust::host_vector<float> hfmin = out_fmin, hfmax = out_fmax;
  std::map<int, host_agg> got;
  for (size_t g = 0; g < produced; ++g) {
    got[hk[g]] = host_agg{hs[g], hc[g], hmin[g], hmax[g], hfmin[g], hfmax[g]};
  }
  return report("sort + reduce_by_key group-by", produced == groups && got == expect);
}

static int run_warp_aggregated(const std::vector<int>& keys, const std::vector<float>& fvals) {
  const size_t n = keys.size();
  std::map<int, std::pair<double, unsigned long long>> expect;
  for (size_t i = 0; i < n; ++i) {
    expect[keys[i]].first += fvals[i];
    expect[keys[i]].second++;
  }
  const uint32_t capacity = 4096;
  const int slots = 4096;
  const size_t smem = size_t(slots) * (sizeof(double) + sizeof(unsigned) + sizeof(int));
  GDB_CUDA_TRY(cudaFuncSetAttribute(groupby_warp_aggregated<256>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    int(smem)));
  cudaFuncAttributes attr;
  GDB_CUDA_TRY(cudaFuncGetAttributes(&attr, groupby_warp_aggregated<256>));
  column<int> d_keys(keys), g_keys(capacity);
  column<float> d_fvals(fvals);
  column<double> g_fsums(capacity);
  column<unsigned long long> g_counts(capacity), rows_seen(1);
  g_keys.fill_bytes(0xff);
  g_fsums.fill_bytes(0);
  g_counts.fill_bytes(0);
  rows_seen.fill_bytes(0);
  sum_table_view view{g_keys.data(), g_fsums.data(), g_counts.data(), capacity - 1};
  groupby_warp_aggregated<256><<<grid_for(n, 256, 16), 256, smem>>>(d_keys.data(), d_fvals.data(), n, slots, view,
                                                                  rows_seen.data());
  GDB_CHECK_LAST();
  auto hk = g_keys.download();
  auto hs = g_fsums.download();
  auto hc = g_counts.download();
  size_t groups = 0;
  bool ok = rows_seen.download()[0] == n && attr.maxDynamicSharedSizeBytes >= int(smem);
  for (uint32_t s = 0; s < capacity; ++s) {
    if (hk[s] == kEmptyGroup) continue;
    ++groups;
    auto it = expect.find(hk[s]);
    if (it == expect.end()) { ok = false; continue; }
    ok &= hc[s] == it->second.second && std::fabs(hs[s] - it->second.first) <= 1e-9 * (1 + std::fabs(it->second.first)) * 1e3;
  }
  return report("warp-aggregated group-by (64 KiB shared)", ok && groups == expect.size());
}

// Column statistics of a table whose column types are known at run time.
struct stats_functor {
  template <typename T>
  bool operator()(const column_view& col, const void* host_data, cudaStream_t stream) const {
    const T* h = static_cast<const T*>(host_data);
    minmax_sum<T> want{std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest(), 0};
    for (size_t i = 0; i < col.size; ++i) {
      want.min = std::min(want.min, h[i]);
      want.max = std::max(want.max, h[i]);
      want.sum += h[i];
    }
    minmax_sum<T> init{std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest(), 0}, got;
    minmax_sum<T>* d = nullptr;
    GDB_CUDA_TRY(cudaMallocAsync(&d, sizeof *d, stream));
    GDB_CUDA_TRY(cudaMemcpyAsync(d, &init, sizeof init, cudaMemcpyHostToDevice, stream));
    column_stats<T, 256><<<grid_for(col.size, 256, 32), 256, 0, stream>>>(col.as<T>(), col.size, d);
    GDB_CHECK_LAST();
    GDB_CUDA_TRY(cudaMemcpyAsync(&got, d, sizeof got, cudaMemcpyDeviceToHost, stream));
    GDB_CUDA_TRY(cudaFreeAsync(d, stream));
    GDB_CUDA_TRY(cudaStreamSynchronize(stream));
    if constexpr (std::is_floating_point_v<T>)
      return got.min == want.min && got.max == want.max &&
             std::fabs(got.sum - want.sum) <= 1e-9 * std::fabs(want.sum) + 1e-6;
    else
      return got.min == want.min && got.max == want.max && got.sum == want.sum;
  }
};

template <typename T>
static std::vector<T> typed_values(size_t n, uint64_t seed, bool non_negative) {
  std::vector<T> v(n);
  for (auto& x : v) {
    const uint64_t r = host::splitmix(seed);
    if constexpr (std::is_floating_point_v<T>) x = T(r >> 11) / T(1ull << 40);
    else x = non_negative ? T(r % 1000000) : T(int64_t(r % 2000000001) - 1000000000);
  }
  return v;
}

static int run_type_dispatch(size_t n) {
  auto i32 = typed_values<int32_t>(n, 1, false);
  auto i64 = typed_values<int64_t>(n, 2, false);
  auto f32 = typed_values<float>(n, 3, true);
  auto f64 = typed_values<double>(n, 4, true);
  column<int32_t> d32(i32);
  column<int64_t> d64(i64);
  column<float> df32(f32);
  column<double> df64(f64);
  const std::pair<column_view, const void*> table[] = {
      {{type_id::int32, d32.data(), n}, i32.data()},
      {{type_id::int64, d64.data(), n}, i64.data()},
      {{type_id::float32, df32.data(), n}, f32.data()},
      {{type_id::float64, df64.data(), n}, f64.data()},
  };
  cudaStream_t stream;
  GDB_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int failures = 0;
  for (const auto& [col, host_data] : table)
    failures += !type_dispatcher(col.type, stats_functor{}, col, host_data, stream);
  GDB_CUDA_TRY(cudaStreamDestroy(stream));
  return report("type-dispatched column statistics", failures == 0);
}

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? size_t(atol(argv[1])) : 200000;
  auto keys = host::skewed_groups(n, 700, 11);
  auto fvals = host::random_floats(n, -1000.f, 1000.f, 12);
  std::vector<int> vals(n);
  for (size_t i = 0; i < n; ++i) vals[i] = int(fvals[i] * 1000.f) ^ int(i & 7);
  auto expect = host_groupby(keys, vals, fvals);
  int failures = run_shared_hash(keys, vals, fvals, expect);
  failures += run_sort_reduce(keys, vals, fvals, expect);
  failures += run_warp_aggregated(keys, fvals);
  failures += run_type_dispatch(n);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
