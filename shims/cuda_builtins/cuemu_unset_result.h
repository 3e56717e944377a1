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
 * reaching some memory. A function whose type is deduced (`decltype(auto)`,
 * `auto &`) gets `cuemu_unset_result<decltype(f(__cuemu_declval<P>()...))>`,
 * the type of a call of itself, once a return statement has deduced it.
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

/* A value of type T for an unevaluated operand (std::declval, without
 * <utility>): the translation names a deduced return type as the type of a
 * call of the function with its parameters' types,
 * `decltype(f(__cuemu_declval<int>()))`. */
template <class __cuemu_T> __cuemu_T &&__cuemu_declval() noexcept;

#endif
