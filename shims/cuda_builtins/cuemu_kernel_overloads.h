/*
 * cuemu_kernel_overloads.h: launching a kernel whose name is overloaded.
 *
 * `k<<<g, b>>>(args)` where `k` names several kernels (same name, other
 * parameter types) becomes
 * `::cuemu::launch_overloaded<static_cast<T1 *>(k), ...>(g, b)(args)`
 * (emulator/compile/cuemu_kernel_overload.c): overload resolution over the
 * kernels' parameter lists, with the launch's arguments, picks the kernel,
 * as it picks the function of a call; then it is launched as any kernel.
 * A launch that the call must complete (default arguments, or kernels of
 * one name in several namespaces) is launch_picked (cuemu_kernel_thunks.h)
 * with a set of `defaulted` candidates: the call runs the kernel, and the
 * set says which kernel it is, whose attributes (__launch_bounds__) the
 * launch takes.
 */
#ifndef CUEMU_KERNEL_OVERLOADS_H
#define CUEMU_KERNEL_OVERLOADS_H

#include <tuple>
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

/* One candidate of a launch that the call itself completes (default
 * arguments: emulator/compile/cuemu_kernel_overload.c): pick() for each
 * number of arguments a call may give, all but its last `Defaults`
 * parameters (those with default arguments) to all. */
template <auto K, typename Seq> struct prefix;
template <typename... P, void (*K)(P...), std::size_t... I>
struct prefix<K, std::index_sequence<I...>> {
  static std::integral_constant<void (*)(P...), K>
  pick(std::tuple_element_t<I, std::tuple<P...>>...);
};
template <auto K, std::size_t Required, typename Seq> struct prefixes;
template <auto K, std::size_t Required, std::size_t... N>
struct prefixes<K, Required, std::index_sequence<N...>>
    : prefix<K, std::make_index_sequence<Required + N>>... {
  using prefix<K, std::make_index_sequence<Required + N>>::pick...;
};
template <auto K, std::size_t Defaults> struct defaulted;
template <typename... P, void (*K)(P...), std::size_t Defaults>
struct defaulted<K, Defaults>
    : prefixes<K, sizeof...(P) - Defaults,
               std::make_index_sequence<Defaults + 1>> {
  using prefixes<K, sizeof...(P) - Defaults,
                 std::make_index_sequence<Defaults + 1>>::pick;
};
template <typename... C> struct candidates : C... {
  using C::pick...;
};

/* The kernel that a launch with deduced arguments calls, named by the
 * call of its picker: the translation declares, next to each of the
 * user's kernels, `kernel_constant<&k> cuemu_pick_k(parameters of k)`
 * (emulator/compile/cuemu_kernel_picker.c), which lookup, overload
 * resolution and template argument deduction pick as they pick the
 * kernel. P is a lambda `[](auto &&...a) -> decltype(cuemu_pick_k(a...))`;
 * a call that it cannot make (no picker) names no kernel. */
template <typename P> struct by_picker {
  template <typename... A>
  static constexpr bool can_pick = std::is_invocable_v<P, A...>;
  template <typename... A> static auto pointer() {
    return std::invoke_result_t<P, A...>::value;
  }
  template <typename... A> static const void *kernel() {
    if constexpr (std::is_invocable_v<P, A...>)
      return reinterpret_cast<const void *>(
          std::invoke_result_t<P, A...>::value);
    else
      return nullptr;
  }
};
template <typename T> constexpr bool is_picker = false;
template <typename P> constexpr bool is_picker<by_picker<P>> = true;

} // namespace overloads

/* What a kernel's picker returns (overloads::by_picker). */
template <auto K> struct kernel_constant {
  static constexpr auto value = K;
};

/* The kernel of the set that a call with arguments A... picks, as a
 * pointer of its type, or nullptr when there is no set (void) or the set
 * names none. */
template <typename Set, typename... A> auto picked_pointer() {
  if constexpr (std::is_void_v<Set>)
    return nullptr;
  else if constexpr (overloads::is_picker<Set>) {
    if constexpr (Set::template can_pick<A...>)
      return Set::template pointer<A...>();
    else
      return nullptr;
  } else
    return decltype(Set::pick(std::declval<A>()...))::value;
}

/* The kernel of the set that a call with arguments A... picks, or nullptr
 * for no set (void). */
template <typename Set, typename... A> const void *picked_kernel() {
  if constexpr (std::is_void_v<Set>)
    return nullptr;
  else if constexpr (overloads::is_picker<Set>)
    return Set::template kernel<A...>();
  else
    return reinterpret_cast<const void *>(
        decltype(Set::pick(std::declval<A>()...))::value);
}

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
