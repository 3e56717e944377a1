/*
 * cuemu_stack.c: pooled, guarded stacks (see cuemu_stack.h).
 */
#include "core/cuemu_stack.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

void cuemu__stack_pool_init(cuemu_stack_pool *pool, size_t stack_size,
                            void (*entry)(void)) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  pool->stack_size = (stack_size + page - 1) / page * page;
  pool->entry = entry;
  pool->free_list = NULL;
  pool->all = NULL;
  pool->count = pool->capacity = 0;
}

cuemu_stack *cuemu__stack_new(cuemu_stack_pool *pool) {
  cuemu_stack *s;
  if (pool->count == pool->capacity) {
    size_t cap = pool->capacity ? pool->capacity * 2 : 64;
    cuemu_stack **all = realloc(pool->all, cap * sizeof *all);
    if (!all)
      return NULL;
    pool->all = all;
    pool->capacity = cap;
  }
  s = calloc(1, sizeof *s);
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
  s->size = pool->stack_size;
  size_t color = (pool->count % CUEMU_STACK_COLORS) * CUEMU_CACHE_LINE;
  if (mprotect(s->base, s->size, PROT_READ | PROT_WRITE) != 0 ||
      cuemu__ctx_template_init(&s->tpl, s->base, s->size - color,
                               pool->entry) != 0) {
    munmap(s->map, s->map_size);
    free(s);
    return NULL;
  }
  pool->all[pool->count++] = s;
  return s;
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
  for (size_t i = 0; i < pool->count; ++i) {
    munmap(pool->all[i]->map, pool->all[i]->map_size);
    free(pool->all[i]);
  }
  free(pool->all);
  pool->all = NULL;
  pool->free_list = NULL;
  pool->count = pool->capacity = 0;
}
