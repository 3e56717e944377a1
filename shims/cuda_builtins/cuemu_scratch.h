/*
 * cuemu_scratch.h: per-thread scratch arrays of the runtime API's shims,
 * for what CUDA hands back as arrays that stay valid until the next call
 * (a capture's edge data, an external semaphore node's parameters) and for
 * an argument array built for one call.
 *
 * std::vector would do, but <vector> is a seventh of what each pass of every
 * translation unit parses (bench/RESULTS.md), and nvcc's own headers do not
 * bring it.
 */
#ifndef CUEMU_SCRATCH_H
#define CUEMU_SCRATCH_H

#include <cstddef>
#include <cstdlib>
#include <type_traits>

namespace cuemu {

/* `n` value-initialized elements of T, in memory of the calling thread that
 * the next call with the same tag `Tag` and type reuses (it is never freed
 * while the thread lives); nullptr when n is 0 or memory is short. */
template <typename Tag, typename T> T *scratch(std::size_t n) {
  static_assert(std::is_trivially_copyable<T>::value &&
                    std::is_trivially_destructible<T>::value,
                "scratch arrays hold plain data");
  struct holder {
    T *data = nullptr;
    std::size_t capacity = 0;
    ~holder() { std::free(data); }
  };
  static thread_local holder h;
  if (n == 0)
    return nullptr;
  if (n > h.capacity) {
    void *grown = std::realloc(h.data, n * sizeof(T));
    if (!grown)
      return nullptr;
    h.data = static_cast<T *>(grown);
    h.capacity = n;
  }
  for (std::size_t __cuemu_i = 0; __cuemu_i < n; ++__cuemu_i)
    h.data[__cuemu_i] = T();
  return h.data;
}

} // namespace cuemu

#endif /* CUEMU_SCRATCH_H */
