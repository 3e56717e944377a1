/*
 * cuemu_check_entry.h: the ThreadSanitizer entry points that a checked
 * build (cuemu-cc --check=race, mem or init, compiled with
 * -fsanitize=thread) calls for its plain loads and stores, defined in the
 * build itself so that the call is a direct one and the common case is
 * decided without leaving it (cuemu/cuemu_check_fast.h). The rest goes to
 * libcuemu's cuemu_check_access() with the caller's return address, as
 * libcuemu's own entry points of the same names do (emulator/check/
 * cuemu_check_tsan.c; atomics, copies and the other entry points are only
 * there).
 *
 * Every translation unit gets a weak copy, hidden by the assembler
 * directives below (the compiler ignores a visibility attribute on these
 * names, which it declares itself); the linker keeps one per module or
 * program. Nothing here may be instrumented.
 */
#ifndef CUEMU_CHECK_ENTRY_H
#define CUEMU_CHECK_ENTRY_H

#include "cuemu_builtin_vars.h"

#ifdef CUEMU_CHECKED_BUILD
#include <cuemu/cuemu_check_fast.h>

#ifdef CUEMU_CHECK_ENTRY_RACE
/* A build with racecheck (cuemu-cc defines CUEMU_CHECK_ENTRY_RACE): nearly
 * every access to an allocation updates its cells, so the whole fast path
 * is one function, and the decision and the update share its registers. */
#define CUEMU_CHECK_ENTRY_ONE(name, n, kind)                                   \
  __asm__(".hidden " #name);                                                   \
  extern "C" __attribute__((weak, noinline,                                    \
                            no_sanitize("thread", "bounds"))) void name(       \
      void *p) {                                                               \
    if (!cuemu_check_fast_access(cuemu_check_fast_state, (uintptr_t)p, n,      \
                                 kind, __builtin_return_address(0)))           \
      cuemu_check_access(p, n, kind, __builtin_return_address(0));            \
  }
#else
/* Racecheck's part, out of line so that the entry points save no
 * registers for it (they reach both functions with a jump), one per size
 * and kind. */
template <size_t n, int kind>
__attribute__((noinline, no_sanitize("thread", "bounds"))) static void
cuemu_check_entry_race(cuemu_check_fast *f, int h, uintptr_t off, void *p,
                       const void *pc) {
  if (!cuemu_check_fast_race(f, h, off, n, kind, pc))
    cuemu_check_access(p, n, kind, pc);
}

#define CUEMU_CHECK_ENTRY_ONE(name, n, kind)                                   \
  __asm__(".hidden " #name);                                                   \
  extern "C" __attribute__((weak, noinline,                                    \
                            no_sanitize("thread", "bounds"))) void name(       \
      void *p) {                                                               \
    cuemu_check_fast *f = cuemu_check_fast_state;                              \
    uintptr_t off;                                                             \
    int d = cuemu_check_fast_decide(f, (uintptr_t)p, n, kind, &off,          \
                                    __builtin_return_address(0));             \
    if (d == 1)                                                                \
      return;                                                                  \
    if (d)                                                                     \
      cuemu_check_entry_race<n, kind>(f, d - 2, off, p,                        \
                                      __builtin_return_address(0));            \
    else                                                                       \
      cuemu_check_access(p, n, kind, __builtin_return_address(0));            \
  }
#endif

/* The unaligned forms are the compiler saying that it does not know the
 * alignment: only the others are held to the GPU's alignment rule. */
#define CUEMU_CHECK_ENTRY_SIZE(n)                                              \
  CUEMU_CHECK_ENTRY_ONE(__tsan_read##n, n, CUEMU_CHECK_FAST_READ)              \
  CUEMU_CHECK_ENTRY_ONE(__tsan_write##n, n, CUEMU_CHECK_FAST_WRITE)            \
  CUEMU_CHECK_ENTRY_ONE(__tsan_volatile_read##n, n,                           \
                        CUEMU_CHECK_FAST_READ | CUEMU_CHECK_FAST_VOLATILE)     \
  CUEMU_CHECK_ENTRY_ONE(__tsan_volatile_write##n, n,                          \
                        CUEMU_CHECK_FAST_WRITE | CUEMU_CHECK_FAST_VOLATILE)    \
  CUEMU_CHECK_ENTRY_ONE(__tsan_unaligned_read##n, n,                           \
                        CUEMU_CHECK_FAST_READ | CUEMU_CHECK_FAST_RANGE)        \
  CUEMU_CHECK_ENTRY_ONE(__tsan_unaligned_write##n, n,                          \
                        CUEMU_CHECK_FAST_WRITE | CUEMU_CHECK_FAST_RANGE)

CUEMU_CHECK_ENTRY_SIZE(1)
CUEMU_CHECK_ENTRY_SIZE(2)
CUEMU_CHECK_ENTRY_SIZE(4)
CUEMU_CHECK_ENTRY_SIZE(8)
CUEMU_CHECK_ENTRY_SIZE(16)

#undef CUEMU_CHECK_ENTRY_SIZE
#undef CUEMU_CHECK_ENTRY_ONE
#endif /* CUEMU_CHECKED_BUILD */

#endif /* CUEMU_CHECK_ENTRY_H */
