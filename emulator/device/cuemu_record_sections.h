/*
 * cuemu_record_sections.h: a list of sections of records that programs and
 * shared libraries register when they load (each section once) and may
 * unregister when they unload: the further device passes' variable copies
 * (cuemu_variable_copies.c) and the host shadows of device variables
 * (cuemu_variable_shadows.c). The users walk `ranges` under `lock`; `count`
 * may be read without it while it is 0.
 */
#ifndef CUEMU_RECORD_SECTIONS_H
#define CUEMU_RECORD_SECTIONS_H

#include <pthread.h>
#include <stddef.h>

typedef struct cuemu__record_range {
  const void *begin, *end;
} cuemu__record_range;

typedef struct cuemu__record_sections {
  pthread_mutex_t lock;
  cuemu__record_range *ranges;
  size_t count;
} cuemu__record_sections;

#define CUEMU__RECORD_SECTIONS_INIT {PTHREAD_MUTEX_INITIALIZER, NULL, 0}

/* Adds [begin, end) unless it is there already or empty. */
void cuemu__record_sections_add(cuemu__record_sections *s, const void *begin,
                                const void *end);
/* Removes the section that starts at `begin`, if it is there. */
void cuemu__record_sections_remove(cuemu__record_sections *s,
                                   const void *begin);
/* Non-zero when some section is registered (no lock taken). */
int cuemu__record_sections_any(cuemu__record_sections *s);

#endif /* CUEMU_RECORD_SECTIONS_H */
