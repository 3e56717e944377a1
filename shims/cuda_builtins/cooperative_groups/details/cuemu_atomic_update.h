/*
 * cooperative_groups/details/cuemu_atomic_update.h: how the *_update and
 * atomic *_store forms of cg::reduce and the scans (cuemu_reduce_update.h,
 * cuemu_scan_update.h) change a cuda::atomic or cuda::atomic_ref: with
 * cg::plus, less, greater, bit_and, bit_or or bit_xor one fetch_add,
 * fetch_min, fetch_max, fetch_and, fetch_or or fetch_xor, as CUDA does;
 * with any other operator a compare-and-swap loop of op(old, value). Each
 * returns the value the atomic held before. The destination is any type
 * with load() and store() (cuda::atomic, cuda::atomic_ref), so that a
 * plain pointer keeps the pointer forms of reduce.h.
 */
#ifndef CUEMU_CG_DETAILS_ATOMIC_UPDATE_H
#define CUEMU_CG_DETAILS_ATOMIC_UPDATE_H

#include <type_traits>
#include <utility>

#include "cuemu_group_algorithms.h"

namespace cooperative_groups {
namespace cuemu_detail {

/* A cuda::atomic or cuda::atomic_ref (anything with load and store). */
template <typename A, typename = void> struct is_atomic_dst : std::false_type {};
template <typename A>
struct is_atomic_dst<A, decltype((void)std::declval<A &>().load(),
                                 (void)std::declval<A &>().store(
                                     std::declval<A &>().load()))>
    : std::true_type {};

template <typename A, typename T, typename Op> struct atomic_updater {
  static T update(A &dst, T value, Op &op) {
    T old = dst.load();
    while (!dst.compare_exchange_weak(old, op(old, value)))
      ;
    return old;
  }
};
template <typename A, typename T, typename U>
struct atomic_updater<A, T, cooperative_groups::plus<U>> {
  static T update(A &dst, T v, cooperative_groups::plus<U> &) {
    return dst.fetch_add(v);
  }
};
template <typename A, typename T, typename U>
struct atomic_updater<A, T, cooperative_groups::less<U>> {
  static T update(A &dst, T v, cooperative_groups::less<U> &) {
    return dst.fetch_min(v);
  }
};
template <typename A, typename T, typename U>
struct atomic_updater<A, T, cooperative_groups::greater<U>> {
  static T update(A &dst, T v, cooperative_groups::greater<U> &) {
    return dst.fetch_max(v);
  }
};
template <typename A, typename T, typename U>
struct atomic_updater<A, T, cooperative_groups::bit_and<U>> {
  static T update(A &dst, T v, cooperative_groups::bit_and<U> &) {
    return dst.fetch_and(v);
  }
};
template <typename A, typename T, typename U>
struct atomic_updater<A, T, cooperative_groups::bit_or<U>> {
  static T update(A &dst, T v, cooperative_groups::bit_or<U> &) {
    return dst.fetch_or(v);
  }
};
template <typename A, typename T, typename U>
struct atomic_updater<A, T, cooperative_groups::bit_xor<U>> {
  static T update(A &dst, T v, cooperative_groups::bit_xor<U> &) {
    return dst.fetch_xor(v);
  }
};

template <typename A, typename T, typename Op>
T atomic_update(A &dst, T value, Op &op) {
  return atomic_updater<A, T, remove_qual<Op>>::update(dst, value, op);
}

/* The value type of a cuda::atomic or cuda::atomic_ref. */
template <typename A>
using atomic_value = remove_qual<decltype(std::declval<A &>().load())>;

} // namespace cuemu_detail
} // namespace cooperative_groups

#endif /* CUEMU_CG_DETAILS_ATOMIC_UPDATE_H */
