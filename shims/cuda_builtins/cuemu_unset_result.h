/*
 * cuemu_unset_result.h: the result of a `return;` without a value in a
 * device function that returns one.
 *
 * nvcc takes such a statement in a device-only function (its warning
 * #117-D) and the function returns whatever its result register holds.
 * cuemu-cc's device pass writes `return cuemu_unset_result<T>::get();`
 * there (emulator/compile/cuemu_device_bare_return.c), T the function's
 * return type: a value-initialized T for a value; for a reference, a
 * reference to an object at CUEMU_UNSET_RESULT_ADDRESS, a non-canonical
 * address, so that a read or a write through it fails the launch with
 * cudaErrorIllegalAddress and a report that says what it is, instead of
 * reaching some memory. cuemu_unset_result_of<decltype(&f)>::type is the
 * return type of a function f whose type is deduced (`decltype(auto)`,
 * `auto &`), once a return statement has deduced it.
 */
#ifndef CUEMU_UNSET_RESULT_H
#define CUEMU_UNSET_RESULT_H

#include <cuemu/cuemu_device.h>

template <class T> struct cuemu_unset_result {
  static T get() { return T(); }
};
template <> struct cuemu_unset_result<void> {
  static void get() {}
};
template <class T> struct cuemu_unset_result<T &> {
  static T &get() {
    return *reinterpret_cast<T *>(
        static_cast<uintptr_t>(CUEMU_UNSET_RESULT_ADDRESS));
  }
};
template <class T> struct cuemu_unset_result<T &&> {
  static T &&get() {
    return static_cast<T &&>(cuemu_unset_result<T &>::get());
  }
};

template <class __cuemu_F> struct cuemu_unset_result_of;
template <class __cuemu_R, class... __cuemu_A>
struct cuemu_unset_result_of<__cuemu_R (*)(__cuemu_A...)> {
  typedef __cuemu_R type;
};
#define CUEMU_UNSET_RESULT_MEMBER(qualifiers)                                 \
  template <class __cuemu_R, class __cuemu_C, class... __cuemu_A>             \
  struct cuemu_unset_result_of<__cuemu_R (__cuemu_C::*)(__cuemu_A...)         \
                                   qualifiers> {                              \
    typedef __cuemu_R type;                                                   \
  };
CUEMU_UNSET_RESULT_MEMBER()
CUEMU_UNSET_RESULT_MEMBER(const)
CUEMU_UNSET_RESULT_MEMBER(&)
CUEMU_UNSET_RESULT_MEMBER(const &)
#if defined(__cpp_noexcept_function_type)
/* C++17: noexcept is part of a function's type. */
template <class __cuemu_R, class... __cuemu_A>
struct cuemu_unset_result_of<__cuemu_R (*)(__cuemu_A...) noexcept> {
  typedef __cuemu_R type;
};
CUEMU_UNSET_RESULT_MEMBER(noexcept)
CUEMU_UNSET_RESULT_MEMBER(const noexcept)
#endif
#undef CUEMU_UNSET_RESULT_MEMBER

#endif
