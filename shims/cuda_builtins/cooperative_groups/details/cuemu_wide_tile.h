/*
 * cooperative_groups/details/cuemu_wide_tile.h: thread block tiles wider
 * than a warp (thread_block_tile<N> for N = 64, 128, 256, 512 and 1024),
 * block_tile_memory and this_thread_block(block_tile_memory &). Included
 * by cooperative_groups.h in the middle of its definitions; included
 * alone, it includes cooperative_groups.h, which includes it back at the
 * right place.
 *
 * What CUDA 13 offers on such a tile, and so what is here: thread_rank(),
 * num_threads(), size(), meta_group_rank(), meta_group_size(), sync(),
 * shfl(value, src) (a broadcast: every member must name the same source),
 * any() and all(), and cg::reduce, cg::inclusive_scan and
 * cg::exclusive_scan (cooperative_groups/details/cuemu_wide_algorithms.h).
 * CUDA has no shfl_up, shfl_down, shfl_xor, ballot, match_any or
 * match_all on these tiles, values of more than 8 bytes are refused, and
 * such a tile does not convert to thread_group; the same holds here.
 *
 * Memory: on sm_80 and later (sm_90 included), CUDA keeps the tiles' data
 * in shared memory it reserves in every block, and block_tile_memory is an
 * empty object that this_thread_block() does not use; tiles need no
 * scratch at all there. This emulates that: each block has its own
 * exchange area (per-OS-thread storage, which is per running block, as
 * __shared__ is), and block_tile_memory<MaxBlockSize> is accepted and
 * checked (a block of more than MaxBlockSize threads is an error, as in
 * CUDA's debug builds) but holds nothing.
 *
 * Synchronisation: sync() is a barrier of the tile's threads
 * (cuemu_group_barrier). A collective is: each warp's part (warp
 * collectives, in the order CUDA computes them), written to its warp's
 * slot; a barrier; the combination across warps; a second barrier, which
 * keeps the slots from being overwritten before every member has read
 * them. Results are therefore exact and independent of the schedule.
 * tiled_partition<N>() synchronises its parent, as CUDA does on sm_80+.
 *
 * Misuse ends the launch with an error naming the call's source line: a
 * block size that is not a multiple of N (CUDA requires it), a shfl whose
 * members name different sources or a source outside the tile, members
 * of a tile at different collectives, a warp of the tile whose threads
 * have all exited (on a GPU these hang), and, through the runtime, a
 * partly exited warp or a member waiting at another barrier.
 */
#ifndef CUEMU_COOPERATIVE_GROUPS_H
#include "../../cooperative_groups.h"
#else
#ifndef CUEMU_CG_DETAILS_WIDE_TILE_H
#define CUEMU_CG_DETAILS_WIDE_TILE_H

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include <cuemu/cuemu_device.h>

#include "cuemu_lanes.h"

namespace cooperative_groups {

/* The scratch that CUDA's this_thread_block(scratch) takes. On sm_80 and
 * later it is empty, as here. */
template <unsigned int MaxBlockSize = 1024>
struct alignas(8) block_tile_memory {};

namespace cuemu_detail {

/* What a wide tile collective is, for the check that every member does
 * the same one. */
enum wide_op : unsigned {
  wide_op_shfl = 1,
  wide_op_any,
  wide_op_all,
  wide_op_reduce,
  wide_op_inclusive_scan,
  wide_op_exclusive_scan
};

/* The exchange area of the running block: one slot per warp of the block
 * for each of a collective's values, and each thread's count of the
 * operations it did on its tile of each width (64 ... 1024), which makes
 * the tag that says which operation a warp's slots belong to. */
struct wide_area {
  unsigned long long partial[32]; /* a warp's part of a collective */
  unsigned long long value[32];   /* shfl: the source's value */
  unsigned long long result[32];  /* the combination across warps */
  unsigned long long tag[32];     /* which operation wrote partial[] */
  unsigned seq[5][1024];
};

inline wide_area &area() {
  static thread_local wide_area a;
  return a;
}

/* 0 for 64-thread tiles, 1 for 128, ... 4 for 1024. */
template <unsigned N_> constexpr unsigned wide_class() {
  return N_ == 64 ? 0 : N_ == 128 ? 1 : N_ == 256 ? 2 : N_ == 512 ? 3 : 4;
}

/* Ends the launch with a message built like printf's. */
[[noreturn]] inline void wide_fail(const char *name, const char *file,
                                   int line, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
inline void wide_fail(const char *name, const char *file, int line,
                      const char *format, ...) {
  static thread_local char text[384];
  va_list ap;
  va_start(ap, format);
  std::vsnprintf(text, sizeof text, format, ap);
  va_end(ap);
  fail(text, file, line, name);
}

/* Where the caller stands in its tile of N threads, and the tag of the
 * operation it is starting. */
struct wide_step {
  unsigned first;      /* block rank of the tile's rank 0 */
  unsigned first_warp; /* its warp */
  unsigned warp;       /* the caller's warp in the block */
  unsigned __cuemu_lane;
  unsigned long long tag;
};

template <unsigned N_> inline wide_step wide_begin(unsigned op) {
  unsigned __cuemu_r = block_rank();
  wide_step s;
  s.first = __cuemu_r & ~(N_ - 1u);
  s.first_warp = s.first / 32u;
  s.warp = __cuemu_r / 32u;
  s.__cuemu_lane = __cuemu_r & 31u;
  unsigned seq = ++area().seq[wide_class<N_>()][__cuemu_r];
  s.tag = (unsigned long long)seq << 16 | wide_class<N_>() << 8 | op;
  return s;
}

/* The barrier of the tile that holds the caller. */
template <unsigned N_>
inline void wide_barrier(const wide_step &s, const char *file, int line) {
  cuemu_group_barrier(s.first, N_, file, line);
}

/* After the first barrier of a collective: every warp of the tile wrote
 * the tag of this same operation. */
template <unsigned N_>
inline void wide_check(const wide_step &s, const char *name, const char *file,
                       int line) {
  const wide_area &a = area();
  for (unsigned __cuemu_k = 0; __cuemu_k < N_ / 32u; ++__cuemu_k) {
    unsigned w = s.first_warp + __cuemu_k;
    if (a.tag[w] != s.tag)
      wide_fail(name, file, line,
                "%s on a thread_block_tile<%u> (threads %u..%u): the warp of "
                "threads %u..%u did not take part (its threads have exited "
                "or are at another operation of the tile)",
                name, N_, s.first, s.first + N_ - 1u, w * 32u, w * 32u + 31u);
  }
}

template <typename T> inline unsigned long long wide_bits(const T &value) {
  unsigned long long __cuemu_bits = 0;
  std::memcpy(&__cuemu_bits, &value, sizeof(T));
  return __cuemu_bits;
}

template <typename T> inline T wide_value(unsigned long long __cuemu_bits) {
  T value;
  std::memcpy(static_cast<void *>(&value), &__cuemu_bits, sizeof(T));
  return value;
}

/* The type check of every wide tile collective, as CUDA makes it. */
template <typename T> struct wide_type_ok {
  static_assert(sizeof(T) <= 8, "Collectives with tiles larger than 32 "
                                "threads are limited to types smaller then "
                                "8 bytes");
  static_assert(std::is_trivially_copyable<T>::value,
                "cooperative groups exchange only trivially copyable types");
  static constexpr bool value = true;
};

/* any() and all(): a vote per warp, then over the warps. */
template <unsigned N_>
inline int wide_vote(bool all, int predicate, const char *name,
                     const char *file, int line) {
  wide_step s = wide_begin<N_>(all ? wide_op_all : wide_op_any);
  unsigned votes = (unsigned)collective(CUEMU_WARP_BALLOT, 0xffffffffu,
                                        predicate != 0, 0, 32, name, file,
                                        line);
  wide_area &a = area();
  if (s.__cuemu_lane == 0) {
    a.partial[s.warp] = all ? votes == 0xffffffffu : votes != 0u;
    a.tag[s.warp] = s.tag;
  }
  wide_barrier<N_>(s, file, line);
  wide_check<N_>(s, name, file, line);
  int __cuemu_out = all ? 1 : 0;
  for (unsigned __cuemu_k = 0; __cuemu_k < N_ / 32u; ++__cuemu_k) {
    if (all)
      __cuemu_out &= a.partial[s.first_warp + __cuemu_k] != 0;
    else
      __cuemu_out |= a.partial[s.first_warp + __cuemu_k] != 0;
  }
  wide_barrier<N_>(s, file, line);
  return __cuemu_out;
}

/* The operations of a tile of N threads, N a power of two from 64 to 1024
 * (the block a whole number of such tiles). */
template <unsigned N_> class tile_ops<N_, true> {
  static_assert(N_ <= 1024 && (N_ & (N_ - 1)) == 0,
                "thread_block_tile: Size must be one of 64/128/256/512/1024 "
                "(or 1/2/4/8/16/32)");

public:
  static constexpr unsigned _group_id = multi_tile_group_id;

  static unsigned thread_rank() { return block_rank() & (N_ - 1u); }
  static constexpr unsigned num_threads() { return N_; }
  static constexpr unsigned size() { return N_; }

  void sync(const char *cuemu_file = __builtin_FILE(),
            int cuemu_line = __builtin_LINE()) const {
    wide_step s = wide_begin<N_>(0);
    wide_barrier<N_>(s, cuemu_file, cuemu_line);
  }

  /* The value of the member of rank src, which every member must name. */
  template <typename T>
  T shfl(T var, unsigned int src, const char *cuemu_file = __builtin_FILE(),
         int cuemu_line = __builtin_LINE()) const {
    static_assert(wide_type_ok<T>::value, "");
    const char *name = "thread_block_tile::shfl";
    if (src >= N_)
      wide_fail(name, cuemu_file, cuemu_line,
                "thread_block_tile<%u>::shfl: source rank %u is not in the "
                "tile",
                N_, src);
    wide_step s = wide_begin<N_>(wide_op_shfl);
    if (collective(CUEMU_WARP_MATCH_ALL, 0xffffffffu, src, 0, 32, name,
                   cuemu_file, cuemu_line) == 0)
      wide_fail(name, cuemu_file, cuemu_line,
                "thread_block_tile<%u>::shfl: the threads of warp %u..%u name "
                "different source ranks (CUDA requires one source for the "
                "whole tile)",
                N_, s.warp * 32u, s.warp * 32u + 31u);
    wide_area &a = area();
    if (s.__cuemu_lane == 0) {
      a.partial[s.warp] = src;
      a.tag[s.warp] = s.tag;
    }
    if (thread_rank() == src)
      a.value[s.warp] = wide_bits(var);
    wide_barrier<N_>(s, cuemu_file, cuemu_line);
    wide_check<N_>(s, name, cuemu_file, cuemu_line);
    for (unsigned __cuemu_k = 0; __cuemu_k < N_ / 32u; ++__cuemu_k)
      if (a.partial[s.first_warp + __cuemu_k] != src)
        wide_fail(name, cuemu_file, cuemu_line,
                  "thread_block_tile<%u>::shfl: source rank %u here, %llu in "
                  "the warp of threads %u..%u (CUDA requires one source for "
                  "the whole tile)",
                  N_, src, a.partial[s.first_warp + __cuemu_k],
                  (s.first_warp + __cuemu_k) * 32u, (s.first_warp + __cuemu_k) * 32u + 31u);
    T __cuemu_out = wide_value<T>(a.value[s.first_warp + src / 32u]);
    wide_barrier<N_>(s, cuemu_file, cuemu_line);
    return __cuemu_out;
  }

  int any(int predicate, const char *cuemu_file = __builtin_FILE(),
          int cuemu_line = __builtin_LINE()) const {
    return wide_vote<N_>(false, predicate, "thread_block_tile::any",
                        cuemu_file, cuemu_line);
  }
  int all(int predicate, const char *cuemu_file = __builtin_FILE(),
          int cuemu_line = __builtin_LINE()) const {
    return wide_vote<N_>(true, predicate, "thread_block_tile::all", cuemu_file,
                        cuemu_line);
  }
};

/* What tiled_partition<N>() does for a wide N before it returns the tile:
 * checks that the block is a whole number of tiles, starts the tile's
 * count of operations, clears the tag of the caller's warp (lane 0 does:
 * it has passed every earlier operation of every tile that holds its warp,
 * so nobody reads that tag any more), and synchronises the parent (CUDA
 * does on sm_80+). A warp that exits before tiled_partition() keeps the
 * tag it had, possibly from an earlier block. */
template <unsigned N_>
inline void wide_start(const char *file, int line) {
  unsigned size = __cuemu_block_size(), __cuemu_r = block_rank();
  if (size % N_ != 0)
    wide_fail("tiled_partition", file, line,
              "tiled_partition<%u>: the thread block has %u threads, not a "
              "multiple of %u",
              N_, size, N_);
  wide_area &a = area();
  a.seq[wide_class<N_>()][__cuemu_r] = 0;
  if ((__cuemu_r & 31u) == 0)
    a.tag[__cuemu_r / 32u] = 0;
}

template <unsigned N_>
inline void wide_tile_start(const thread_block &parent, const char *file,
                            int line) {
  wide_start<N_>(file, line);
  parent.sync(file, line);
}

template <unsigned N_, unsigned M_, typename GP>
inline void wide_tile_start(const thread_block_tile<M_, GP> &parent,
                            const char *file, int line) {
  wide_start<N_>(file, line);
  parent.sync(file, line);
}

} // namespace cuemu_detail

/* The block, with the scratch that tiles wider than a warp use on GPUs
 * before sm_80 (unused here, as on sm_80+). A block of more threads than
 * MaxBlockSize is an error, as in CUDA's debug builds. */
template <unsigned int MaxBlockSize>
thread_block this_thread_block(block_tile_memory<MaxBlockSize> &scratch,
                               const char *cuemu_file = __builtin_FILE(),
                               int cuemu_line = __builtin_LINE()) {
  (void)scratch;
  unsigned size = cuemu_detail::__cuemu_block_size();
  if (size > MaxBlockSize)
    cuemu_detail::wide_fail("this_thread_block", cuemu_file, cuemu_line,
                            "this_thread_block: the thread block has %u "
                            "threads, more than block_tile_memory<%u> is for",
                            size, MaxBlockSize);
  return thread_block();
}

} // namespace cooperative_groups

#endif /* CUEMU_CG_DETAILS_WIDE_TILE_H */
#endif /* CUEMU_COOPERATIVE_GROUPS_H */
