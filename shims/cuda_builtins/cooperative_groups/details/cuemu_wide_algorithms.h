/*
 * cooperative_groups/details/cuemu_wide_algorithms.h: cg::reduce and the
 * scans over a tile wider than a warp (thread_block_tile<64> ... <1024>),
 * in the order of operations CUDA 13 uses, so that floating-point results
 * match the GPU's bit for bit:
 *   - reduce: each warp reduces its 32 values as a thread_block_tile<32>
 *     does (redux.sync or the shfl_xor butterfly); then the first N/32
 *     lanes of the tile's first warp reduce the warps' results as a
 *     thread_block_tile<N/32>, and warp w takes lane w's result;
 *   - scans: each warp scans its values (Hillis-Steele over shfl_up); the
 *     warps' totals are scanned exclusively by a thread_block_tile<N/32>;
 *     a thread's result is op(its warp's scan, the total of the warps
 *     before it) (the warp's own scan in the first warp). An exclusive
 *     scan shifts each warp's scan up by one lane, and lane 0 of each
 *     warp takes the total of the warps before it (T{} in the first warp,
 *     or 0 for an integer sum, as CUDA gives).
 * Values travel through the block's exchange area (cuemu_wide_tile.h),
 * between two barriers of the tile.
 */
#ifndef CUEMU_CG_DETAILS_WIDE_ALGORITHMS_H
#define CUEMU_CG_DETAILS_WIDE_ALGORITHMS_H

#include "../../cooperative_groups.h"
#include "cuemu_group_algorithms.h"

namespace cooperative_groups {
namespace cuemu_detail {

/* Tiles wider than a warp. */
template <typename G_> struct is_wide_tile : std::false_type {};
template <unsigned N_, typename P_>
struct is_wide_tile<thread_block_tile<N_, P_>>
    : std::integral_constant<bool, (N_ > 32)> {};

template <unsigned N_, typename P_, typename T, typename Op>
T wide_reduce(const thread_block_tile<N_, P_> &, T value, Op &op,
              const char *file, int line) {
  static_assert(wide_type_ok<T>::value, "");
  constexpr unsigned warps = N_ / 32u;
  wide_step s = wide_begin<N_>(wide_op_reduce);
  T mine = reduce(group_access::tile<32, thread_block>(), value, op, file,
                  line);
  wide_area &a = area();
  if (s.__cuemu_lane == 0) {
    a.partial[s.warp] = wide_bits(mine);
    a.tag[s.warp] = s.tag;
  }
  wide_barrier<N_>(s, file, line);
  wide_check<N_>(s, "cg::reduce", file, line);
  if (s.warp == s.first_warp && s.__cuemu_lane < warps) {
    T part = wide_value<T>(a.partial[s.first_warp + s.__cuemu_lane]);
    T total = reduce(group_access::tile<warps, thread_block>(), part, op, file,
                     line);
    a.result[s.first_warp + s.__cuemu_lane] = wide_bits(total);
  }
  wide_barrier<N_>(s, file, line);
  return wide_value<T>(a.result[s.warp]);
}

template <bool Exclusive, unsigned N_, typename P_, typename T, typename Op>
T wide_scan(const thread_block_tile<N_, P_> &, T value, Op &op,
            const char *file, int line) {
  static_assert(wide_type_ok<T>::value, "");
  constexpr unsigned warps = N_ / 32u;
  const char *name = Exclusive ? "cg::exclusive_scan" : "cg::inclusive_scan";
  wide_step s = wide_begin<N_>(Exclusive ? wide_op_exclusive_scan
                                        : wide_op_inclusive_scan);
  auto warp = group_access::tile<32, thread_block>();
  T warp_scan = inclusive_scan(warp, value, op, file, line);
  wide_area &a = area();
  if (s.__cuemu_lane == 31)
    a.partial[s.warp] = wide_bits(warp_scan);
  if (s.__cuemu_lane == 0)
    a.tag[s.warp] = s.tag;
  if (Exclusive)
    warp_scan = warp.shfl_up(warp_scan, 1, file, line);
  wide_barrier<N_>(s, file, line);
  wide_check<N_>(s, name, file, line);
  if (s.warp == s.first_warp && s.__cuemu_lane < warps) {
    auto sub = group_access::tile<warps, thread_block>();
    T total = wide_value<T>(a.partial[s.first_warp + s.__cuemu_lane]);
    T inclusive = inclusive_scan(sub, total, op, file, line);
    T before = exclusive_from_inclusive(sub, inclusive, total, op, file, line);
    a.result[s.first_warp + s.__cuemu_lane] = wide_bits(before);
  }
  wide_barrier<N_>(s, file, line);
  T before = wide_value<T>(a.result[s.warp]);
  if (Exclusive && s.__cuemu_lane == 0)
    return before;
  if (s.warp == s.first_warp)
    return warp_scan;
  return op(warp_scan, before);
}

} // namespace cuemu_detail
} // namespace cooperative_groups

#endif /* CUEMU_CG_DETAILS_WIDE_ALGORITHMS_H */
