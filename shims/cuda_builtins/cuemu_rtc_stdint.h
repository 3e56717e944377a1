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

/* Their limits and constant macros as NVRTC's too: glibc's give long and
 * unsigned long, and the limits of its wider fast types (INT_FAST16_MAX is
 * LONG_MAX there, SHRT_MAX here). <climits> is read (cuda_runtime.h). */
#undef INT64_MIN
#undef INT64_MAX
#undef UINT64_MAX
#define INT64_MIN LLONG_MIN
#define INT64_MAX LLONG_MAX
#define UINT64_MAX ULLONG_MAX
#undef INT_LEAST64_MIN
#undef INT_LEAST64_MAX
#undef UINT_LEAST64_MAX
#define INT_LEAST64_MIN INT64_MIN
#define INT_LEAST64_MAX INT64_MAX
#define UINT_LEAST64_MAX UINT64_MAX
#undef INT_FAST16_MIN
#undef INT_FAST16_MAX
#undef UINT_FAST16_MAX
#define INT_FAST16_MIN SHRT_MIN
#define INT_FAST16_MAX SHRT_MAX
#define UINT_FAST16_MAX USHRT_MAX
#undef INT_FAST32_MIN
#undef INT_FAST32_MAX
#undef UINT_FAST32_MAX
#define INT_FAST32_MIN INT_MIN
#define INT_FAST32_MAX INT_MAX
#define UINT_FAST32_MAX UINT_MAX
#undef INT_FAST64_MIN
#undef INT_FAST64_MAX
#undef UINT_FAST64_MAX
#define INT_FAST64_MIN INT64_MIN
#define INT_FAST64_MAX INT64_MAX
#define UINT_FAST64_MAX UINT64_MAX
#undef INTPTR_MIN
#undef INTPTR_MAX
#undef UINTPTR_MAX
#define INTPTR_MIN INT64_MIN
#define INTPTR_MAX INT64_MAX
#define UINTPTR_MAX UINT64_MAX
#undef INTMAX_MIN
#undef INTMAX_MAX
#undef UINTMAX_MAX
#define INTMAX_MIN INT64_MIN
#define INTMAX_MAX INT64_MAX
#define UINTMAX_MAX UINT64_MAX
#undef INT64_C
#undef UINT64_C
#undef INTMAX_C
#undef UINTMAX_C
#define INT64_C(value) value##LL
#define UINT64_C(value) value##ULL
#define INTMAX_C(value) value##LL
#define UINTMAX_C(value) value##ULL

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
