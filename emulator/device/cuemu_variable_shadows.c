/*
 * cuemu_variable_shadows.c: the host objects (shadows) of __device__ and
 * __constant__ variables, which host code names, and their device objects
 * (cuemu_program_register_variable_shadows()), which the host's symbol
 * calls and cuemu-cc's notes of a variable reach, as nvcc's registration
 * maps each shadow to its device variable.
 */
#include <stdint.h>
#include <stdlib.h>

#include "core/cuemu_allocations.h"
#include "device/cuemu_functions.h"
#include "device/cuemu_record_sections.h"

/* The registered sections, each once. */
static cuemu__record_sections sections = CUEMU__RECORD_SECTIONS_INIT;

void cuemu_program_register_variable_shadows(
    const cuemu_variable_shadow *begin, const cuemu_variable_shadow *end) {
  cuemu__record_sections_add(&sections, begin, end);
}

void cuemu_program_unregister_variable_shadows(
    const cuemu_variable_shadow *begin) {
  cuemu__record_sections_remove(&sections, begin);
}

void *cuemu__variable_shadow_device(const void *p) {
  if (!p || !cuemu__record_sections_any(&sections))
    return (void *)p;
  const uintptr_t a = (uintptr_t)p;
  void *found = (void *)p;
  pthread_mutex_lock(&sections.lock);
  for (size_t k = 0; k < sections.count && found == p; ++k)
    for (const cuemu_variable_shadow *s = sections.ranges[k].begin;
         s < (const cuemu_variable_shadow *)sections.ranges[k].end; ++s) {
      const uintptr_t lo = (uintptr_t)s->host;
      if (s->device && a >= lo && (a - lo < s->size || a == lo)) {
        found = (char *)s->device + (a - lo);
        break;
      }
    }
  pthread_mutex_unlock(&sections.lock);
  return found;
}

size_t cuemu__variable_size(const void *device) {
  if (!device || !cuemu__record_sections_any(&sections))
    return 0;
  size_t size = 0;
  pthread_mutex_lock(&sections.lock);
  for (size_t k = 0; k < sections.count && !size; ++k)
    for (const cuemu_variable_shadow *s = sections.ranges[k].begin;
         s < (const cuemu_variable_shadow *)sections.ranges[k].end; ++s)
      if (s->device == device && s->size) {
        size = (size_t)s->size;
        break;
      }
  pthread_mutex_unlock(&sections.lock);
  return size;
}

const void *cuemu_variable_device_address(const void *variable) {
  return cuemu__variable_shadow_device(variable);
}

size_t cuemu__variable_shadows_append(cuemu_rt_allocation **a, size_t n) {
  if (!cuemu__record_sections_any(&sections))
    return n;
  pthread_mutex_lock(&sections.lock);
  size_t more = 0;
  for (size_t k = 0; k < sections.count; ++k)
    more += (size_t)((const cuemu_variable_shadow *)sections.ranges[k].end -
                     (const cuemu_variable_shadow *)sections.ranges[k].begin);
  cuemu_rt_allocation *grown = more ? realloc(*a, (n + more) * sizeof *grown)
                                    : NULL;
  if (grown) {
    *a = grown;
    for (size_t k = 0; k < sections.count; ++k)
      for (const cuemu_variable_shadow *s = sections.ranges[k].begin;
           s < (const cuemu_variable_shadow *)sections.ranges[k].end; ++s)
        if (s->device && s->size)
          grown[n++] = (cuemu_rt_allocation){
              (void *)s->host, (size_t)s->size, CUEMU_RT_MEMORY_SYMBOL,
              CUEMU_RT_MEMORY_LIVE, CUEMU__ALLOCATION_SHADOW};
  }
  pthread_mutex_unlock(&sections.lock);
  return n;
}
