/*
 * cuemu_bit_cast.h: cuemu_bit_cast<To>(from), the bits of one trivially
 * copyable value as another type of the same size (__float_as_int, the
 * software half and fp8 arithmetic, the floating-point atomics' update).
 *
 * It is __builtin_bit_cast where the compiler has it (g++ 11, clang++ 9 and
 * later), so the value stays in registers. A std::memcpy between two locals
 * is folded away too in a plain build, but a build with checkers (--check)
 * keeps it: the locals' addresses are taken, and every cast became a call of
 * the checked memcpy and two checked accesses, which made __float_as_int 11
 * times and an __hfma2 10 times as costly as in a plain build.
 *
 * Internal header of the shims.
 */
#ifndef CUEMU_BIT_CAST_H
#define CUEMU_BIT_CAST_H
#pragma GCC system_header

#ifndef __cplusplus
#error "the CUDA shims are C++ headers; compile .cu files with cuemu-cc"
#endif

#include <cstddef>
#include <cstring>
#include <type_traits>

template <typename To, typename From>
inline To cuemu_bit_cast(const From &from) {
  static_assert(sizeof(To) == sizeof(From), "sizes differ");
#if defined(__has_builtin)
#if __has_builtin(__builtin_bit_cast)
#define CUEMU_BIT_CAST_BUILTIN 1
  return __builtin_bit_cast(To, from);
#endif
#endif
#ifndef CUEMU_BIT_CAST_BUILTIN
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
#endif
}

namespace cuemu_bit_cast_detail {
/* The unsigned integer of N bytes, where there is one. */
template <std::size_t __cuemu_n> struct __cuemu_uint_of { typedef void type; };
template <> struct __cuemu_uint_of<1> { typedef unsigned char type; };
template <> struct __cuemu_uint_of<2> { typedef unsigned short type; };
template <> struct __cuemu_uint_of<4> { typedef unsigned int type; };
template <> struct __cuemu_uint_of<8> { typedef unsigned long long type; };

/* Whether T is cast as a __cuemu_whole to the unsigned integer of its size. */
template <typename T>
struct __cuemu_whole
    : std::integral_constant<bool, !std::is_void<typename __cuemu_uint_of<sizeof(T)>::type>::value &&
                                       std::is_trivially_copyable<T>::value> {};

template <typename T>
inline unsigned long long __cuemu_to_word(const T &__cuemu_value, std::true_type) {
  return cuemu_bit_cast<typename __cuemu_uint_of<sizeof(T)>::type>(__cuemu_value);
}
template <typename T>
inline unsigned long long __cuemu_to_word(const T &__cuemu_value, std::false_type) {
  unsigned long long __cuemu_bits = 0;
  std::memcpy(&__cuemu_bits, static_cast<const void *>(&__cuemu_value), sizeof(T));
  return __cuemu_bits;
}
template <typename T> inline T __cuemu_from_word(unsigned long long __cuemu_bits, std::true_type) {
  return cuemu_bit_cast<T>(static_cast<typename __cuemu_uint_of<sizeof(T)>::type>(__cuemu_bits));
}
template <typename T> inline T __cuemu_from_word(unsigned long long __cuemu_bits, std::false_type) {
  T __cuemu_value;
  std::memcpy(static_cast<void *>(&__cuemu_value), &__cuemu_bits, sizeof(T));
  return __cuemu_value;
}
} // namespace cuemu_bit_cast_detail

/* The bits of a value of at most 8 bytes in the low bytes of a zeroed 64-bit
 * word (a warp collective's operand), and the value back from such a word.
 * Values of 1, 2, 4 or 8 bytes go through cuemu_bit_cast; others (a char3, a
 * short3) through std::memcpy. */
template <typename T> inline unsigned long long cuemu_bits_word(const T &__cuemu_value) {
  static_assert(sizeof(T) <= sizeof(unsigned long long), "at most 8 bytes");
  return cuemu_bit_cast_detail::__cuemu_to_word(__cuemu_value, cuemu_bit_cast_detail::__cuemu_whole<T>());
}
template <typename T> inline T cuemu_word_value(unsigned long long __cuemu_bits) {
  static_assert(sizeof(T) <= sizeof(unsigned long long), "at most 8 bytes");
  return cuemu_bit_cast_detail::__cuemu_from_word<T>(__cuemu_bits, cuemu_bit_cast_detail::__cuemu_whole<T>());
}

#endif
