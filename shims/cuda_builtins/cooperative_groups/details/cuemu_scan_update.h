/*
 * cooperative_groups/details/cuemu_scan_update.h: cg::inclusive_scan_update
 * and cg::exclusive_scan_update (CUDA 12) over a warp tile or a coalesced
 * group: the group's scan is offset by the value a cuda::atomic or
 * cuda::atomic_ref held, and the group's total is combined into it with op
 * (cuemu_atomic_update.h). As CUDA does, the last member makes the update
 * and shuffles the old value to the others, and each member returns
 * op(old, its scan); in the exclusive form rank 0's scan is T{}. Tiles
 * wider than a warp are refused at compile time. Included by
 * cooperative_groups/scan.h.
 */
#ifndef CUEMU_CG_DETAILS_SCAN_UPDATE_H
#define CUEMU_CG_DETAILS_SCAN_UPDATE_H

#include <type_traits>

#include "cuemu_atomic_update.h"
#include "cuemu_wide_algorithms.h"

namespace cooperative_groups {
namespace cuemu_detail {

template <bool Exclusive, typename TyGroup, typename TyAtomic, typename T,
          typename TyFn>
T scan_update(const TyGroup &group, TyAtomic &dst, T val, TyFn &op,
              const char *file, int line) {
  static_assert(!is_wide_tile<TyGroup>::value,
                "cuemu: cg::inclusive_scan_update and exclusive_scan_update "
                "on a tile wider than 32 threads are not provided");
  static_assert(is_tile_group<TyGroup>::value,
                "This group does not exclusively represent a tile");
  T scan = inclusive_scan(group, val, op, file, line);
  const unsigned __cuemu_last = group.num_threads() - 1;
  T old{};
  if (group.thread_rank() == __cuemu_last)
    old = atomic_update(dst, scan, op);
  old = group.shfl(old, __cuemu_last);
  if (Exclusive)
    scan = exclusive_from_inclusive(group, scan, val, op, file, line);
  return op(old, scan);
}

} // namespace cuemu_detail

/* Each of the two scans, with an operator and with cg::plus. */
#define CUEMU_CG_SCAN_UPDATE(name, exclusive)                                  \
  template <typename TyGroup, typename TyAtomic, typename TyInputVal,          \
            typename TyFn, cuemu_detail::if_atomic<TyAtomic> = 0>              \
  cuemu_detail::atomic_value<TyAtomic> name(                                   \
      const TyGroup &group, TyAtomic &&dst, TyInputVal &&val, TyFn &&op,       \
      const char *cuemu_file = __builtin_FILE(),                               \
      int cuemu_line = __builtin_LINE()) {                                     \
    using T = cuemu_detail::atomic_value<TyAtomic>;                            \
    static_assert(                                                             \
        std::is_same<T, cuemu_detail::remove_qual<TyInputVal>>::value,         \
        "Destination and input types differ");                                 \
    return cuemu_detail::scan_update<exclusive>(group, dst, T(val), op,        \
                                                cuemu_file, cuemu_line);       \
  }                                                                            \
  template <typename TyGroup, typename TyAtomic, typename TyInputVal,          \
            cuemu_detail::if_atomic<TyAtomic> = 0>                             \
  cuemu_detail::atomic_value<TyAtomic> name(                                   \
      const TyGroup &group, TyAtomic &&dst, TyInputVal &&val,                  \
      const char *cuemu_file = __builtin_FILE(),                               \
      int cuemu_line = __builtin_LINE()) {                                     \
    plus<cuemu_detail::atomic_value<TyAtomic>> op;                             \
    return name(group, dst, val, op, cuemu_file, cuemu_line);                  \
  }

CUEMU_CG_SCAN_UPDATE(inclusive_scan_update, false)
CUEMU_CG_SCAN_UPDATE(exclusive_scan_update, true)
#undef CUEMU_CG_SCAN_UPDATE

} // namespace cooperative_groups

#endif /* CUEMU_CG_DETAILS_SCAN_UPDATE_H */
