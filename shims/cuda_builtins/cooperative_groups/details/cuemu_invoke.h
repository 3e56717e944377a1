/*
 * cooperative_groups/details/cuemu_invoke.h: cg::invoke_one(group, fn,
 * args...) and cg::invoke_one_broadcast(group, fn, args...) (CUDA 12.2).
 * One member of the group calls fn(args...): on sm_90 CUDA elects it with
 * elect.sync, which picks the lowest active lane of the group's mask, i.e.
 * its rank 0 (for a group that elect.sync does not cover, such as a
 * thread_block, CUDA also takes rank 0). invoke_one_broadcast, for a
 * coalesced group or a thread_block_tile, returns the elected member's
 * result to every member (a shuffle from rank 0).
 */
#ifndef CUEMU_CG_DETAILS_INVOKE_H
#define CUEMU_CG_DETAILS_INVOKE_H

#include <type_traits>
#include <utility>

#include "../../cooperative_groups.h"

namespace cooperative_groups {

template <typename Group, typename Fn, typename... Args>
void invoke_one(const Group &group, Fn &&fn, Args &&...args) {
  if (group.thread_rank() == 0)
    std::forward<Fn>(fn)(std::forward<Args>(args)...);
}

namespace cuemu_detail {

/* The broadcast itself, for the two kinds of group CUDA accepts. */
template <typename Group, typename Fn, typename... Args>
auto invoke_one_broadcast(const Group &group, Fn &&fn, Args &&...args) ->
    typename std::remove_reference<decltype(std::forward<Fn>(fn)(
        std::forward<Args>(args)...))>::type {
  using Result = decltype(std::forward<Fn>(fn)(std::forward<Args>(args)...));
  static_assert(!std::is_same<Result, void>::value,
                "For invocables returning void invoke_one should be used "
                "instead");
  typename std::remove_cv<typename std::remove_reference<Result>::type>::type
      result{};
  if (group.thread_rank() == 0)
    result = std::forward<Fn>(fn)(std::forward<Args>(args)...);
  return group.shfl(result, 0);
}

} // namespace cuemu_detail

template <typename Fn, typename... Args>
auto invoke_one_broadcast(const coalesced_group &group, Fn &&fn,
                          Args &&...args)
    -> decltype(cuemu_detail::invoke_one_broadcast(
        group, std::forward<Fn>(fn), std::forward<Args>(args)...)) {
  return cuemu_detail::invoke_one_broadcast(group, std::forward<Fn>(fn),
                                            std::forward<Args>(args)...);
}

template <unsigned int Size, typename Parent, typename Fn, typename... Args>
auto invoke_one_broadcast(const thread_block_tile<Size, Parent> &group,
                          Fn &&fn, Args &&...args)
    -> decltype(cuemu_detail::invoke_one_broadcast(
        group, std::forward<Fn>(fn), std::forward<Args>(args)...)) {
  static_assert(Size <= 32, "cuemu: cg::invoke_one_broadcast on a tile wider "
                            "than 32 threads is not provided");
  return cuemu_detail::invoke_one_broadcast(group, std::forward<Fn>(fn),
                                            std::forward<Args>(args)...);
}

} // namespace cooperative_groups

#endif /* CUEMU_CG_DETAILS_INVOKE_H */
