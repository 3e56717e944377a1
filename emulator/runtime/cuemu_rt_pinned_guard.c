/*
 * cuemu_rt_pinned_guard.c: racecheck of the host's accesses to pinned
 * memory that a queued asynchronous copy or memset still writes or reads.
 *
 * On a GPU, cudaMemcpyAsync into pinned memory returns at once and the
 * copy runs later: a host that reads the destination before it has
 * synchronised with the copy (cudaStreamSynchronize, an event, a query
 * that finds the work done, a host function of the stream) reads stale or
 * half-written data, and one that writes a pending copy's source sends the
 * device the old values, the new ones or a mix, from run to run. cuemu
 * runs queued work on execution threads, so the same program runs wrong
 * under cuemu too, silently.
 *
 * In a process with checked code, when CUEMU_CHECK selects racecheck, the
 * host memory of such a copy or memset is guarded from its issue until the
 * host has synchronised with it after it has run: pages that hold nothing
 * but bytes it writes lose all access (mprotect PROT_NONE); pages that
 * hold nothing but bytes it reads (or writes) lose write access. A page
 * that also holds bytes of anything else keeps its access, so that no
 * correct access to a neighbour, and no system call (write(2) from a
 * buffer half of which is synchronised), ever faults; the bytes past the
 * end of cudaMallocHost's allocation to the end of its page are nobody's
 * and count as the copy's. While the copy itself runs on its execution
 * thread, its own bytes keep their access. A host thread's fault in a
 * guarded byte is reported once (the copy's line and the access's),
 * the guard goes, and the access runs again: the program goes on as
 * without the checker. cuemu's own threads (a kernel reading mapped
 * memory, another stream's copy) are never reported: their fault only
 * takes the guards of that page away. Only while a guard exists, and only
 * under racecheck, is anything protected: a program without the checkers
 * pays nothing, and one with them one mprotect for each transition of a
 * guarded copy.
 */
#define _GNU_SOURCE
#include "runtime/cuemu_rt_pinned_guard.h"

#include <execinfo.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cuemu/cuemu_runtime.h>
#include <cuemu/cuemu_runtime_graph.h>

#include "base/cuemu_config.h"
#include "check/cuemu_check.h"
#include "context/cuemu_context.h"
#include "core/cuemu_worker.h"
#include "runtime/cuemu_rt_stream_queue.h"

/* The most guards at once; copies issued beyond them are not guarded. */
#define MAX_GUARDS 256
/* The bytes apart that a piece of a slab keeps from the next one
 * (cuemu_allocation_slabs.h): where the rest of a page is looked at. */
#define PIECE_GAP 256u

extern atomic_int cuemu__check_present;

enum { FREE = 0, PENDING, RUNNING, DONE };

typedef struct guard {
  int state;
  int writes; /* the copy writes the bytes (else it reads them) */
  const void *owner;
  /* The bytes the copy touches, and how far the guard covers: `end`, or
   * the end of its page when the rest of the page is nobody's. */
  uintptr_t start, end, cover;
  /* While it runs: the bytes it touches now, which keep their access. */
  uintptr_t hole_lo, hole_hi;
  /* The allocation (cudaMallocHost's, or registered memory). */
  uintptr_t base;
  size_t size;
  int registered;
  int memset;
  /* The program's call, and its callers. */
  const void *site;
  const void *callers[CUEMU_CHECK_ALLOC_CALLERS];
} guard;

static guard guards[MAX_GUARDS];
static int high;            /* past the last guard used since the start */
static atomic_int used;     /* guards not FREE */
static atomic_int holder;   /* the thread holding the lock, 0 */
static atomic_int hooked;   /* the fault hook is in place */
static atomic_int overflow; /* a copy found no free guard (noted once) */
static uintptr_t page;
/* Counts the changes of protection, so that a fault on a page whose
 * guards went meanwhile runs again once (below). */
static atomic_ulong changes;
static __thread uintptr_t retried_at;
static __thread unsigned long retried_after;

/* The lock: a spin lock that a thread's fault handler can tell it holds
 * itself (returns 0 then). */
static int lock_take(void) {
  int self = (int)syscall(SYS_gettid);
  for (;;) {
    int expected = 0;
    if (atomic_compare_exchange_weak(&holder, &expected, self))
      return 1;
    if (expected == self)
      return 0;
    sched_yield();
  }
}

static void lock_give(void) { atomic_store(&holder, 0); }

/* Whether guard g guards byte x now: it is pending or has run, or it
 * runs and x is not among the bytes it touches now. */
static int guards_byte(const guard *g, uintptr_t x) {
  if (g->state == FREE || x < g->start || x >= g->cover)
    return 0;
  return g->state != RUNNING || x < g->hole_lo || x >= g->hole_hi;
}

/* Whether the guards (only those of copies that write, when `writes`)
 * guard [from, to) together. Under the lock. */
static int covered(uintptr_t from, uintptr_t to, int writes) {
  uintptr_t x = from;
  for (int moved = 1; moved && x < to;) {
    moved = 0;
    for (int i = 0; i < high; ++i) {
      const guard *g = &guards[i];
      if ((!g->writes && writes) || !guards_byte(g, x))
        continue;
      /* To the end of the guarded bytes from x: the hole, or the end. */
      x = g->state == RUNNING && x < g->hole_lo ? g->hole_lo : g->cover;
      moved = 1;
    }
  }
  return x >= to;
}

/* The protection page `p` must have now. Under the lock. */
static int protection_of(uintptr_t p) {
  if (covered(p, p + page, 1))
    return PROT_NONE;
  if (covered(p, p + page, 0))
    return PROT_READ;
  return PROT_READ | PROT_WRITE;
}

/* Whether a guard other than `self` lies on page p. Under the lock. */
static int shared_page(uintptr_t p, const guard *self) {
  for (int i = 0; i < high; ++i)
    if (&guards[i] != self && guards[i].state != FREE &&
        guards[i].start < p + page && guards[i].cover > p)
      return 1;
  return 0;
}

/* Gives the pages of [lo, hi), in guard g, which changed there, the
 * protection their guards ask for, in runs of pages alike: g's whole
 * pages, and its partial first or last page only when another guard lies
 * on it too (else g alone never protected it). Under the lock. */
static void protect_span(const guard *g, uintptr_t lo, uintptr_t hi) {
  uintptr_t first = g->start / page * page,
            last = (g->cover + page - 1) / page * page;
  if (g->start != first && !shared_page(first, g))
    first += page;
  if (g->cover != last && last > first && !shared_page(last - page, g))
    last -= page;
  first = lo / page * page > first ? lo / page * page : first;
  last = (hi + page - 1) / page * page < last ? (hi + page - 1) / page * page
                                             : last;
  atomic_fetch_add(&changes, 1);
  uintptr_t run = first;
  int prot = first < last ? protection_of(first) : 0;
  for (uintptr_t p = first; p < last; p += page) {
    int next = p + page < last ? protection_of(p + page) : -1;
    if (next != prot) {
      mprotect((void *)run, p + page - run, prot);
      run = p + page;
      prot = next;
    }
  }
}

static void protect(const guard *g) { protect_span(g, g->start, g->cover); }

/* Frees guard g and gives its pages back what the others ask. Under the
 * lock. */
static void drop(guard *g) {
  g->state = FREE;
  atomic_fetch_sub(&used, 1);
  protect(g);
}

static int on_access(void *address, void *uc);

/* Guards [start, start + bytes) of the copy `owner` (writes: it writes
 * them), when they are pinned memory and cover a page. */
static void guard_side(const void *owner, uintptr_t start, size_t bytes,
                       int writes, int is_set, const void *site,
                       const void *const *callers) {
  cuemu_rt_allocation a;
  if (!start || !bytes || !cuemu_rt_memory_find((void *)start, &a) ||
      a.state != CUEMU_RT_MEMORY_LIVE)
    return;
  int registered = a.kind == CUEMU_RT_MEMORY_REGISTERED;
  /* Read-only or I/O registrations keep the protection they have. */
  if ((a.kind != CUEMU_RT_MEMORY_HOST && !registered) ||
      (registered &&
       (a.flags & (cudaHostRegisterReadOnly | cudaHostRegisterIoMemory))))
    return;
  uintptr_t base = (uintptr_t)a.base, end = start + bytes;
  if (end > base + a.size || end < start)
    return;
  uintptr_t cover = end;
  if (!registered && end == base + a.size) {
    /* The rest of the last page: nobody's, unless a piece of the same slab
     * lies there. */
    uintptr_t page_end = (end + page - 1) / page * page;
    cover = page_end;
    for (uintptr_t x = (end + PIECE_GAP - 1) / PIECE_GAP * PIECE_GAP;
         x < page_end; x += PIECE_GAP) {
      cuemu_rt_allocation b;
      if (cuemu_rt_memory_find((void *)x, &b) &&
          b.state == CUEMU_RT_MEMORY_LIVE)
        cover = end;
    }
  }
  /* Without a whole page, nothing would be protected. */
  if ((start + page - 1) / page * page + page > cover / page * page)
    return;
  if (!lock_take())
    return;
  guard *g = NULL;
  for (int i = 0; i < MAX_GUARDS && !g; ++i)
    if (guards[i].state == FREE) {
      g = &guards[i];
      high = i + 1 > high ? i + 1 : high;
    }
  if (!g) {
    lock_give();
    if (!atomic_exchange(&overflow, 1) && !cuemu__config_quiet())
      fprintf(stderr,
              "cuemu: note: racecheck guards at most %d pending "
              "copies to or from pinned memory at once; later ones "
              "are not checked until the host synchronises\n",
              MAX_GUARDS);
    return;
  }
  g->writes = writes;
  g->owner = owner;
  g->start = start;
  g->end = end;
  g->cover = cover;
  g->base = base;
  g->size = a.size;
  g->registered = registered;
  g->memset = is_set;
  g->site = site;
  memcpy(g->callers, callers, sizeof g->callers);
  g->state = PENDING;
  atomic_fetch_add(&used, 1);
  protect(g);
  lock_give();
}

/* The bytes of a pitched side from `ptr`: contiguous ones only (a
 * pitched copy's rows leave bytes between them that are not its own). */
static int side_bytes(const void *ptr, size_t pitch, size_t ysize, size_t x,
                      size_t y, size_t z, size_t width, size_t height,
                      uintptr_t *start, size_t *bytes) {
  if (!ptr || (height > 1 && pitch != width))
    return 0;
  *start = (uintptr_t)ptr + z * pitch * ysize + y * pitch + x;
  *bytes = width * height;
  return 1;
}

int cuemu__pinned_guard_issue(const void *owner,
                              const cuemu_rt_graph_node_params *p) {
  if (!atomic_load_explicit(&cuemu__check_present, memory_order_relaxed) ||
      !cuemu__config_check_selected(CUEMU_CHECK_RACE))
    return 0;
  uintptr_t start[2];
  size_t bytes[2];
  int writes[2], n = 0, is_set = p->type == CUEMU_RT_NODE_MEMSET;
  if (p->type == CUEMU_RT_NODE_MEMCPY && p->u.memcpy.depth <= 1) {
    const cuemu_rt_graph_memcpy *m = &p->u.memcpy;
    if (side_bytes(m->dst, m->dst_pitch, m->dst_ysize, m->dst_x, m->dst_y,
                   m->dst_z, m->width, m->height, &start[n], &bytes[n]))
      writes[n++] = 1;
    if (side_bytes(m->src, m->src_pitch, m->src_ysize, m->src_x, m->src_y,
                   m->src_z, m->width, m->height, &start[n], &bytes[n]))
      writes[n++] = 0;
  } else if (is_set) {
    const cuemu_rt_graph_memset *s = &p->u.memset;
    if (side_bytes(s->dst, s->pitch, 0, 0, 0, 0, s->width * s->element_size,
                   s->height, &start[n], &bytes[n]))
      writes[n++] = 1;
  }
  if (!n)
    return 0;
  if (!page)
    page = (uintptr_t)sysconf(_SC_PAGESIZE);
  if (!atomic_exchange(&hooked, 1))
    cuemu__fault_set_access_hook(on_access);
  else
    cuemu__fault_ensure();
  const void *callers[CUEMU_CHECK_ALLOC_CALLERS];
  const void *site =
      cuemu__check_api_caller(callers, CUEMU_CHECK_ALLOC_CALLERS);
  int before = atomic_load(&used);
  for (int i = 0; i < n; ++i)
    guard_side(owner, start[i], bytes[i], writes[i], is_set, site, callers);
  return atomic_load(&used) != before;
}

/* Moves the guards of `owner` from state `from` to `to` (FREE: drops
 * them). */
static void move(const void *owner, int from, int to) {
  if (!atomic_load(&used) || !lock_take())
    return;
  for (int i = 0; i < high; ++i) {
    guard *g = &guards[i];
    if (g->state != from || g->owner != owner)
      continue;
    if (to == FREE) {
      drop(g);
    } else {
      g->state = to;
      protect(g);
    }
  }
  lock_give();
}

void cuemu__pinned_guard_cancel(const void *owner) {
  move(owner, PENDING, FREE);
}

void cuemu__pinned_guard_run(const void *owner) {
  cuemu__pinned_guard_window(owner, 0, SIZE_MAX);
}

int cuemu__pinned_guard_owns(const void *owner) {
  if (!atomic_load(&used) || !lock_take())
    return 0;
  int owns = 0;
  for (int i = 0; i < high && !owns; ++i)
    owns = guards[i].state != FREE && guards[i].owner == owner;
  lock_give();
  return owns;
}

void cuemu__pinned_guard_window(const void *owner, size_t offset,
                                size_t bytes) {
  if (!atomic_load(&used) || !lock_take())
    return;
  for (int i = 0; i < high; ++i) {
    guard *g = &guards[i];
    if ((g->state != PENDING && g->state != RUNNING) || g->owner != owner)
      continue;
    size_t size = g->end - g->start;
    uintptr_t lo = g->start + (offset < size ? offset : size);
    uintptr_t hi = lo + (bytes < g->end - lo ? bytes : g->end - lo);
    /* The pages of the bytes it touched before and of those it touches
     * now change. */
    uintptr_t from = lo, to = hi;
    if (g->state == RUNNING) {
      from = g->hole_lo < from ? g->hole_lo : from;
      to = g->hole_hi > to ? g->hole_hi : to;
    }
    g->state = RUNNING;
    g->hole_lo = lo;
    g->hole_hi = hi;
    protect_span(g, from, to);
  }
  lock_give();
}

void cuemu__pinned_guard_ran(const void *owner) { move(owner, RUNNING, DONE); }

void cuemu__pinned_guard_sync(void) {
  if (!atomic_load(&used) || !lock_take())
    return;
  for (int i = 0; i < high; ++i)
    if (guards[i].state == DONE)
      drop(&guards[i]);
  lock_give();
}

void cuemu__pinned_guard_forget(const void *base, size_t size) {
  if (!atomic_load(&used) || !lock_take())
    return;
  uintptr_t from = (uintptr_t)base,
            to = size > UINTPTR_MAX - from ? UINTPTR_MAX : from + size;
  for (int i = 0; i < high; ++i) {
    guard *g = &guards[i];
    if (g->state != FREE && g->start < to && g->cover > from)
      drop(g);
  }
  lock_give();
}

/* A child of fork() has none of the execution threads that would run the
 * copies: its memory is its own. */
static void forget_after_fork(void) {
  atomic_store(&holder, 0);
  cuemu__pinned_guard_forget(NULL, SIZE_MAX);
}

__attribute__((constructor)) static void register_atfork(void) {
  pthread_atfork(NULL, NULL, forget_after_fork);
}

/* Reports the host's access at `pc` (write: 1, read: 0, -1 unknown) to
 * `address`, which guard g (a copy) forbids. In the fault's handler, on
 * the thread that made the access. */
static void report(const guard *g, uintptr_t address, int write,
                   const void *pc) {
  /* The access's callers: the return addresses past the interrupted
   * frame, which the unwinder finds through the signal's frame. */
  void *frames[CUEMU_CHECK_ALLOC_CALLERS + 16];
  const void *callers[CUEMU_CHECK_ALLOC_CALLERS];
  memset(callers, 0, sizeof callers);
  int n = backtrace(frames, (int)(sizeof frames / sizeof *frames)), at = 0;
  while (at < n && frames[at] != pc)
    ++at;
  for (int i = at + 1, k = 0; i < n && k < CUEMU_CHECK_ALLOC_CALLERS; ++i)
    callers[k++] = frames[i];
  char access_at[512] = "an unknown place", copy_at[512] = "an unknown place";
  char function[512], where[1100], text[2048];
  cuemu__check_alloc_line(pc, at < n ? callers : NULL, access_at,
                          sizeof access_at);
  cuemu__check_alloc_line(g->site, g->callers, copy_at, sizeof copy_at);
  const char *call = cuemu__check_api_name(g->site, function, sizeof function);
  if (!call[0])
    call = g->memset ? "asynchronous memset" : "asynchronous copy";
  const char *how = write > 0 ? "write" : write == 0 ? "read" : "access";
  const char *state =
      g->state == PENDING   ? "queued, it has not run yet"
      : g->state == RUNNING ? "it is running"
                            : "it has run, but nothing told the host so";
  const char *effect =
      g->writes ? (write > 0 ? "the copy may overwrite what the host writes"
                             : "the host may read stale or half-written data")
                : "the device may get the old values, the new ones or a mix";
  snprintf(where, sizeof where, "%s %s", access_at, copy_at);
  snprintf(text, sizeof text,
           "racecheck: host %s of pinned memory at %p (%s of %zu bytes at "
           "%p, byte %zu) at %s, before the host synchronised with the %s "
           "at %s that %s it (%s): on a GPU %s (synchronise first: "
           "cudaStreamSynchronize, cudaEventSynchronize, "
           "cudaDeviceSynchronize, a query that returns cudaSuccess, or a "
           "host function of the stream)",
           how, (void *)address,
           g->registered ? "registered host memory" : "a pinned allocation",
           g->size, (void *)g->base, (size_t)(address - g->base), access_at,
           call, copy_at, g->writes ? "writes" : "reads", state, effect);
  cuemu__check_report_host(where, text);
}

/* The fault handler's look at an access that the page's protection
 * forbids (cuemu_fault.c): non-zero when the page is one of ours, handled
 * (reported, and its guards gone), so that the access runs again. */
static int on_access(void *address, void *uc) {
  if (!page)
    return 0;
  uintptr_t a = (uintptr_t)address, p = a / page * page;
  if (!lock_take())
    return 0;
  int ours = 0;
  for (int i = 0; i < high && !ours; ++i)
    ours = guards[i].state != FREE && guards[i].start < p + page &&
           guards[i].cover > p;
  if (!ours) {
    /* Its guard may have gone, and its page been given access back, after
     * the fault and before this look: the access runs again, once for
     * each change (a fault that is not ours comes back with no change
     * between, and goes to the handler before ours). */
    unsigned long now = atomic_load(&changes);
    int again = retried_at != a || retried_after != now;
    retried_at = a;
    retried_after = now;
    lock_give();
    return again;
  }
  int write = cuemu__ctx_fault_write(uc), prot = protection_of(p);
  /* Another thread has changed the page's guards since (or an mprotect
   * failed, out of mappings): the page gets the access its guards allow,
   * and the access runs again (else it would fault for ever). */
  if ((prot & PROT_WRITE) || ((prot & PROT_READ) && write == 0)) {
    int fixed = mprotect((void *)p, page, prot) == 0;
    lock_give();
    return fixed;
  }
  guard *hit = NULL;
  if (!cuemu__stream_internal_thread())
    for (int i = 0; i < high && !hit; ++i) {
      guard *g = &guards[i];
      if (guards_byte(g, a) && a < g->end && (g->writes || write))
        hit = g;
    }
  guard seen;
  if (hit) {
    seen = *hit;
    drop(hit);
  } else {
    /* cuemu's own thread, or bytes past an allocation's end: the page's
     * guards go, unreported. */
    for (int i = 0; i < high; ++i) {
      guard *g = &guards[i];
      if (g->state != FREE && g->start < p + page && g->cover > p)
        drop(g);
    }
  }
  lock_give();
  if (hit)
    report(&seen, a, write, cuemu__ctx_fault_pc(uc));
  return 1;
}
