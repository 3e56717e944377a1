/*
 * cooperative_groups.h: CUDA's cooperative groups within a thread block:
 * thread_group, thread_block (this_thread_block()), the warp tiles
 * thread_block_tile<N> (tiled_partition<N>(), N from 1 to 32),
 * tiled_partition(parent, n), coalesced_group (coalesced_threads()),
 * this_thread(), labeled_partition() and binary_partition()
 * (cooperative_groups/details/cuemu_partition.h), the tiles wider than a
 * warp (thread_block_tile<64> ... <1024>, block_tile_memory:
 * cooperative_groups/details/cuemu_wide_tile.h), and grid_group
 * (this_grid(), grid.sync(): cuemu_grid_group.h). cg::reduce, the scans and
 * memcpy_async live in cooperative_groups/reduce.h, scan.h and
 * memcpy_async.h, as in CUDA.
 *
 * Every warp-level operation is one or more warp collectives of the runtime
 * (cuemu_warp_collective), with the masks and widths CUDA passes to the
 * *_sync intrinsics: a tile's lanes are consecutive thread_rank()s of the
 * block, its mask the tile's lanes, and its shuffles use the tile size as
 * width. One deliberate difference: in the partial last warp of a block,
 * the mask of a static tile names only the lanes that exist (CUDA's
 * dynamic tiles do the same; its static tiles name lanes past the end of
 * the block, which the runtime would report as misuse).
 *
 * Operations take the caller's file and line as trailing default
 * arguments, so that misuse reports name the kernel's source line.
 *
 * cluster_group (this_cluster()) is in cuemu_cluster_group.h.
 * grid_group is not (yet) a
 * thread_group, so it does not convert to one.
 */
#ifndef CUEMU_COOPERATIVE_GROUPS_H
#define CUEMU_COOPERATIVE_GROUPS_H
/* A system header: its C++17 forms that C++14 accepts (if constexpr, inline
 * variables, fold expressions) give no warning in a C++14 build of a .cpp
 * file (docs/dialects.md). */
#pragma GCC system_header

/* nvcc's cooperative_groups.h includes libcu++, which stops a unit
 * compiled before C++17 with its own #error ("libcu++ requires at least
 * C++ 17"): so does this one (docs/dialects.md). */
#if defined(__cplusplus) && __cplusplus < 201703L
#include <cuda/std/type_traits>
#endif
/* nvcc's also includes <nv/target>, so that NV_IF_TARGET compiles after
 * it alone; so does this one, where CCCL is on the path. (Its libcu++
 * <cuda/std/type_traits> is included from C++17 on only in a unit whose
 * code names cuda:: (cuemu_cccl_brings.h): it would double the compile
 * time of every unit that uses cooperative groups, docs/cccl.md.) */
#if __has_include(<nv/target>)
#include <nv/target>
#endif
/* And what else nvcc's brings (C library headers, the narrow float types,
 * and where the unit names them, <string>, <chrono>, libcu++...). */
#include "cuemu_cccl_brings.h"

#include "cuemu_builtin_vars.h"
#include "cuemu_sync.h"
#include "vector_types.h"
#include "cooperative_groups/details/cuemu_lanes.h"

namespace cooperative_groups {

namespace cuemu_detail {
/* The kinds of thread_group. */
enum group_id : unsigned {
  coalesced_group_id = 1,
  thread_block_id = 2,
  multi_tile_group_id = 5
};
struct group_access;

/* What a thread_group holds. */
struct group_data {
  unsigned type;
  unsigned mask;      /* coalesced: the member lanes of the warp */
  unsigned size;      /* coalesced: the number of threads */
  unsigned meta_rank; /* coalesced: rank of the group in its parent */
  unsigned meta_size; /* coalesced: number of groups of the parent */
  bool is_tiled;      /* coalesced: made by tiled_partition of a block */
};
} // namespace cuemu_detail

/* The generic group into which every group converts. */
class thread_group {
protected:
  cuemu_detail::group_data cuemu_data;

  explicit thread_group(unsigned type) : cuemu_data{type, 0, 0, 0, 1, false} {}

  friend struct cuemu_detail::group_access;

public:
  unsigned long long size() const {
    return cuemu_data.type == cuemu_detail::thread_block_id
               ? cuemu_detail::__cuemu_block_size()
               : cuemu_data.size;
  }
  unsigned long long num_threads() const { return size(); }
  unsigned long long thread_rank() const {
    return cuemu_data.type == cuemu_detail::thread_block_id
               ? cuemu_detail::block_rank()
               : __builtin_popcount(cuemu_data.mask &
                                    cuemu_detail::lanemask_lt());
  }
  void sync(const char *cuemu_file = __builtin_FILE(),
            int cuemu_line = __builtin_LINE()) const {
    if (cuemu_data.type == cuemu_detail::thread_block_id)
      cuemu_block_barrier(CUEMU_BARRIER_PLAIN, 0, cuemu_file, cuemu_line);
    else
      cuemu_detail::collective(CUEMU_WARP_SYNC, cuemu_data.mask, 0, 0, 32,
                               "thread_group::sync", cuemu_file, cuemu_line);
  }
  unsigned get_type() const { return cuemu_data.type; }
};

class thread_block : public thread_group {
public:
  static constexpr unsigned _group_id = cuemu_detail::thread_block_id;

  thread_block() : thread_group(cuemu_detail::thread_block_id) {}

  /* Waits for every thread of the block, as __syncthreads() does. */
  void sync(const char *cuemu_file = __builtin_FILE(),
            int cuemu_line = __builtin_LINE()) const {
    cuemu_block_barrier(CUEMU_BARRIER_PLAIN, 0, cuemu_file, cuemu_line);
  }
  unsigned long long thread_rank() const {
    return threadIdx.x +
           (unsigned long long)blockDim.x *
               (threadIdx.y + (unsigned long long)blockDim.y * threadIdx.z);
  }
  unsigned long long num_threads() const {
    return (unsigned long long)blockDim.x * blockDim.y * blockDim.z;
  }
  unsigned long long size() const { return num_threads(); }
  dim3 group_index() const { return dim3(blockIdx); }
  dim3 thread_index() const { return dim3(threadIdx); }
  dim3 dim_threads() const { return dim3(blockDim); }
  dim3 group_dim() const { return dim3(blockDim); }
  static constexpr bool is_valid() { return true; }
};

inline thread_block this_thread_block() { return thread_block(); }

/* The threads of a warp that are converged, or any subset of a warp made by
 * partitioning one. Ranks follow the lane order. */
class coalesced_group : public thread_group {
  friend struct cuemu_detail::group_access;

protected:
  explicit coalesced_group(unsigned mask)
      : thread_group(cuemu_detail::coalesced_group_id) {
    cuemu_data.mask = mask;
    cuemu_data.size = (unsigned)__builtin_popcount(mask);
  }
  unsigned get_mask() const { return cuemu_data.mask; }

public:
  static constexpr unsigned _group_id = cuemu_detail::coalesced_group_id;

  unsigned num_threads() const { return cuemu_data.size; }
  unsigned size() const { return num_threads(); }
  unsigned thread_rank() const {
    return (unsigned)__builtin_popcount(cuemu_data.mask &
                                        cuemu_detail::lanemask_lt());
  }
  unsigned meta_group_rank() const { return cuemu_data.meta_rank; }
  unsigned meta_group_size() const { return cuemu_data.meta_size; }

  void sync(const char *cuemu_file = __builtin_FILE(),
            int cuemu_line = __builtin_LINE()) const {
    cuemu_detail::collective(CUEMU_WARP_SYNC, cuemu_data.mask, 0, 0, 32,
                             "coalesced_group::sync", cuemu_file, cuemu_line);
  }

  /* The value of the member of rank srcRank. As in CUDA, a rank past the
   * group reads lane 31 (or, in a full warp, rank srcRank % 32). */
  template <typename T>
  T shfl(T var, int srcRank, const char *cuemu_file = __builtin_FILE(),
         int cuemu_line = __builtin_LINE()) const {
    unsigned __cuemu_lane;
    if (size() == 32)
      __cuemu_lane = (unsigned)srcRank;
    else if (srcRank < 0)
      __cuemu_lane = ~0u;
    else
      __cuemu_lane = cuemu_detail::lane_of_rank(cuemu_data.mask, (unsigned)srcRank);
    return cuemu_detail::shuffle(CUEMU_WARP_SHFL_IDX, cuemu_data.mask, var,
                                 (int)(__cuemu_lane & 31u), 32,
                                 "coalesced_group::shfl", cuemu_file,
                                 cuemu_line);
  }
  /* The value of the member delta ranks above, or the caller's own. */
  template <typename T>
  T shfl_down(T var, unsigned delta, const char *cuemu_file = __builtin_FILE(),
              int cuemu_line = __builtin_LINE()) const {
    if (size() == 32)
      return cuemu_detail::shuffle(CUEMU_WARP_SHFL_DOWN, 0xffffffffu, var,
                                   (int)delta, 32, "coalesced_group::shfl_down",
                                   cuemu_file, cuemu_line);
    unsigned long long target = (unsigned long long)thread_rank() + delta;
    unsigned __cuemu_lane = target < size()
                        ? cuemu_detail::lane_of_rank(cuemu_data.mask,
                                                     (unsigned)target)
                        : cuemu_detail::lane_id();
    return cuemu_detail::shuffle(CUEMU_WARP_SHFL_IDX, cuemu_data.mask, var,
                                 (int)__cuemu_lane, 32, "coalesced_group::shfl_down",
                                 cuemu_file, cuemu_line);
  }
  /* The value of the member delta ranks below, or the caller's own. */
  template <typename T>
  T shfl_up(T var, int delta, const char *cuemu_file = __builtin_FILE(),
            int cuemu_line = __builtin_LINE()) const {
    if (size() == 32)
      return cuemu_detail::shuffle(CUEMU_WARP_SHFL_UP, 0xffffffffu, var, delta,
                                   32, "coalesced_group::shfl_up", cuemu_file,
                                   cuemu_line);
    long long target = (long long)thread_rank() - delta;
    unsigned __cuemu_lane = delta >= 0 && target >= 0
                        ? cuemu_detail::lane_of_rank(cuemu_data.mask,
                                                     (unsigned)target)
                        : cuemu_detail::lane_id();
    return cuemu_detail::shuffle(CUEMU_WARP_SHFL_IDX, cuemu_data.mask, var,
                                 (int)__cuemu_lane, 32, "coalesced_group::shfl_up",
                                 cuemu_file, cuemu_line);
  }

  int any(int predicate, const char *cuemu_file = __builtin_FILE(),
          int cuemu_line = __builtin_LINE()) const {
    return lane_ballot(predicate, "coalesced_group::any", cuemu_file,
                       cuemu_line) != 0;
  }
  int all(int predicate, const char *cuemu_file = __builtin_FILE(),
          int cuemu_line = __builtin_LINE()) const {
    return lane_ballot(predicate, "coalesced_group::all", cuemu_file,
                       cuemu_line) == cuemu_data.mask;
  }
  /* Bit r is set when the member of rank r has a non-zero predicate. */
  unsigned ballot(int predicate, const char *cuemu_file = __builtin_FILE(),
                  int cuemu_line = __builtin_LINE()) const {
    return ranks(lane_ballot(predicate, "coalesced_group::ballot", cuemu_file,
                             cuemu_line));
  }
  /* The ranks of the members whose value has the same bits as mine. */
  template <typename T>
  unsigned match_any(T val, const char *cuemu_file = __builtin_FILE(),
                     int cuemu_line = __builtin_LINE()) const {
    return ranks((unsigned)cuemu_detail::collective(
        CUEMU_WARP_MATCH_ANY, cuemu_data.mask, cuemu_detail::bits_of(val), 0,
        32, "coalesced_group::match_any", cuemu_file, cuemu_line));
  }
  /* All the ranks when every member's value is the same (pred = 1), else 0
   * (pred = 0). */
  template <typename T>
  unsigned match_all(T val, int &pred,
                     const char *cuemu_file = __builtin_FILE(),
                     int cuemu_line = __builtin_LINE()) const {
    unsigned __cuemu_m = (unsigned)cuemu_detail::collective(
        CUEMU_WARP_MATCH_ALL, cuemu_data.mask, cuemu_detail::bits_of(val), 0,
        32, "coalesced_group::match_all", cuemu_file, cuemu_line);
    pred = __cuemu_m != 0;
    return ranks(__cuemu_m);
  }

private:
  unsigned lane_ballot(int predicate, const char *name, const char *file,
                       int line) const {
    return (unsigned)cuemu_detail::collective(CUEMU_WARP_BALLOT,
                                              cuemu_data.mask,
                                              predicate != 0, 0, 32, name,
                                              file, line);
  }
  unsigned ranks(unsigned lanes) const {
    return size() == 32 ? lanes : cuemu_detail::pack(cuemu_data.mask, lanes);
  }
};

/* The threads of the caller's warp that reach this call together. */
inline coalesced_group
coalesced_threads(const char *cuemu_file = __builtin_FILE(),
                  int cuemu_line = __builtin_LINE());

template <unsigned int Size, typename ParentT = void> class thread_block_tile;

namespace cuemu_detail {

/* Constructs groups and reads their masks for the free functions. */
struct group_access {
  static coalesced_group coalesced(unsigned mask, unsigned meta_rank,
                                   unsigned meta_size) {
    coalesced_group __cuemu_g(mask);
    __cuemu_g.cuemu_data.meta_rank = meta_rank;
    __cuemu_g.cuemu_data.meta_size = meta_size;
    return __cuemu_g;
  }
  static unsigned mask(const thread_group &__cuemu_g) { return __cuemu_g.cuemu_data.mask; }
  static const cuemu_detail::group_data &data(const thread_group &__cuemu_g) {
    return __cuemu_g.cuemu_data;
  }
  static thread_group group(const cuemu_detail::group_data &d) {
    thread_group __cuemu_g(d.type);
    __cuemu_g.cuemu_data = d;
    return __cuemu_g;
  }
  template <unsigned N_, typename P_> static thread_block_tile<N_, P_> tile() {
    return thread_block_tile<N_, P_>();
  }
  template <unsigned N_>
  static thread_block_tile<N_, void> tile(unsigned meta_rank,
                                         unsigned meta_size) {
    return thread_block_tile<N_, void>(meta_rank, meta_size);
  }
  template <unsigned N_, typename P_>
  static unsigned mask(const thread_block_tile<N_, P_> &) {
    return thread_block_tile<N_, P_>::build_mask();
  }
};

/* The operations of a tile of N threads: those of a tile of a warp here,
 * those of a wider tile (Wide) in details/cuemu_wide_tile.h. */
template <unsigned N_, bool Wide = (N_ > 32)> class tile_ops;

/* The operations of a tile of N consecutive threads of a warp (N a power of
 * two up to 32), as CUDA maps them onto the *_sync intrinsics. */
template <unsigned N_> class tile_ops<N_, false> {
  static_assert(N_ >= 1 && N_ <= 32 && (N_ & (N_ - 1)) == 0,
                "thread_block_tile: Size must be one of 1/2/4/8/16/32 "
                "(or 64/128/256/512/1024)");

protected:
  /* The tile's lanes, less those past the end of the block. */
  static unsigned build_mask() {
    unsigned tile = N_ == 32 ? 0xffffffffu : ((1u << N_) - 1u) << first_lane();
    return tile & warp_lanes();
  }
  static unsigned first_lane() { return lane_id() & ~(N_ - 1u); }
  static unsigned raw(int op, unsigned long long value, const char *name,
                      const char *file, int line) {
    return (unsigned)collective(op, build_mask(), value, 0, 32, name, file,
                                line);
  }

public:
  static constexpr unsigned _group_id = coalesced_group_id;

  static unsigned thread_rank() { return block_rank() & (N_ - 1u); }
  static constexpr unsigned num_threads() { return N_; }
  static constexpr unsigned size() { return N_; }

  static void sync(const char *cuemu_file = __builtin_FILE(),
                   int cuemu_line = __builtin_LINE()) {
    collective(CUEMU_WARP_SYNC, build_mask(), 0, 0, 32,
               "thread_block_tile::sync", cuemu_file, cuemu_line);
  }

  template <typename T>
  T shfl(T var, int srcRank, const char *cuemu_file = __builtin_FILE(),
         int cuemu_line = __builtin_LINE()) const {
    return shuffle(CUEMU_WARP_SHFL_IDX, build_mask(), var, srcRank, (int)N_,
                   "thread_block_tile::shfl", cuemu_file, cuemu_line);
  }
  template <typename T>
  T shfl_down(T var, unsigned int delta,
              const char *cuemu_file = __builtin_FILE(),
              int cuemu_line = __builtin_LINE()) const {
    return shuffle(CUEMU_WARP_SHFL_DOWN, build_mask(), var, (int)delta,
                   (int)N_, "thread_block_tile::shfl_down", cuemu_file,
                   cuemu_line);
  }
  template <typename T>
  T shfl_up(T var, unsigned int delta,
            const char *cuemu_file = __builtin_FILE(),
            int cuemu_line = __builtin_LINE()) const {
    return shuffle(CUEMU_WARP_SHFL_UP, build_mask(), var, (int)delta, (int)N_,
                   "thread_block_tile::shfl_up", cuemu_file, cuemu_line);
  }
  template <typename T>
  T shfl_xor(T var, unsigned int laneMask,
             const char *cuemu_file = __builtin_FILE(),
             int cuemu_line = __builtin_LINE()) const {
    return shuffle(CUEMU_WARP_SHFL_XOR, build_mask(), var, (int)laneMask,
                   (int)N_, "thread_block_tile::shfl_xor", cuemu_file,
                   cuemu_line);
  }

  int any(int predicate, const char *cuemu_file = __builtin_FILE(),
          int cuemu_line = __builtin_LINE()) const {
    return raw(CUEMU_WARP_BALLOT, predicate != 0, "thread_block_tile::any",
               cuemu_file, cuemu_line) != 0;
  }
  int all(int predicate, const char *cuemu_file = __builtin_FILE(),
          int cuemu_line = __builtin_LINE()) const {
    return raw(CUEMU_WARP_BALLOT, predicate != 0, "thread_block_tile::all",
               cuemu_file, cuemu_line) == build_mask();
  }
  /* Bit r is set when the thread of rank r has a non-zero predicate. */
  unsigned ballot(int predicate, const char *cuemu_file = __builtin_FILE(),
                  int cuemu_line = __builtin_LINE()) const {
    return raw(CUEMU_WARP_BALLOT, predicate != 0, "thread_block_tile::ballot",
               cuemu_file, cuemu_line) >>
           first_lane();
  }
  template <typename T>
  unsigned match_any(T val, const char *cuemu_file = __builtin_FILE(),
                     int cuemu_line = __builtin_LINE()) const {
    return raw(CUEMU_WARP_MATCH_ANY, bits_of(val),
               "thread_block_tile::match_any", cuemu_file, cuemu_line) >>
           first_lane();
  }
  template <typename T>
  unsigned match_all(T val, int &pred,
                     const char *cuemu_file = __builtin_FILE(),
                     int cuemu_line = __builtin_LINE()) const {
    unsigned __cuemu_m = raw(CUEMU_WARP_MATCH_ALL, bits_of(val),
                     "thread_block_tile::match_all", cuemu_file, cuemu_line);
    pred = __cuemu_m != 0;
    return __cuemu_m >> first_lane();
  }
};

/* The rank of the caller in a static parent group, and its size. */
template <typename P_> struct parent_shape;
template <> struct parent_shape<thread_block> {
  static unsigned rank() { return block_rank(); }
  static unsigned size() { return __cuemu_block_size(); }
};
template <unsigned M_, typename GP>
struct parent_shape<thread_block_tile<M_, GP>> {
  static unsigned rank() { return block_rank() & (M_ - 1u); }
  static unsigned size() { return M_; }
};

} // namespace cuemu_detail
} // namespace cooperative_groups

#include "cooperative_groups/details/cuemu_wide_tile.h"

namespace cooperative_groups {

/* A tile of a static parent (a thread_block or a larger tile). */
template <unsigned int Size, typename ParentT>
class thread_block_tile : public cuemu_detail::tile_ops<Size> {
  friend struct cuemu_detail::group_access;

protected:
  thread_block_tile() {}

public:
  static unsigned meta_group_rank() {
    return cuemu_detail::parent_shape<ParentT>::rank() / Size;
  }
  static unsigned meta_group_size() {
    return (cuemu_detail::parent_shape<ParentT>::size() + Size - 1u) / Size;
  }
  operator thread_block_tile<Size, void>() const {
    return cuemu_detail::group_access::tile<Size>(meta_group_rank(),
                                                  meta_group_size());
  }
};

/* A tile whose parent is forgotten; it is also a thread_group. */
template <unsigned int Size>
class thread_block_tile<Size, void> : public thread_group,
                                      public cuemu_detail::tile_ops<Size> {
  friend struct cuemu_detail::group_access;
  using ops = cuemu_detail::tile_ops<Size>;

protected:
  thread_block_tile(unsigned meta_rank, unsigned meta_size)
      : thread_group(cuemu_detail::coalesced_group_id) {
    cuemu_data.mask = ops::build_mask();
    cuemu_data.size = Size;
    cuemu_data.meta_rank = meta_rank;
    cuemu_data.meta_size = meta_size;
    cuemu_data.is_tiled = true;
  }

public:
  template <typename ParentT>
  thread_block_tile(const thread_block_tile<Size, ParentT> &__cuemu_g)
      : thread_block_tile(__cuemu_g.meta_group_rank(), __cuemu_g.meta_group_size()) {}

  using ops::_group_id;
  using ops::num_threads;
  using ops::size;
  using ops::sync;
  using ops::thread_rank;

  unsigned meta_group_rank() const { return cuemu_data.meta_rank; }
  unsigned meta_group_size() const { return cuemu_data.meta_size; }
};

/* A wide tile whose parent is forgotten: it keeps its meta group rank and
 * size, and is not a thread_group (as in CUDA). */
#define CUEMU_WIDE_VOID_TILE(S_)                                              \
  template <>                                                                 \
  class thread_block_tile<S_, void> : public cuemu_detail::tile_ops<S_> {     \
    friend struct cuemu_detail::group_access;                                 \
    unsigned cuemu_meta_rank, cuemu_meta_size;                                \
                                                                              \
  protected:                                                                  \
    thread_block_tile(unsigned meta_rank, unsigned meta_size)                 \
        : cuemu_meta_rank(meta_rank), cuemu_meta_size(meta_size) {}           \
                                                                              \
  public:                                                                     \
    template <typename ParentT>                                               \
    thread_block_tile(const thread_block_tile<S_, ParentT> &__cuemu_g)                \
        : thread_block_tile(__cuemu_g.meta_group_rank(), __cuemu_g.meta_group_size()) {}      \
    unsigned meta_group_rank() const { return cuemu_meta_rank; }              \
    unsigned meta_group_size() const { return cuemu_meta_size; }              \
  };
CUEMU_WIDE_VOID_TILE(64)
CUEMU_WIDE_VOID_TILE(128)
CUEMU_WIDE_VOID_TILE(256)
CUEMU_WIDE_VOID_TILE(512)
CUEMU_WIDE_VOID_TILE(1024)
#undef CUEMU_WIDE_VOID_TILE

namespace cuemu_detail {
template <unsigned N_, typename P_> struct valid_tile_parent : std::false_type {};
template <unsigned N_> struct valid_tile_parent<N_, thread_block> : std::true_type {};
template <unsigned N_, unsigned M_, typename GP>
struct valid_tile_parent<N_, thread_block_tile<M_, GP>>
    : std::integral_constant<bool, (N_ < M_)> {};
} // namespace cuemu_detail

/* The tile of Size consecutive ranks of g that holds the caller. A tile
 * wider than a warp synchronises g first, as CUDA does on sm_80+. */
template <unsigned int Size, typename ParentT>
thread_block_tile<Size, ParentT>
tiled_partition(const ParentT &__cuemu_g, const char *cuemu_file = __builtin_FILE(),
                int cuemu_line = __builtin_LINE()) {
  static_assert(cuemu_detail::valid_tile_parent<Size, ParentT>::value,
                "tiled_partition<Size>: the parent must be a thread_block or "
                "a larger thread_block_tile");
  if constexpr (Size > 32)
    cuemu_detail::wide_tile_start<Size>(__cuemu_g, cuemu_file, cuemu_line);
  (void)__cuemu_g, (void)cuemu_file, (void)cuemu_line;
  return cuemu_detail::group_access::tile<Size, ParentT>();
}

/* The group of the calling thread alone. */
inline thread_block_tile<1, void> this_thread() {
  return cuemu_detail::group_access::tile<1>(0, 1);
}

namespace cuemu_detail {

/* tiled_partition(parent, tilesz) of a block or of a coalesced group, as
 * CUDA computes it. */
inline group_data
tile_data(const thread_group &parent, unsigned tilesz, const char *file,
          int line) {
  if (tilesz == 0 || tilesz > 32 || (tilesz & (tilesz - 1)) != 0)
    fail("tiled_partition: the tile size must be a power of two from 1 to "
         "32 (as in CUDA; wider tiles are static: tiled_partition<N>)",
         file, line, "tiled_partition");
  cuemu_detail::group_data d = group_access::data(parent);
  unsigned rank = (unsigned)parent.thread_rank();
  unsigned size = (unsigned)parent.size();
  if (d.type == thread_block_id) {
    unsigned base = rank & ~(tilesz - 1);
    unsigned length = size - base < tilesz ? size - base : tilesz;
    d.type = coalesced_group_id;
    d.mask = (0xffffffffu >> (32 - length)) << (lane_id() & ~(tilesz - 1));
    d.size = (unsigned)__builtin_popcount(d.mask);
    d.meta_size = (size + tilesz - 1) / tilesz;
    d.meta_rank = rank / tilesz;
    d.is_tiled = true;
    return d;
  }
  if (size <= tilesz)
    return d;
  unsigned mask = 0;
  if (d.is_tiled) {
    /* The parent's lanes are consecutive: the tile's are too. As in CUDA,
     * meta_group_size() rounds down here. */
    unsigned base = rank & ~(tilesz - 1);
    unsigned length = size - base < tilesz ? size - base : tilesz;
    mask = ((0xffffffffu >> (32 - length)) << (lane_id() & ~(tilesz - 1))) &
           d.mask;
    d.meta_size = size / tilesz;
  } else {
    unsigned first = rank / tilesz * tilesz, __cuemu_r = 0;
    for (unsigned __cuemu_lane = 0; __cuemu_lane < 32; ++__cuemu_lane) {
      if (d.mask & (1u << __cuemu_lane)) {
        if (__cuemu_r >= first && __cuemu_r < first + tilesz)
          mask |= 1u << __cuemu_lane;
        ++__cuemu_r;
      }
    }
    d.meta_size = (size + tilesz - 1) / tilesz;
  }
  d.mask = mask;
  d.size = (unsigned)__builtin_popcount(mask);
  d.meta_rank = rank / tilesz;
  return d;
}

} // namespace cuemu_detail

/* Dynamic tiles: tilesz a power of two up to 32. */
inline thread_group tiled_partition(const thread_group &parent,
                                    unsigned int tilesz,
                                    const char *cuemu_file = __builtin_FILE(),
                                    int cuemu_line = __builtin_LINE()) {
  return cuemu_detail::group_access::group(
      cuemu_detail::tile_data(parent, tilesz, cuemu_file, cuemu_line));
}
inline thread_group tiled_partition(const thread_block &parent,
                                    unsigned int tilesz,
                                    const char *cuemu_file = __builtin_FILE(),
                                    int cuemu_line = __builtin_LINE()) {
  return cuemu_detail::group_access::group(
      cuemu_detail::tile_data(parent, tilesz, cuemu_file, cuemu_line));
}
inline coalesced_group tiled_partition(const coalesced_group &parent,
                                       unsigned int tilesz,
                                       const char *cuemu_file = __builtin_FILE(),
                                       int cuemu_line = __builtin_LINE()) {
  cuemu_detail::group_data d = cuemu_detail::tile_data(
      parent, tilesz, cuemu_file, cuemu_line);
  coalesced_group __cuemu_g = cuemu_detail::group_access::coalesced(
      d.mask, d.meta_rank, d.meta_size);
  return __cuemu_g;
}

inline coalesced_group coalesced_threads(const char *cuemu_file,
                                         int cuemu_line) {
  return cuemu_detail::group_access::coalesced(
      cuemu_warp_active_mask(cuemu_file, cuemu_line), 0, 1);
}

/* Free-function forms of the group operations. */
inline void sync(const thread_block &__cuemu_g,
                 const char *cuemu_file = __builtin_FILE(),
                 int cuemu_line = __builtin_LINE()) {
  __cuemu_g.sync(cuemu_file, cuemu_line);
}
template <class GroupT>
void sync(const GroupT &__cuemu_g, const char *cuemu_file = __builtin_FILE(),
          int cuemu_line = __builtin_LINE()) {
  __cuemu_g.sync(cuemu_file, cuemu_line);
}

inline unsigned long long thread_rank(const thread_block &__cuemu_g) {
  return __cuemu_g.thread_rank();
}
template <class GroupT>
auto thread_rank(const GroupT &__cuemu_g) -> decltype(__cuemu_g.thread_rank()) {
  return __cuemu_g.thread_rank();
}
template <class GroupT>
auto group_size(const GroupT &__cuemu_g) -> decltype(__cuemu_g.num_threads()) {
  return __cuemu_g.num_threads();
}

} // namespace cooperative_groups

#include "cooperative_groups/details/cuemu_partition.h"
#include "cuemu_grid_group.h"
#include "cuemu_cluster_group.h"
#include "cooperative_groups/details/cuemu_invoke.h"

#endif /* CUEMU_COOPERATIVE_GROUPS_H */
