/*
 * cuemu_check_alloc.c: what the checkers add to the runtime API's table of
 * allocations (cuemu_rt_memory.c): where each allocation was made, the
 * name of a buffer registered with cuemu_alloc_register(), the per-byte
 * "written" map of cudaMalloc memory for initcheck, and the leak report at
 * exit. A buffer registered by a caller that is not C code (the fake CuPy's
 * arrays, made by a Python line) is "made at" a text the caller gives:
 * cuemu_alloc_register_at() interns it, and its interned copy stands for
 * the site's code address (cuemu__check_site_text_of).
 *
 * Leaks are reported only with CUEMU_CHECK_LEAKS=1 (as compute-sanitizer
 * reports them only with --leak-check full): many correct programs leave
 * their memory to the process's end.
 *
 * cudaMalloc memory starts unwritten; cudaMemcpy, cudaMemset and kernel
 * writes mark it written. Managed, pinned, registered and symbol memory can
 * be written by the host directly, so it counts as written from the start.
 * The maps exist only once checked code is in the process (its constructor
 * calls __tsan_init, see cuemu_check_tsan.c).
 */
#define _GNU_SOURCE
#include <execinfo.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_runtime.h>

#include "base/cuemu_config.h"
#include "check/cuemu_check.h"
#include "base/cuemu_report.h"
#include "core/cuemu_allocations.h"
#include "core/cuemu_device_heap.h"
#include "core/cuemu_ptr_map.h"

typedef struct side_entry {
  void *base;
  size_t size;
  int kind;
  const void *site;
  const void *callers[CUEMU_CHECK_ALLOC_CALLERS]; /* beyond site */
  char *name;
  unsigned char *init;
  void *cells;           /* the race shadow, see cuemu__check_alloc_cells */
  size_t cells_size;
  int untabled; /* not based at an entry of the table of allocations */
  cuemu__array_shape array; /* a CUDA array's elements (element 0: none):
                             * no leak report */
} side_entry;

/* The records, by base (constant time to find however many allocations
 * live; a scan made 100,000 live allocations quadratic), and how many are
 * untabled. */
static pthread_mutex_t side_lock = PTHREAD_MUTEX_INITIALIZER;
static cuemu__ptr_map side;
static size_t side_untabled;

/* Set once checked code is loaded: from then on, allocations get maps. */
atomic_int cuemu__check_present;
static atomic_int leak_check_armed;

static side_entry *side_find_locked(const void *base) {
  return cuemu__ptr_map_get(&side, (uintptr_t)base);
}

static int side_holds(const side_entry *e, const void *p) {
  return e && (const char *)p >= (const char *)e->base &&
         (size_t)((const char *)p - (const char *)e->base) < e->size;
}

/* Finds the entry holding `p` (not only at its base), given `base`, the
 * base of the table's entry holding `p` (NULL when none does). Only
 * untabled records (none, usually) are scanned. Locked. */
static side_entry *side_holding_locked(const void *p, const void *base) {
  side_entry *e = base ? side_find_locked(base) : NULL;
  if (side_holds(e, p))
    return e;
  for (size_t i = 0; side_untabled && i < side.cap; ++i)
    if (side.keys[i] && side_holds(side.values[i], p))
      return side.values[i];
  return NULL;
}

static void side_drop_locked(side_entry *e) {
  if (e->init)
    munmap(e->init, e->size);
  if (e->cells) {
    munmap(e->cells, e->cells_size);
    cuemu__check_race_budget_give(e->cells_size);
  }
  free(e->name);
  side_untabled -= (size_t)e->untabled;
  cuemu__ptr_map_remove(&side, (uintptr_t)e->base);
  free(e);
}

static void report_leaks(void) {
  if (!cuemu__config_check_leaks())
    return;
  pthread_mutex_lock(&side_lock);
  for (size_t i = 0; i < side.cap; ++i) {
    side_entry *e = side.keys[i] ? side.values[i] : NULL;
    if (!e)
      continue;
    if ((e->kind != CUEMU_RT_MEMORY_DEVICE &&
         e->kind != CUEMU_RT_MEMORY_MANAGED) ||
        e->array.element)
      continue;
    char where[512] = "an unknown place";
    if (e->site)
      cuemu__check_alloc_line(e->site, e->callers, where, sizeof where);
    fprintf(stderr,
            "cuemu: memcheck: leak: %zu bytes of device memory at %p, "
            "allocated at %s, were never freed\n",
            e->size, e->base, where);
    cuemu__check_report_counted();
  }
  pthread_mutex_unlock(&side_lock);
}

/* Schedule perturbation (cuemu_check_perturb.c) names allocations too, in
 * any build. */
static int perturbing(void) {
  static atomic_int cached = -1;
  int v = atomic_load_explicit(&cached, memory_order_relaxed);
  if (v < 0) {
    v = cuemu__config_check_schedules();
    atomic_store(&cached, v);
  }
  return v;
}

/* The return addresses beyond `site` on this thread's stack, into
 * callers (the rest NULL): where a report finds the user's line that made
 * an allocation whose site is in a system header's code. Taken at every
 * allocation of a checked run (about a microsecond; resolved to lines only
 * when a report names it), not on a kernel's thread, whose stack the
 * unwinder does not know the bottom of. */
static void note_callers(const void *site, const void **callers) {
  memset(callers, 0, CUEMU_CHECK_ALLOC_CALLERS * sizeof *callers);
  if (!site || cuemu_thread_in_kernel())
    return;
  /* This function, the runtime's allocation calls, the site's function. */
  void *frames[CUEMU_CHECK_ALLOC_CALLERS + 12];
  int n = backtrace(frames, (int)(sizeof frames / sizeof *frames));
  int at = 0;
  while (at < n && frames[at] != site)
    ++at;
  for (int i = at + 1, k = 0; i < n && k < CUEMU_CHECK_ALLOC_CALLERS; ++i)
    callers[k++] = frames[i];
}

void cuemu__check_alloc_note(void *base, size_t size, int kind,
                             const void *site) {
  if (!base ||
      (!atomic_load_explicit(&cuemu__check_present, memory_order_relaxed) &&
       !perturbing()))
    return;
  if (!atomic_exchange(&leak_check_armed, 1))
    atexit(report_leaks);
  unsigned char *init = NULL;
  if (kind == CUEMU_RT_MEMORY_DEVICE && size) {
    /* Untouched pages of the map cost nothing. */
    init = mmap(NULL, size, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (init == MAP_FAILED)
      init = NULL;
  }
  /* Most records are based at an entry of the table of allocations, where
   * cuemu__check_mark_init finds them; the others it scans. */
  cuemu_rt_allocation tabled;
  int untabled = !cuemu__allocation_find(base, &tabled) || tabled.base != base;
  const void *callers[CUEMU_CHECK_ALLOC_CALLERS];
  note_callers(site, callers);
  side_entry *e = malloc(sizeof *e);
  pthread_mutex_lock(&side_lock);
  side_entry *old = side_find_locked(base);
  if (old)
    side_drop_locked(old);
  if (!e || cuemu__ptr_map_put(&side, (uintptr_t)base, e) != 0) {
    pthread_mutex_unlock(&side_lock);
    free(e);
    if (init)
      munmap(init, size);
    return;
  }
  *e = (side_entry){base, size, kind, site,     {0}, NULL,
                    init, NULL, 0,    untabled, {0}};
  memcpy(e->callers, callers, sizeof callers);
  side_untabled += (size_t)untabled;
  pthread_mutex_unlock(&side_lock);
}

void cuemu__check_alloc_note_array(void *base, size_t size, const void *site,
                                   const cuemu__array_shape *shape) {
  cuemu__check_alloc_note(base, size, CUEMU_RT_MEMORY_DEVICE, site);
  pthread_mutex_lock(&side_lock);
  side_entry *e = side_find_locked(base);
  if (e) {
    e->array = *shape;
    e->name = strdup("cudaArray");
  }
  pthread_mutex_unlock(&side_lock);
}

void cuemu__check_alloc_free(void *base) {
  pthread_mutex_lock(&side_lock);
  side_entry *e = side_find_locked(base);
  if (e)
    side_drop_locked(e);
  pthread_mutex_unlock(&side_lock);
}

void cuemu__check_mark_init(void *p, size_t n) {
  if (!atomic_load_explicit(&cuemu__check_present, memory_order_relaxed) ||
      !n)
    return;
  /* The table is asked first, not under side_lock (cuemu_allocations.c
   * calls in here). */
  cuemu_rt_allocation tabled;
  const void *base = cuemu__allocation_find(p, &tabled) ? tabled.base : NULL;
  pthread_mutex_lock(&side_lock);
  side_entry *e = side_holding_locked(p, base);
  if (e && e->init) {
    size_t off = (size_t)((char *)p - (char *)e->base);
    if (n > e->size - off)
      n = e->size - off;
    memset(e->init + off, 1, n);
  }
  pthread_mutex_unlock(&side_lock);
  /* The device heap (kernel code's new and malloc), which a runtime call of
   * kernel code writes too (`cudaMalloc(&obj->list, ...)`, obj made by
   * new): its own "written" map. */
  void *hbase;
  size_t hsize;
  const void *hsite;
  unsigned char *written;
  void *cells;
  if (!e && cuemu__device_heap_classify((uintptr_t)p, n, &hbase, &hsize,
                                        &hsite) == CUEMU_HEAP_INSIDE &&
      cuemu__device_heap_shadow((uintptr_t)p, 0, &written, &cells))
    memset(written, 1, n);
}

size_t cuemu__check_unwritten(const void *p, size_t n, void **base,
                              size_t *size, size_t *first) {
  if (!atomic_load_explicit(&cuemu__check_present, memory_order_relaxed) || !n)
    return 0;
  cuemu_rt_allocation tabled;
  const void *tbase = cuemu__allocation_find(p, &tabled) ? tabled.base : NULL;
  size_t count = 0;
  pthread_mutex_lock(&side_lock);
  side_entry *e = side_holding_locked(p, tbase);
  if (e && e->init && !e->array.element) {
    size_t off = (size_t)((const char *)p - (const char *)e->base);
    if (n > e->size - off)
      n = e->size - off;
    const unsigned char *at = memchr(e->init + off, 0, n);
    if (at) {
      *base = e->base;
      *size = e->size;
      *first = (size_t)(at - e->init);
      for (const unsigned char *q = at; q < e->init + off + n; ++q)
        count += !*q;
    }
  }
  pthread_mutex_unlock(&side_lock);
  return count;
}

void cuemu__check_alloc_reset(void) {
  pthread_mutex_lock(&side_lock);
  for (size_t i = 0; i < side.cap;)
    if (side.keys[i])
      side_drop_locked(side.values[i]); /* may move a later one to i */
    else
      ++i;
  pthread_mutex_unlock(&side_lock);
}

void cuemu__check_bad_free(void *p, const void *site) {
  if (!atomic_load_explicit(&cuemu__check_present, memory_order_relaxed))
    return;
  cuemu_rt_allocation a;
  if (!cuemu_rt_memory_find(p, &a) || a.base != p ||
      a.state != CUEMU_RT_MEMORY_FREED)
    return;
  char where[512];
  cuemu__check_line(site, where, sizeof where);
  fprintf(stderr,
          "cuemu: memcheck: double free: %p (%zu bytes) freed again at %s\n",
          p, a.size, where);
}

void *cuemu__check_alloc_cells(const void *base, size_t bytes) {
  void *cells = NULL;
  pthread_mutex_lock(&side_lock);
  side_entry *e = side_find_locked(base);
  if (e && !e->cells && bytes && cuemu__check_race_budget_take(bytes)) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) {
      e->cells = p;
      e->cells_size = bytes;
    } else {
      cuemu__check_race_budget_give(bytes);
    }
  }
  if (e && e->cells_size == bytes)
    cells = e->cells;
  pthread_mutex_unlock(&side_lock);
  return cells;
}

void cuemu__check_alloc_clear_cells(void) {
  pthread_mutex_lock(&side_lock);
  /* Zero pages, without unmapping what a launch may be using. */
  for (size_t i = 0; i < side.cap; ++i) {
    side_entry *e = side.keys[i] ? side.values[i] : NULL;
    if (e && e->cells)
      madvise(e->cells, e->cells_size, MADV_DONTNEED);
  }
  pthread_mutex_unlock(&side_lock);
}

int cuemu__check_alloc_info(const void *base, cuemu_check_alloc_info *out) {
  pthread_mutex_lock(&side_lock);
  side_entry *e = side_find_locked(base);
  if (e) {
    out->site = e->site;
    memcpy(out->callers, e->callers, sizeof out->callers);
    out->name = e->name;
    out->init = e->init;
    out->array = e->array;
  }
  pthread_mutex_unlock(&side_lock);
  return e != NULL;
}

/* ---- Sites given as text --------------------------------------------------- */

/* Interned site texts live in one reserved arena, so that an address is
 * known as a text by its range alone; a hash of the texts finds an
 * interned copy again (a Python line makes many arrays). When the arena or
 * the table is full, a new text is not interned (the caller's address
 * stands for the site, as with cuemu_alloc_register). */
#define SITE_TEXT_ARENA ((size_t)4 << 20)
#define SITE_TEXT_SLOTS 16384u

static pthread_mutex_t site_text_lock = PTHREAD_MUTEX_INITIALIZER;
static char *site_text_arena;
static size_t site_text_used;
static const char *site_text_slots[SITE_TEXT_SLOTS];

static const char *site_text_intern(const char *text) {
  size_t len = strlen(text);
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < len; ++i)
    h = (h ^ (unsigned char)text[i]) * 1099511628211ull;
  const char *found = NULL;
  pthread_mutex_lock(&site_text_lock);
  if (!site_text_arena) {
    void *p = mmap(NULL, SITE_TEXT_ARENA, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    site_text_arena = p == MAP_FAILED ? NULL : p;
  }
  for (unsigned probe = 0; site_text_arena && probe < SITE_TEXT_SLOTS;
       ++probe) {
    unsigned slot = (unsigned)((h + probe) & (SITE_TEXT_SLOTS - 1));
    const char *cur = site_text_slots[slot];
    if (cur && strcmp(cur, text) == 0) {
      found = cur;
      break;
    }
    if (!cur) {
      if (site_text_used + len + 1 <= SITE_TEXT_ARENA &&
          probe < SITE_TEXT_SLOTS / 2) {
        char *copy = site_text_arena + site_text_used;
        memcpy(copy, text, len + 1);
        site_text_used += len + 1;
        site_text_slots[slot] = found = copy;
      }
      break;
    }
  }
  pthread_mutex_unlock(&site_text_lock);
  return found;
}

const char *cuemu__check_site_text_of(const void *site) {
  const char *p = site, *arena = site_text_arena;
  return arena && p >= arena && p < arena + SITE_TEXT_ARENA ? p : NULL;
}

static cuemu_status alloc_register(void *base, size_t size, const char *name,
                                   const void *site) {
  if (!base || !size)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_alloc_register: a base and a size are "
                         "required");
  if (cuemu_rt_memory_track(base, size, CUEMU_RT_MEMORY_REGISTERED) != 0)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_alloc_register: %p (%zu bytes) overlaps a "
                         "tracked allocation",
                         base, size);
  int present = atomic_exchange(&cuemu__check_present, 1);
  cuemu__check_alloc_note(base, size, CUEMU_RT_MEMORY_REGISTERED, site);
  atomic_store(&cuemu__check_present, present);
  if (name) {
    pthread_mutex_lock(&side_lock);
    side_entry *e = side_find_locked(base);
    if (e)
      e->name = strdup(name);
    pthread_mutex_unlock(&side_lock);
  }
  return CUEMU_SUCCESS;
}

cuemu_status cuemu_alloc_register(void *base, size_t size, const char *name) {
  return alloc_register(base, size, name, __builtin_return_address(0));
}

cuemu_status cuemu_alloc_register_at(void *base, size_t size, const char *name,
                                     const char *where) {
  const void *site = where && *where ? site_text_intern(where) : NULL;
  return alloc_register(base, size, name,
                        site ? site : __builtin_return_address(0));
}

cuemu_status cuemu_alloc_register_mapping(void *base, const void *map_base,
                                          size_t map_size) {
  cuemu_rt_allocation a;
  uintptr_t lo = (uintptr_t)map_base, hi = lo + map_size;
  if (!base || !cuemu_rt_memory_find(base, &a) || a.base != base ||
      a.kind != CUEMU_RT_MEMORY_REGISTERED ||
      a.state != CUEMU_RT_MEMORY_LIVE)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_alloc_register_mapping: %p is not a "
                         "registered buffer",
                         base);
  if (hi < lo || (uintptr_t)base < lo || (uintptr_t)base + a.size > hi)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_alloc_register_mapping: [%p, +%zu) does not "
                         "hold the buffer at %p (%zu bytes)",
                         map_base, map_size, base, a.size);
  if (cuemu__allocation_mapping_note(base, lo, hi) != 0)
    return cuemu__report(CUEMU_OUT_OF_MEMORY,
                         "cuemu_alloc_register_mapping: no memory");
  return CUEMU_SUCCESS;
}

cuemu_status cuemu_alloc_unregister(void *base) {
  cuemu__check_alloc_free(base);
  cuemu__allocation_mapping_forget(base);
  if (!base || cuemu_rt_memory_untrack(base) != 0)
    return cuemu__report(CUEMU_INVALID_VALUE,
                         "cuemu_alloc_unregister: %p was not registered",
                         base);
  return CUEMU_SUCCESS;
}
