/*
 * cuemu_variable_shadows.c: the host objects (shadows) of __device__ and
 * __constant__ variables, which host code names, and their device objects
 * (cuemu_program_register_variable_shadows()), which the host's symbol
 * calls and cuemu-cc's notes of a variable reach, as nvcc's registration
 * maps each shadow to its device variable.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/cuemu_allocations.h"
#include "device/cuemu_functions.h"

/* The registered sections, each once. */
typedef struct shadow_range {
  const cuemu_variable_shadow *begin, *end;
} shadow_range;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static shadow_range *ranges;
static size_t range_count; /* read without the lock while 0 */

void cuemu_program_register_variable_shadows(
    const cuemu_variable_shadow *begin, const cuemu_variable_shadow *end) {
  if (!begin || end <= begin)
    return;
  pthread_mutex_lock(&lock);
  size_t k = 0;
  while (k < range_count && ranges[k].begin != begin)
    ++k;
  if (k == range_count) {
    shadow_range *grown = realloc(ranges, (range_count + 1) * sizeof *grown);
    if (grown) {
      ranges = grown;
      ranges[range_count] = (shadow_range){begin, end};
      __atomic_store_n(&range_count, range_count + 1, __ATOMIC_RELEASE);
    }
  }
  pthread_mutex_unlock(&lock);
}

void cuemu_program_unregister_variable_shadows(
    const cuemu_variable_shadow *begin) {
  if (!begin || !__atomic_load_n(&range_count, __ATOMIC_ACQUIRE))
    return;
  pthread_mutex_lock(&lock);
  for (size_t k = 0; k < range_count; ++k)
    if (ranges[k].begin == begin) {
      ranges[k] = ranges[range_count - 1];
      __atomic_store_n(&range_count, range_count - 1, __ATOMIC_RELEASE);
      break;
    }
  pthread_mutex_unlock(&lock);
}

void *cuemu__variable_shadow_device(const void *p) {
  if (!p || !__atomic_load_n(&range_count, __ATOMIC_ACQUIRE))
    return (void *)p;
  const uintptr_t a = (uintptr_t)p;
  void *found = (void *)p;
  pthread_mutex_lock(&lock);
  for (size_t k = 0; k < range_count && found == p; ++k)
    for (const cuemu_variable_shadow *s = ranges[k].begin; s < ranges[k].end;
         ++s) {
      const uintptr_t lo = (uintptr_t)s->host;
      if (s->device && a >= lo && (a - lo < s->size || a == lo)) {
        found = (char *)s->device + (a - lo);
        break;
      }
    }
  pthread_mutex_unlock(&lock);
  return found;
}

const void *cuemu_variable_device_address(const void *variable) {
  return cuemu__variable_shadow_device(variable);
}

size_t cuemu__variable_shadows_append(cuemu_rt_allocation **a, size_t n) {
  if (!__atomic_load_n(&range_count, __ATOMIC_ACQUIRE))
    return n;
  pthread_mutex_lock(&lock);
  size_t more = 0;
  for (size_t k = 0; k < range_count; ++k)
    more += (size_t)(ranges[k].end - ranges[k].begin);
  cuemu_rt_allocation *grown = more ? realloc(*a, (n + more) * sizeof *grown)
                                    : NULL;
  if (grown) {
    *a = grown;
    for (size_t k = 0; k < range_count; ++k)
      for (const cuemu_variable_shadow *s = ranges[k].begin;
           s < ranges[k].end; ++s)
        if (s->device && s->size)
          grown[n++] = (cuemu_rt_allocation){
              (void *)s->host, (size_t)s->size, CUEMU_RT_MEMORY_SYMBOL,
              CUEMU_RT_MEMORY_LIVE, CUEMU__ALLOCATION_SHADOW};
  }
  pthread_mutex_unlock(&lock);
  return n;
}
