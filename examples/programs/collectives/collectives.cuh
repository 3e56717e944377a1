/*
 * collectives.cuh: warp- and block-level reductions and scans for
 * hand-written CUDA kernels. Plain CUDA C++ (the *_sync intrinsics and
 * __syncthreads); it compiles with nvcc (sm_70 and later; the 32-bit
 * integer warp reductions use __reduce_*_sync on sm_80 and later) and
 * runs unchanged under cuemu.
 *
 * Types: int, unsigned, long long, unsigned long long, float and double.
 *
 * Warp functions (namespace collectives):
 *   T warp_sum(T v, unsigned mask = 0xffffffff);   also warp_min, warp_max
 *   T warp_inclusive_sum(T v, unsigned mask = 0xffffffff);
 *   T warp_exclusive_sum(T v, unsigned mask = 0xffffffff);
 *   unsigned warp_lanes_in_block();   the lanes of the caller's warp that
 *                                     exist (all 32 but in a partial warp)
 * Exactly the lanes named in `mask` take part; each of them must call with
 * the same mask, and the mask must name only lanes that exist and have not
 * returned. Any mask is allowed (sparse, a partial warp). Reductions give
 * every named lane the result; scans follow increasing lane ids, and the
 * exclusive scan gives the lowest named lane 0.
 *
 * Block functions (every thread of the block calls them, any block shape
 * from 1 to 1024 threads, 1-D to 3-D, ranks with x fastest):
 *   unsigned block_thread();   the caller's linear id in its block
 *   unsigned block_threads();  the number of threads of the block
 *   T block_sum(T v);  also block_min, block_max      (every thread gets it)
 *   T block_inclusive_sum(T v);  T block_exclusive_sum(T v);  (in rank order)
 *   void block_sum_to(T *out, T v);  *out += the block's sum: one atomicAdd
 *                                    per block, by thread 0
 * They use 32 values of static shared memory per type and function, and
 * may be called any number of times in a kernel (each call ends with
 * __syncthreads()). Floating-point sums are computed in a fixed order
 * (warp by warp, then across warps), so a block's result does not depend
 * on scheduling; it differs from a sequential sum by rounding.
 */
#ifndef COLLECTIVES_CUH
#define COLLECTIVES_CUH

#include <type_traits>

namespace collectives {

namespace detail {

/* The lane of the named lane of rank `rank` in `mask` (rank < popc(mask)). */
__device__ __forceinline__ int lane_of_rank(unsigned mask, unsigned rank) {
  return (int)__fns(mask, 0, (int)rank + 1);
}

__device__ __forceinline__ unsigned lane_id() {
  return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) &
         31u;
}

template <typename T> struct sum_op {
  __device__ T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct min_op {
  __device__ T operator()(T a, T b) const { return b < a ? b : a; }
};
template <typename T> struct max_op {
  __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};

/* A reduction over the named lanes: a butterfly for a full warp, otherwise
 * a tree over the ranks of the named lanes whose total reaches the lowest
 * named lane and is broadcast from it. */
template <typename T, typename Op>
__device__ T warp_reduce(T v, unsigned mask, Op op) {
  if (mask == 0xffffffffu) {
    for (int d = 16; d > 0; d >>= 1)
      v = op(v, __shfl_xor_sync(mask, v, d));
    return v;
  }
  unsigned n = (unsigned)__popc(mask);
  unsigned me = lane_id();
  unsigned rank = (unsigned)__popc(mask & ((1u << me) - 1u));
  for (unsigned step = 1; step < n; step <<= 1) {
    /* Ranks that are multiples of 2 * step take rank + step's value. */
    unsigned from = rank + step;
    bool takes = (rank % (2 * step)) == 0 && from < n;
    int src = takes ? lane_of_rank(mask, from) : (int)me;
    T other = __shfl_sync(mask, v, src);
    if (takes)
      v = op(v, other);
  }
  return __shfl_sync(mask, v, __ffs(mask) - 1);
}

/* The inclusive scan over the ranks of the named lanes (Hillis-Steele). */
template <typename T> __device__ T warp_scan(T v, unsigned mask) {
  unsigned n = (unsigned)__popc(mask);
  unsigned me = lane_id();
  unsigned rank = (unsigned)__popc(mask & ((1u << me) - 1u));
  for (unsigned step = 1; step < n; step <<= 1) {
    bool takes = rank >= step;
    int src = takes ? lane_of_rank(mask, rank - step) : (int)me;
    T lower = __shfl_sync(mask, v, src);
    if (takes)
      v = v + lower;
  }
  return v;
}

template <typename T>
using supported = std::integral_constant<
    bool, std::is_same<T, int>::value || std::is_same<T, unsigned>::value ||
              std::is_same<T, long long>::value ||
              std::is_same<T, unsigned long long>::value ||
              std::is_same<T, float>::value || std::is_same<T, double>::value>;

/* 32-bit integers reduce with one redux.sync where the GPU has it. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define COLLECTIVES_HAVE_REDUX 1
#else
#define COLLECTIVES_HAVE_REDUX 0
#endif

} // namespace detail

__device__ __forceinline__ unsigned block_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ __forceinline__ unsigned block_threads() {
  return blockDim.x * blockDim.y * blockDim.z;
}

__device__ __forceinline__ unsigned warp_lanes_in_block() {
  unsigned base = block_thread() & ~31u;
  unsigned n = block_threads() - base;
  return n >= 32u ? 0xffffffffu : (1u << n) - 1u;
}

template <typename T>
__device__ T warp_sum(T v, unsigned mask = 0xffffffffu) {
  static_assert(detail::supported<T>::value, "collectives: unsupported type");
#if COLLECTIVES_HAVE_REDUX
  if constexpr (std::is_same<T, int>::value || std::is_same<T, unsigned>::value)
    return __reduce_add_sync(mask, v);
#endif
  return detail::warp_reduce(v, mask, detail::sum_op<T>());
}

template <typename T>
__device__ T warp_min(T v, unsigned mask = 0xffffffffu) {
  static_assert(detail::supported<T>::value, "collectives: unsupported type");
#if COLLECTIVES_HAVE_REDUX
  if constexpr (std::is_same<T, int>::value || std::is_same<T, unsigned>::value)
    return __reduce_min_sync(mask, v);
#endif
  return detail::warp_reduce(v, mask, detail::min_op<T>());
}

template <typename T>
__device__ T warp_max(T v, unsigned mask = 0xffffffffu) {
  static_assert(detail::supported<T>::value, "collectives: unsupported type");
#if COLLECTIVES_HAVE_REDUX
  if constexpr (std::is_same<T, int>::value || std::is_same<T, unsigned>::value)
    return __reduce_max_sync(mask, v);
#endif
  return detail::warp_reduce(v, mask, detail::max_op<T>());
}

template <typename T>
__device__ T warp_inclusive_sum(T v, unsigned mask = 0xffffffffu) {
  static_assert(detail::supported<T>::value, "collectives: unsupported type");
  return detail::warp_scan(v, mask);
}

template <typename T>
__device__ T warp_exclusive_sum(T v, unsigned mask = 0xffffffffu) {
  static_assert(detail::supported<T>::value, "collectives: unsupported type");
  T inclusive = detail::warp_scan(v, mask);
  unsigned me = detail::lane_id();
  unsigned rank = (unsigned)__popc(mask & ((1u << me) - 1u));
  int src = rank > 0 ? detail::lane_of_rank(mask, rank - 1) : (int)me;
  T below = __shfl_sync(mask, inclusive, src);
  return rank > 0 ? below : T(0);
}

namespace detail {

/* A block reduction: each warp reduces its lanes, then every thread
 * combines the warps' results in warp order. */
template <typename T, typename Op, typename WarpFn>
__device__ T block_reduce(T v, Op op, WarpFn warp_fn) {
  __shared__ T partial[32];
  unsigned t = block_thread();
  unsigned warps = (block_threads() + 31u) / 32u;
  T mine = warp_fn(v, warp_lanes_in_block());
  if ((t & 31u) == 0)
    partial[t / 32u] = mine;
  __syncthreads();
  T total = partial[0];
  for (unsigned w = 1; w < warps; ++w)
    total = op(total, partial[w]);
  __syncthreads();
  return total;
}

/* A block scan: each warp scans its lanes; the warps' totals are scanned by
 * the first warp; each thread adds the total of the warps before its own. */
template <typename T> __device__ T block_scan(T v, bool inclusive) {
  __shared__ T partial[32];
  unsigned t = block_thread();
  unsigned warps = (block_threads() + 31u) / 32u;
  unsigned lanes = warp_lanes_in_block();
  T scanned = warp_scan(v, lanes);
  if ((t & 31u) == 31u - (unsigned)__clz((int)lanes))
    partial[t / 32u] = scanned; /* the last lane of each warp */
  if (!inclusive) {
    /* The inclusive sum of the lane below (the warp's lanes are 0 ... n-1). */
    T below = __shfl_up_sync(lanes, scanned, 1);
    scanned = (t & 31u) ? below : T(0);
  }
  __syncthreads();
  if (t < warps) {
    unsigned first = warps == 32u ? 0xffffffffu : (1u << warps) - 1u;
    T sums = warp_scan(partial[t], first);
    T below = __shfl_up_sync(first, sums, 1);
    partial[t] = t ? below : T(0);
  }
  __syncthreads();
  T offset = partial[t / 32u];
  __syncthreads();
  return offset + scanned;
}

} // namespace detail

template <typename T> __device__ T block_sum(T v) {
  static_assert(detail::supported<T>::value, "collectives: unsupported type");
  return detail::block_reduce(v, detail::sum_op<T>(),
                              [](T x, unsigned m) { return warp_sum(x, m); });
}

template <typename T> __device__ T block_min(T v) {
  static_assert(detail::supported<T>::value, "collectives: unsupported type");
  return detail::block_reduce(v, detail::min_op<T>(),
                              [](T x, unsigned m) { return warp_min(x, m); });
}

template <typename T> __device__ T block_max(T v) {
  static_assert(detail::supported<T>::value, "collectives: unsupported type");
  return detail::block_reduce(v, detail::max_op<T>(),
                              [](T x, unsigned m) { return warp_max(x, m); });
}

template <typename T> __device__ T block_inclusive_sum(T v) {
  static_assert(detail::supported<T>::value, "collectives: unsupported type");
  return detail::block_scan(v, true);
}

template <typename T> __device__ T block_exclusive_sum(T v) {
  static_assert(detail::supported<T>::value, "collectives: unsupported type");
  return detail::block_scan(v, false);
}

template <typename T> __device__ void block_sum_to(T *out, T v) {
  T total = block_sum(v);
  if (block_thread() == 0) {
    if constexpr (std::is_same<T, long long>::value)
      atomicAdd(reinterpret_cast<unsigned long long *>(out),
                (unsigned long long)total);
    else
      atomicAdd(out, total);
  }
}

} // namespace collectives

#endif /* COLLECTIVES_CUH */
