/*
 * cooperative_groups/details/cuemu_partition.h: binary_partition() and
 * labeled_partition(), which split a coalesced group or a warp tile into
 * the coalesced groups of the threads that share a predicate or a label.
 * Included by cooperative_groups.h.
 */
#ifndef CUEMU_CG_DETAILS_PARTITION_H
#define CUEMU_CG_DETAILS_PARTITION_H

#include <type_traits>

#include "../../cooperative_groups.h"

namespace cooperative_groups {
namespace cuemu_detail {

/* The members of the group (mask) whose predicate equals mine; meta group
 * rank 1 for a true predicate and 0 for a false one, of 2 groups, or the
 * whole group (rank 0 of 1) when all predicates agree. */
inline coalesced_group binary_split(unsigned mask, bool pred, const char *file,
                                    int line) {
  unsigned set = (unsigned)collective(CUEMU_WARP_BALLOT, mask, pred, 0, 32,
                                      "binary_partition", file, line);
  if (set == mask || set == 0)
    return group_access::coalesced(mask, 0, 1);
  return group_access::coalesced(pred ? set : mask & ~set, pred ? 1u : 0u, 2);
}

/* The members of the group (mask) whose label has the same bits as mine;
 * the meta group rank orders the groups by their lowest lane. */
inline coalesced_group label_split(unsigned mask, unsigned long long label,
                                   const char *file, int line) {
  unsigned same = (unsigned)collective(CUEMU_WARP_MATCH_ANY, mask, label, 0, 32,
                                       "labeled_partition", file, line);
  unsigned leader = (unsigned)__builtin_ctz(same);
  unsigned leaders = (unsigned)collective(CUEMU_WARP_BALLOT, mask,
                                          leader == lane_id(), 0, 32,
                                          "labeled_partition", file, line);
  unsigned rank = (unsigned)__builtin_popcount(leaders & ((1u << leader) - 1u));
  return group_access::coalesced(same, rank,
                                 (unsigned)__builtin_popcount(leaders));
}

template <typename L_>
inline coalesced_group label_split_any(unsigned mask, L_ label,
                                       const char *file, int line) {
  static_assert(std::is_integral<L_>::value || std::is_pointer<L_>::value,
                "labeled_partition predicate must be an integral or pointer "
                "type");
  if (std::is_same<L_, bool>::value)
    return binary_split(mask, label ? true : false, file, line);
  return label_split(mask, bits_of(label), file, line);
}

} // namespace cuemu_detail

inline coalesced_group binary_partition(const coalesced_group &__cuemu_g, bool pred,
                                        const char *cuemu_file = __builtin_FILE(),
                                        int cuemu_line = __builtin_LINE()) {
  return cuemu_detail::binary_split(cuemu_detail::group_access::mask(__cuemu_g), pred,
                                    cuemu_file, cuemu_line);
}
template <unsigned int Size, typename ParentT>
coalesced_group binary_partition(const thread_block_tile<Size, ParentT> &__cuemu_g,
                                 bool pred,
                                 const char *cuemu_file = __builtin_FILE(),
                                 int cuemu_line = __builtin_LINE()) {
  return cuemu_detail::binary_split(cuemu_detail::group_access::mask(__cuemu_g), pred,
                                    cuemu_file, cuemu_line);
}

template <typename TyPredicate>
coalesced_group labeled_partition(const coalesced_group &__cuemu_g, TyPredicate pred,
                                  const char *cuemu_file = __builtin_FILE(),
                                  int cuemu_line = __builtin_LINE()) {
  return cuemu_detail::label_split_any(cuemu_detail::group_access::mask(__cuemu_g),
                                       pred, cuemu_file, cuemu_line);
}
template <typename TyPredicate, unsigned int Size, typename ParentT>
coalesced_group labeled_partition(const thread_block_tile<Size, ParentT> &__cuemu_g,
                                  TyPredicate pred,
                                  const char *cuemu_file = __builtin_FILE(),
                                  int cuemu_line = __builtin_LINE()) {
  return cuemu_detail::label_split_any(cuemu_detail::group_access::mask(__cuemu_g),
                                       pred, cuemu_file, cuemu_line);
}

} // namespace cooperative_groups

#endif /* CUEMU_CG_DETAILS_PARTITION_H */
