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
template <typename A_, typename = void> struct is_atomic_dst : std::false_type {};
template <typename A_>
struct is_atomic_dst<A_, decltype((void)std::declval<A_ &>().load(),
                                 (void)std::declval<A_ &>().store(
                                     std::declval<A_ &>().load()))>
    : std::true_type {};

/* Whether Op is cg::F<U> for some U. */
template <template <typename> class F_, typename Op>
struct is_cg_op : std::false_type {};
template <template <typename> class F_, typename U>
struct is_cg_op<F_, F_<U>> : std::true_type {};

template <typename A_, typename T, typename Op>
T atomic_update(A_ &dst, T value, Op &op) {
  using O_ = remove_qual<Op>;
  if constexpr (is_cg_op<cooperative_groups::plus, O_>::value)
    return dst.fetch_add(value);
  else if constexpr (is_cg_op<cooperative_groups::less, O_>::value)
    return dst.fetch_min(value);
  else if constexpr (is_cg_op<cooperative_groups::greater, O_>::value)
    return dst.fetch_max(value);
  else if constexpr (is_cg_op<cooperative_groups::bit_and, O_>::value)
    return dst.fetch_and(value);
  else if constexpr (is_cg_op<cooperative_groups::bit_or, O_>::value)
    return dst.fetch_or(value);
  else if constexpr (is_cg_op<cooperative_groups::bit_xor, O_>::value)
    return dst.fetch_xor(value);
  else {
    T old = dst.load();
    while (!dst.compare_exchange_weak(old, op(old, value)))
      ;
    return old;
  }
}

/* The enable_if of the functions that take a cuda::atomic or
 * cuda::atomic_ref (a plain pointer goes to reduce.h's forms). */
template <typename A_>
using if_atomic = typename std::enable_if<
    is_atomic_dst<typename std::remove_reference<A_>::type>::value, int>::type;

/* The value type of a cuda::atomic or cuda::atomic_ref. */
template <typename A_>
using atomic_value = remove_qual<decltype(std::declval<A_ &>().load())>;

} // namespace cuemu_detail
} // namespace cooperative_groups

#endif /* CUEMU_CG_DETAILS_ATOMIC_UPDATE_H */
