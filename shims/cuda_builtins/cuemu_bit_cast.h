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

#include <cstring>

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

#endif
