// dispatch.cuh: columns of a type known at run time, and the dispatcher that
// calls a functor's operator()<T> for the column's type.
#pragma once

#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <stdexcept>
#include <type_traits>
#include <utility>

#include "gdb/atomics.cuh"
#include "gdb/common.cuh"

namespace gdb {

enum class type_id { int32, int64, float32, float64 };

struct column_view {
  type_id type;
  const void* data;
  size_t size;
  template <typename T>
  const T* as() const { return static_cast<const T*>(data); }
};

template <type_id> struct id_to_type;
template <> struct id_to_type<type_id::int32> { using type = int32_t; };
template <> struct id_to_type<type_id::int64> { using type = int64_t; };
template <> struct id_to_type<type_id::float32> { using type = float; };
template <> struct id_to_type<type_id::float64> { using type = double; };

template <typename F, typename... Args>
decltype(auto) type_dispatcher(type_id t, F&& f, Args&&... args) {
  switch (t) {
    case type_id::int32: return std::forward<F>(f).template operator()<int32_t>(std::forward<Args>(args)...);
    case type_id::int64: return std::forward<F>(f).template operator()<int64_t>(std::forward<Args>(args)...);
    case type_id::float32: return std::forward<F>(f).template operator()<float>(std::forward<Args>(args)...);
    case type_id::float64: return std::forward<F>(f).template operator()<double>(std::forward<Args>(args)...);
  }
  throw std::logic_error("unknown type");
}

// MIN, MAX and SUM of a column; integers sum exactly in 64 bits.
template <typename T>
struct minmax_sum {
  T min, max;
  cuda::std::conditional_t<cuda::std::is_floating_point_v<T>, double, long long> sum;
};

template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK) column_stats(const T* __restrict__ in, size_t n, minmax_sum<T>* out) {
  T lo = cuda::std::numeric_limits<T>::max();
  T hi = cuda::std::numeric_limits<T>::lowest();
  decltype(out->sum) sum = 0;
  for (size_t i = blockIdx.x * size_t(BLOCK) + threadIdx.x; i < n; i += size_t(gridDim.x) * BLOCK) {
    const T v = in[i];
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
    sum += v;
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    const T olo = __shfl_down_sync(kFullMask, lo, offset);
    const T ohi = __shfl_down_sync(kFullMask, hi, offset);
    lo = olo < lo ? olo : lo;
    hi = ohi > hi ? ohi : hi;
    sum += __shfl_down_sync(kFullMask, sum, offset);
  }
  if (threadIdx.x % kWarpSize == 0) {
    if constexpr (cuda::std::is_floating_point_v<T>) {
      static_assert(sizeof(T) == 4 || sizeof(T) == 8, "float or double");
      if constexpr (sizeof(T) == 4) {
        atomic_min_float(&out->min, lo);
        atomic_max_float(&out->max, hi);
      } else {
        atomicMin(reinterpret_cast<long long*>(&out->min), __double_as_longlong(lo));  // non-negative data
        atomicMax(reinterpret_cast<long long*>(&out->max), __double_as_longlong(hi));
      }
      atomicAdd(&out->sum, sum);
    } else {
      atomicMin(reinterpret_cast<cuda::std::conditional_t<sizeof(T) == 4, int, long long>*>(&out->min), lo);
      atomicMax(reinterpret_cast<cuda::std::conditional_t<sizeof(T) == 4, int, long long>*>(&out->max), hi);
      atomicAdd(reinterpret_cast<unsigned long long*>(&out->sum), static_cast<unsigned long long>(sum));
    }
  }
}

}  // namespace gdb
