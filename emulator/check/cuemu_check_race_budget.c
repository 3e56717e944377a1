/*
 * cuemu_check_race_budget.c: how much memory racecheck's shadow of global
 * memory may take. Each byte of an allocation that a checked kernel
 * touches has a cell of racecheck's (cuemu_check_shadow.c: 8 bytes of
 * shadow for each byte accessed by words, up to 40 where single bytes are
 * stored), so a kernel over a 1 GiB hash table needed tens of GiB and the
 * machine's OOM killer ended it (trial pub12). The shadow of each
 * allocation is reserved whole, on its first access under racecheck,
 * against CUEMU_CHECK_RACE_MEMORY (by default half of the machine's
 * memory): one that does not fit is left out of racecheck for the launch,
 * with a note naming it; memcheck and initcheck still check it.
 * compute-sanitizer's racecheck checks shared memory only, so a GPU's
 * tool would not have checked it either.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "base/cuemu_config.h"
#include "check/cuemu_check.h"
#include "core/cuemu_ptr_map.h"

/* Bytes of shadow reserved now, all allocations together. */
static atomic_size_t reserved;

/* The allocations already named in a note (by base), at most NOTES. */
enum { NOTES = 16 };
static pthread_mutex_t notes_lock = PTHREAD_MUTEX_INITIALIZER;
static cuemu__ptr_map noted;
static size_t notes;

int cuemu__check_race_budget_take(size_t bytes) {
  size_t limit = cuemu__config_check_race_memory();
  size_t now = atomic_load(&reserved);
  do {
    if (bytes > limit || now > limit - bytes)
      return 0;
  } while (!atomic_compare_exchange_weak(&reserved, &now, now + bytes));
  return 1;
}

void cuemu__check_race_budget_give(size_t bytes) {
  atomic_fetch_sub(&reserved, bytes);
}

void cuemu__check_race_budget_note(const void *base, size_t size,
                                   size_t shadow, const char *site) {
  pthread_mutex_lock(&notes_lock);
  int fresh = notes < NOTES &&
              !cuemu__ptr_map_get(&noted, (uintptr_t)base) &&
              cuemu__ptr_map_put(&noted, (uintptr_t)base, (void *)1) == 0;
  notes += (size_t)fresh;
  pthread_mutex_unlock(&notes_lock);
  if (!fresh || cuemu__config_quiet())
    return;
  size_t mib = (size_t)1 << 20;
  fprintf(stderr,
          "cuemu: racecheck: the allocation of %zu bytes at %p%s%s is not "
          "checked for races: its shadow (%zu MiB) does not fit in "
          "CUEMU_CHECK_RACE_MEMORY (%zu MiB, %zu in use); memcheck and "
          "initcheck still check it\n",
          size, base, site[0] ? ", allocated at " : "", site,
          (shadow + mib - 1) / mib, cuemu__config_check_race_memory() / mib,
          (atomic_load(&reserved) + mib - 1) / mib);
}
