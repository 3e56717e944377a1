/*
 * cuemu_printf.h: printf() in kernel code, as CUDA does it.
 *
 * In a kernel thread the call is recorded by libcuemu
 * (cuemu_printf_capture: the arguments after C's promotions, the strings of
 * %s copied at once, so that a bad pointer is a kernel fault at the
 * caller's line) and printed when the launch ends; no lock of the C library
 * is ever taken by kernel code. In host code it is the C library's printf.
 * The name is taken over by a macro after <cstdio> (whose include guard
 * keeps a later #include <cstdio> from undoing it), as the shims do for
 * clock(); std::printf works too.
 */
#ifndef CUEMU_PRINTF_SHIM_H
#define CUEMU_PRINTF_SHIM_H
/* A system header: its C++17 forms that C++14 accepts (if constexpr, inline
 * variables, fold expressions) give no warning in a C++14 build of a .cpp
 * file (docs/dialects.md). */
#pragma GCC system_header

#ifndef __cplusplus
#error "the CUDA shims are C++ headers; compile .cu files with cuemu-cc"
#endif

#include <cstdio>
#include <stdio.h>
#include <type_traits>

#include <cuemu/cuemu_device.h>

namespace cuemu {

/* One argument of a kernel's printf, after C's default promotions. */
template <typename T> inline cuemu_printf_arg printf_arg(T v) {
  cuemu_printf_arg a;
  if constexpr (std::is_pointer<T>::value || std::is_null_pointer<T>::value) {
    a.kind = CUEMU_PRINTF_POINTER;
    a.value.p = (const void *)v;
  } else if constexpr (std::is_floating_point<T>::value) {
    a.kind = CUEMU_PRINTF_DOUBLE;
    a.value.d = (double)v;
  } else if constexpr (std::is_enum<T>::value) {
    return printf_arg(static_cast<std::underlying_type_t<T>>(v));
  } else if constexpr (std::is_integral<T>::value && std::is_signed<T>::value) {
    a.kind = CUEMU_PRINTF_SIGNED;
    a.value.i = (long long)v;
  } else if constexpr (std::is_integral<T>::value) {
    a.kind = CUEMU_PRINTF_UNSIGNED;
    a.value.u = (unsigned long long)v;
  } else {
    static_assert(std::is_arithmetic<T>::value,
                  "printf in device code takes only arithmetic types and "
                  "pointers");
  }
  return a;
}

} // namespace cuemu

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
template <typename... A_>
inline int cuemu_printf_at(const char *file, int line, const char *format,
                           A_... args) {
  if (!cuemu_thread_in_kernel())
    return std::printf(format, args...);
  cuemu_printf_arg packed[sizeof...(A_) + 1] = {::cuemu::printf_arg(args)...};
  return cuemu_printf_capture(file, line, format, (int)sizeof...(A_), packed);
}
#pragma GCC diagnostic pop

namespace std {
using ::cuemu_printf_at;
}
#define printf(...) cuemu_printf_at(__FILE__, __LINE__, __VA_ARGS__)

#endif /* CUEMU_PRINTF_SHIM_H */
