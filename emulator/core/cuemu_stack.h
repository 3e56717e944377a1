/*
 * cuemu_stack.h: pooled, guarded stacks for emulated CUDA threads.
 *
 * Each stack is one mmap()ed region whose lowest CUEMU_GUARD_BYTES are
 * inaccessible, so that an overflow faults instead of corrupting memory; a
 * large guard also catches big local arrays that would jump a single page.
 * That takes two of the process's mappings (vm.max_map_count) per stack:
 * once guarded stacks hold half of them (many blocks resident at once, as
 * in cooperative grids on several devices), new stacks come without a
 * guard, CUEMU_STACK_SLAB at a time in one mapping (map == base). The
 * lowest CUEMU_STACK_CANARY_BYTES of such a stack hold a known pattern,
 * its canary, which the scheduler checks when a thread that ran on it
 * exits, when a lazily run thread returns, at a barrier's slow path and
 * when a barrier completes (every waiting thread's): a thread that wrote
 * over it is reported as a stack overflow before a thread waiting at the
 * barrier runs again on what it overwrote below (cuemu_block.c). Threads
 * that are ready to run, which a barrier's fast path or a warp
 * collective's wait switches to unchecked, may run on it first. A frame
 * that skips the whole canary without writing to it (a large local array
 * written sparsely) is not caught. A runner on such a stack enters
 * through its own entry (cuemu_stack_entries), so that the scheduler
 * tests for canaries only once a worker's thread has run on one.
 * Stacks are never freed while their pool lives: a stack's pages are touched
 * once and reused by block after block.
 *
 * Stack tops are "coloured" (see CUEMU_GUARD_BYTES and CUEMU_STACK_COLORS):
 * without that, the frames that a barrier switches between all map to the
 * same few cache sets and a 256-thread barrier ran 3x slower.
 */
#ifndef CUEMU_STACK_H
#define CUEMU_STACK_H

#include <stddef.h>

#include "context/cuemu_context.h"

/* 17 pages: with a whole number of 64 KiB for the stack, consecutive
 * mappings then start at different offsets modulo 128 KiB, so that the tops
 * of many stacks do not all fall into the same cache sets. */
#define CUEMU_GUARD_BYTES (68u * 1024u)

/* Stack tops are also staggered by this many cache lines within a page. */
#define CUEMU_STACK_COLORS 64u
#define CUEMU_CACHE_LINE 64u

/* Unguarded stacks mapped together. */
#define CUEMU_STACK_SLAB 64u

/* The canary of an unguarded stack: its lowest bytes (deep frames of
 * about 1 KiB, which write at their top and bottom, do not skip it). */
#define CUEMU_STACK_CANARY_BYTES 1024u

typedef struct cuemu_stack {
  unsigned char *map;        /* start of the mapping (the guard) */
  int guarded;               /* it has a guard (two mappings of its own) */
  size_t map_size;           /* a slab's: the first stack's, 0 for others */
  unsigned char *base;       /* lowest usable byte */
  size_t size;               /* usable bytes */
  cuemu_ctx_template tpl;    /* the first frame, built by makecontext() */
  struct cuemu_stack *next_free;
  void (*entry)(void);       /* what a fresh context on it enters */
} cuemu_stack;

/* What fresh contexts on a pool's stacks enter: on a stack with a guard
 * page, and on one without (which checks its canary: cuemu_block.c). */
typedef struct cuemu_stack_entries {
  void (*guarded)(void);
  void (*unguarded)(void);
} cuemu_stack_entries;

typedef struct cuemu_stack_pool {
  size_t stack_size;
  const cuemu_stack_entries *entries;
  cuemu_stack *free_list;
  cuemu_stack **all;         /* every stack, for the fault handler */
  size_t count, capacity;
} cuemu_stack_pool;

/* Prepares an empty pool of stacks of `stack_size` usable bytes whose
 * contexts enter one of `entries` (which must outlive the pool). */
void cuemu__stack_pool_init(cuemu_stack_pool *pool, size_t stack_size,
                            const cuemu_stack_entries *entries);

/* Maps a new stack for the pool; NULL when memory or mappings run out. */
cuemu_stack *cuemu__stack_new(cuemu_stack_pool *pool);

/* Takes a stack from the pool, mapping a new one when none is free; NULL
 * when memory or mappings run out. */
static inline cuemu_stack *cuemu__stack_get(cuemu_stack_pool *pool) {
  cuemu_stack *s = pool->free_list;
  if (__builtin_expect(s != NULL, 1)) {
    pool->free_list = s->next_free;
    return s;
  }
  return cuemu__stack_new(pool);
}

/* Returns a stack to the pool. */
static inline void cuemu__stack_put(cuemu_stack_pool *pool, cuemu_stack *s) {
  s->next_free = pool->free_list;
  pool->free_list = s;
}

/* The stack whose guard area contains `address`, or NULL. Async-signal-safe. */
cuemu_stack *cuemu__stack_find_guard(const cuemu_stack_pool *pool,
                                     const void *address);

/* The stack of the pool whose usable area contains `address`, or NULL. */
cuemu_stack *cuemu__stack_holding(const cuemu_stack_pool *pool,
                                  const void *address);

/* Non-zero when `address` lies in the usable area of stack `s`. */
static inline int cuemu__stack_contains(const cuemu_stack *s,
                                        const void *address) {
  const unsigned char *a = address;
  return a >= s->base && a < s->base + s->size;
}

/* Writes the canary of unguarded stack `s` (again, once reported). */
void cuemu__stack_canary_set(cuemu_stack *s);

/* Whether the canary of unguarded stack `s` is as written. */
int cuemu__stack_canary_intact(const cuemu_stack *s);

/* Whether nothing shows that a thread overflowed stack `s`. */
static inline int cuemu__stack_intact(const cuemu_stack *s) {
  return s->guarded || cuemu__stack_canary_intact(s);
}

/* The unguarded stack of the pool whose lowest address lies less than
 * CUEMU_GUARD_BYTES above `address`, or NULL: a fault there is an overflow
 * of that stack into memory that is not mapped. */
cuemu_stack *cuemu__stack_below_unguarded(const cuemu_stack_pool *pool,
                                          const void *address);

/* The most memory mappings the process may have (vm.max_map_count). */
long cuemu__max_map_count(void);

/* Unmaps every stack of the pool. */
void cuemu__stack_pool_destroy(cuemu_stack_pool *pool);

#endif /* CUEMU_STACK_H */
