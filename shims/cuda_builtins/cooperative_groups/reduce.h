/*
 * cooperative_groups/reduce.h: cg::reduce(group, value, op) over a warp
 * tile (thread_block_tile<N>, N up to 32) or a coalesced group, with the
 * operators cg::plus, less, greater, bit_and, bit_or, bit_xor or any
 * callable; every member gets the result. Tiles wider than a warp (64 to
 * 1024 threads) reduce values of up to 8 bytes, as in CUDA
 * (details/cuemu_wide_algorithms.h). Also cg::reduce_store_async to a
 * plain pointer (the member of rank 0 stores; it completes at once);
 * reduce_update_async and the cuda::atomic forms of reduce_store_async
 * are in details/cuemu_reduce_update.h.
 */
#ifndef CUEMU_CG_REDUCE_H
#define CUEMU_CG_REDUCE_H

#include "../cooperative_groups.h"
#include "details/cuemu_group_algorithms.h"
#include "details/cuemu_wide_algorithms.h"

namespace cooperative_groups {

template <typename TyGroup, typename TyVal, typename TyFn>
auto reduce(const TyGroup &group, TyVal &&val, TyFn &&op,
            const char *cuemu_file = __builtin_FILE(),
            int cuemu_line = __builtin_LINE()) -> decltype(op(val, val)) {
  using T = cuemu_detail::remove_qual<TyVal>;
  static_assert(std::is_same<T, cuemu_detail::remove_qual<decltype(op(val, val))>>::value,
                "Operator input and output types differ");
  static_assert(cuemu_detail::is_tile_group<TyGroup>::value,
                "This group does not exclusively represent a tile");
  if constexpr (cuemu_detail::is_wide_tile<TyGroup>::value)
    return cuemu_detail::wide_reduce(group, T(val), op, cuemu_file,
                                     cuemu_line);
  else
    return cuemu_detail::reduce(group, T(val), op, cuemu_file, cuemu_line);
}

template <typename TyGroup, typename TyVal, typename TyInputVal, typename TyFn>
void reduce_store_async(const TyGroup &group, TyVal *dst, TyInputVal &&val,
                        TyFn &&op, const char *cuemu_file = __builtin_FILE(),
                        int cuemu_line = __builtin_LINE()) {
  static_assert(std::is_same<TyVal, cuemu_detail::remove_qual<TyInputVal>>::value,
                "Destination and input types differ");
  auto result = cooperative_groups::reduce(group, val, op, cuemu_file,
                                          cuemu_line);
  if (group.thread_rank() == 0)
    *dst = result;
}

} // namespace cooperative_groups

#include "details/cuemu_reduce_update.h"

#endif /* CUEMU_CG_REDUCE_H */
