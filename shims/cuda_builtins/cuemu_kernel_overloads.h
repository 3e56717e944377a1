/*
 * cuemu_kernel_overloads.h: launching a kernel whose name is overloaded.
 *
 * `k<<<g, b>>>(args)` where `k` names several kernels (same name, other
 * parameter types) becomes `::cuemu::launch_overloaded<::cuemu::
 * kernel_constant<CUEMU_KERNEL_ARGS(static_cast<T1 *>(k))>, ...>(g, b)(args)`
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
/* A system header: its C++17 forms that C++14 accepts (if constexpr, inline
 * variables, fold expressions) give no warning in a C++14 build of a .cpp
 * file (docs/dialects.md). */
#pragma GCC system_header

#include <tuple>
#include <type_traits>
#include <utility>

/* launch_static(), dim3 and cudaStream_t (this header is included at its
 * end, and includes it when included first). */
#include "cuemu_kernel_thunks.h"

namespace cuemu {

/* A kernel known at compile time as a type: what a kernel's picker
 * returns (overloads::by_picker) and a member of an overload set. */
template <typename KT, KT K>
struct kernel_constant : std::integral_constant<KT, K> {};

namespace overloads {

/* The pick() functions of all the bases C... (what
 * `using C::pick...;` says in C++17). */
template <typename... C> struct picks;
template <typename C> struct picks<C> : C {
  using C::pick;
};
template <typename C, typename... R>
struct picks<C, R...> : C, picks<R...> {
  using C::pick;
  using picks<R...>::pick;
};

/* One candidate, a kernel_constant: pick() takes the kernel's parameters
 * and names it. */
template <typename C> struct candidate;
template <typename... P, void (*K)(P...)>
struct candidate<kernel_constant<void (*)(P...), K>> {
  static std::integral_constant<void (*)(P...), K> pick(P...);
};

/* Whether K is one of A... */
template <typename K, typename... A> struct listed : std::false_type {};
template <typename K, typename A, typename... R>
struct listed<K, A, R...>
    : std::conditional<std::is_same<K, A>::value, std::true_type,
                       listed<K, R...>>::type {};

/* The kernels without repeats (a prototype and its definition can both be
 * listed). */
template <typename... K> struct list {};
template <typename L, typename... K> struct unique { using type = L; };
template <typename... A, typename K, typename... R>
struct unique<list<A...>, K, R...>
    : unique<typename std::conditional<listed<K, A...>::value, list<A...>,
                                       list<A..., K>>::type,
             R...> {};

template <typename L> struct set;
template <typename... K> struct set<list<K...>> : picks<candidate<K>...> {};

/* One candidate of a launch that the call itself completes (default
 * arguments: emulator/compile/cuemu_kernel_overload.c): pick() for each
 * number of arguments a call may give, all but its last `Defaults`
 * parameters (those with default arguments) to all. */
template <typename C, typename Seq> struct prefix;
template <typename... P, void (*K)(P...), std::size_t... I>
struct prefix<kernel_constant<void (*)(P...), K>, std::index_sequence<I...>> {
  static std::integral_constant<void (*)(P...), K>
  pick(typename std::tuple_element<I, std::tuple<P...>>::type...);
};
template <typename C, std::size_t Required, typename Seq> struct prefixes;
template <typename C, std::size_t Required, std::size_t... N>
struct prefixes<C, Required, std::index_sequence<N...>>
    : picks<prefix<C, std::make_index_sequence<Required + N>>...> {};
template <typename C, std::size_t Defaults> struct defaulted;
template <typename... P, void (*K)(P...), std::size_t Defaults>
struct defaulted<kernel_constant<void (*)(P...), K>, Defaults>
    : prefixes<kernel_constant<void (*)(P...), K>, sizeof...(P) - Defaults,
               std::make_index_sequence<Defaults + 1>> {};
template <typename... C> struct candidates : picks<C...> {};

/* Whether P can be called with A... and what it returns (C++17's
 * std::is_invocable and std::invoke_result). */
template <typename P, typename... A> struct call_result {
  template <typename Q>
  static auto test(int)
      -> decltype(std::declval<Q>()(std::declval<A>()...), std::true_type());
  template <typename Q> static std::false_type test(...);
  static constexpr bool callable = decltype(test<P>(0))::value;
};

/* The kernel that a launch with deduced arguments calls, named by the
 * call of its picker: the translation declares, next to each of the
 * user's kernels, `kernel_constant<...> cuemu_pick_k(parameters of k)`
 * (emulator/compile/cuemu_kernel_picker.c), which lookup, overload
 * resolution and template argument deduction pick as they pick the
 * kernel. P is a lambda `[](auto &&...a) -> decltype(cuemu_pick_k(a...))`;
 * a call that it cannot make (no picker) names no kernel. */
template <typename P, typename... A>
const void *picked_by(std::true_type) {
  return reinterpret_cast<const void *>(
      decltype(std::declval<P>()(std::declval<A>()...))::value);
}
template <typename P, typename... A>
const void *picked_by(std::false_type) {
  return nullptr;
}
template <typename P> struct by_picker {
  template <typename... A>
  static constexpr bool can_pick = call_result<P, A...>::callable;
  template <typename... A> static auto pointer() {
    return decltype(std::declval<P>()(std::declval<A>()...))::value;
  }
  template <typename... A> static const void *kernel() {
    return picked_by<P, A...>(
        std::integral_constant<bool, call_result<P, A...>::callable>());
  }
};
template <typename T> struct is_picker : std::false_type {};
template <typename P> struct is_picker<by_picker<P>> : std::true_type {};

} // namespace overloads

/* The kernel of the set that a call with arguments A... picks, as a
 * pointer of its type, or nullptr when there is no set (void) or the set
 * names none. */
template <typename Set, typename... A> auto picked_pointer() {
  if constexpr (std::is_void<Set>::value)
    return nullptr;
  else if constexpr (overloads::is_picker<Set>::value) {
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
  if constexpr (std::is_void<Set>::value)
    return nullptr;
  else if constexpr (overloads::is_picker<Set>::value)
    return Set::template kernel<A...>();
  else
    return reinterpret_cast<const void *>(
        decltype(Set::pick(std::declval<A>()...))::value);
}

template <typename... K> class overloaded_launcher {
public:
  overloaded_launcher(dim3 grid, dim3 block, std::size_t shmem,
                      cudaStream_t stream)
      : grid_(grid), block_(block), shmem_(shmem), stream_(stream) {}

  template <typename... A> void operator()(A &&...args) const {
    using Set =
        overloads::set<typename overloads::unique<overloads::list<>, K...>::type>;
    using Picked = decltype(Set::pick(std::declval<A>()...));
    launch_static<typename Picked::value_type, Picked::value>(
        grid_, block_, shmem_, stream_)(
        std::forward<A>(args)...);
  }

private:
  dim3 grid_, block_;
  std::size_t shmem_;
  cudaStream_t stream_;
};

template <typename... K>
overloaded_launcher<K...> launch_overloaded(dim3 grid, dim3 block,
                                            std::size_t shmem = 0,
                                            cudaStream_t stream = nullptr) {
  return overloaded_launcher<K...>(grid, block, shmem, stream);
}

} // namespace cuemu

#endif /* CUEMU_KERNEL_OVERLOADS_H */
