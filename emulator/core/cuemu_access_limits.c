/*
 * cuemu_access_limits.c: the table of cuemu_access_limits.h, a list of
 * ranges under one lock (the mappings of a program's virtual memory
 * management are few).
 */
#include "core/cuemu_access_limits.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct range {
  uintptr_t base;
  size_t size, granule;
  unsigned char *flags; /* per granule, CUEMU_MEM_ACCESS_DEVICES bytes */
} range;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static range *ranges;
static size_t count, capacity;

/* The index of the range recorded at `base`, or count. With the lock. */
static size_t index_of(uintptr_t base) {
  size_t i = 0;
  while (i < count && ranges[i].base != base)
    ++i;
  return i;
}

int cuemu__access_limits_set(const void *base, size_t size, size_t granule,
                             const unsigned char *flags) {
  if (!granule || size % granule)
    return -1;
  size_t bytes = size / granule * CUEMU_MEM_ACCESS_DEVICES;
  unsigned char *copy = malloc(bytes ? bytes : 1);
  if (!copy)
    return -1;
  memcpy(copy, flags, bytes);
  pthread_mutex_lock(&lock);
  size_t i = index_of((uintptr_t)base);
  if (i == count) {
    if (count == capacity) {
      size_t cap = capacity ? 2 * capacity : 16;
      range *grown = realloc(ranges, cap * sizeof *grown);
      if (!grown) {
        pthread_mutex_unlock(&lock);
        free(copy);
        return -1;
      }
      ranges = grown;
      capacity = cap;
    }
    ranges[count++].flags = NULL;
  }
  free(ranges[i].flags);
  ranges[i] = (range){(uintptr_t)base, size, granule, copy};
  pthread_mutex_unlock(&lock);
  return 0;
}

void cuemu__access_limits_clear(const void *base) {
  pthread_mutex_lock(&lock);
  size_t i = index_of((uintptr_t)base);
  if (i < count) {
    free(ranges[i].flags);
    ranges[i] = ranges[--count];
  }
  pthread_mutex_unlock(&lock);
}

/* The flags of `device` in granule `g` of `r`. */
static int flags_at(const range *r, size_t g, int device) {
  return device >= 0 && device < CUEMU_MEM_ACCESS_DEVICES
             ? r->flags[g * CUEMU_MEM_ACCESS_DEVICES + (size_t)device]
             : CUEMU_MEM_ACCESS_NONE;
}

int cuemu__access_limits_of(const void *p, int device) {
  uintptr_t a = (uintptr_t)p;
  int flags = -1;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < count && flags < 0; ++i)
    if (a >= ranges[i].base && a - ranges[i].base < ranges[i].size)
      flags = flags_at(&ranges[i], (a - ranges[i].base) / ranges[i].granule,
                       device);
  pthread_mutex_unlock(&lock);
  return flags;
}

int cuemu__access_limits_meet(const void *base, size_t size, int device,
                              int *full) {
  uintptr_t lo = (uintptr_t)base, hi = lo + size;
  int met = 0;
  *full = 1;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < count; ++i) {
    const range *r = &ranges[i];
    if (r->base >= hi || lo >= r->base + r->size)
      continue;
    met = 1;
    for (size_t g = 0; g < r->size / r->granule; ++g) {
      uintptr_t at = r->base + g * r->granule;
      if (at < hi && lo < at + r->granule &&
          flags_at(r, g, device) != CUEMU_MEM_ACCESS_READWRITE)
        *full = 0;
    }
  }
  pthread_mutex_unlock(&lock);
  return met;
}
