/*
 * cuemu_device_heap.c: the device heap (see cuemu_device_heap.h and
 * cuemu_device_runtime.h).
 *
 * One arena of cudaLimitMallocHeapSize bytes (8 MiB by default), mapped at
 * the first allocation and kept until cudaDeviceReset, so that memory
 * allocated by one launch is usable by later ones until it is freed. The
 * arena is cut into 16-byte granules (malloc's alignment on the GPU); the
 * bookkeeping is kept outside the arena, so that a kernel writing past an
 * allocation cannot corrupt it: per granule, the allocation holding it
 * (its first granule + 1, with a bit set once freed; 0 for none), and per
 * first granule, the size asked for and the caller's address. Each
 * allocation is followed by one unowned granule, so that memcheck sees a
 * write just past its end as out of bounds. New allocations take fresh
 * granules while there are any, which keeps freed memory recognisable for
 * as long as possible; then the first run of free granules that fits.
 * One lock guards the heap: kernels allocate from every worker at once.
 */
#define _GNU_SOURCE
#include "core/cuemu_device_heap.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cuemu/cuemu_device_runtime.h>

#include "base/cuemu_config.h"
#include "check/cuemu_check.h"
#include "core/cuemu_worker.h"
#include "device/cuemu_limits.h"

#define GRANULE 16u
#define FREED 0x80000000u
#define OWNER 0x7fffffffu

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char *arena;
static size_t granules, bump;
static uint32_t *owner;       /* per granule */
static uint32_t *bytes;       /* per first granule: the size asked for */
static const void **sites;    /* per first granule: the caller */
static atomic_int used;
/* The checkers' shadow of the arena (cuemu__device_heap_shadow), made at
 * their first access to the heap: per byte, whether it was written
 * (initcheck), and a racecheck cell of `cell_size` bytes. */
static unsigned char *written;
static unsigned char *cells;
static size_t cell_size;

static void *map(size_t size) {
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

static void unmap_all(void) {
  if (arena)
    munmap(arena, granules * GRANULE);
  if (owner)
    munmap(owner, granules * sizeof *owner);
  if (bytes)
    munmap(bytes, granules * sizeof *bytes);
  if (sites)
    munmap(sites, granules * sizeof *sites);
  if (written)
    munmap(written, granules * GRANULE);
  if (cells)
    munmap(cells, granules * GRANULE * cell_size);
  __atomic_store_n(&written, NULL, __ATOMIC_RELEASE);
  __atomic_store_n(&cells, NULL, __ATOMIC_RELEASE);
  arena = NULL;
  owner = NULL;
  bytes = NULL;
  sites = NULL;
  granules = bump = 0;
}

static void report_leaks_locked(void) {
  if (!arena || !cuemu__config_check_leaks())
    return;
  for (size_t g = 0; g < bump; ++g) {
    if (owner[g] != g + 1)
      continue;
    char where[512] = "an unknown place";
    if (sites[g])
      cuemu__check_line(sites[g], where, sizeof where);
    fprintf(stderr,
            "cuemu: memcheck: leak: %u bytes of the device heap at %p, "
            "allocated in kernel code at %s, were never freed\n",
            bytes[g], (void *)(arena + g * GRANULE), where);
    cuemu__check_report_counted();
  }
}

static void report_leaks_at_exit(void) {
  pthread_mutex_lock(&lock);
  report_leaks_locked();
  pthread_mutex_unlock(&lock);
}

/* Maps the arena at the first allocation. Locked. */
static int ready_locked(void) {
  if (arena)
    return 1;
  size_t size = 0;
  cuemu__limit_get(CUEMU_LIMIT_MALLOC_HEAP_SIZE, &size);
  size_t n = size / GRANULE;
  if (n == 0 || n > OWNER)
    return 0;
  granules = n;
  arena = map(n * GRANULE);
  owner = map(n * sizeof *owner);
  bytes = map(n * sizeof *bytes);
  sites = map(n * sizeof *sites);
  if (!arena || !owner || !bytes || !sites) {
    unmap_all();
    return 0;
  }
  if (!atomic_exchange(&used, 1)) {
    static atomic_int armed;
    if (!atomic_exchange(&armed, 1))
      atexit(report_leaks_at_exit);
  }
  return 1;
}

static int available(size_t g) { return owner[g] == 0 || (owner[g] & FREED); }

/* The first granule of a free run of `need` granules (and one after it,
 * unowned) aligned to `align` granules, or (size_t)-1. Locked. */
static size_t find_locked(size_t need, size_t align) {
  size_t start = (bump + align - 1) / align * align;
  if (start + need + 1 <= granules)
    return start;
  size_t run = 0;
  for (size_t g = 0; g < granules; ++g) {
    if (!available(g)) {
      run = 0;
      continue;
    }
    /* A run starts after a free granule, which keeps the allocation
     * before it apart by one granule. */
    if (run == 0 && (g % align || (g > 0 && !available(g - 1))))
      continue;
    if (++run == need + 1 || (run == need && g + 1 == granules))
      return g + 1 - run;
  }
  return (size_t)-1;
}

static void *heap_alloc(size_t size, size_t align, const void *site) {
  if (size > UINT32_MAX || align == 0 || (align & (align - 1)))
    return NULL;
  size_t need = size ? (size + GRANULE - 1) / GRANULE : 1;
  size_t ag = align <= GRANULE ? 1 : align / GRANULE;
  void *p = NULL;
  pthread_mutex_lock(&lock);
  if (ready_locked()) {
    size_t g = find_locked(need, ag);
    if (g != (size_t)-1) {
      for (size_t i = g; i < g + need; ++i)
        owner[i] = (uint32_t)(g + 1);
      if (g + need < granules)
        owner[g + need] = 0;
      bytes[g] = (uint32_t)size;
      sites[g] = site;
      if (g + need + 1 > bump)
        bump = g + need + 1 < granules ? g + need + 1 : granules;
      p = arena + g * GRANULE;
      /* Fresh memory to the checkers: unwritten, accessed by no one. */
      size_t off = g * GRANULE, n = need * GRANULE;
      if (written)
        memset(written + off, 0, n);
      if (cells)
        memset(cells + off * cell_size, 0, n * cell_size);
    }
  }
  pthread_mutex_unlock(&lock);
  return p;
}

enum { FREE_DONE, FREE_NOT_HEAP, FREE_DOUBLE, FREE_INVALID };

static int heap_free(void *p, size_t *size, const void **site) {
  uintptr_t a = (uintptr_t)p;
  int result = FREE_DONE;
  pthread_mutex_lock(&lock);
  if (!arena || a < (uintptr_t)arena ||
      a >= (uintptr_t)arena + granules * GRANULE) {
    pthread_mutex_unlock(&lock);
    return FREE_NOT_HEAP;
  }
  size_t off = a - (uintptr_t)arena, g = off / GRANULE;
  if (off % GRANULE || (owner[g] & OWNER) != g + 1) {
    result = FREE_INVALID;
  } else if (owner[g] & FREED) {
    result = FREE_DOUBLE;
    *size = bytes[g];
    *site = sites[g];
  } else {
    for (size_t i = g; i < granules && owner[i] == g + 1; ++i)
      owner[i] |= FREED;
  }
  pthread_mutex_unlock(&lock);
  return result;
}

int cuemu__device_heap_classify(uintptr_t a, size_t n, void **base,
                                size_t *size, const void **site) {
  unsigned char *ar = __atomic_load_n(&arena, __ATOMIC_ACQUIRE);
  if (!ar || a < (uintptr_t)ar || a >= (uintptr_t)ar + granules * GRANULE)
    return CUEMU_HEAP_OUTSIDE;
  size_t g = (a - (uintptr_t)ar) / GRANULE;
  uint32_t e = __atomic_load_n(&owner[g], __ATOMIC_RELAXED);
  *base = NULL;
  *size = 0;
  *site = NULL;
  if (e == 0) {
    /* The nearest allocation before the access. */
    for (size_t k = g, steps = 0; k-- > 0 && steps < 64; ++steps) {
      uint32_t o = __atomic_load_n(&owner[k], __ATOMIC_RELAXED);
      if (o) {
        size_t s = (o & OWNER) - 1;
        *base = ar + s * GRANULE;
        *size = bytes[s];
        *site = sites[s];
        break;
      }
    }
    return CUEMU_HEAP_OUT_OF_BOUNDS;
  }
  size_t s = (e & OWNER) - 1;
  *base = ar + s * GRANULE;
  *size = bytes[s];
  *site = sites[s];
  if (e & FREED)
    return CUEMU_HEAP_FREED;
  return a + n > (uintptr_t)*base + *size ? CUEMU_HEAP_OUT_OF_BOUNDS
                                          : CUEMU_HEAP_INSIDE;
}

void cuemu__device_heap_range(uintptr_t *lo, uintptr_t *hi) {
  unsigned char *ar = __atomic_load_n(&arena, __ATOMIC_ACQUIRE);
  *lo = (uintptr_t)ar;
  *hi = ar ? (uintptr_t)ar + granules * GRANULE : 0;
}

int cuemu__device_heap_shadow(uintptr_t a, size_t cell_bytes,
                              unsigned char **written_at, void **cells_at) {
  unsigned char *w = __atomic_load_n(&written, __ATOMIC_ACQUIRE);
  unsigned char *c = __atomic_load_n(&cells, __ATOMIC_ACQUIRE);
  if (!w || (cell_bytes && !c)) {
    pthread_mutex_lock(&lock);
    if (arena && !written)
      __atomic_store_n(&written, map(granules * GRANULE), __ATOMIC_RELEASE);
    if (arena && cell_bytes && !cells) {
      cell_size = cell_bytes;
      __atomic_store_n(&cells, map(granules * GRANULE * cell_bytes),
                       __ATOMIC_RELEASE);
    }
    w = written;
    c = cells;
    pthread_mutex_unlock(&lock);
  }
  unsigned char *ar = __atomic_load_n(&arena, __ATOMIC_ACQUIRE);
  if (!ar || !w || (cell_bytes && (!c || cell_bytes != cell_size)))
    return 0;
  size_t off = a - (uintptr_t)ar;
  *written_at = w + off;
  *cells_at = cell_bytes ? c + off * cell_bytes : NULL;
  return 1;
}

int cuemu__device_heap_used(void) { return atomic_load(&used); }

void cuemu__device_heap_reset(void) {
  pthread_mutex_lock(&lock);
  report_leaks_locked();
  unmap_all();
  atomic_store(&used, 0);
  pthread_mutex_unlock(&lock);
}

/* ---- Copies for schedule perturbation -------------------------------------- */

struct cuemu_heap_copy {
  size_t bump;
  unsigned char *data;
  uint32_t *owner, *bytes;
  const void **sites;
};

void cuemu__device_heap_copy_free(struct cuemu_heap_copy *c) {
  if (!c)
    return;
  free(c->data);
  free(c->owner);
  free(c->bytes);
  free(c->sites);
  free(c);
}

struct cuemu_heap_copy *cuemu__device_heap_save(void) {
  struct cuemu_heap_copy *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  pthread_mutex_lock(&lock);
  size_t n = arena ? bump : 0;
  c->bump = n;
  if (n) {
    c->data = malloc(n * GRANULE);
    c->owner = malloc(n * sizeof *owner);
    c->bytes = malloc(n * sizeof *bytes);
    c->sites = malloc(n * sizeof *sites);
    if (c->data && c->owner && c->bytes && c->sites) {
      memcpy(c->data, arena, n * GRANULE);
      memcpy(c->owner, owner, n * sizeof *owner);
      memcpy(c->bytes, bytes, n * sizeof *bytes);
      memcpy(c->sites, sites, n * sizeof *sites);
    } else {
      pthread_mutex_unlock(&lock);
      cuemu__device_heap_copy_free(c);
      return NULL;
    }
  }
  pthread_mutex_unlock(&lock);
  return c;
}

int cuemu__device_heap_copy_same_blocks(const struct cuemu_heap_copy *a,
                                        const struct cuemu_heap_copy *b) {
  if (a->bump != b->bump)
    return 0;
  return !a->bump || (memcmp(a->owner, b->owner, a->bump * sizeof *owner) == 0 &&
                      memcmp(a->bytes, b->bytes, a->bump * sizeof *bytes) == 0);
}

void cuemu__device_heap_restore(const struct cuemu_heap_copy *c) {
  if (!c)
    return;
  pthread_mutex_lock(&lock);
  if (arena) {
    if (bump > c->bump)
      memset(owner + c->bump, 0, (bump - c->bump) * sizeof *owner);
    if (c->bump) {
      memcpy(arena, c->data, c->bump * GRANULE);
      memcpy(owner, c->owner, c->bump * sizeof *owner);
      memcpy(bytes, c->bytes, c->bump * sizeof *bytes);
      memcpy(sites, c->sites, c->bump * sizeof *sites);
    }
    bump = c->bump;
  }
  pthread_mutex_unlock(&lock);
}

/* ---- Kernel code ---------------------------------------------------------- */

/* Ends the block for a free() that the heap cannot take. */
static void bad_free(void *p, int why, size_t size, const void *site,
                     const void *pc) {
  cuemu_worker *w = cuemu__worker_self;
  char line[512], made[512] = "an unknown place";
  cuemu__check_line(pc, line, sizeof line);
  if (site)
    cuemu__check_line(site, made, sizeof made);
  cuemu_uint3 t = cuemu__worker_thread_idx(w);
  if (why == FREE_DOUBLE)
    cuemu__block_fail(w, CUEMU_KERNEL_FAULT,
                      "kernel %s: double free of %p (%zu bytes of the device "
                      "heap, allocated at %s) by thread (%u,%u,%u) of block "
                      "(%u,%u,%u) at %s",
                      w->launch->kernel->name, p, size, made, t.x, t.y, t.z,
                      w->block_idx.x, w->block_idx.y, w->block_idx.z, line);
  cuemu__block_fail(w, CUEMU_KERNEL_FAULT,
                    "kernel %s: free of %p, which malloc or new in kernel "
                    "code did not return, by thread (%u,%u,%u) of block "
                    "(%u,%u,%u) at %s",
                    w->launch->kernel->name, p, t.x, t.y, t.z, w->block_idx.x,
                    w->block_idx.y, w->block_idx.z, line);
}

static __thread int bypass;

void cuemu_device_heap_bypass(int delta) { bypass += delta; }

static int in_kernel(void) { return !bypass && cuemu_thread_in_kernel(); }

static void *allocate(size_t size, size_t align, const void *site) {
  if (!in_kernel())
    return align <= 16 ? malloc(size ? size : 1)
                       : aligned_alloc(align, (size + align - 1) / align *
                                                  align);
  return heap_alloc(size, align, site);
}

static void release(void *p, const void *pc) {
  if (!p)
    return;
  size_t size = 0;
  const void *site = NULL;
  int r = heap_free(p, &size, &site);
  if (r == FREE_DONE)
    return;
  if (r == FREE_NOT_HEAP && !in_kernel()) {
    free(p);
    return;
  }
  bad_free(p, r, size, site, pc);
}

/* The memory of `new` outside kernel code: the device pass's code runs
 * only in kernels, so this is the rare host use of a device function. */
static void *host_new(void *p, size_t size) {
  if (!p && !in_kernel()) {
    fprintf(stderr, "cuemu: operator new of %zu bytes failed\n", size);
    abort();
  }
  return p;
}

void *cuemu_device_malloc(size_t size) {
  return allocate(size, GRANULE, __builtin_return_address(0));
}

void *cuemu_device_aligned_malloc(size_t size, size_t align) {
  return allocate(size, align < GRANULE ? GRANULE : align,
                  __builtin_return_address(0));
}

void cuemu_device_free(void *p) { release(p, __builtin_return_address(0)); }

/* The forms of operator new: throwing (NULL in kernel code, which has no
 * exceptions) or nothrow, and aligned or not; arrays are the same. */
#define CUEMU_NEW_(name, tail, params, align_arg, checked)                     \
  void *cuemu_device_new##name##tail params {                                  \
    void *p = allocate(size, align_arg, __builtin_return_address(0));         \
    return checked ? host_new(p, size) : p;                                    \
  }
#define CUEMU_NEW_FORMS_(name)                                                 \
  CUEMU_NEW_(name, , (size_t size), GRANULE, 1)                                \
  CUEMU_NEW_(name, _nothrow, (size_t size, const void *tag __attribute__((unused))), GRANULE, 0)       \
  CUEMU_NEW_(name, _aligned, (size_t size, size_t align),                      \
             align < GRANULE ? GRANULE : align, 1)                             \
  CUEMU_NEW_(name, _aligned_nothrow,                                           \
             (size_t size, size_t align, const void *tag __attribute__((unused))),                     \
             align < GRANULE ? GRANULE : align, 0)
CUEMU_NEW_FORMS_()
CUEMU_NEW_FORMS_(_array)

/* The forms of operator delete: the size, alignment and nothrow arguments
 * change nothing (they follow the pointer in registers). */
#define CUEMU_DELETE_(name)                                                    \
  void cuemu_device_delete##name(void *p) {                                    \
    release(p, __builtin_return_address(0));                                   \
  }
CUEMU_DELETE_()
CUEMU_DELETE_(_array)
CUEMU_DELETE_(_sized)
CUEMU_DELETE_(_array_sized)
CUEMU_DELETE_(_nothrow)
CUEMU_DELETE_(_array_nothrow)
CUEMU_DELETE_(_aligned)
CUEMU_DELETE_(_array_aligned)
CUEMU_DELETE_(_sized_aligned)
CUEMU_DELETE_(_array_sized_aligned)
