/*
 * cuemu_rtc_stdint.h: the second half of a module's fixed-width types (see
 * cuemu_rtc_stdint_hide.h). After the shims' headers, the renamed names
 * are declared as NVRTC's <cuda/std/cstdint> declares them, in the global
 * namespace and in std (whose <cstdint> is already read), so that the
 * module's own `typedef unsigned long long uint64_t;` is a compatible
 * redeclaration, and <cuda/std/cstdint> gives cuda::std the same types.
 */
#ifndef CUEMU_RTC_STDINT_H
#define CUEMU_RTC_STDINT_H

#include "cuemu_rtc_stdint_hide.h"

#ifdef CUEMU_RTC_STDINT_RENAMED
#undef int64_t
#undef uint64_t
#undef int_least64_t
#undef uint_least64_t
#undef int_fast16_t
#undef uint_fast16_t
#undef int_fast32_t
#undef uint_fast32_t
#undef int_fast64_t
#undef uint_fast64_t
#undef intptr_t
#undef uintptr_t
#undef intmax_t
#undef uintmax_t

typedef long long int64_t;
typedef unsigned long long uint64_t;
typedef int64_t int_least64_t;
typedef uint64_t uint_least64_t;
typedef short int_fast16_t;
typedef unsigned short uint_fast16_t;
typedef int int_fast32_t;
typedef unsigned int uint_fast32_t;
typedef int64_t int_fast64_t;
typedef uint64_t uint_fast64_t;
typedef int64_t intptr_t;
typedef uint64_t uintptr_t;
typedef int64_t intmax_t;
typedef uint64_t uintmax_t;

namespace std {
using ::int64_t;
using ::int_fast16_t;
using ::int_fast32_t;
using ::int_fast64_t;
using ::int_least64_t;
using ::intmax_t;
using ::intptr_t;
using ::uint64_t;
using ::uint_fast16_t;
using ::uint_fast32_t;
using ::uint_fast64_t;
using ::uint_least64_t;
using ::uintmax_t;
using ::uintptr_t;
} // namespace std
#endif

#endif /* CUEMU_RTC_STDINT_H */
