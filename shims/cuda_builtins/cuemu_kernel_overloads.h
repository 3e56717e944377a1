/*
 * cuemu_kernel_overloads.h: launching a kernel whose name is overloaded.
 *
 * `k<<<g, b>>>(args)` where `k` names several kernels (same name, other
 * parameter types) becomes
 * `::cuemu::launch_overloaded<static_cast<T1 *>(k), ...>(g, b)(args)`
 * (emulator/compile/cuemu_kernel_overload.c): overload resolution over the
 * kernels' parameter lists, with the launch's arguments, picks the kernel,
 * as it picks the function of a call; then it is launched as any kernel.
 */
#ifndef CUEMU_KERNEL_OVERLOADS_H
#define CUEMU_KERNEL_OVERLOADS_H

#include <type_traits>
#include <utility>

/* launch_static(), dim3 and cudaStream_t (this header is included at its
 * end, and includes it when included first). */
#include "cuemu_kernel_thunks.h"

namespace cuemu {
namespace overloads {

/* One candidate: pick() takes the kernel's parameters and names it. */
template <auto K> struct candidate;
template <typename... P, void (*K)(P...)> struct candidate<K> {
  static std::integral_constant<void (*)(P...), K> pick(P...);
};

template <auto A, auto B> constexpr bool same = false;
template <auto A> constexpr bool same<A, A> = true;

/* The kernels without repeats (a prototype and its definition can both be
 * listed). */
template <auto... K> struct list {};
template <typename L, auto... K> struct unique { using type = L; };
template <auto... A, auto K, auto... R>
struct unique<list<A...>, K, R...>
    : unique<std::conditional_t<(same<A, K> || ...), list<A...>,
                                list<A..., K>>,
             R...> {};

template <typename L> struct set;
template <auto... K> struct set<list<K...>> : candidate<K>... {
  using candidate<K>::pick...;
};

} // namespace overloads

template <auto... K> class overloaded_launcher {
public:
  overloaded_launcher(dim3 grid, dim3 block, std::size_t shmem,
                      cudaStream_t stream)
      : grid_(grid), block_(block), shmem_(shmem), stream_(stream) {}

  template <typename... A> void operator()(A &&...args) const {
    using Set =
        overloads::set<typename overloads::unique<overloads::list<>, K...>::type>;
    using Picked = decltype(Set::pick(std::declval<A>()...));
    launch_static<Picked::value>(grid_, block_, shmem_, stream_)(
        std::forward<A>(args)...);
  }

private:
  dim3 grid_, block_;
  std::size_t shmem_;
  cudaStream_t stream_;
};

template <auto... K>
overloaded_launcher<K...> launch_overloaded(dim3 grid, dim3 block,
                                            std::size_t shmem = 0,
                                            cudaStream_t stream = nullptr) {
  return overloaded_launcher<K...>(grid, block, shmem, stream);
}

} // namespace cuemu

#endif /* CUEMU_KERNEL_OVERLOADS_H */
