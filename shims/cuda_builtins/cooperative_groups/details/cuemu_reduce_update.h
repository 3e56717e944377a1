/*
 * cooperative_groups/details/cuemu_reduce_update.h: the atomic forms of
 * the asynchronous reductions (CUDA 12): cg::reduce_update_async(group,
 * atomic, value, op) combines the group's reduction into a cuda::atomic or
 * cuda::atomic_ref with op (cuemu_atomic_update.h), and
 * cg::reduce_store_async(group, atomic, value, op) stores it there. One
 * member (rank 0, as CUDA) changes the destination; the others return
 * after the group's reduction. Included by cooperative_groups/reduce.h.
 */
#ifndef CUEMU_CG_DETAILS_REDUCE_UPDATE_H
#define CUEMU_CG_DETAILS_REDUCE_UPDATE_H

#include <type_traits>

/* cg::reduce itself (reduce.h includes this file at its end). */
#include "../reduce.h"
#include "cuemu_atomic_update.h"

namespace cooperative_groups {

template <typename TyGroup, typename TyAtomic, typename TyInputVal,
          typename TyFn,
          typename std::enable_if<cuemu_detail::is_atomic_dst<
              typename std::remove_reference<TyAtomic>::type>::value,
                                  int>::type = 0>
void reduce_update_async(const TyGroup &group, TyAtomic &&dst,
                         TyInputVal &&val, TyFn &&op,
                         const char *cuemu_file = __builtin_FILE(),
                         int cuemu_line = __builtin_LINE()) {
  using T = cuemu_detail::atomic_value<TyAtomic>;
  static_assert(std::is_same<T, cuemu_detail::remove_qual<TyInputVal>>::value,
                "Destination and input types differ");
  T result = cooperative_groups::reduce(group, val, op, cuemu_file,
                                        cuemu_line);
  if (group.thread_rank() == 0)
    cuemu_detail::atomic_update(dst, result, op);
}

template <typename TyGroup, typename TyAtomic, typename TyInputVal,
          typename TyFn,
          typename std::enable_if<cuemu_detail::is_atomic_dst<
              typename std::remove_reference<TyAtomic>::type>::value,
                                  int>::type = 0>
void reduce_store_async(const TyGroup &group, TyAtomic &&dst,
                        TyInputVal &&val, TyFn &&op,
                        const char *cuemu_file = __builtin_FILE(),
                        int cuemu_line = __builtin_LINE()) {
  using T = cuemu_detail::atomic_value<TyAtomic>;
  static_assert(std::is_same<T, cuemu_detail::remove_qual<TyInputVal>>::value,
                "Destination and input types differ");
  T result = cooperative_groups::reduce(group, val, op, cuemu_file,
                                        cuemu_line);
  if (group.thread_rank() == 0)
    dst.store(result);
}

} // namespace cooperative_groups

#endif /* CUEMU_CG_DETAILS_REDUCE_UPDATE_H */
