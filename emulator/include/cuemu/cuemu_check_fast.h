/*
 * cuemu_check_fast.h: the common case of the checkers' shadow update, which
 * code built with cuemu-cc --check runs inline, without a call into
 * libcuemu.
 *
 * Every memory access of a checked kernel is instrumented with a call of
 * __tsan_readN or __tsan_writeN. The shims define those entry points in the
 * checked module itself (cuemu_check_entry.h, hidden, so that the call is a
 * direct one), and they decide most accesses here: an access that the
 * checkers leave alone (the built-in variables, memory that is near no
 * allocation and no shared memory), or an aligned access wholly inside a live
 * allocation that the running block touched lately, when no racecheck runs
 * (memcheck has nothing to say about it; initcheck marks written bytes and
 * lets reads of written bytes pass). Everything else goes to libcuemu's
 * cuemu_check_access(), which runs the whole classification and reports.
 *
 * libcuemu keeps the state below per OS thread, points
 * cuemu_check_fast_state at it while the thread runs a block of a launch
 * whose checkers use the shadow, and clears the pointer when the block
 * leaves; libcuemu's own entry points run the same function
 * (emulator/check/cuemu_check_shadow.c).
 */
#ifndef CUEMU_CHECK_FAST_H
#define CUEMU_CHECK_FAST_H

#include <stddef.h>
#include <stdint.h>

#include <cuemu/cuemu_device.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Ranges with nothing to check: the thread's built-in variables, then the
 * two gaps between allocations found last. */
#define CUEMU_CHECK_FAST_SKIPS 3
/* The largest access decided here; see `limit` below. */
#define CUEMU_CHECK_FAST_MAX 16

/* What the state says of the running block; every range is empty when its
 * span (or limit) is 0. */
typedef struct cuemu_check_fast {
  /* The live allocations touched last, most recent first (none while
   * racecheck runs, which needs its cells for every access). An access
   * starting at offset off < limit is wholly inside: limit is the
   * allocation's size less CUEMU_CHECK_FAST_MAX - 1 (accesses near the end
   * take the whole path). `init`: the allocation's "written" map when
   * initcheck runs, else NULL. */
  struct {
    uintptr_t base, limit;
    unsigned char *init;
  } hot[2];
  uintptr_t skip_lo[CUEMU_CHECK_FAST_SKIPS], skip_span[CUEMU_CHECK_FAST_SKIPS];
} cuemu_check_fast;

/* The calling OS thread's state, or NULL: every access then goes to
 * cuemu_check_access(). */
extern __thread cuemu_check_fast *cuemu_check_fast_state CUEMU_TLS_IE;

/* Access kinds (the same numbers as libcuemu's own). */
enum {
  CUEMU_CHECK_FAST_READ = 1,
  CUEMU_CHECK_FAST_WRITE = 2,
  CUEMU_CHECK_FAST_ATOMIC = 4,
  CUEMU_CHECK_FAST_RANGE = 8 /* a block copy: no alignment rule */
};

/* The whole check of an access of `size` bytes at `addr` by kernel code,
 * and its report when there is one (the access's code address `pc` gives
 * its source line). Kernel code. */
void cuemu_check_access(const void *addr, size_t size, int kind,
                        const void *pc);

/* Inline, without instrumentation, in every caller. */
#if defined(__GNUC__)
#define CUEMU_CHECK_FAST_FN                                                    \
  static inline                                                                \
      __attribute__((always_inline, no_sanitize("thread", "bounds")))
#else
#define CUEMU_CHECK_FAST_FN static inline
#endif

/* Initcheck's "written" map holds 1 for each byte written. The loads and
 * stores below are byte-aligned and may alias anything. */
typedef uint16_t cuemu_check_u16 __attribute__((may_alias, aligned(1)));
typedef uint32_t cuemu_check_u32 __attribute__((may_alias, aligned(1)));
typedef uint64_t cuemu_check_u64 __attribute__((may_alias, aligned(1)));

/* Whether all `size` bytes at `m` are 1 (set: make them 1). */
CUEMU_CHECK_FAST_FN int cuemu_check_fast_written(unsigned char *m, size_t size,
                                                 int set) {
  const uint64_t ones = 0x0101010101010101ull;
  switch (size) {
  case 1:
    return set ? (*m = 1) : *m == 1;
  case 2:
    return set ? (*(cuemu_check_u16 *)m = (uint16_t)ones, 1)
               : *(cuemu_check_u16 *)m == (uint16_t)ones;
  case 4:
    return set ? (*(cuemu_check_u32 *)m = (uint32_t)ones, 1)
               : *(cuemu_check_u32 *)m == (uint32_t)ones;
  case 8:
    return set ? (*(cuemu_check_u64 *)m = ones, 1)
               : *(cuemu_check_u64 *)m == ones;
  case 16:
    if (set) {
      ((cuemu_check_u64 *)m)[0] = ones;
      ((cuemu_check_u64 *)m)[1] = ones;
      return 1;
    }
    return ((cuemu_check_u64 *)m)[0] == ones &&
           ((cuemu_check_u64 *)m)[1] == ones;
  default:
    /* Other sizes (copies) take the whole path. */
    return 0;
  }
}

/* Whether [a, a + size) lies in skipped range i. */
CUEMU_CHECK_FAST_FN int cuemu_check_fast_skipped(const cuemu_check_fast *f,
                                                 int i, uintptr_t a,
                                                 size_t size) {
  uintptr_t d = a - f->skip_lo[i];
  return d < f->skip_span[i] && f->skip_span[i] - d >= size;
}

/* The access at `off` in hot allocation `h`, which holds its first
 * CUEMU_CHECK_FAST_MAX bytes. */
CUEMU_CHECK_FAST_FN int cuemu_check_fast_hot(cuemu_check_fast *f, int h,
                                             uintptr_t a, uintptr_t off,
                                             size_t size, int kind) {
  if (size > CUEMU_CHECK_FAST_MAX ||
      (!(kind & CUEMU_CHECK_FAST_RANGE) && (a & (size - 1))))
    return 0;
  unsigned char *init = f->hot[h].init;
  if (!init)
    return 1;
  if ((kind & CUEMU_CHECK_FAST_READ) &&
      !cuemu_check_fast_written(init + off, size, 0))
    return 0;
  if (kind & CUEMU_CHECK_FAST_WRITE)
    return cuemu_check_fast_written(init + off, size, 1);
  return 1;
}

/* Returns 1 when the access needs nothing more than what was done here; 0
 * when it must go to cuemu_check_access() (which then does everything,
 * this included). */
CUEMU_CHECK_FAST_FN int cuemu_check_fast_access(cuemu_check_fast *f,
                                                uintptr_t a, size_t size,
                                                int kind) {
  uintptr_t off = a - f->hot[0].base;
  if (off < f->hot[0].limit)
    return cuemu_check_fast_hot(f, 0, a, off, size, kind);
  off = a - f->hot[1].base;
  if (off < f->hot[1].limit)
    return cuemu_check_fast_hot(f, 1, a, off, size, kind);
  return cuemu_check_fast_skipped(f, 0, a, size) ||
         cuemu_check_fast_skipped(f, 1, a, size) ||
         cuemu_check_fast_skipped(f, 2, a, size);
}
#if CUEMU_CHECK_FAST_SKIPS != 3
#error "cuemu_check_fast_access tests 3 skipped ranges"
#endif

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_CHECK_FAST_H */
