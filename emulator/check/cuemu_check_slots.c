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
 * amount notes here which thread took which places of which counter
 * (cuemu_atomic_slot_note). When the two runs made the same adds (the same
 * threads, each the same amounts on the same counters in the same order),
 * the places that a thread got in the first run map to those it got in
 * the second. An allocation whose two results differ is then the same
 * list when, for one counter and one record size, every thread's records
 * in the first run equal its records in the second, and every byte
 * outside the counter's places is equal. Anything else (an item that
 * depends on the order, adds that differ, a list written at an offset or
 * through a counter that is not an integer atomicAdd) is still reported.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/cuemu_check.h"
#include "core/cuemu_worker.h"

/* One atomicAdd of `count` places from `old` on counter `address`, by
 * thread `who` (block and thread, linear), the `seq`-th add of the run. */
typedef struct slot_note {
  uintptr_t address;
  uint64_t who;
  uint64_t seq;
  unsigned long long old, count;
} slot_note;

/* Past this many adds in one run, no list is recognised (the notes of a
 * launch of a hundred million atomics would cost gigabytes). */
enum { MAX_NOTES = 1 << 22 };

typedef struct slot_run {
  slot_note *notes;
  size_t used, capacity;
  int overflow;
} slot_run;

static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static slot_run runs[2];
static int current; /* the run being noted */
static int matched; /* runs[0] and runs[1] made the same adds */

void cuemu_atomic_slot_note(const volatile void *address,
                            unsigned long long old, unsigned long long count) {
  cuemu_worker *w = cuemu__worker_self;
  if (!w || !w->in_kernel || !count)
    return;
  const cuemu_launch *L = w->launch;
  cuemu_uint3 t = cuemu__worker_thread_idx(w);
  uint64_t block = ((uint64_t)w->block_idx.z * L->grid.y + w->block_idx.y) *
                       L->grid.x +
                   w->block_idx.x;
  uint64_t thread = ((uint64_t)t.z * L->block.y + t.y) * L->block.x + t.x;
  pthread_mutex_lock(&slots_lock);
  slot_run *r = &runs[current];
  if (!r->overflow && r->used == r->capacity) {
    size_t capacity = r->capacity ? 2 * r->capacity : 1024;
    slot_note *grown = capacity <= MAX_NOTES
                           ? realloc(r->notes, capacity * sizeof *grown)
                           : NULL;
    if (grown) {
      r->notes = grown;
      r->capacity = capacity;
    } else {
      r->overflow = 1;
    }
  }
  if (!r->overflow)
    r->notes[r->used] = (slot_note){(uintptr_t)address, block << 32 | thread,
                                    r->used, old, count};
  r->used++;
  pthread_mutex_unlock(&slots_lock);
}

void cuemu__check_slots_begin(int run) {
  pthread_mutex_lock(&slots_lock);
  if (run == 0)
    matched = 0;
  runs[run].used = 0;
  runs[run].overflow = 0;
  current = run;
  pthread_mutex_unlock(&slots_lock);
}

/* By counter, then thread, then the order of the thread's own adds. */
static int by_counter_thread(const void *pa, const void *pb) {
  const slot_note *a = pa, *b = pb;
  if (a->address != b->address)
    return a->address < b->address ? -1 : 1;
  if (a->who != b->who)
    return a->who < b->who ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void cuemu__check_slots_end(void) {
  pthread_mutex_lock(&slots_lock);
  slot_run *a = &runs[0], *b = &runs[1];
  matched = !a->overflow && !b->overflow && a->used && a->used == b->used;
  if (matched) {
    qsort(a->notes, a->used, sizeof *a->notes, by_counter_thread);
    qsort(b->notes, b->used, sizeof *b->notes, by_counter_thread);
    for (size_t i = 0; matched && i < a->used; ++i)
      matched = a->notes[i].address == b->notes[i].address &&
                a->notes[i].who == b->notes[i].who &&
                a->notes[i].count == b->notes[i].count;
  }
  pthread_mutex_unlock(&slots_lock);
}

/* Whether the notes [from, to) of one counter explain the difference
 * between `first` and `now` with records of `size` bytes. */
static int same_list(const slot_note *a, const slot_note *b, size_t from,
                     size_t to, const unsigned char *first,
                     const unsigned char *now, size_t bytes, size_t size) {
  unsigned long long lo = ~0ull, hi = 0;
  for (size_t i = from; i < to; ++i) {
    if (a[i].old < lo)
      lo = a[i].old;
    if (a[i].old + a[i].count > hi)
      hi = a[i].old + a[i].count;
  }
  if (hi > bytes / size)
    return 0;
  /* Outside the places handed out, the two runs agree. */
  if (memcmp(first, now, lo * size) != 0 ||
      memcmp(first + hi * size, now + hi * size, bytes - hi * size) != 0)
    return 0;
  for (size_t i = from; i < to; ++i)
    if (b[i].old + b[i].count > bytes / size ||
        memcmp(first + a[i].old * size, now + b[i].old * size,
               a[i].count * size) != 0)
      return 0;
  return 1;
}

int cuemu__check_slots_explain(const void *first, const void *now,
                               size_t bytes) {
  /* The record sizes tried: scalars, pairs, int4-like edges, a few
   * structures. */
  static const size_t sizes[] = {4, 8, 12, 16, 24, 32};
  int explained = 0;
  pthread_mutex_lock(&slots_lock);
  const slot_note *a = runs[0].notes, *b = runs[1].notes;
  for (size_t from = 0; matched && !explained && from < runs[0].used;) {
    size_t to = from;
    while (to < runs[0].used && a[to].address == a[from].address)
      ++to;
    for (size_t k = 0; !explained && k < sizeof sizes / sizeof *sizes; ++k)
      explained = same_list(a, b, from, to, first, now, bytes, sizes[k]);
    from = to;
  }
  pthread_mutex_unlock(&slots_lock);
  return explained;
}
