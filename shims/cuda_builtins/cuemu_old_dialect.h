/*
 * cuemu_old_dialect.h: what cuemu-nvcc includes first in every C++
 * compile when -std names a dialect older than C++14 (-std=c++11,
 * -std=c++03), which it compiles as C++14 (cuemu's CUDA headers need
 * C++14; see docs/dialects.md).
 *
 * The user asked for the older dialect, so the host compiler should not
 * warn about what the move to C++14 alone deprecates: libstdc++ marks
 * std::random_shuffle, std::bind1st and the like deprecated only from
 * C++14 on, which with the user's dialect gives no warning. Their markers
 * are made empty here, after libstdc++'s configuration header defines them
 * and before any other header uses them.
 */
#ifndef CUEMU_OLD_DIALECT_H
#define CUEMU_OLD_DIALECT_H

#if defined(__cplusplus) && defined(CUEMU_REQUESTED_DIALECT) &&             \
    __has_include(<__cuemu_bits/c++config.h>)
#include <bits/c++config.h>

#undef _GLIBCXX14_DEPRECATED
#undef _GLIBCXX14_DEPRECATED_SUGGEST
#define _GLIBCXX14_DEPRECATED
#define _GLIBCXX14_DEPRECATED_SUGGEST(ALT)
#endif

#endif /* CUEMU_OLD_DIALECT_H */
