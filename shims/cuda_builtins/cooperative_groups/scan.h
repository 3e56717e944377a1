/*
 * cooperative_groups/scan.h: cg::inclusive_scan and cg::exclusive_scan over
 * a warp tile (thread_block_tile<N>, N up to 32) or a coalesced group, in
 * rank order, with cg::plus by default or any associative operator. The
 * exclusive scan gives rank 0 a value-initialised T{} (0 for numbers), as
 * CUDA does, whatever the operator. Tiles wider than a warp (64 to 1024
 * threads) scan values of up to 8 bytes, as in CUDA
 * (details/cuemu_wide_algorithms.h). The *_scan_update forms
 * (cuda::atomic) are in details/cuemu_scan_update.h.
 */
#ifndef CUEMU_CG_SCAN_H
#define CUEMU_CG_SCAN_H

#include "../cooperative_groups.h"
#include "details/cuemu_group_algorithms.h"
#include "details/cuemu_wide_algorithms.h"

namespace cooperative_groups {

template <typename TyGroup, typename TyVal, typename TyFn>
auto inclusive_scan(const TyGroup &group, TyVal &&val, TyFn &&op,
                    const char *cuemu_file = __builtin_FILE(),
                    int cuemu_line = __builtin_LINE())
    -> decltype(op(val, val)) {
  using T = cuemu_detail::remove_qual<TyVal>;
  static_assert(std::is_same<T, cuemu_detail::remove_qual<decltype(op(val, val))>>::value,
                "Operator input and output types differ");
  static_assert(cuemu_detail::is_tile_group<TyGroup>::value,
                "This group does not exclusively represent a tile");
  if constexpr (cuemu_detail::is_wide_tile<TyGroup>::value)
    return cuemu_detail::wide_scan<false>(group, T(val), op, cuemu_file,
                                          cuemu_line);
  else
    return cuemu_detail::inclusive_scan(group, T(val), op, cuemu_file,
                                        cuemu_line);
}

template <typename TyGroup, typename TyVal>
cuemu_detail::remove_qual<TyVal>
inclusive_scan(const TyGroup &group, TyVal &&val,
               const char *cuemu_file = __builtin_FILE(),
               int cuemu_line = __builtin_LINE()) {
  return inclusive_scan(group, val, plus<cuemu_detail::remove_qual<TyVal>>(),
                        cuemu_file, cuemu_line);
}

template <typename TyGroup, typename TyVal, typename TyFn>
auto exclusive_scan(const TyGroup &group, TyVal &&val, TyFn &&op,
                    const char *cuemu_file = __builtin_FILE(),
                    int cuemu_line = __builtin_LINE())
    -> decltype(op(val, val)) {
  using T = cuemu_detail::remove_qual<TyVal>;
  static_assert(std::is_same<T, cuemu_detail::remove_qual<decltype(op(val, val))>>::value,
                "Operator input and output types differ");
  static_assert(cuemu_detail::is_tile_group<TyGroup>::value,
                "This group does not exclusively represent a tile");
  if constexpr (cuemu_detail::is_wide_tile<TyGroup>::value) {
    return cuemu_detail::wide_scan<true>(group, T(val), op, cuemu_file,
                                         cuemu_line);
  } else {
    T inclusive = cuemu_detail::inclusive_scan(group, T(val), op, cuemu_file,
                                               cuemu_line);
    return cuemu_detail::exclusive_from_inclusive(group, inclusive, T(val), op,
                                                  cuemu_file, cuemu_line);
  }
}

template <typename TyGroup, typename TyVal>
cuemu_detail::remove_qual<TyVal>
exclusive_scan(const TyGroup &group, TyVal &&val,
               const char *cuemu_file = __builtin_FILE(),
               int cuemu_line = __builtin_LINE()) {
  return exclusive_scan(group, val, plus<cuemu_detail::remove_qual<TyVal>>(),
                        cuemu_file, cuemu_line);
}

} // namespace cooperative_groups

#include "details/cuemu_scan_update.h"

#endif /* CUEMU_CG_SCAN_H */
