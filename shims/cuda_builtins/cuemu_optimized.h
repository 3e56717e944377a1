/*
 * cuemu_optimized.h: CUEMU_OPTIMIZED, 1 where the compiler optimises the
 * code that includes this header, else 0.
 *
 * The shims test the compile's level here, not with __OPTIMIZE__: the
 * preprocessing pass of cuemu-cc sees the user's -O alone, as nvcc's does,
 * so that the user's code sees __OPTIMIZE__ and __NO_INLINE__ as nvcc's
 * passes do, while the device pass's compile is optimised all the same
 * (without -G); cuemu-cc then defines CUEMU_OPTIMIZED from the compile's
 * own command (cuemu_compile.c). A compile of these headers that is not
 * cuemu-cc's preprocessing tells it by __OPTIMIZE__.
 */
#ifndef CUEMU_OPTIMIZED_H
#define CUEMU_OPTIMIZED_H

#ifndef CUEMU_OPTIMIZED
#ifdef __OPTIMIZE__
#define CUEMU_OPTIMIZED 1
#else
#define CUEMU_OPTIMIZED 0
#endif
#endif

#endif /* CUEMU_OPTIMIZED_H */
