/*
 * cuemu_kernel_params.h: kernel parameters of class types with a
 * user-provided copy or move constructor or destructor, processed as CUDA
 * processes them (the CUDA C++ Programming Guide, "__global__ function
 * argument processing"): the launch's host side makes the parameter (the
 * copy constructor runs there, once for an lvalue argument, not at all for
 * a temporary, as in nvcc's host stub), the bytes of that parameter are
 * copied into the launch (memcpy, as into CUDA's parameter memory), and
 * the host side destroys its parameter when the launch returns, maybe
 * before the kernel has run. On the device no copy constructor and no
 * destructor of a parameter runs: each thread gets a bitwise copy of the
 * launch's bytes, its own, which the kernel may change.
 *
 * A kernel `void k(S s)` whose S is such a type is, in the Itanium C++ ABI
 * that g++ and clang++ follow, a function that takes the address of its
 * parameter's object (S is "non-trivial for the purposes of calls") and
 * leaves its destruction to the caller. The thunk calls it as such, through
 * a pointer of type `void (*)(S *)`, with the address of the thread's copy,
 * and destroys nothing. Kernels whose parameters are all trivial for calls
 * keep the thunks of cuemu_kernel_thunks.h, which inline the kernel.
 *
 * Included by cuemu_kernel_thunks.h after its thread loop and its thunks.
 */
#ifndef CUEMU_KERNEL_PARAMS_H
#ifndef CUEMU_KERNEL_THUNKS_H
/* Included on its own: the thunks include it where it belongs. */
#include "cuemu_kernel_thunks.h"
#else
#define CUEMU_KERNEL_PARAMS_H
#pragma GCC system_header

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

namespace cuemu {

/* Whether the ABI passes a parameter of type T by the address of a copy
 * that the caller makes and destroys: a class with a non-trivial copy or
 * move constructor or destructor. A trivially copyable class never is (its
 * copy and move constructors and destructor are trivial; a constructor
 * template that an rvalue would pick instead is none of them, so the traits
 * below alone would call it non-trivial). */
template <typename T>
struct passed_by_address
    : std::integral_constant<
          bool, (std::is_class<T>::value || std::is_union<T>::value) &&
                    !std::is_trivially_copyable<T>::value &&
                    (!std::is_trivially_destructible<T>::value ||
                     (std::is_copy_constructible<T>::value &&
                      !std::is_trivially_copy_constructible<T>::value) ||
                     (std::is_move_constructible<T>::value &&
                      !std::is_trivially_move_constructible<T>::value))> {};

/* Whether a copy of a trivially copyable class T from a non-const lvalue
 * runs a constructor of T's own: a constructor template (`template <class
 * U> T(U &&)`) that such an lvalue picks over the copy constructor. nvcc's
 * stub makes the parameter with it, as any call does, but the device's
 * copies of the parameter are bitwise, so the thunk keeps T's bytes and
 * hands the kernel a const lvalue (which the copy constructor copies). */
template <typename T>
struct copied_by_template
    : std::integral_constant<bool, std::is_class<T>::value &&
                                       std::is_trivially_copyable<T>::value &&
                                       !std::is_trivially_constructible<
                                           T, T &>::value> {};

/* Whether a parameter of type T is big (CUDA takes up to 32764 bytes of
 * parameters since CUDA 12.1): the thunk then reads it where the launch
 * keeps it, instead of keeping a copy in its frame, so that the one copy
 * on a thread's stack is the thread's own, which its call makes (each
 * thread that blocks at a barrier runs on its own stack, of 64 KiB by
 * default, and a copy in the thunk's frame there as well would not fit). */
template <typename T>
struct big_param : std::integral_constant<bool, (sizeof(T) > 512)> {};

/* Whether a launch keeps a parameter of type T as its bytes, never copied
 * by a constructor on the device side. */
template <typename T>
struct kept_as_bytes
    : std::integral_constant<bool, passed_by_address<T>::value ||
                                       copied_by_template<T>::value ||
                                       big_param<T>::value> {};

/* A kernel type's parameters: whether one is kept as its bytes (and the
 * launch makes its parameters as nvcc's stub does, launch_by_value below),
 * what a thunk keeps of them (thunk_value, below) and the type without
 * noexcept. */
template <typename P_> struct thunk_value;
template <typename F_> struct abi_traits {
  static constexpr bool by_address = false;
};
template <typename... P_> struct abi_traits<void (*)(P_...)> {
  static constexpr bool by_address =
      (false || ... || kept_as_bytes<param_value_t<P_>>::value);
  static constexpr bool by_address_on_device =
      (false || ... || passed_by_address<param_value_t<P_>>::value);
  using values = std::tuple<typename thunk_value<P_>::type...>;
  using params = std::tuple<param_value_t<P_>...>;
  using plain = void (*)(P_...);
};
#if defined(__cpp_noexcept_function_type)
template <typename... P_>
struct abi_traits<void (*)(P_...) noexcept> : abi_traits<void (*)(P_...)> {};
#endif

/* Copies a parameter's bytes. In a checked build out of line, where the
 * instrumentation does not see it: it is the thunk's bookkeeping, as
 * arg_value() is, no access of the kernel's. */
#ifdef CUEMU_CHECKED_BUILD
__attribute__((noinline, visibility("hidden"),
               no_sanitize("thread", "bounds"))) inline void
copy_param_bytes(void *to, const void *from, std::size_t n) {
  std::memcpy(to, from, n);
}
#else
__attribute__((always_inline)) inline void
copy_param_bytes(void *to, const void *from, std::size_t n) {
  std::memcpy(to, from, n);
}
#endif

/* ---- The host side: what a launch keeps ---------------------------------- */

/* A launch's parameter of type V_ (passed_by_address): its bytes first, so
 * that the launch's pointer to it is the pointer to them. Made from a
 * temporary of type V_, it takes the temporary's bytes (the temporary is
 * the parameter, as C++17 makes a prvalue the parameter of nvcc's stub;
 * the caller destroys it); from anything else it constructs V_ there (the
 * copy constructor for an lvalue of type V_) and destroys it when the
 * launch returns. */
template <typename V_> class host_param {
public:
  template <typename A_,
            std::enable_if_t<std::is_same<std::remove_cv_t<A_>, V_>::value,
                             int> = 0>
  host_param(A_ &&temporary) : owns_(false) {
    std::memcpy(bytes_, static_cast<const void *>(&temporary), sizeof(V_));
  }
  template <typename A_,
            std::enable_if_t<!std::is_same<std::remove_cv_t<A_>, V_>::value &&
                                 std::is_constructible<V_, A_ &&>::value,
                             int> = 0>
  host_param(A_ &&argument) : owns_(true) {
    ::new (static_cast<void *>(bytes_)) V_(std::forward<A_>(argument));
  }
  host_param(const host_param &) = delete;
  host_param &operator=(const host_param &) = delete;
  ~host_param() {
    if (owns_)
      reinterpret_cast<V_ *>(bytes_)->~V_();
  }

private:
  alignas(V_) unsigned char bytes_[sizeof(V_)];
  bool owns_;
};

/* What a launch keeps for a parameter of type P. */
template <typename P_>
using launch_value_t =
    std::conditional_t<kept_as_bytes<param_value_t<P_>>::value,
                       host_param<param_value_t<P_>>, param_value_t<P_>>;

/* A launch's argument for its parameter of type P. A null pointer
 * constant (`0`, `NULL`, which g++ spells `__null`) for a pointer
 * parameter reaches a forwarded launch as a prvalue of an integer type,
 * which no longer converts to the pointer: it is passed as the null
 * pointer, as nvcc's call of its stub passes it. An integer that is not
 * a null pointer constant is nvcc's compile-time error ("argument of type
 * "int" is incompatible with parameter of type "float *""); cuemu refuses
 * a variable (an lvalue) when it compiles, through the conversion's own
 * error, and another integer prvalue when the launch runs unless it is 0,
 * naming the kernel and the argument's position. */
template <typename P_, typename A_>
struct integer_for_pointer
    : std::integral_constant<
          bool, std::is_pointer<param_value_t<P_>>::value &&
                    !std::is_reference<A_>::value &&
                    std::is_integral<std::remove_cv_t<A_>>::value &&
                    !std::is_same<std::remove_cv_t<A_>, bool>::value> {};
template <typename P_, typename A_>
decltype(auto) launch_argument(A_ &&arg, const cuemu_kernel_desc *desc,
                               int position) {
  if constexpr (integer_for_pointer<P_, A_>::value) {
    if (arg != 0)
      cuemu_kernel_assert_fail(
          "an integer other than 0 for a pointer parameter (nvcc takes "
          "only a null pointer constant there)",
          "kernel launch, argument", position,
          desc && desc->name ? desc->name : "(kernel)");
    return static_cast<param_value_t<P_>>(nullptr);
  } else {
    return std::forward<A_>(arg);
  }
}

/* An integer prvalue argument of a launch of a kernel that an overload set
 * picks (overloaded kernels, default arguments: cuemu_kernel_overloads.h)
 * may be a null pointer constant, which nvcc's overload resolution takes
 * for a pointer parameter, but which reaches the pick as a prvalue of its
 * integer type (`NULL`, g++'s `__null`, is a long). The pick takes every
 * argument as it is first; where that picks no kernel, it takes such an
 * argument as a __cuemu_null_or_integer, which also converts to any
 * pointer, as launch_argument() passes an integer for a pointer
 * parameter (tests/programs/trialbook/overloaded_kernel_null_args.cu). */
template <typename A_>
struct __cuemu_integer_prvalue
    : std::integral_constant<bool,
                             !std::is_reference<A_>::value &&
                                 std::is_integral<std::remove_cv_t<A_>>::value &&
                                 !std::is_same<std::remove_cv_t<A_>, bool>::value> {};
template <typename I_> struct __cuemu_null_or_integer {
  I_ value;
  constexpr __cuemu_null_or_integer(I_ v) : value(v) {}
  constexpr operator I_() const { return value; }
  /* The null pointer; another integer is nvcc's compile-time error, which
   * cuemu reports when the launch runs (launch_argument()). */
  template <typename __cuemu_T> operator __cuemu_T *() const {
    if (value != 0)
      cuemu_kernel_assert_fail(
          "an integer other than 0 for a pointer parameter (nvcc takes "
          "only a null pointer constant there)",
          "kernel launch, argument", 0, "(kernel)");
    return nullptr;
  }
};
template <typename A_>
using __cuemu_lenient_t =
    std::conditional_t<__cuemu_integer_prvalue<A_>::value,
                       __cuemu_null_or_integer<std::remove_cv_t<A_>>, A_>;

/* The host pass's code never runs in kernel code (a kernel, and every
 * function it calls, is the device pass's), so its launchers leave out the
 * device-side launch, which would be instantiated for every kernel they
 * launch (bench/RESULTS.md, "compile cost per kernel"); this check ends a
 * launch of the host pass's code that ever ran in kernel code. */
#if defined(CUEMU_HOST_PASS)
inline void __cuemu_host_pass_launch(const cuemu_kernel_desc *desc) {
  if (cuemu_thread_in_kernel())
    cuemu_kernel_assert_fail("a launch of the host pass's code ran in kernel "
                             "code (a cuemu error: please report it)",
                             "kernel launch", 0,
                             desc && desc->name ? desc->name : "(kernel)");
}
#endif

/* A launch from kernel code (child_launch, cuemu_device_runtime.h), whose
 * arguments CUDA requires to be trivially copyable and trivially
 * destructible: nvcc refuses the others ("cannot pass an argument with a
 * user-provided copy-constructor to a device-side kernel launch"), and
 * cuemu, which sees the launch's place only when it runs, ends the launch
 * that makes it, naming the kernel. */
inline void refuse_device_side_launch(const cuemu_kernel_desc *desc) {
  cuemu_kernel_assert_fail(
      "an argument of a class with a user-provided copy constructor or "
      "destructor (nvcc refuses such a launch: the arguments of a "
      "device-side launch are trivially copyable)",
      "kernel launch in kernel code", 0,
      desc && desc->name ? desc->name : "(kernel)");
}
/* The launch from kernel code of a kernel of type F with `args`: its
 * parameters are made from them in the launch's copy (child_launch),
 * none on the calling thread's stack, unless the kernel has a parameter
 * passed by address, which is refused. */
template <typename F_, typename... A_>
void device_side_launch(const cuemu_kernel_desc *desc, void *fn, dim3 __cuemu_grid,
                        dim3 __cuemu_block, std::size_t __cuemu_shmem, cudaStream_t stream,
                        A_ &&...args) {
  if constexpr (abi_traits<F_>::by_address_on_device)
    refuse_device_side_launch(desc);
  else
    child_launch<typename abi_traits<F_>::params>(
        desc, fn, __cuemu_grid, __cuemu_block, __cuemu_shmem, stream,
        std::index_sequence_for<A_...>(), std::forward<A_>(args)...);
}

/* A launcher L of a launch in kernel code (what `.device_side()` that
 * cuemu-cc writes after the launcher there returns): an argument of a class
 * with a user-provided copy constructor or destructor is refused as nvcc
 * refuses it when it compiles (with its words); the launch is then L's. */
template <typename T>
struct user_copy_constructor
    : std::integral_constant<
          bool, passed_by_address<T>::value &&
                    (std::is_trivially_destructible<T>::value
                         ? !(std::is_trivially_copy_constructible<T>::value &&
                             std::is_trivially_move_constructible<T>::value)
                         /* The traits count the destructor in. */
                         : !__has_trivial_copy(T))> {};
/* What nvcc refuses of a kernel's parameter types (a std::tuple of them),
 * as it checks the parameters, not the arguments they are made from. */
template <typename Params> struct device_side_refusals;
template <typename... V_> struct device_side_refusals<std::tuple<V_...>> {
  static constexpr bool copy_constructor =
      (false || ... || user_copy_constructor<V_>::value);
  static constexpr bool destructor =
      (false || ... ||
       (passed_by_address<V_>::value &&
        !std::is_trivially_destructible<V_>::value));
};
/* L::device_params<A...> is the tuple of the parameter types of the kernel
 * that a launch with arguments A... calls; L::device_call() launches. */
template <typename L_> struct device_side_launcher : L_ {
  explicit device_side_launcher(const L_ &l) : L_(l) {}
  template <typename... A_> void operator()(A_ &&...args) const {
    using refusals =
        device_side_refusals<typename L_::template device_params<A_...>>;
    static_assert(
        !refusals::copy_constructor,
        "cannot pass an argument with a user-provided copy-constructor to a "
        "device-side kernel launch");
    static_assert(!refusals::destructor,
                  "cannot pass an argument with a user-provided destructor "
                  "to a device-side kernel launch");
    L_::device_call(std::forward<A_>(args)...);
  }
};

/* A launch of a kernel of type void (*)(P...) whose parameters are all
 * kept as values: its call takes the parameters as nvcc's stub
 * `void k(P...)` does, so that an argument converts where the launch is
 * written, as in a call, and an argument that is only read (a static const
 * data member initialised in its class and defined nowhere, an enumerator)
 * is not odr-used, where a forwarding reference bound to it would need its
 * definition at -O0; the launcher's forwarded() takes them on. */
template <typename L_, typename F_, bool = abi_traits<F_>::by_address>
struct launch_by_value;
template <typename L_, typename... P_>
struct launch_by_value<L_, void (*)(P_...), false> {
  void operator()(P_... args) const {
    static_cast<const L_ *>(this)->forwarded(std::forward<P_>(args)...);
  }
  /* Only the assertion is reported for a wrong count. */
  template <typename... A_,
            std::enable_if_t<sizeof...(A_) != sizeof...(P_), int> = 0>
  void operator()(A_ &&...) const {
    static_assert(sizeof...(A_) == sizeof...(P_),
                  "wrong number of arguments in a kernel launch");
  }
};
/* A launch of a kernel of type void (*)(P...) that keeps a parameter as
 * its bytes (kept_as_bytes): its call takes the parameters by value, as
 * nvcc's stub `void k(P...)` does, so that C++ makes them as it makes the
 * stub's (a temporary is the parameter, an xvalue is moved from, an lvalue
 * copied, by whichever constructor the call picks), and the launch takes
 * their bytes; the caller destroys them after the launch. L is the
 * launcher, which calls launch_pointers(). */
template <typename L_, typename... P_>
struct launch_by_value<L_, void (*)(P_...), true> {
  void operator()(param_value_t<P_>... args) const {
    const L_ &__cuemu_self = *static_cast<const L_ *>(this);
#if defined(CUEMU_HOST_PASS)
    __cuemu_host_pass_launch(__cuemu_self.desc_);
#else
    if (cuemu_thread_in_kernel()) { /* a launch from kernel code */
      /* Copied from const lvalues: the copy constructor, trivial. */
      device_side_launch<void (*)(P_...)>(
          __cuemu_self.desc_, __cuemu_self.fn_, __cuemu_self.grid_, __cuemu_self.block_, __cuemu_self.shmem_,
          __cuemu_self.stream_, static_cast<const param_value_t<P_> &>(args)...);
      return;
    }
#endif
    void *ptrs[sizeof...(P_) + 1] = {static_cast<void *>(&args)...,
                                     __cuemu_self.fn_};
    __cuemu_self.launch_pointers(ptrs);
  }
  /* Only the assertion is reported for a wrong count. */
  template <typename... A_,
            std::enable_if_t<sizeof...(A_) != sizeof...(P_), int> = 0>
  void operator()(A_ &&...) const {
    static_assert(sizeof...(A_) == sizeof...(P_),
                  "wrong number of arguments in a kernel launch");
  }
};

/* A launch whose kernel a call picks (a kernel template's deduced template
 * arguments, an overload set: launch_deduced, launch_overloaded) takes an
 * argument that is a const lvalue of a scalar type by value, as nvcc's
 * stub does: cuemu-cc writes
 * `__cuemu_by_value<decltype(__cuemu_arg_kinds(args))>(launcher)(args)`
 * (cuemu_launch_rewrite.c), where __cuemu_arg_kinds, only declared, deduces
 * each argument's type and value category in an unevaluated operand, and
 * the launcher gets the copy as a const lvalue, so that it picks as before,
 * while the argument is not odr-used (a static const data member
 * initialised in its class and defined nowhere, which a forwarding
 * reference needed at -O0). Every other argument is forwarded as it was:
 * a temporary lives to the end of the launch's full-expression, and a
 * variable given to a reference parameter is the caller's. */
template <typename... A_> struct __cuemu_arg_kinds_t {};
template <typename... A_>
__cuemu_arg_kinds_t<A_...> __cuemu_arg_kinds(A_ &&...);
/* Any other argument, forwarded as the unevaluated operand saw it. Its
 * object may be more const where the launch is (a variable captured by copy
 * in a lambda is the closure's const member there, and the variable itself
 * in an unevaluated operand), so it binds to an object of its type whatever
 * its qualifiers. */
template <typename A_> struct __cuemu_forwarded {
  std::remove_reference_t<A_> *object;
  template <typename __cuemu_U,
            typename = std::enable_if_t<std::is_same<
                std::remove_cv_t<std::remove_reference_t<__cuemu_U>>,
                std::remove_cv_t<std::remove_reference_t<A_>>>::value>>
  __cuemu_forwarded(__cuemu_U &&argument)
      : object(const_cast<std::remove_reference_t<A_> *>(
            __builtin_addressof(argument))) {}
  A_ &&get() const { return static_cast<A_ &&>(*object); }
};
/* Whether an argument of kind A_ (a type and value category, as decltype
 * gives them) is a const lvalue of a scalar type, which is read by value. */
template <typename A_, typename V_ = std::remove_reference_t<A_>>
using __cuemu_read_by_value =
    std::integral_constant<bool, std::is_lvalue_reference<A_>::value &&
                                     std::is_const<V_>::value &&
                                     std::is_scalar<V_>::value>;
template <typename A_, typename V_ = std::remove_reference_t<A_>>
using __cuemu_by_value_param_t = std::conditional_t<
    __cuemu_read_by_value<A_>::value, std::remove_cv_t<V_>,
    std::conditional_t<std::is_function<V_>::value, A_ &&,
                       __cuemu_forwarded<A_>>>;
template <typename A_> A_ &&__cuemu_by_value_get(__cuemu_forwarded<A_> &a) {
  return a.get();
}
template <typename A_, typename V_> A_ &&__cuemu_by_value_get(V_ &v) {
  return static_cast<A_ &&>(v);
}
template <typename __cuemu_Kinds, typename L_> struct __cuemu_by_value_launcher;
template <typename... A_, typename L_>
struct __cuemu_by_value_launcher<__cuemu_arg_kinds_t<A_...>, L_> {
  L_ launcher;
  void operator()(__cuemu_by_value_param_t<A_>... args) const {
    launcher(__cuemu_by_value_get<A_>(args)...);
  }
};
template <typename __cuemu_Kinds, typename L_>
__cuemu_by_value_launcher<__cuemu_Kinds, L_> __cuemu_by_value(const L_ &launcher) {
  return {launcher};
}
/* One argument of such a launch where a lambda is among the arguments (no
 * unevaluated operand may hold one before C++20): cuemu-cc writes
 * `__cuemu_arg_value<decltype((name))>(name)` around each argument that is
 * a name alone, which gives a const scalar's value, read as above, and
 * forwards any other object. */
template <typename A_>
std::conditional_t<__cuemu_read_by_value<A_>::value,
                   std::remove_cv_t<std::remove_reference_t<A_>>, A_ &&>
__cuemu_arg_value(__cuemu_by_value_param_t<A_> argument) {
  return __cuemu_by_value_get<A_>(argument);
}

/* ---- The device side: the thunks ----------------------------------------- */

/* What a thunk keeps of a parameter of type P: for a type passed by
 * address, the launch's bytes (never an object constructed by the copy
 * constructor); else the value, as thunk() keeps it. */
template <typename V_> struct param_bytes {
  alignas(V_) unsigned char bytes[sizeof(V_)];
  explicit param_bytes(const void *from) {
    copy_param_bytes(bytes, from, sizeof(V_));
  }
};
/* An aligned copy of a parameter's `size` bytes at `from`, in memory of
 * the C library (*block, which free_param_copy() frees). Out of line: the
 * thunk's frame stays small. */
__attribute__((noinline)) inline void *
aligned_param_copy(const void *from, std::size_t size, std::size_t align,
                   void **__cuemu_block) {
  heap_bypass bypass;
  *__cuemu_block = std::malloc(size + align);
  if (!*__cuemu_block)
    cuemu_kernel_assert_fail("out of memory for an aligned copy of a "
                             "kernel parameter",
                             "kernel parameter", 0, "(kernel)");
  std::uintptr_t at = reinterpret_cast<std::uintptr_t>(*__cuemu_block);
  at += align - at % align;
  copy_param_bytes(reinterpret_cast<void *>(at), from, size);
  return reinterpret_cast<void *>(at);
}
__attribute__((noinline)) inline void free_param_copy(void *__cuemu_block) {
  heap_bypass bypass;
  std::free(__cuemu_block);
}
/* A big parameter (big_param): where the launch keeps its bytes, which
 * outlive the block's threads (aligned for V: run_aligned_abi_threads()
 * sees to it). */
template <typename V_> struct param_at {
  const unsigned char *bytes;
  explicit param_at(const void *from)
      : bytes(static_cast<const unsigned char *>(from)) {}
};
template <typename P_> struct thunk_value {
  using V_ = param_value_t<P_>;
  using type = std::conditional_t<
      big_param<V_>::value, param_at<V_>,
      std::conditional_t<kept_as_bytes<V_>::value, param_bytes<V_>, V_>>;
};
template <typename S_> struct is_param_bytes : std::false_type {};
template <typename V_>
struct is_param_bytes<param_bytes<V_>> : std::true_type {};
template <typename V_> struct is_param_bytes<param_at<V_>> : std::true_type {};

/* Argument `i` of a launch's argument array, for a kept value of type S. */
template <typename S_>
__attribute__((always_inline)) inline decltype(auto) thunk_arg(void **args,
                                                               std::size_t __cuemu_i) {
  if constexpr (is_param_bytes<S_>::value)
    return static_cast<const void *>(args[__cuemu_i]);
  else
    return arg_value<S_>(args, __cuemu_i);
}

/* A parameter P as the ABI passes it: for a type passed by address, the
 * address of the thread's copy, made from the thunk's bytes for the call
 * (it lives until the call returns, and nothing destroys it); for a
 * trivially copyable class kept as bytes, a const lvalue of them (the call
 * copies it with the trivial copy constructor); else the kept value
 * itself. */
template <typename P_,
          int = passed_by_address<param_value_t<P_>>::value ? 1
                : kept_as_bytes<param_value_t<P_>>::value   ? 2
                                                            : 0>
struct abi_param {
  using type = P_;
  template <typename S_> struct copy {
    S_ &kept;
    __attribute__((always_inline)) explicit copy(S_ &__cuemu_k) : kept(__cuemu_k) {}
    __attribute__((always_inline)) S_ &arg() { return kept; }
  };
};
template <typename P_> struct abi_param<P_, 2> {
  using V_ = param_value_t<P_>;
  using type = P_;
  template <typename S_> struct copy {
    S_ &kept;
    __attribute__((always_inline)) explicit copy(S_ &__cuemu_k) : kept(__cuemu_k) {}
    __attribute__((always_inline)) const V_ &arg() {
      return *reinterpret_cast<const V_ *>(kept.bytes);
    }
  };
};
template <typename P_> struct abi_param<P_, 1> {
  using V_ = param_value_t<P_>;
  using type = V_ *;
  template <typename S_> struct copy {
    alignas(V_) unsigned char bytes[sizeof(V_)];
    __attribute__((always_inline)) explicit copy(S_ &kept) {
      copy_param_bytes(bytes, kept.bytes, sizeof(V_));
    }
    __attribute__((always_inline)) V_ *arg() {
      return reinterpret_cast<V_ *>(bytes);
    }
  };
};

/* Calls a kernel of type void (*)(P...) as the ABI sees it, for one
 * thread: run_threads() calls it with the thunk's kept values. */
template <typename F_> struct abi_caller;
template <typename... P_> struct abi_caller<void (*)(P_...)> {
  void (*fn)(P_...);
  template <typename... S_>
  __attribute__((always_inline)) void operator()(S_ &...kept) const {
    using abi_fn = void (*)(typename abi_param<P_>::type...);
    reinterpret_cast<abi_fn>(fn)(
        typename abi_param<P_>::template copy<S_>(kept).arg()...);
  }
};

/* Runs threads [start, start + count) of the current block with the
 * kernel at `fn`, of type F, whose parameters are kept as the ABI passes
 * them. */
template <typename F_, std::size_t... I_>
void run_abi_threads(F_ fn, void **args, unsigned start, unsigned count,
                     std::index_sequence<I_...> seq) {
  using traits = abi_traits<F_>;
  using values = typename traits::values;
  values v(thunk_arg<std::tuple_element_t<I_, values>>(args, I_)...);
  run_threads(abi_caller<typename traits::plain>{fn}, v, start, count, seq);
}

/* Whether a big parameter of a kernel of type F is at an address that is
 * not aligned for its type (the `extra` buffer of cuLaunchKernel may place
 * it anywhere): param_at reads it in place. */
template <typename F_, std::size_t... I_>
bool big_param_misaligned(void **args, std::index_sequence<I_...>) {
  using params = typename abi_traits<F_>::params;
  return (false || ... ||
          (big_param<std::tuple_element_t<I_, params>>::value &&
           reinterpret_cast<std::uintptr_t>(args[I_]) %
                   alignof(std::tuple_element_t<I_, params>) !=
               0));
}
/* run_abi_threads() with aligned copies of the misaligned big parameters,
 * freed when the range's threads have all started (each has copied its
 * parameters then). Out of line, so that the thunk's frame, where threads
 * run, stays as it is. */
template <typename F_, std::size_t... I_>
__attribute__((noinline)) void
run_aligned_abi_threads(F_ fn, void **args, unsigned start, unsigned count,
                        std::index_sequence<I_...> seq) {
  using params = typename abi_traits<F_>::params;
  constexpr std::size_t n = sizeof...(I_);
  void *aligned[n + 1] = {};
  void *__cuemu_blocks[n + 1] = {};
  for (std::size_t __cuemu_k = 0; __cuemu_k < n; ++__cuemu_k)
    aligned[__cuemu_k] = args[__cuemu_k];
  (void)((big_param<std::tuple_element_t<I_, params>>::value &&
                  reinterpret_cast<std::uintptr_t>(args[I_]) %
                          alignof(std::tuple_element_t<I_, params>) !=
                      0
              ? (aligned[I_] = aligned_param_copy(
                     args[I_], sizeof(std::tuple_element_t<I_, params>),
                     alignof(std::tuple_element_t<I_, params>), &__cuemu_blocks[I_]),
                 0)
              : 0) +
         ... + 0);
  run_abi_threads(fn, aligned, start, count, seq);
  for (std::size_t __cuemu_k = 0; __cuemu_k < n; ++__cuemu_k)
    if (__cuemu_blocks[__cuemu_k])
      free_param_copy(__cuemu_blocks[__cuemu_k]);
}
template <typename F_, std::size_t... I_>
__attribute__((always_inline)) inline void
run_big_abi_threads(F_ fn, void **args, unsigned start, unsigned count,
                    std::index_sequence<I_...> seq) {
  if (big_param_misaligned<F_>(args, seq))
    run_aligned_abi_threads(fn, args, start, count, seq);
  else
    run_abi_threads(fn, args, start, count, seq);
}

template <typename KT, KT K_>
CUEMU_PER_MODULE void thunk_by_address(void **args, unsigned start, unsigned count) {
  run_big_abi_threads(K_, args, start, count,
                      std::make_index_sequence<kernel_traits<KT>::count>());
}
template <typename F_>
void thunk_pointer_by_address(void **args, unsigned start, unsigned count) {
  run_big_abi_threads(reinterpret_cast<F_>(args[kernel_traits<F_>::count]),
                      args, start, count,
                      std::make_index_sequence<kernel_traits<F_>::count>());
}

/* The thunk of kernel K (of a kernel of type F reached through a pointer):
 * thunk() unless a parameter is passed by address. */
template <typename KT, KT K_> CUEMU_PER_MODULE constexpr cuemu_thunk_fn kernel_thunk() {
  if constexpr (abi_traits<KT>::by_address)
    return &thunk_by_address<KT, K_>;
  else
    return &thunk<KT, K_>;
}
template <typename F_> constexpr cuemu_thunk_fn pointer_thunk() {
  if constexpr (abi_traits<F_>::by_address)
    return &thunk_pointer_by_address<F_>;
  else
    return &thunk_pointer<F_>;
}

/* ---- Kernel templates launched with deduced template arguments ---------- */

namespace overloads {
template <typename P_> struct by_picker; /* cuemu_kernel_overloads.h */
}

/* The kernel that a launch with deduced template arguments A... calls, as
 * a kernel_constant (a type with value_type and value), when its overload
 * set `Set` (cuemu_kernel_overloads.h) names it; else void. */
template <typename P_, typename... A_>
auto pick_by(int) -> decltype(std::declval<P_>()(std::declval<A_>()...));
template <typename P_, typename... A_> void pick_by(...);
template <typename Set, typename... A_>
auto pick_in(int) -> decltype(Set::pick(std::declval<A_>()...));
template <typename Set, typename... A_> void pick_in(...);
template <typename Set, typename... A_> struct picked_constant {
  using __cuemu_exact = decltype(pick_in<Set, A_...>(0));
  using type = std::conditional_t<
      std::is_void<__cuemu_exact>::value,
      decltype(pick_in<Set, __cuemu_lenient_t<A_>...>(0)), __cuemu_exact>;
};
/* The kernel_constant that the overload set `Set` picks for a call with
 * arguments A... (__cuemu_lenient_t where the arguments as they are pick
 * none); the compiler's error for the call where none is picked. */
template <typename Set, typename... A_> struct __cuemu_pick_lenient {
  using type = decltype(Set::pick(std::declval<__cuemu_lenient_t<A_>>()...));
};
template <typename Set, typename... A_>
using __cuemu_pick_t = typename std::conditional_t<
    std::is_void<decltype(pick_in<Set, A_...>(0))>::value,
    __cuemu_pick_lenient<Set, A_...>,
    std::enable_if<true, decltype(pick_in<Set, A_...>(0))>>::type;
template <typename... A_> struct picked_constant<void, A_...> {
  using type = void;
};
template <typename P_, typename... A_>
struct picked_constant<overloads::by_picker<P_>, A_...> {
  using type = decltype(pick_by<P_, A_...>(0));
};

/* The parameter types (a std::tuple) of the picked kernel K, or, when
 * cuemu cannot name it (void), the types of the arguments A. */
template <typename K_, typename... A_> struct picked_params {
  using type = typename abi_traits<typename K_::value_type>::params;
};
template <typename... A_> struct picked_params<void, A_...> {
  using type = std::tuple<std::decay_t<A_>...>;
};

} // namespace cuemu

#endif /* CUEMU_KERNEL_THUNKS_H */
#endif /* CUEMU_KERNEL_PARAMS_H */
