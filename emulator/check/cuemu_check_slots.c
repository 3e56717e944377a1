/*
 * cuemu_check_slots.c: work lists filled through an atomic counter, while
 * schedule perturbation (cuemu_check_perturb.c) runs a launch in two orders.
 *
 * The most common way a kernel builds a list on a GPU is a counter that
 * hands out places: `wl[atomicAdd(&size, 1)] = item`. Each thread's item
 * is the same in every order, but which place it gets is not, so the
 * list's contents come out permuted, as on a GPU, and the caller uses
 * them as a set (ECL-MST's and ECL-SCC's work lists, Indigo's
 * populate_worklist). Perturbation compared the two orders byte for byte
 * and took that for a race.
 *
 * While a perturbed launch runs, the shims' integer atomicAdd of a positive
 * amount notes which places of which counter it took
 * (cuemu_atomic_slot_note). A counter whose places ran from the same first
 * to the same last in both runs is a list's counter perhaps; an allocation
 * whose two results differ is then the same list when, for one such
 * counter and one record size, the records at those places are the same
 * records in both runs, in any order, and every byte outside them is
 * equal. The places pin the record size down: a list of 16-byte edges read
 * as 4-byte records would leave three quarters of its bytes outside. Which
 * thread got which place is not compared: in a breadth-first search the
 * thread that claims a vertex first, and so adds it to the next frontier,
 * is another one in the other order (ECL-SGB's spanning trees). Anything
 * else (records that depend on the order, such as one that stores its own
 * place, counts that differ, a list written at an offset or through a
 * counter that is not an integer atomicAdd) is still reported.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/cuemu_check.h"
#include "core/cuemu_worker.h"

/* A counter's places in one run, or in both: from `lo` to before `hi`. */
typedef struct slot_range {
  uintptr_t address; /* 0: a free entry */
  unsigned long long lo, hi;
} slot_range;

/* Past this many counters in one run (a histogram's bins count too), no
 * list is recognised. */
enum { MAX_COUNTERS = 1 << 20 };

/* One run's counters: an open-addressing table by address. */
typedef struct slot_run {
  slot_range *table;
  size_t capacity, used; /* capacity a power of two, or 0 */
  int overflow;
} slot_run;

static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static slot_run runs[2];
static int current; /* the run being noted */
static slot_range *ranges; /* the counters whose places both runs share */
static size_t nranges, ranges_capacity;

static slot_range *entry(slot_range *table, size_t capacity,
                         uintptr_t address) {
  size_t k = (size_t)(((uint64_t)address * 0x9E3779B97F4A7C15ull) >> 20) &
             (capacity - 1);
  while (table[k].address && table[k].address != address)
    k = (k + 1) & (capacity - 1);
  return &table[k];
}

/* Room for one more counter in run `r` (0: none, it overflowed). */
static int room(slot_run *r) {
  if (r->overflow)
    return 0;
  if (2 * (r->used + 1) <= r->capacity)
    return 1;
  size_t capacity = r->capacity ? 2 * r->capacity : 256;
  slot_range *table =
      capacity <= 2 * MAX_COUNTERS ? calloc(capacity, sizeof *table) : NULL;
  if (!table) {
    r->overflow = 1;
    return 0;
  }
  for (size_t k = 0; k < r->capacity; ++k)
    if (r->table[k].address)
      *entry(table, capacity, r->table[k].address) = r->table[k];
  free(r->table);
  r->table = table;
  r->capacity = capacity;
  return 1;
}

void cuemu_atomic_slot_note(const volatile void *address,
                            unsigned long long old, unsigned long long count) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel || !count)
    return;
  pthread_mutex_lock(&slots_lock);
  slot_run *r = &runs[current];
  slot_range *c = r->capacity ? entry(r->table, r->capacity,
                                      (uintptr_t)address)
                              : NULL;
  if ((!c || !c->address) && room(r)) {
    c = entry(r->table, r->capacity, (uintptr_t)address);
    *c = (slot_range){(uintptr_t)address, old, old + count};
    r->used++;
  } else if (c && c->address) {
    if (old < c->lo)
      c->lo = old;
    if (old + count > c->hi)
      c->hi = old + count;
  }
  pthread_mutex_unlock(&slots_lock);
}

void cuemu__check_slots_begin(int run) {
  pthread_mutex_lock(&slots_lock);
  if (run == 0)
    nranges = 0;
  slot_run *r = &runs[run];
  if (r->used)
    memset(r->table, 0, r->capacity * sizeof *r->table);
  r->used = 0;
  r->overflow = 0;
  current = run;
  pthread_mutex_unlock(&slots_lock);
}

void cuemu__check_slots_end(void) {
  pthread_mutex_lock(&slots_lock);
  slot_run *a = &runs[0], *b = &runs[1];
  nranges = 0;
  if (!a->overflow && !b->overflow && a->used && b->used) {
    if (ranges_capacity < a->used) {
      slot_range *grown = realloc(ranges, a->used * sizeof *ranges);
      if (grown) {
        ranges = grown;
        ranges_capacity = a->used;
      }
    }
    /* The counters of both runs whose places are the same. */
    for (size_t k = 0; ranges_capacity >= a->used && k < a->capacity; ++k) {
      const slot_range *x = &a->table[k];
      if (!x->address)
        continue;
      const slot_range *y = entry(b->table, b->capacity, x->address);
      if (y->address && x->lo == y->lo && x->hi == y->hi)
        ranges[nranges++] = *x;
    }
  }
  pthread_mutex_unlock(&slots_lock);
}

static size_t record_size; /* of the records compared, under slots_lock */

static int by_record(const void *a, const void *b) {
  return memcmp(a, b, record_size);
}

/* Whether the places [c->lo, c->hi) of records of `size` bytes explain the
 * difference between `first` and `now`. */
static int same_list(const slot_range *c, const unsigned char *first,
                     const unsigned char *now, size_t bytes, size_t size) {
  if (c->hi > bytes / size)
    return 0;
  size_t lo = c->lo * size, hi = c->hi * size;
  if (memcmp(first, now, lo) != 0 ||
      memcmp(first + hi, now + hi, bytes - hi) != 0)
    return 0;
  unsigned char *x = malloc(hi - lo), *y = malloc(hi - lo);
  int same = 0;
  if (x && y) {
    memcpy(x, first + lo, hi - lo);
    memcpy(y, now + lo, hi - lo);
    record_size = size;
    qsort(x, c->hi - c->lo, size, by_record);
    qsort(y, c->hi - c->lo, size, by_record);
    same = memcmp(x, y, hi - lo) == 0;
  }
  free(x);
  free(y);
  return same;
}

int cuemu__check_slots_explain(const void *first, const void *now,
                               size_t bytes) {
  /* The record sizes tried: scalars, pairs, int4-like edges, a few
   * structures. */
  static const size_t sizes[] = {4, 8, 12, 16, 24, 32};
  int explained = 0;
  pthread_mutex_lock(&slots_lock);
  for (size_t i = 0; !explained && i < nranges; ++i)
    for (size_t k = 0; !explained && k < sizeof sizes / sizeof *sizes; ++k)
      explained = same_list(&ranges[i], first, now, bytes, sizes[k]);
  pthread_mutex_unlock(&slots_lock);
  return explained;
}
