/*
 * cooperative_groups/details/cuemu_group_algorithms.h: the building blocks
 * of cg::reduce and the scans over a warp tile or a coalesced group, in
 * the order of operations CUDA uses, so that floating-point results match
 * the GPU's bit for bit:
 *   - a tile (or a full coalesced group) reduces by a butterfly of
 *     shfl_xor from distance size/2 down to 1, out = op(out, other);
 *   - a scan adds shfl_up values at distances 1, 2, 4, ... (Hillis-Steele),
 *     out = op(out, lower), over the ranks of the group;
 *   - a partial coalesced group reduces to the inclusive scan of its last
 *     member, broadcast;
 *   - plus, less, greater, bit_and, bit_or and bit_xor of integers of up to
 *     32 bits are one __reduce_*_sync (redux.sync), as CUDA does on sm_80+.
 */
#ifndef CUEMU_CG_DETAILS_GROUP_ALGORITHMS_H
#define CUEMU_CG_DETAILS_GROUP_ALGORITHMS_H

#include <type_traits>

#include "../../cooperative_groups.h"
#include "cuemu_functional.h"

namespace cooperative_groups {
namespace cuemu_detail {

template <typename T>
using remove_qual = typename std::remove_cv<typename std::remove_reference<T>::type>::type;

/* Which groups reduce and scan accept: warp tiles and coalesced groups. */
template <typename G_> struct is_tile_group : std::false_type {};
template <unsigned N_, typename P_>
struct is_tile_group<thread_block_tile<N_, P_>> : std::true_type {};
template <> struct is_tile_group<coalesced_group> : std::true_type {};

/* The redux.sync operation for an operator and a type, or -1. */
template <typename Op, typename T> struct redux_op {
  static constexpr int value = -1;
};
template <typename T>
using redux_ok = std::integral_constant<bool, std::is_integral<T>::value &&
                                                  !std::is_same<T, bool>::value &&
                                                  sizeof(T) <= 4>;
template <typename T> struct redux_op<plus<T>, T> {
  static constexpr int value = redux_ok<T>::value ? CUEMU_WARP_REDUCE_ADD : -1;
};
template <typename T> struct redux_op<less<T>, T> {
  static constexpr int value =
      !redux_ok<T>::value ? -1
      : std::is_unsigned<T>::value ? CUEMU_WARP_REDUCE_MIN_U
                                   : CUEMU_WARP_REDUCE_MIN_S;
};
template <typename T> struct redux_op<greater<T>, T> {
  static constexpr int value =
      !redux_ok<T>::value ? -1
      : std::is_unsigned<T>::value ? CUEMU_WARP_REDUCE_MAX_U
                                   : CUEMU_WARP_REDUCE_MAX_S;
};
template <typename T> struct redux_op<bit_and<T>, T> {
  static constexpr int value = redux_ok<T>::value ? CUEMU_WARP_REDUCE_AND : -1;
};
template <typename T> struct redux_op<bit_or<T>, T> {
  static constexpr int value = redux_ok<T>::value ? CUEMU_WARP_REDUCE_OR : -1;
};
template <typename T> struct redux_op<bit_xor<T>, T> {
  static constexpr int value = redux_ok<T>::value ? CUEMU_WARP_REDUCE_XOR : -1;
};

/* One redux.sync: the value travels as the 32 bits of an int (signed
 * types) or an unsigned, as __reduce_*_sync take it. */
template <typename T>
T redux(int op, unsigned mask, T value, const char *file, int line) {
  unsigned __cuemu_bits = std::is_unsigned<T>::value ? (unsigned)value
                                             : (unsigned)(int)value;
  unsigned __cuemu_r = (unsigned)collective(op, mask, __cuemu_bits, 0, 32, "cg::reduce", file,
                                    line);
  return std::is_unsigned<T>::value ? (T)__cuemu_r : (T)(int)__cuemu_r;
}

/* The inclusive scan over the ranks of g. */
template <typename G_, typename T, typename Op>
T inclusive_scan(const G_ &__cuemu_g, T value, Op &op, const char *file, int line) {
  T __cuemu_out = value;
  unsigned rank = __cuemu_g.thread_rank();
  for (unsigned __cuemu_i = 1; __cuemu_i < __cuemu_g.size(); __cuemu_i <<= 1) {
    T lower = __cuemu_g.shfl_up(__cuemu_out, __cuemu_i, file, line);
    if (__cuemu_i <= rank)
      __cuemu_out = op(__cuemu_out, lower);
  }
  return __cuemu_out;
}

/* The exclusive scan from the inclusive one: subtraction for integer
 * sums, else the inclusive result of the rank below (rank 0 gets T{}). */
template <typename G_, typename T, typename Op>
T exclusive_from_inclusive(const G_ &__cuemu_g, T inclusive, T value, Op &,
                           const char *file, int line) {
  if constexpr (std::is_same<remove_qual<Op>, plus<T>>::value &&
                std::is_integral<T>::value) {
    (void)__cuemu_g, (void)file, (void)line;
    return (T)(inclusive - value);
  }
  (void)value;
  T below = __cuemu_g.shfl_up(inclusive, 1, file, line);
  return __cuemu_g.thread_rank() == 0 ? T{} : below;
}

/* The butterfly reduction over N lanes (a tile, or a full warp). */
template <typename T, typename Op>
T butterfly(unsigned mask, unsigned n, T value, Op &op, const char *file,
            int line) {
  T __cuemu_out = value;
  for (unsigned d = n >> 1; d > 0; d >>= 1)
    __cuemu_out = op(__cuemu_out, shuffle(CUEMU_WARP_SHFL_XOR, mask, __cuemu_out, (int)d, (int)n,
                          "cg::reduce", file, line));
  return __cuemu_out;
}

template <typename T, typename Op, unsigned N_, typename P_>
T reduce(const thread_block_tile<N_, P_> &__cuemu_g, T value, Op &op, const char *file,
         int line) {
  constexpr int redux_code = redux_op<remove_qual<Op>, T>::value;
  if constexpr (redux_code >= 0)
    return redux(redux_code, group_access::mask(__cuemu_g), value, file, line);
  else
    return butterfly(group_access::mask(__cuemu_g), N_, value, op, file, line);
}

template <typename T, typename Op>
T reduce(const coalesced_group &__cuemu_g, T value, Op &op, const char *file,
         int line) {
  constexpr int redux_code = redux_op<remove_qual<Op>, T>::value;
  unsigned mask = group_access::mask(__cuemu_g);
  if constexpr (redux_code >= 0)
    return redux(redux_code, mask, value, file, line);
  if (__cuemu_g.size() == 32)
    return butterfly(mask, 32, value, op, file, line);
  T scanned = inclusive_scan(__cuemu_g, value, op, file, line);
  return __cuemu_g.shfl(scanned, (int)__cuemu_g.size() - 1, file, line);
}

} // namespace cuemu_detail
} // namespace cooperative_groups

#endif /* CUEMU_CG_DETAILS_GROUP_ALGORITHMS_H */
