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
namespace cuemu_detail {

/* The group's reduction, then rank 0 updates (op) or stores into dst. */
template <bool Store, typename TyGroup, typename TyAtomic, typename TyInputVal,
          typename TyFn>
void reduce_into(const TyGroup &group, TyAtomic &dst, TyInputVal &val,
                 TyFn &op, const char *file, int line) {
  using T = atomic_value<TyAtomic>;
  static_assert(std::is_same<T, remove_qual<TyInputVal>>::value,
                "Destination and input types differ");
  T result = cooperative_groups::reduce(group, val, op, file, line);
  if (group.thread_rank() != 0)
    return;
  if constexpr (Store)
    dst.store(result);
  else
    atomic_update(dst, result, op);
}

} // namespace cuemu_detail

#define CUEMU_CG_REDUCE_INTO(name, store)                                      \
  template <typename TyGroup, typename TyAtomic, typename TyInputVal,          \
            typename TyFn, cuemu_detail::if_atomic<TyAtomic> = 0>              \
  void name(const TyGroup &group, TyAtomic &&dst, TyInputVal &&val,            \
            TyFn &&op, const char *cuemu_file = __builtin_FILE(),              \
            int cuemu_line = __builtin_LINE()) {                               \
    cuemu_detail::reduce_into<store>(group, dst, val, op, cuemu_file,          \
                                     cuemu_line);                              \
  }

CUEMU_CG_REDUCE_INTO(reduce_update_async, false)
CUEMU_CG_REDUCE_INTO(reduce_store_async, true)
#undef CUEMU_CG_REDUCE_INTO

} // namespace cooperative_groups

#endif /* CUEMU_CG_DETAILS_REDUCE_UPDATE_H */
