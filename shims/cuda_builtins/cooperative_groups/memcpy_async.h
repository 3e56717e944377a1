/*
 * cooperative_groups/memcpy_async.h: cg::memcpy_async(group, dst, src,
 * bytes) and the element-count form (group, dst, dst_count, src,
 * src_count), with cg::wait(group) and cg::wait_prior<N>(group).
 *
 * The copy completes synchronously, which CUDA allows: each member copies
 * its share of the bytes at the call, and wait() is the group's sync(), so
 * the whole copy is visible to every member after wait() as on the GPU.
 * The count may be an integer or a cuda::aligned_size_t<N> (any class
 * template over a size_t that converts to size_t).
 */
#ifndef CUEMU_CG_MEMCPY_ASYNC_H
#define CUEMU_CG_MEMCPY_ASYNC_H

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "../cooperative_groups.h"

namespace cooperative_groups {
namespace cuemu_detail {

/* Copies the caller's share of [0, bytes): ranks take consecutive pieces. */
template <typename G_>
void group_copy(const G_ &group, void *dst, const void *src, size_t bytes) {
  size_t members = (size_t)group.size();
  size_t rank = (size_t)group.thread_rank();
  size_t piece = (bytes + members - 1) / members;
  size_t begin = rank * piece;
  if (begin >= bytes)
    return;
  size_t end = begin + piece < bytes ? begin + piece : bytes;
  std::memcpy(static_cast<char *>(dst) + begin,
              static_cast<const char *>(src) + begin, end - begin);
}

template <typename S_> inline size_t count_of(const S_ &count) {
  return (size_t)count;
}

} // namespace cuemu_detail

/* Copies `count` bytes (an integer or an aligned_size_t) of src to dst. */
template <class TyGroup, typename TyElem, typename TySizeT>
void memcpy_async(const TyGroup &group, TyElem *__restrict__ dst,
                  const TyElem *__restrict__ src, const TySizeT &count) {
  cuemu_detail::group_copy(group, (void *)dst, (const void *)src,
                           cuemu_detail::count_of(count));
}

/* Copies min(dst_count, src_count) elements of src to dst. */
template <class TyGroup, class TyElem, typename DstLayout, typename SrcLayout>
void memcpy_async(const TyGroup &group, TyElem *__restrict__ dst,
                  const DstLayout &dstLayout, const TyElem *__restrict__ src,
                  const SrcLayout &srcLayout) {
  size_t d = cuemu_detail::count_of(dstLayout);
  size_t s = cuemu_detail::count_of(srcLayout);
  cuemu_detail::group_copy(group, (void *)dst, (const void *)src,
                           (d < s ? d : s) * sizeof(TyElem));
}

/* Waits for every earlier memcpy_async of the group (they are complete) and
 * synchronises the group, as CUDA's wait() does. */
template <class TyGroup>
void wait(const TyGroup &group, const char *cuemu_file = __builtin_FILE(),
          int cuemu_line = __builtin_LINE()) {
  group.sync(cuemu_file, cuemu_line);
}

template <unsigned int Stage, class TyGroup>
void wait_prior(const TyGroup &group, const char *cuemu_file = __builtin_FILE(),
                int cuemu_line = __builtin_LINE()) {
  group.sync(cuemu_file, cuemu_line);
}

} // namespace cooperative_groups

#endif /* CUEMU_CG_MEMCPY_ASYNC_H */
