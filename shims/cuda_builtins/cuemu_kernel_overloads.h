/*
 * cuemu_kernel_overloads.h: launching a kernel whose name is overloaded.
 *
 * `k<<<g, b>>>(args)` where `k` names several kernels (same name, other
 * parameter types) becomes `::cuemu::launch_overloaded<::cuemu::
 * kernel_constant<CUEMU_KERNEL_CAST_ARGS((T1 *)(k))>, ...>(g, b)(args)`
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
template <typename KT, KT K_>
struct kernel_constant : std::integral_constant<KT, K_> {};

namespace overloads {

/* The pick() functions of all the bases C... (what
 * `using C::pick...;` says in C++17). */
template <typename... C_> struct picks;
template <typename C_> struct picks<C_> : C_ {
  using C_::pick;
};
template <typename C_, typename... R_>
struct picks<C_, R_...> : C_, picks<R_...> {
  using C_::pick;
  using picks<R_...>::pick;
};

/* One candidate, a kernel_constant: pick() takes the kernel's parameters
 * and names it. */
template <typename C_> struct candidate;
template <typename... P_, void (*K_)(P_...)>
struct candidate<kernel_constant<void (*)(P_...), K_>> {
  static std::integral_constant<void (*)(P_...), K_> pick(P_...);
};

/* Whether K is one of A... */
template <typename K_, typename... A_> struct listed : std::false_type {};
template <typename K_, typename A_, typename... R_>
struct listed<K_, A_, R_...>
    : std::conditional<std::is_same<K_, A_>::value, std::true_type,
                       listed<K_, R_...>>::type {};

/* The kernels without repeats (a prototype and its definition can both be
 * listed). */
template <typename... K_> struct __cuemu_list {};
template <typename L_, typename... K_> struct unique { using type = L_; };
template <typename... A_, typename K_, typename... R_>
struct unique<__cuemu_list<A_...>, K_, R_...>
    : unique<typename std::conditional<listed<K_, A_...>::value, __cuemu_list<A_...>,
                                       __cuemu_list<A_..., K_>>::type,
             R_...> {};

template <typename L_> struct set;
template <typename... K_> struct set<__cuemu_list<K_...>> : picks<candidate<K_>...> {};

/* One candidate of a launch that the call itself completes (default
 * arguments: emulator/compile/cuemu_kernel_overload.c): pick() for each
 * number of arguments a call may give, all but its last `Defaults`
 * parameters (those with default arguments) to all. */
template <typename C_, typename Seq> struct prefix;
template <typename... P_, void (*K_)(P_...), std::size_t... I_>
struct prefix<kernel_constant<void (*)(P_...), K_>, std::index_sequence<I_...>> {
  static std::integral_constant<void (*)(P_...), K_>
  pick(typename std::tuple_element<I_, std::tuple<P_...>>::type...);
};
template <typename C_, std::size_t Required, typename Seq> struct prefixes;
template <typename C_, std::size_t Required, std::size_t... N_>
struct prefixes<C_, Required, std::index_sequence<N_...>>
    : picks<prefix<C_, std::make_index_sequence<Required + N_>>...> {};
template <typename C_, std::size_t Defaults> struct defaulted;
template <typename... P_, void (*K_)(P_...), std::size_t Defaults>
struct defaulted<kernel_constant<void (*)(P_...), K_>, Defaults>
    : prefixes<kernel_constant<void (*)(P_...), K_>, sizeof...(P_) - Defaults,
               std::make_index_sequence<Defaults + 1>> {};
template <typename... C_> struct candidates : picks<C_...> {};

/* Whether P can be called with A... and what it returns (C++17's
 * std::is_invocable and std::invoke_result). */
template <typename P_, typename... A_> struct call_result {
  template <typename Q_>
  static auto test(int)
      -> decltype(std::declval<Q_>()(std::declval<A_>()...), std::true_type());
  template <typename Q_> static std::false_type test(...);
  static constexpr bool callable = decltype(test<P_>(0))::value;
};

/* The kernel that a launch with deduced arguments calls, named by the
 * call of its picker: the translation declares, next to each of the
 * user's kernels, `kernel_constant<...> cuemu_pick_k(parameters of k)`
 * (emulator/compile/cuemu_kernel_picker.c), which lookup, overload
 * resolution and template argument deduction pick as they pick the
 * kernel. P is a lambda `[](auto &&...a) -> decltype(cuemu_pick_k(a...))`;
 * a call that it cannot make (no picker) names no kernel. */
template <typename P_, typename... A_>
const void *picked_by(std::true_type) {
  return reinterpret_cast<const void *>(
      decltype(std::declval<P_>()(std::declval<A_>()...))::value);
}
template <typename P_, typename... A_>
const void *picked_by(std::false_type) {
  return nullptr;
}
template <typename P_> struct by_picker {
  template <typename... A_>
  static constexpr bool can_pick = call_result<P_, A_...>::callable;
  template <typename... A_> static auto pointer() {
    return decltype(std::declval<P_>()(std::declval<A_>()...))::value;
  }
  template <typename... A_> static const void *kernel() {
    return picked_by<P_, A_...>(
        std::integral_constant<bool, call_result<P_, A_...>::callable>());
  }
};
template <typename T> struct is_picker : std::false_type {};
template <typename P_> struct is_picker<by_picker<P_>> : std::true_type {};

} // namespace overloads

/* The kernel of the set that a call with arguments A... picks, as a
 * pointer of its type, or nullptr when there is no set (void) or the set
 * names none. */
template <typename Set, typename... A_> auto picked_pointer() {
  if constexpr (std::is_void<Set>::value)
    return nullptr;
  else if constexpr (overloads::is_picker<Set>::value) {
    if constexpr (Set::template can_pick<A_...>)
      return Set::template pointer<A_...>();
    else
      return nullptr;
  } else
    return __cuemu_pick_t<Set, A_...>::value;
}

/* The kernel of the set that a call with arguments A... picks, or nullptr
 * for no set (void). */
template <typename Set, typename... A_> const void *picked_kernel() {
  if constexpr (std::is_void<Set>::value)
    return nullptr;
  else if constexpr (overloads::is_picker<Set>::value)
    return Set::template kernel<A_...>();
  else
    return reinterpret_cast<const void *>(__cuemu_pick_t<Set, A_...>::value);
}

template <typename... K_> class overloaded_launcher {
public:
  /* The kernel that a launch with arguments A... calls. */
  template <typename... A_>
  using picked = __cuemu_pick_t<
      overloads::set<typename overloads::unique<overloads::__cuemu_list<>,
                                                K_...>::type>,
      A_...>;

  overloaded_launcher(dim3 __cuemu_grid, dim3 __cuemu_block, std::size_t __cuemu_shmem,
                      cudaStream_t stream)
      : grid_(__cuemu_grid), block_(__cuemu_block), shmem_(__cuemu_shmem), stream_(stream) {}

  /* The launch in kernel code (cuemu_launch_rewrite.c). */
  auto device_side() const {
    return device_side_launcher<overloaded_launcher>(*this);
  }

  /* The parameter types of the kernel that the call picks. */
  template <typename... A_>
  using device_params = typename abi_traits<
      typename picked<A_...>::value_type>::params;
  template <typename... A_> void device_call(A_ &&...args) const {
    (*this)(std::forward<A_>(args)...);
  }

  template <typename... A_> void operator()(A_ &&...args) const {
    using Picked = picked<A_...>;
    launch_constant(Picked(), grid_, block_, shmem_, stream_)
        .forwarded(std::forward<A_>(args)...);
  }

private:
  dim3 grid_, block_;
  std::size_t shmem_;
  cudaStream_t stream_;
};

template <typename... K_>
overloaded_launcher<K_...> launch_overloaded(dim3 __cuemu_grid, dim3 __cuemu_block,
                                            std::size_t __cuemu_shmem = 0,
                                            cudaStream_t stream = nullptr) {
  return overloaded_launcher<K_...>(__cuemu_grid, __cuemu_block, __cuemu_shmem, stream);
}

} // namespace cuemu

#endif /* CUEMU_KERNEL_OVERLOADS_H */
