/*
 * cooperative_groups/details/cuemu_lanes.h: what the cooperative groups
 * shims build on: the calling thread's rank and lane in its block, the masks
 * of its warp, and typed access to the runtime's warp collectives.
 *
 * Warps are 32 consecutive linear thread ids of the block (x fastest), the
 * last one partial when the block size is not a multiple of 32. Values of
 * any trivially copyable type travel through cuemu_warp_collective() as
 * 64-bit words: a type of up to 8 bytes in one collective, a larger one in
 * one collective per 8-byte piece, as CUDA shuffles a large type piecewise.
 */
#ifndef CUEMU_CG_DETAILS_LANES_H
#define CUEMU_CG_DETAILS_LANES_H

#include <cstring>
#include <type_traits>

#include <cuemu/cuemu_device.h>

#include "../../cuemu_bit_cast.h"
#include "../../cuemu_builtin_vars.h"
#include "../../cuemu_warp_call.h"

namespace cooperative_groups {
namespace cuemu_detail {

/* The calling thread's linear id in its block and the block's size. */
inline unsigned block_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned __cuemu_block_size() { return blockDim.x * blockDim.y * blockDim.z; }

/* The calling thread's lane, and the lanes below it. */
inline unsigned lane_id() { return block_rank() & 31u; }
inline unsigned lanemask_lt() { return (1u << lane_id()) - 1u; }

/* The lanes of the caller's warp that exist (all 32 except in the partial
 * last warp of a block). */
inline unsigned warp_lanes() {
  unsigned base = block_rank() & ~31u;
  unsigned n = __cuemu_block_size() - base;
  return n >= 32u ? 0xffffffffu : (1u << n) - 1u;
}

/* The lane of the member of rank `rank` of the lanes in `mask`, or 32 when
 * the mask has no such member. */
inline unsigned lane_of_rank(unsigned mask, unsigned rank) {
  for (unsigned __cuemu_lane = 0; __cuemu_lane < 32u; ++__cuemu_lane) {
    if (mask & (1u << __cuemu_lane)) {
      if (rank == 0)
        return __cuemu_lane;
      --rank;
    }
  }
  return 32u;
}

/* Spreads the low bits of `lanes` (bit r for the member of rank r) onto the
 * lanes of `mask`, and back: pack() turns a mask of lanes into a mask of
 * ranks. */
inline unsigned pack(unsigned mask, unsigned lanes) {
  unsigned __cuemu_out = 0, rank = 0;
  for (unsigned __cuemu_lane = 0; __cuemu_lane < 32u; ++__cuemu_lane) {
    if (mask & (1u << __cuemu_lane)) {
      if (lanes & (1u << __cuemu_lane))
        __cuemu_out |= 1u << rank;
      ++rank;
    }
  }
  return __cuemu_out;
}

/* One collective on a 64-bit word. */
inline unsigned long long collective(int op, unsigned mask,
                                     unsigned long long value, int arg,
                                     int width, const char *name,
                                     const char *file, int line) {
  return cuemu_warp_call(op, mask, value, arg, width, name, file, line);
}

/* A shuffle (op one of CUEMU_WARP_SHFL_*) of a value of any trivially
 * copyable type; the bytes travel in 8-byte pieces. */
template <typename T>
inline T shuffle(int op, unsigned mask, const T &value, int arg, int width,
                 const char *name, const char *file, int line) {
  static_assert(std::is_trivially_copyable<T>::value,
                "cooperative groups shuffle only trivially copyable types");
  constexpr size_t pieces = (sizeof(T) + 7) / 8;
  unsigned long long in[pieces] = {}, __cuemu_out[pieces];
  std::memcpy(in, &value, sizeof(T));
  for (size_t __cuemu_i = 0; __cuemu_i < pieces; ++__cuemu_i)
    __cuemu_out[__cuemu_i] = collective(op, mask, in[__cuemu_i], arg, width, name, file, line);
  T result;
  std::memcpy(static_cast<void *>(&result), __cuemu_out, sizeof(T));
  return result;
}

/* The bits of a value of up to 8 bytes, zero-extended, for match_any and
 * match_all (which compare bits, as match.sync does). */
template <typename T> inline unsigned long long bits_of(const T &value) {
  static_assert(std::is_arithmetic<T>::value || std::is_pointer<T>::value,
                "match_any/match_all take an arithmetic value");
  static_assert(sizeof(T) <= 8, "match_any/match_all take up to 64 bits");
  return cuemu_bits_word(value);
}

/* Fails the launch when a group is used against CUDA's rules (CUDA traps). */
[[noreturn]] inline void fail(const char *what, const char *file, int line,
                              const char *function) {
  cuemu_kernel_assert_fail(what, file, line, function);
}

} // namespace cuemu_detail
} // namespace cooperative_groups

#endif /* CUEMU_CG_DETAILS_LANES_H */
