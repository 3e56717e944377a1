/*
 * cuemu_check_fast.h: the common case of the checkers' shadow update, which
 * code built with cuemu-cc --check runs inline, without a call into
 * libcuemu.
 *
 * Every memory access of a checked kernel is instrumented with a call of
 * __tsan_readN or __tsan_writeN. The shims define those entry points in the
 * checked module itself (cuemu_check_entry.h, hidden, so that the call is a
 * direct one; cuemu-cc compiles them once into an object that it links into
 * every checked output), and they decide most accesses here: an access that the
 * checkers leave alone (the built-in variables, memory that is near no
 * allocation and no shared memory), or an aligned access wholly inside a live
 * allocation that the running block touched lately (memcheck has nothing to
 * say about it; initcheck marks written bytes and lets reads of written
 * bytes pass; racecheck records it in the allocation's granule cells when
 * nothing recorded there can race with it). Everything else goes to libcuemu's
 * cuemu_check_access(), which runs the whole classification and reports.
 *
 * libcuemu keeps the state below per OS thread, points
 * cuemu_check_fast_state at it while the thread runs a block of a launch
 * whose checkers use the shadow, and at an empty one when the block
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
/* `shadow` of a hot allocation under racecheck (below). */
#define CUEMU_CHECK_FAST_RACE_TAG 1u
/* Racecheck's shadow of an allocation has one cell per granule of this
 * many bytes (from the allocation's start) while the granule is accessed
 * whole, and one per byte once a narrower access split it. */
#define CUEMU_CHECK_GRANULE 4
/* The cells are locked in stripes: the stripe of a cell is its address
 * shifted right by CUEMU_CHECK_LOCK_SHIFT, modulo CUEMU_CHECK_LOCKS. */
#define CUEMU_CHECK_LOCK_SHIFT 9
#define CUEMU_CHECK_LOCKS 1024u
/* The fence clocks of a launch (cuemu_check_fast's fence). */
#define CUEMU_CHECK_FENCE_SLOTS (1u << 16)
/* Access sites (code addresses) whose interned number is kept here,
 * direct-mapped by the address's low bits: the sites of a kernel's inner
 * loop lie within a few hundred bytes of code, and do not collide. */
#define CUEMU_CHECK_SITE_CACHE 1024u

/* Racecheck's record of a granule or byte of memory: the last writer and
 * the last reader (block, thread, both numbered from 1; 0: none), their
 * access sites (interned code addresses), the block's sync clock and the
 * grid generation when they accessed it, and the launch that wrote the
 * cell (cells of other launches count as empty). The writer's fields and
 * the flags are the first 16 bytes, the reader's and the epoch the last
 * 16, in the order of cuemu_check_half, so that a record is two stores. */
typedef struct cuemu_check_cell {
  uint32_t wseq, wblock;
  uint16_t wtid, wsite, wgen, flags;
  uint32_t rseq, rblock;
  uint16_t rtid, rsite, rgen, epoch;
} cuemu_check_cell;

/* Either half of a cell. */
typedef struct cuemu_check_half {
  uint32_t seq, block;
  uint16_t tid, site, gen, tag;
} cuemu_check_half;

enum {
  CUEMU_CHECK_CELL_INIT = 1, /* shared memory: written */
  CUEMU_CHECK_CELL_SPLIT = 2, /* a granule: its bytes have cells of their own */
  /* The last write, or the last read, was volatile (a strong access in
   * PTX's memory model, as ld.volatile is ld.relaxed.sys: two of them to
   * one location of global memory never race, nor one and an atomic). */
  CUEMU_CHECK_CELL_WVOLATILE = 4,
  CUEMU_CHECK_CELL_RVOLATILE = 8,
  /* The last write, or the last read, was atomic (global or shared
   * memory): a strong access too, which races with a plain one of another
   * thread unless they are ordered, and never with another strong one. */
  CUEMU_CHECK_CELL_WATOMIC = 16,
  CUEMU_CHECK_CELL_RATOMIC = 32,
  /* A plain write, or read, clears these. */
  CUEMU_CHECK_CELL_WSTRONG = CUEMU_CHECK_CELL_WVOLATILE | CUEMU_CHECK_CELL_WATOMIC,
  CUEMU_CHECK_CELL_RSTRONG = CUEMU_CHECK_CELL_RVOLATILE | CUEMU_CHECK_CELL_RATOMIC
};

/* What the state says of the running block; every range is empty when its
 * span (or limit) is 0. */
typedef struct cuemu_check_fast {
  /* The live allocations touched last, most recent first. An access
   * starting at offset off < limit is wholly inside: limit is the
   * allocation's size less CUEMU_CHECK_FAST_MAX - 1 (accesses near the end
   * take the whole path). `init`: the allocation's "written" map when
   * initcheck runs, else NULL. `race`: its granule cells when racecheck
   * runs (the allocation is then only here once they exist), else NULL.
   * `shadow`, what the common case tests first: 0 when both are NULL,
   * CUEMU_CHECK_FAST_RACE_TAG when racecheck runs, else `init`. */
  struct {
    uintptr_t base, limit, shadow;
    unsigned char *init;
    cuemu_check_cell *race;
  } hot[2];
  uintptr_t skip_lo[CUEMU_CHECK_FAST_SKIPS], skip_span[CUEMU_CHECK_FAST_SKIPS];
  /* Racecheck's view of the running block: its number (linear + 1), its
   * sync clock and the clock of its last block barrier, its grid
   * generation, the launch's epoch, and blockDim.x and .y. */
  uint32_t block, seq, block_seq, bdx, bdy;
  uint16_t gen, epoch;
  /* The block's shared memory accessed last, a static __shared__ array
   * (as the symbol lookup found it: memcheck has nothing to say about an
   * aligned access wholly inside) or the dynamic buffer,
   * [shared_lo, shared_lo + shared_span) (span 0: none), its granule cells
   * `shared_cells` (when racecheck or initcheck keeps them), counted from
   * `shared_origin` (the start of the block's static shared memory, or of
   * the dynamic buffer), the epoch that marks the running block's cells,
   * and which checkers keep them (CUEMU_CHECK_FAST_SHARED_*). The cells
   * are the worker's own: no lock. */
  uintptr_t shared_lo, shared_span, shared_origin;
  cuemu_check_cell *shared_cells;
  uint16_t shared_epoch, shared_checks;
  /* The cells' lock stripes. */
  unsigned char *locks;
  /* Whether this OS thread may update global cells without their locks
   * (1 while it is the only one running blocks under racecheck; libcuemu
   * sets it, and clears it from another thread that is about to run one,
   * see cuemu_check_fast_claim), and whether it is doing so now. */
  int unlocked;
  unsigned char busy;
  /* Interned numbers of recent access sites, by code address. */
  uintptr_t site_pc[CUEMU_CHECK_SITE_CACHE];
  uint16_t site[CUEMU_CHECK_SITE_CACHE];
  /* Racecheck's write whose store has not been made yet: a write of
   * global memory is recorded in its cells before its store, which is the
   * next thing its thread does; until then another worker that finds the
   * write in the cells would see the bytes as they were before it
   * (cuemu_check_fast_pending). The start of the next check says that the
   * store is done (cuemu_check_fast_stored). 0: none. Last, so that the
   * fields above keep their offsets in modules built before it. */
  uintptr_t store_pending;
  /* The launch's fence clocks, one per block number modulo
   * CUEMU_CHECK_FENCE_SLOTS (the clock of the block's last
   * __threadfence()), or NULL: an access of another block is ordered
   * before the running block's when that block fenced after it. */
  const uint32_t *fence;
  /* The running block's clock at its last warp collective, tile barrier
   * or fence (what else than a block barrier may order two of its
   * threads: cuemu_check_fast_read_kept). */
  uint32_t fine_seq;
} cuemu_check_fast;

/* The calling OS thread's state; never NULL: outside a checked block it
 * is one where nothing is hot or skipped, and every access goes to
 * cuemu_check_access(). */
extern __thread cuemu_check_fast *cuemu_check_fast_state CUEMU_TLS_IE;

/* Access kinds (the same numbers as libcuemu's own). */
enum {
  CUEMU_CHECK_FAST_READ = 1,
  CUEMU_CHECK_FAST_WRITE = 2,
  CUEMU_CHECK_FAST_ATOMIC = 4,
  CUEMU_CHECK_FAST_RANGE = 8, /* a block copy: no alignment rule */
  CUEMU_CHECK_FAST_VOLATILE = 16 /* racecheck: decided by libcuemu */
};

/* Which checkers keep the shared cells of cuemu_check_fast.shared_cells. */
enum {
  CUEMU_CHECK_FAST_SHARED_RACE = 1,
  CUEMU_CHECK_FAST_SHARED_INIT = 2,
  CUEMU_CHECK_FAST_SHARED_MEM = 4
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

/* The alignment that memcheck asks of an access of `size` bytes, less 1
 * (a mask of the address's low bits). An access of 16 bytes is held to 8
 * only: the compilers join two 8-byte accesses (the interpolation of
 * neighbouring doubles, a structure of two doubles copied whole) into one
 * 16-byte vector move, which a GPU makes as two 8-byte loads, and
 * ThreadSanitizer's instrumentation announces it as an aligned 16-byte
 * access (LLVM calls __tsan_read16 for any alignment of 8 or more, g++ 12
 * for any alignment). A float4, int4 or double2 accessed at a multiple of
 * 8 that is not one of 16 is found by the alignment test that every build
 * of device code makes (emulator/compile/cuemu_gcc_plugin_align.cc and
 * its clang++ twin): tests/programs/checkers/paired_double_loads.cu. */
CUEMU_CHECK_FAST_FN uintptr_t cuemu_check_fast_align_mask(size_t size) {
  return (uintptr_t)(size > 8 ? 8 : size) - 1;
}

/* Initcheck's "written" map holds 1 for each byte written. The loads and
 * stores below are byte-aligned and may alias anything. */
typedef uint16_t cuemu_check_u16 __attribute__((may_alias, aligned(1)));
typedef uint32_t cuemu_check_u32 __attribute__((may_alias, aligned(1)));
typedef uint64_t cuemu_check_u64 __attribute__((may_alias, aligned(1)));

/* Whether all `size` bytes at `m` are 1 (set: make them 1). */
CUEMU_CHECK_FAST_FN int cuemu_check_fast_written(unsigned char *__cuemu_m, size_t size,
                                                 int set) {
  const uint64_t ones = 0x0101010101010101ull;
  switch (size) {
  case 1:
    return set ? (*__cuemu_m = 1) : *__cuemu_m == 1;
  case 2:
    return set ? (*(cuemu_check_u16 *)__cuemu_m = (uint16_t)ones, 1)
               : *(cuemu_check_u16 *)__cuemu_m == (uint16_t)ones;
  case 4:
    return set ? (*(cuemu_check_u32 *)__cuemu_m = (uint32_t)ones, 1)
               : *(cuemu_check_u32 *)__cuemu_m == (uint32_t)ones;
  case 8:
    return set ? (*(cuemu_check_u64 *)__cuemu_m = ones, 1)
               : *(cuemu_check_u64 *)__cuemu_m == ones;
  case 16:
    if (set) {
      ((cuemu_check_u64 *)__cuemu_m)[0] = ones;
      ((cuemu_check_u64 *)__cuemu_m)[1] = ones;
      return 1;
    }
    return ((cuemu_check_u64 *)__cuemu_m)[0] == ones &&
           ((cuemu_check_u64 *)__cuemu_m)[1] == ones;
  default:
    /* Other sizes (copies) take the whole path. */
    return 0;
  }
}

/* The stripe locks of the granule cells: a test-and-set that returns the
 * old value, and a clear. clang instruments atomic builtins even in a
 * function marked no_sanitize("thread") (its documentation says so), and
 * in a checked module its __tsan_atomic* calls are the kernel's own
 * atomics, checked in full (emulator/check/cuemu_check_tsan.c): the lock
 * would be checked as an access of the kernel, which can make another
 * allocation the hot one under cuemu_check_fast_race() while it holds
 * the slot's pointers, so that a write went unmarked in initcheck's map
 * (a later read of it reported as uninitialised; CUB's decoupled
 * look-back under --check=race,init). On x86-64 they are assembler,
 * which no instrumentation sees; g++ leaves the builtins alone. */
CUEMU_CHECK_FAST_FN int cuemu_check_fast_lock(unsigned char *lock) {
#if defined(__x86_64__)
  unsigned char old = 1;
  __asm__ __volatile__("xchgb %0, %1" : "+q"(old), "+m"(*lock) : : "memory");
  return old;
#else
  return __atomic_test_and_set(lock, __ATOMIC_ACQUIRE);
#endif
}

CUEMU_CHECK_FAST_FN void cuemu_check_fast_unlock(unsigned char *lock) {
#if defined(__x86_64__)
  /* An x86-64 store has release order. */
  __asm__ __volatile__("movb $0, %0" : "=m"(*lock) : : "memory");
#else
  __atomic_clear(lock, __ATOMIC_RELEASE);
#endif
}

/* store_pending's encoding: the address in the low bits, the size (at
 * most 0xffff) above them. */
#define CUEMU_CHECK_PENDING_SHIFT 48

/* Notes that the write of `size` bytes at `a` just recorded in global
 * cells has not been stored yet (cuemu_check_fast's store_pending). The
 * caller then releases the cells' lock, which publishes the note with the
 * record. */
CUEMU_CHECK_FAST_FN void cuemu_check_fast_pending(cuemu_check_fast *f,
                                                  uintptr_t a, size_t size) {
  uintptr_t v = a >> CUEMU_CHECK_PENDING_SHIFT
                    ? 0 /* no room for the size: not noted */
                    : a | (uintptr_t)(size < 0xffff ? size : 0xffff)
                              << CUEMU_CHECK_PENDING_SHIFT;
#if defined(__clang__)
  /* Volatile, not an atomic builtin: see cuemu_check_fast_claim. */
  *(volatile uintptr_t *)&f->store_pending = v;
#else
  __atomic_store_n(&f->store_pending, v, __ATOMIC_RELAXED);
#endif
}

/* Says that the thread's earlier stores are done: called at the start of
 * every check, which its thread's stores before the access precede. The
 * store that clears the note comes after them (a release, a plain move on
 * x86-64), so that another worker that finds it clear sees them. Only a
 * note is cleared: the state outside a block is one for all threads, and
 * host code of a checked build runs this too. */
CUEMU_CHECK_FAST_FN void cuemu_check_fast_stored(cuemu_check_fast *f) {
#if defined(__clang__)
  if (*(volatile uintptr_t *)&f->store_pending) {
    __asm__ __volatile__("" : : : "memory");
    *(volatile uintptr_t *)&f->store_pending = 0;
  }
#else
  if (__atomic_load_n(&f->store_pending, __ATOMIC_RELAXED))
    __atomic_store_n(&f->store_pending, 0, __ATOMIC_RELEASE);
#endif
}

/* Whether [a, a + size) lies in skipped range i. */
CUEMU_CHECK_FAST_FN int cuemu_check_fast_skipped(const cuemu_check_fast *f,
                                                 int i, uintptr_t a,
                                                 size_t size) {
  uintptr_t d = a - f->skip_lo[i];
  return d < f->skip_span[i] && f->skip_span[i] - d >= size;
}

/* The slot of code address `pc` in the site cache. */
CUEMU_CHECK_FAST_FN unsigned cuemu_check_fast_site_slot(uintptr_t pc) {
  return (unsigned)(pc & (CUEMU_CHECK_SITE_CACHE - 1));
}

/* Whether an earlier access (block pblock, thread ptid, clock pseq, grid
 * generation pgen) was the current thread's own (`me`) or is plainly
 * ordered before the current one (a block barrier or a grid.sync came
 * after it, or, for another block's, a fence of that block). Exact for
 * another block's access; for one of the running block, when it says no,
 * the whole check decides (a warp collective, a tile barrier or a fence
 * may still order the two). */
CUEMU_CHECK_FAST_FN int cuemu_check_fast_before(const cuemu_check_fast *f,
                                                uint32_t pblock, uint16_t ptid,
                                                uint32_t pseq, uint16_t pgen,
                                                uint16_t me) {
  if (pblock == f->block)
    return ptid == me || f->block_seq > pseq;
  if (f->gen > pgen)
    return 1;
  if (!f->fence)
    return 0;
  const uint32_t *slot = &f->fence[pblock % CUEMU_CHECK_FENCE_SLOTS];
#if defined(__clang__)
  /* Volatile, not an atomic builtin: see cuemu_check_fast_claim. */
  return *(const volatile uint32_t *)slot > pseq;
#else
  return __atomic_load_n(slot, __ATOMIC_RELAXED) > pseq;
#endif
}

/* Whether a plain read leaves the last read of cell `c`, another thread's
 * that cuemu_check_fast_before() did not find ordered before it, as it
 * is: the whole check keeps the older of two concurrent reads, so that a
 * later write still meets a reader it races with. Decided here when the
 * two are surely concurrent: the reader is another block's (exact
 * there), or the running block's with no warp collective, tile barrier or
 * fence of the block since its read (only a block barrier could order
 * them then); and it is not a strong read, which a plain one replaces. */
CUEMU_CHECK_FAST_FN int cuemu_check_fast_read_kept(const cuemu_check_fast *f,
                                                   const cuemu_check_cell *c) {
  return !(c->flags & CUEMU_CHECK_CELL_RSTRONG) &&
         (c->rblock != f->block || f->fine_seq <= c->rseq);
}

/* Records an access by thread `me` (block f->block) at `site` in cell `c`
 * (a cell of another epoch than `epoch` holds nothing, and is emptied
 * first): a write marks it written and, under racecheck, is its last
 * write; a read under racecheck is its last read. */
CUEMU_CHECK_FAST_FN void cuemu_check_fast_record(const cuemu_check_fast *f,
                                                 cuemu_check_cell *c,
                                                 uint16_t epoch, int write,
                                                 int race, uint16_t me,
                                                 uint16_t site) {
  const int fresh = c->epoch != epoch;
  if (!race) {
    if (fresh) {
      cuemu_check_cell empty = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
      empty.epoch = epoch;
      *c = empty;
    }
    if (write)
      c->flags |= CUEMU_CHECK_CELL_INIT;
    return;
  }
  /* The access's half, and the other one emptied in a fresh cell. */
  unsigned char *w = (unsigned char *)c + offsetof(cuemu_check_cell, wseq);
  unsigned char *__cuemu_r = (unsigned char *)c + offsetof(cuemu_check_cell, rseq);
  cuemu_check_half mine = {f->seq, f->block, me, site, f->gen, 0};
  cuemu_check_half none = {0, 0, 0, 0, 0, 0};
  if (write) {
    /* A plain write: the last write is no longer volatile or atomic. */
    mine.tag = (uint16_t)(((fresh ? 0 : c->flags) &
                           ~CUEMU_CHECK_CELL_WSTRONG) |
                          CUEMU_CHECK_CELL_INIT);
    __builtin_memcpy(w, &mine, sizeof mine);
    if (fresh) {
      none.tag = epoch;
      __builtin_memcpy(__cuemu_r, &none, sizeof none);
    }
  } else {
    mine.tag = epoch;
    __builtin_memcpy(__cuemu_r, &mine, sizeof mine);
    if (fresh)
      __builtin_memcpy(w, &none, sizeof none);
    else if (c->flags & CUEMU_CHECK_CELL_RSTRONG)
      c->flags &= (uint16_t)~CUEMU_CHECK_CELL_RSTRONG; /* a plain read */
  }
}

/* Claims the cells at `cells` (an allocation's granule cells, whose lock
 * stripe covers all of an access's cells) for an update: returns the byte
 * to clear (cuemu_check_fast_unlock) when done, or NULL when another
 * thread holds their lock. While this OS thread is the only one running
 * blocks under racecheck (f->unlocked), the byte is f->busy, and no lock
 * is taken: a thread that starts a racecheck block clears f->unlocked,
 * makes every thread of the process execute a memory barrier (membarrier)
 * and then waits until f->busy is 0, so that no update made here without
 * the lock overlaps one made under it. */
CUEMU_CHECK_FAST_FN unsigned char *
cuemu_check_fast_claim(cuemu_check_fast *f, const cuemu_check_cell *cells) {
#if defined(__clang__)
  /* Volatile accesses and an empty asm rather than atomic builtins: clang
   * instruments those even here (see cuemu_check_fast_lock), and relaxed
   * byte and int accesses are plain moves on every CPU cuemu runs on. */
  *(volatile unsigned char *)&f->busy = 1;
  __asm__ __volatile__("" : : : "memory");
  if (__builtin_expect(*(volatile int *)&f->unlocked, 1))
    return &f->busy;
  *(volatile unsigned char *)&f->busy = 0;
#else
  /* With g++ the builtins are not instrumented here, and they are faster
   * than the form above (bench/run_check_bench.sh: race saxpy 15 ms
   * against 34 ms at 2^20). */
  __atomic_store_n(&f->busy, 1, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  if (__builtin_expect(__atomic_load_n(&f->unlocked, __ATOMIC_RELAXED), 1))
    return &f->busy;
  __atomic_store_n(&f->busy, 0, __ATOMIC_RELAXED);
#endif
  unsigned char *lock = f->locks + ((uintptr_t)cells >> CUEMU_CHECK_LOCK_SHIFT) %
                                       CUEMU_CHECK_LOCKS;
  return cuemu_check_fast_lock(lock) ? NULL : lock;
}

/* Racecheck of an access of `size` bytes at offset `off` of hot allocation
 * `h`, aligned when it must be: decided here when it covers whole granules
 * that are not split, nothing recorded on them can race with it (the last
 * writer, and the last reader, are this thread or ordered before it), and
 * initcheck (when it runs) has nothing to say; then the granules record it,
 * as the whole check would. Otherwise nothing is changed. */
CUEMU_CHECK_FAST_FN int cuemu_check_fast_race(cuemu_check_fast *f, int h,
                                              uintptr_t off, size_t size,
                                              int kind, const void *pc) {
  if (((off | size) & (CUEMU_CHECK_GRANULE - 1)) ||
      (kind & (CUEMU_CHECK_FAST_ATOMIC | CUEMU_CHECK_FAST_VOLATILE)))
    return 0;
  unsigned slot = cuemu_check_fast_site_slot((uintptr_t)pc);
  if (f->site_pc[slot] != (uintptr_t)pc)
    return 0;
  uint16_t site = f->site[slot];
  cuemu_check_cell *__cuemu_g = f->hot[h].race + off / CUEMU_CHECK_GRANULE;
  size_t n = size / CUEMU_CHECK_GRANULE;
  unsigned char *lock = cuemu_check_fast_claim(f, __cuemu_g);
  if (!lock)
    return 0;
  uint16_t me = (uint16_t)(threadIdx.x +
                           f->bdx * (threadIdx.y + f->bdy * threadIdx.z) + 1);
  const uint16_t epoch = f->epoch;
  int write = kind & CUEMU_CHECK_FAST_WRITE;
  /* The cells whose last read stays (cuemu_check_fast_read_kept: all
   * threads reading one vector, a matrix-vector product). */
  unsigned keep = 0;
  for (size_t i = 0; i < n; ++i) {
    const cuemu_check_cell *c = &__cuemu_g[i];
    if (c->epoch != epoch)
      continue;
    if ((c->flags & CUEMU_CHECK_CELL_SPLIT) ||
        (c->wtid && !cuemu_check_fast_before(f, c->wblock, c->wtid, c->wseq,
                                             c->wgen, me))) {
      cuemu_check_fast_unlock(lock);
      return 0;
    }
    if (c->rtid && !cuemu_check_fast_before(f, c->rblock, c->rtid, c->rseq,
                                            c->rgen, me)) {
      if (write || !cuemu_check_fast_read_kept(f, c)) {
        cuemu_check_fast_unlock(lock);
        return 0;
      }
      keep |= 1u << i;
    }
  }
#ifdef CUEMU_CHECK_FAST_NO_INIT
  /* A build without initcheck (cuemu-cc defines the macro): no map. */
  unsigned char *init = NULL;
#else
  unsigned char *init = f->hot[h].init;
#endif
  if (init && (kind & CUEMU_CHECK_FAST_READ) &&
      !cuemu_check_fast_written(init + off, size, 0)) {
    cuemu_check_fast_unlock(lock);
    return 0;
  }
  /* The "written" map is set here for the sizes cuemu_check_fast_written
   * knows; a write of another size (a 12-byte structure that a call
   * returned, stored as one range: a public ray tracer) takes the
   * whole path, which marks each of its bytes. */
  if (init && write && size != 1 && size != 2 && size != 4 && size != 8 &&
      size != 16) {
    cuemu_check_fast_unlock(lock);
    return 0;
  }
  for (size_t i = 0; i < n; ++i)
    if (!(keep >> i & 1u))
      cuemu_check_fast_record(f, &__cuemu_g[i], epoch, write, 1, me, site);
  if (init && write)
    cuemu_check_fast_written(init + off, size, 1);
  if (write)
    cuemu_check_fast_pending(f, f->hot[h].base + off, size);
  cuemu_check_fast_unlock(lock);
  return 1;
}

/* Memcheck, racecheck and initcheck of an access of `size` bytes at `a` by
 * the code at `pc`, in the block's shared memory accessed last
 * (cuemu_check_fast's shared_*): decided here when it lies wholly inside
 * it, is aligned (memcheck) and covers whole granules that are not split
 * (racecheck, initcheck), initcheck has nothing to say (a read finds
 * them written), and nothing recorded on them can race with it (the last
 * writer and reader are this thread or before its last block barrier);
 * then the granules record it as the whole check would. Otherwise nothing
 * is changed. */
CUEMU_CHECK_FAST_FN int cuemu_check_fast_shared(cuemu_check_fast *f,
                                                uintptr_t a, size_t size,
                                                int kind, const void *pc) {
  uintptr_t d = a - f->shared_lo, off = a - f->shared_origin;
  if (!(d < f->shared_span && f->shared_span - d >= size) ||
      size > CUEMU_CHECK_FAST_MAX || (kind & CUEMU_CHECK_FAST_ATOMIC))
    return 0;
  /* Memcheck: inside the array, and aligned unless it is a copy. */
  if ((f->shared_checks & CUEMU_CHECK_FAST_SHARED_MEM) &&
      !(kind & CUEMU_CHECK_FAST_RANGE) &&
      (a & cuemu_check_fast_align_mask(size)))
    return 0;
  if (!(f->shared_checks &
        (CUEMU_CHECK_FAST_SHARED_RACE | CUEMU_CHECK_FAST_SHARED_INIT)))
    return 1;
  if ((off | size) & (CUEMU_CHECK_GRANULE - 1))
    return 0;
  const int race = f->shared_checks & CUEMU_CHECK_FAST_SHARED_RACE;
  const int init = f->shared_checks & CUEMU_CHECK_FAST_SHARED_INIT;
  const int write = kind & CUEMU_CHECK_FAST_WRITE;
  uint16_t site = 0, me = 0;
  if (race) {
    unsigned slot = cuemu_check_fast_site_slot((uintptr_t)pc);
    if (f->site_pc[slot] != (uintptr_t)pc)
      return 0;
    site = f->site[slot];
    me = (uint16_t)(threadIdx.x +
                    f->bdx * (threadIdx.y + f->bdy * threadIdx.z) + 1);
  }
  cuemu_check_cell *__cuemu_g = f->shared_cells + off / CUEMU_CHECK_GRANULE;
  const size_t n = size / CUEMU_CHECK_GRANULE;
  const uint16_t epoch = f->shared_epoch;
  unsigned keep = 0; /* as in cuemu_check_fast_race */
  for (size_t i = 0; i < n; ++i) {
    const cuemu_check_cell *c = &__cuemu_g[i];
    if (c->epoch != epoch) {
      /* Not accessed in this block: unwritten. */
      if (init && !write)
        return 0;
      continue;
    }
    if ((c->flags & CUEMU_CHECK_CELL_SPLIT) ||
        (init && !write && !(c->flags & CUEMU_CHECK_CELL_INIT)))
      return 0;
    if (race && c->wtid &&
        !cuemu_check_fast_before(f, c->wblock, c->wtid, c->wseq, c->wgen, me))
      return 0;
    if (race && c->rtid &&
        !cuemu_check_fast_before(f, c->rblock, c->rtid, c->rseq, c->rgen,
                                 me)) {
      if (write || !cuemu_check_fast_read_kept(f, c))
        return 0;
      keep |= 1u << i;
    }
  }
  if (!race && !write)
    return 1;
  for (size_t i = 0; i < n; ++i)
    if (!(keep >> i & 1u))
      cuemu_check_fast_record(f, &__cuemu_g[i], epoch, write, race, me, site);
  return 1;
}

/* The access at `off` in hot allocation `h`, which holds its first
 * CUEMU_CHECK_FAST_MAX bytes: as cuemu_check_fast_decide() says. (cuemu's
 * GCC plugin writes this test's common case inline in checked kernels,
 * emulator/compile/cuemu_gcc_plugin_check.cc: a change here, to the hot
 * slots' layout, CUEMU_CHECK_FAST_RACE_TAG or the init map's bytes, must
 * be made there too.) */
CUEMU_CHECK_FAST_FN int cuemu_check_fast_hot(cuemu_check_fast *f, int h,
                                             uintptr_t a, uintptr_t off,
                                             size_t size, int kind) {
  if (size > CUEMU_CHECK_FAST_MAX ||
      (!(kind & CUEMU_CHECK_FAST_RANGE) &&
       (a & cuemu_check_fast_align_mask(size))))
    return 0;
  uintptr_t shadow = f->hot[h].shadow;
  if (!shadow)
    return 1;
  if (shadow == CUEMU_CHECK_FAST_RACE_TAG)
    return 2 + h;
  unsigned char *init = (unsigned char *)shadow;
  if ((kind & CUEMU_CHECK_FAST_READ) &&
      !cuemu_check_fast_written(init + off, size, 0))
    return 0;
  if (kind & CUEMU_CHECK_FAST_WRITE)
    return cuemu_check_fast_written(init + off, size, 1);
  return 1;
}

/* Decides an access (made by the code at `pc`), racecheck aside for the
 * hot allocations: returns 1 when it needs nothing more than what was done
 * here; 0 when it must go to cuemu_check_access()
 * (which then does everything, this included); 2 + h when it lies in hot
 * allocation h (at offset *off) under racecheck, for
 * cuemu_check_fast_race(). */
CUEMU_CHECK_FAST_FN int cuemu_check_fast_decide(cuemu_check_fast *f,
                                                uintptr_t a, size_t size,
                                                int kind, uintptr_t *off,
                                                const void *pc) {
  cuemu_check_fast_stored(f);
  *off = a - f->hot[0].base;
  if (*off < f->hot[0].limit)
    return cuemu_check_fast_hot(f, 0, a, *off, size, kind);
  *off = a - f->hot[1].base;
  if (*off < f->hot[1].limit)
    return cuemu_check_fast_hot(f, 1, a, *off, size, kind);
  return cuemu_check_fast_shared(f, a, size, kind, pc) ||
         cuemu_check_fast_skipped(f, 0, a, size) ||
         cuemu_check_fast_skipped(f, 1, a, size) ||
         cuemu_check_fast_skipped(f, 2, a, size);
}

/* Returns 1 when the access (made by the code at `pc`) needs nothing more
 * than what was done here; 0 when it must go to cuemu_check_access(). */
CUEMU_CHECK_FAST_FN int cuemu_check_fast_access(cuemu_check_fast *f,
                                                uintptr_t a, size_t size,
                                                int kind, const void *pc) {
  uintptr_t off;
  int d = cuemu_check_fast_decide(f, a, size, kind, &off, pc);
  return d < 2 ? d : cuemu_check_fast_race(f, d - 2, off, size, kind, pc);
}
#if CUEMU_CHECK_FAST_SKIPS != 3
#error "cuemu_check_fast_access tests 3 skipped ranges"
#endif

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_CHECK_FAST_H */
