/*
 * cuemu_record_sections.c: the lists of registered record sections
 * (cuemu_record_sections.h).
 */
#include <stdlib.h>

#include "device/cuemu_record_sections.h"

void cuemu__record_sections_add(cuemu__record_sections *s, const void *begin,
                                const void *end) {
  if (!begin || (const char *)end <= (const char *)begin)
    return;
  pthread_mutex_lock(&s->lock);
  size_t k = 0;
  while (k < s->count && s->ranges[k].begin != begin)
    ++k;
  if (k == s->count) {
    cuemu__record_range *grown =
        realloc(s->ranges, (s->count + 1) * sizeof *grown);
    if (grown) {
      s->ranges = grown;
      s->ranges[s->count] = (cuemu__record_range){begin, end};
      __atomic_store_n(&s->count, s->count + 1, __ATOMIC_RELEASE);
    }
  }
  pthread_mutex_unlock(&s->lock);
}

void cuemu__record_sections_remove(cuemu__record_sections *s,
                                   const void *begin) {
  if (!begin || !cuemu__record_sections_any(s))
    return;
  pthread_mutex_lock(&s->lock);
  for (size_t k = 0; k < s->count; ++k)
    if (s->ranges[k].begin == begin) {
      s->ranges[k] = s->ranges[s->count - 1];
      __atomic_store_n(&s->count, s->count - 1, __ATOMIC_RELEASE);
      break;
    }
  pthread_mutex_unlock(&s->lock);
}

int cuemu__record_sections_any(cuemu__record_sections *s) {
  return __atomic_load_n(&s->count, __ATOMIC_ACQUIRE) != 0;
}
