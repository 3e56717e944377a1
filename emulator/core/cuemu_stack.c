/*
 * cuemu_stack.c: pooled, guarded stacks (see cuemu_stack.h).
 */
#include "core/cuemu_stack.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

void cuemu__stack_pool_init(cuemu_stack_pool *pool, size_t stack_size,
                            const cuemu_stack_entries *entries) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  pool->stack_size = (stack_size + page - 1) / page * page;
  pool->entries = entries;
  pool->free_list = NULL;
  pool->all = NULL;
  pool->count = pool->capacity = 0;
}

long cuemu__max_map_count(void) {
  static _Atomic long limit;
  long v = atomic_load(&limit);
  if (v == 0) {
    v = 65530;
    FILE *f = fopen("/proc/sys/vm/max_map_count", "re");
    if (f) {
      if (fscanf(f, "%ld", &v) != 1 || v <= 0)
        v = 65530;
      fclose(f);
    }
    /* CUEMU_MAX_MAP_COUNT lowers it (tests reach the unguarded stacks with
     * it where the system allows many mappings). */
    const char *env = getenv("CUEMU_MAX_MAP_COUNT");
    long lower = env && *env ? strtol(env, NULL, 10) : 0;
    if (lower > 0 && lower < v)
      v = lower;
    atomic_store(&limit, v);
  }
  return v;
}

/* The canary's words: a pattern mixed with their own address, so that a
 * copy of another stack's canary does not pass for one. */
static uint64_t canary_word(const uint64_t *at) {
  return 0x5ca1ab1e0ddba11ull ^ (uint64_t)(uintptr_t)at;
}

void cuemu__stack_canary_set(cuemu_stack *s) {
  uint64_t *w = (uint64_t *)(void *)s->base;
  for (size_t i = 0; i < CUEMU_STACK_CANARY_BYTES / sizeof *w; ++i)
    w[i] = canary_word(&w[i]);
}

int cuemu__stack_canary_intact(const cuemu_stack *s) {
  const uint64_t *w = (const uint64_t *)(const void *)s->base;
  uint64_t diff = 0;
  for (size_t i = 0; i < CUEMU_STACK_CANARY_BYTES / sizeof *w; ++i)
    diff |= w[i] ^ canary_word(&w[i]);
  return diff == 0;
}

cuemu_stack *cuemu__stack_below_unguarded(const cuemu_stack_pool *pool,
                                          const void *address) {
  const unsigned char *a = address;
  for (size_t i = 0; i < pool->count; ++i) {
    cuemu_stack *s = pool->all[i];
    if (!s->guarded && a < s->base && a >= s->base - CUEMU_GUARD_BYTES)
      return s;
  }
  return NULL;
}

/* Mappings held by guarded stacks; they may hold half of the process's. */
static _Atomic long guarded_maps;

/* Makes room for one more stack in pool->all; 0 without memory. */
static int reserve(cuemu_stack_pool *pool, size_t more) {
  if (pool->count + more <= pool->capacity)
    return 1;
  size_t cap = pool->capacity ? pool->capacity : 64;
  while (cap < pool->count + more)
    cap *= 2;
  cuemu_stack **all = realloc(pool->all, cap * sizeof *all);
  if (!all)
    return 0;
  pool->all = all;
  pool->capacity = cap;
  return 1;
}

/* Finishes stack s at [base, base + pool->stack_size), guarded or not
 * already, and adds it to the pool's list; 0 on failure (the caller
 * unmaps). */
static int adopt(cuemu_stack_pool *pool, cuemu_stack *s) {
  s->size = pool->stack_size;
  s->entry = s->guarded ? pool->entries->guarded : pool->entries->unguarded;
  size_t color = (pool->count % CUEMU_STACK_COLORS) * CUEMU_CACHE_LINE;
  if (cuemu__ctx_template_init(&s->tpl, s->base, s->size - color,
                               s->entry) != 0)
    return 0;
  pool->all[pool->count++] = s;
  return 1;
}

/* A guarded stack: its own mapping, with the guard below it. */
static cuemu_stack *new_guarded(cuemu_stack_pool *pool) {
  cuemu_stack *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->map_size = CUEMU_GUARD_BYTES + pool->stack_size;
  void *map = mmap(NULL, s->map_size, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map == MAP_FAILED) {
    free(s);
    return NULL;
  }
  s->map = map;
  s->base = s->map + CUEMU_GUARD_BYTES;
  s->guarded = 1;
  if (mprotect(s->base, pool->stack_size, PROT_READ | PROT_WRITE) != 0 ||
      !adopt(pool, s)) {
    munmap(s->map, s->map_size);
    free(s);
    return NULL;
  }
  atomic_fetch_add(&guarded_maps, 2);
  return s;
}

/* CUEMU_STACK_SLAB unguarded stacks in one mapping: the first is
 * returned, the others go to the pool's free list. The first holds the
 * mapping's size (the others hold 0), so that it is unmapped in one call:
 * adjacent slabs may have merged into one mapping, which unmapping part of
 * a slab would split. */
static cuemu_stack *new_slab(cuemu_stack_pool *pool) {
  size_t n = CUEMU_STACK_SLAB;
  unsigned char *map = mmap(NULL, n * pool->stack_size,
                            PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
                            0);
  if (map == MAP_FAILED)
    return NULL;
  cuemu_stack *first = NULL;
  for (size_t i = 0; i < n; ++i) {
    cuemu_stack *s = calloc(1, sizeof *s);
    if (s)
      s->map = s->base = map + i * pool->stack_size;
    if (!s || !adopt(pool, s)) {
      /* The rest of the slab is given back. */
      free(s);
      munmap(map + i * pool->stack_size, (n - i) * pool->stack_size);
      break;
    }
    cuemu__stack_canary_set(s);
    if (first) {
      first->map_size += pool->stack_size;
      s->next_free = pool->free_list;
      pool->free_list = s;
    } else {
      first = s;
      first->map_size = pool->stack_size;
    }
  }
  return first;
}

cuemu_stack *cuemu__stack_new(cuemu_stack_pool *pool) {
  if (!reserve(pool, CUEMU_STACK_SLAB))
    return NULL;
  if (atomic_load(&guarded_maps) + 2 <= cuemu__max_map_count() / 2) {
    cuemu_stack *s = new_guarded(pool);
    if (s)
      return s;
  }
  return new_slab(pool);
}

cuemu_stack *cuemu__stack_find_guard(const cuemu_stack_pool *pool,
                                     const void *address) {
  const unsigned char *a = address;
  for (size_t i = 0; i < pool->count; ++i) {
    cuemu_stack *s = pool->all[i];
    if (a >= s->map && a < s->base)
      return s;
  }
  return NULL;
}

cuemu_stack *cuemu__stack_holding(const cuemu_stack_pool *pool,
                                  const void *address) {
  for (size_t i = 0; i < pool->count; ++i)
    if (cuemu__stack_contains(pool->all[i], address))
      return pool->all[i];
  return NULL;
}

void cuemu__stack_pool_destroy(cuemu_stack_pool *pool) {
  /* A slab is unmapped whole, by its first stack (see new_slab). */
  for (size_t i = 0; i < pool->count; ++i) {
    if (pool->all[i]->map_size)
      munmap(pool->all[i]->map, pool->all[i]->map_size);
    if (pool->all[i]->guarded)
      atomic_fetch_sub(&guarded_maps, 2);
    free(pool->all[i]);
  }
  free(pool->all);
  pool->all = NULL;
  pool->free_list = NULL;
  pool->count = pool->capacity = 0;
}
