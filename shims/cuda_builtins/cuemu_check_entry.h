/*
 * cuemu_check_entry.h: the ThreadSanitizer entry points that a checked
 * build (cuemu-cc --check=race, mem or init, compiled with
 * -fsanitize=thread) calls for its plain loads and stores, defined in the
 * module or program itself so that the call is a direct one and the common
 * case is decided without leaving it (cuemu/cuemu_check_fast.h). The rest
 * goes to libcuemu's cuemu_check_access() with the caller's return
 * address, as libcuemu's own entry points of the same names do
 * (emulator/check/cuemu_check_tsan.c; atomics, copies and the other entry
 * points are only there).
 *
 * A translated unit only declares them, hidden by the assembler directives
 * below (the compiler ignores a visibility attribute on these names, which
 * it declares itself). Their definitions are compiled once per compiler
 * and checker set, optimised and not instrumented, by cuemu-cc with
 * CUEMU_CHECK_ENTRY_DEFINE (emulator/compile/cuemu_check_entry_object.c,
 * an entry of the compile cache), and that object is linked into every
 * checked output: a module, a program, and the object of -c, -dc or -lib
 * (ld -r), so that a plain link of it still has them. They are weak: the
 * linker keeps one per module or program. A hidden reference that nothing
 * defines fails the link, instead of reaching libcuemu's slower ones.
 */
#ifndef CUEMU_CHECK_ENTRY_H
#define CUEMU_CHECK_ENTRY_H

#include "cuemu_builtin_vars.h"

#ifdef CUEMU_CHECKED_BUILD
#include <cuemu/cuemu_check_fast.h>

#ifndef CUEMU_CHECK_ENTRY_DEFINE
/* The unit's declarations. Its references stay hidden, so that the link
 * binds them within the module, with a direct call. */
#define CUEMU_CHECK_ENTRY_ONE(name, n, kind)                                   \
  __asm__(".hidden " #name);                                                   \
  extern "C" void name(void *p);
#if (defined(__GNUC__) && !defined(__clang__)) || defined(CUEMU_CHECK_INLINE)
/* cuemu's GCC plugin finds the state that it tests inline by its
 * declaration among the unit's variables (cuemu_gcc_plugin_check.cc),
 * which hold only those that the unit's code uses: the definitions of the
 * entry points used it, and this keeps it there. So does cuemu's LLVM
 * plugin (cuemu_llvm_plugin_check.cc), in a unit that clang++ compiles
 * with CUEMU_CHECK_INLINE (cuemu-cc defines it where the GCC plugin would
 * get check-inline), whose value it reads from cuemu_check_inline: 1 for
 * memcheck, 2 for initcheck. */
__attribute__((used, no_sanitize("thread", "bounds"))) static cuemu_check_fast *
cuemu_check_entry_state() {
  return cuemu_check_fast_state;
}
#endif
#if defined(__clang__) && defined(CUEMU_CHECK_INLINE)
__attribute__((used)) static const int cuemu_check_inline = CUEMU_CHECK_INLINE;
#endif
#elif defined(CUEMU_CHECK_ENTRY_RACE)
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

#ifdef CUEMU_CHECK_ENTRY_DEFINE
/* A checked output tells libcuemu that checked code is loaded (the
 * allocations made from then on are tracked, the program's calls of the
 * runtime API judged: cuemu_check_alloc.c), before its own constructors,
 * which may allocate. An instrumented object's constructor would say it
 * (ThreadSanitizer's calls __tsan_init), but none runs: the device pass's
 * constructors are dropped and the host pass is not instrumented
 * (cuemu_compile.c). */
extern "C" void __tsan_init(void);
__attribute__((__constructor__(101), __used__)) static void
cuemu_check_entry_loaded() {
  __tsan_init();
}
#endif
#endif /* CUEMU_CHECKED_BUILD */

#endif /* CUEMU_CHECK_ENTRY_H */
