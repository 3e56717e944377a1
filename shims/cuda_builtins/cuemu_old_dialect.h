/*
 * cuemu_old_dialect.h: what cuemu-nvcc includes first in every C++
 * compile when -std names a dialect older than C++17 (-std=c++14, -std=c++11),
 * which it compiles as C++17 (cuemu's CUDA headers are C++17).
 *
 * The user asked for the older dialect, so the host compiler should not
 * warn about what the move to C++17 alone deprecates: libstdc++ marks
 * std::iterator, std::result_of, std::not1 and the like deprecated only
 * from C++17 on (and std::random_shuffle and others from C++14 on), which
 * with the user's dialect gives no warning. Their markers are made empty
 * here, after libstdc++'s configuration header defines them and before any
 * other header uses them. (`register`, which C++17 removed, is the other
 * difference that warns: cuemu-nvcc adds -Wno-register.)
 */
#ifndef CUEMU_OLD_DIALECT_H
#define CUEMU_OLD_DIALECT_H

#if defined(__cplusplus) && defined(CUEMU_REQUESTED_DIALECT) &&             \
    __has_include(<bits/c++config.h>)
#include <bits/c++config.h>

#undef _GLIBCXX17_DEPRECATED
#undef _GLIBCXX17_DEPRECATED_SUGGEST
#define _GLIBCXX17_DEPRECATED
#define _GLIBCXX17_DEPRECATED_SUGGEST(ALT)

/* CUEMU_REQUESTED_DIALECT is the year: 11 (or 03, 98) for a dialect before
 * C++14. */
#if CUEMU_REQUESTED_DIALECT != 14
#undef _GLIBCXX14_DEPRECATED
#undef _GLIBCXX14_DEPRECATED_SUGGEST
#define _GLIBCXX14_DEPRECATED
#define _GLIBCXX14_DEPRECATED_SUGGEST(ALT)
#endif
#endif

#endif /* CUEMU_OLD_DIALECT_H */
